"""jaxcheck reproducer: vmap(f, in_axes=(0, None), out_axes=-2).

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

def true0(a0):
    c0 = jnp.linalg.solve(a0, a0)
    return c0

def false1(a0):
    return a0

def f(x0, x1):
    v0 = sut.lax.cond(jnp.sum(x1) < 1.0, true0, false1, x1)
    return v0, v0

def check(x0, x1):
    return sut.vmap(f, in_axes=(0, None), out_axes=-2)(x0, x1)

# Inputs, as exact literals.
x0 = np.array([[[[0.68]]], [[[-0.269]]]])
x1 = np.array([[0.554]])

print("calling the SUT...", flush=True)
actual = check(x0, x1)
print("returned:")
print(actual)
