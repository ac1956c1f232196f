"""jaxcheck reproducer: vmap(f, in_axes=(None, None, -1), out_axes=-2).

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
    v1 = jnp.tan(x0)
    if jnp.sum(x0) > -1.417:
        v3 = jnp.divide(v1, 2.0)
        v4 = jnp.tanh(v3)
        y = v4
    else:
        y = 1.0 - v1
    return y

def check(x0, x1, x2):
    return sut.vmap(f, in_axes=(None, None, -1), out_axes=-2)(x0, x1, x2)

# Inputs, as exact float64 literals.
x0 = np.array([0.122, -0.289])
x1 = np.array([[[-0.341, 1.876], [0.386, -0.538]], [[0.033, -0.019], [0.614, -0.405]]])
x2 = np.array([-0.265, -0.009])

print("calling the SUT...", flush=True)
actual = check(x0, x1, x2)
print("returned:")
print(actual)
