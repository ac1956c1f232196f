"""jaxcheck reproducer: vmap(f, in_axes=(None, -1), out_axes=-2).

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
    c0 = jnp.cos(a0)
    c1 = jnp.tanh(c0)
    return c1

def f(x0, x1):
    v0 = sut.jit(inner0)(x0)
    return v0

def check(x0, x1):
    return sut.vmap(f, in_axes=(None, -1), out_axes=-2)(x0, x1)

# Inputs, as exact float64 literals.
x0 = np.array([0.0, 0.0, 0.0])
x1 = np.array([[[0.001, 0.256], [0.0, -0.169], [0.001, -0.642]], [[0.0, 0.979], [0.0, -0.176], [0.0, -0.099]], [[0.001, -0.018], [0.0, -0.365], [0.001, 0.379]]])

print("calling the SUT...", flush=True)
actual = check(x0, x1)
print("returned:")
print(actual)
