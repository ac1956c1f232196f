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

def f(x0, x1):
    v0 = jnp.average(x1, axis=0, weights=x1)
    return v0

def check(x0, x1):
    return sut.vmap(f, in_axes=(0, None), out_axes=-2)(x0, x1)

# Inputs, as exact literals.
x0 = np.array([[[-0.5625, -0.5625, 1.8125], [0.5625, -1.0625, -1.0625], [1.5625, -1.3125, -0.5625]], [[-0.3125, 1.3125, -0.3125], [-0.3125, -1.5625, -0.3125], [1.5625, -1.8125, 0.3125]], [[-1.5625, 0.5625, 0.5625], [-1.3125, -0.5625, -0.5625], [1.5625, 1.5625, -0.5625]]])
x1 = np.array([[1.1875, 1.4375, 0.9375], [1.6875, -0.6875, -1.6875], [0.6875, -1.4375, -0.6875]])

print("calling the SUT...", flush=True)
actual = check(x0, x1)
print("returned:")
print(actual)
