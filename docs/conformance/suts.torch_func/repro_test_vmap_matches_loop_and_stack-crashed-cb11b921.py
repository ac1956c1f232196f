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

def f(x0, x1):
    v0 = jnp.arctan(x0)
    return v0, v0

def check(x0, x1):
    return sut.vmap(f, in_axes=(None, -1), out_axes=-2)(x0, x1)

# Inputs, as exact float64 literals.
x0 = np.array([[0.5, -1.313, 0.58, -1.405, -0.905], [-0.251, -0.252, -1.28, 0.678, -0.263], [-0.21, 0.504, -0.073, 0.463, 0.043], [1.265, 0.5, -0.164, -0.294, -1.139]])
x1 = np.array([[1.274, -1.104, -0.876], [0.298, -0.194, -0.795], [0.424, -0.661, -0.54], [-0.162, 0.156, -0.958], [-1.354, -0.023, 1.968]])

print("calling the SUT...", flush=True)
actual = check(x0, x1)
print("returned:")
print(actual)
