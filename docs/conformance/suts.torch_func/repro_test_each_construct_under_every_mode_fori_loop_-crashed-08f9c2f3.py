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

def body0(i, a0):
    return a0

def f(x0, x1):
    v0 = sut.lax.fori_loop(0, 0, body0, x1)
    return v0

def check(x0, x1):
    return sut.vmap(f, in_axes=(0, None), out_axes=-2)(x0, x1)

# Inputs, as exact float64 literals.
x0 = np.array([0.0, 0.001])
x1 = np.array([0.0])

print("calling the SUT...", flush=True)
actual = check(x0, x1)
print("returned:")
print(actual)
