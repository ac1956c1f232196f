"""jaxcheck reproducer: vmap(f, in_axes=(-1, None, None), out_axes=-2).

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

def f(x0, x1, x2):
    v0 = jnp.tanh(x2)
    v1 = jnp.where(jnp.less(v0, 0.5), 2.0, x2)
    v2 = jnp.broadcast_to(v1, (2, 3, 3))
    return v2

def check(x0, x1, x2):
    return sut.vmap(f, in_axes=(-1, None, None), out_axes=-2)(x0, x1, x2)

# Inputs, as exact float64 literals.
x0 = np.array([0.089, -0.063])
x1 = np.array([[[1.555]]])
x2 = np.array([[0.882]])

print("calling the SUT...", flush=True)
actual = check(x0, x1, x2)
print("returned:")
print(actual)
