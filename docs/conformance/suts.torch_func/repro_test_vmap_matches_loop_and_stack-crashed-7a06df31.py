"""jaxcheck reproducer: vmap(f, in_axes=(None, 0), out_axes=-2).

The SUT crashed or hung on this call, so no oracle judged it.
Running this script makes the same call; it should print the result.

Run it from the directory pytest ran in: python <this file>
"""
import os
import sys

sys.path.insert(0, os.getcwd())
import importlib

sut = importlib.import_module('suts.torch_func')

import numpy as np

jnp = sut.numpy

def inner0(a0):
    c0 = jnp.sum(a0, axis=None)
    return c0

def body1(i, a0):
    return a0

def f(x0, x1):
    v0 = jnp.sin(x0)
    v1 = sut.grad(inner0)(x1)
    v2 = sut.lax.fori_loop(0, 5, body1, v1)
    return v2, v0

def check(x0, x1):
    return sut.vmap(f, in_axes=(None, 0), out_axes=-2)(x0, x1)

# Inputs, as exact float64 literals.
x0 = np.array([[[1.792, 1.204], [0.399, 0.023]]])
x1 = np.array([[-1.6, -0.485], [0.276, -0.361]])

print("calling the SUT...", flush=True)
actual = check(x0, x1)
print("returned:")
print(actual)
