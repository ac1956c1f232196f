"""jaxcheck reproducer: vmap(f, in_axes=(1, None), out_axes=-2).

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
    v0 = jnp.linalg.solve(x1, x1)
    return v0

def check(x0, x1):
    return sut.vmap(f, in_axes=(1, None), out_axes=-2)(x0, x1)

# Inputs, as exact literals.
x0 = np.array([[[2.2015625, 0.20781249999999998], [2.2015625, 0.20781249999999998]], [[0.2140625, 2.2125], [0.2140625, 2.2125]]])
x1 = np.array([[2.4171875, 0.4234375], [0.4046875, 2.4125]])

print("calling the SUT...", flush=True)
actual = check(x0, x1)
print("returned:")
print(actual)
