"""jaxcheck reproducer: vmap(f, in_axes=(1, None, 0), out_axes=-2).

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

def body0(carry):
    count, a0 = carry
    c0 = jnp.swapaxes(a0, 0, -1)
    c1 = jnp.cos(c0)
    c2 = count + 1.0
    return c2, c1

def f(x0, x1, x2):
    v0 = sut.lax.while_loop(lambda carry: carry[0] < 0.5, body0, (0.0, x1))[1]
    return v0, v0

def check(x0, x1, x2):
    return sut.vmap(f, in_axes=(1, None, 0), out_axes=-2)(x0, x1, x2)

# Inputs, as exact literals.
x0 = np.array([[[0.198], [1.018], [-1.285]]])
x1 = np.array([[0.287]])
x2 = np.array([[[[-0.195]]], [[[-0.732]]], [[[-0.202]]]])

print("calling the SUT...", flush=True)
actual = check(x0, x1, x2)
print("returned:")
print(actual)
