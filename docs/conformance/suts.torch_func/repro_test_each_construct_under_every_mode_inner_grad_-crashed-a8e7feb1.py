"""jaxcheck reproducer: vmap(f, in_axes=(None, 2, 0), out_axes=-2).

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

def f(x0, x1, x2):
    v0 = sut.grad(inner0)(x0)
    return v0

def check(x0, x1, x2):
    return sut.vmap(f, in_axes=(None, 2, 0), out_axes=-2)(x0, x1, x2)

# Inputs, as exact float64 literals.
x0 = np.array([0.361, -0.155, -0.167, -0.748])
x1 = np.array([[[[0.008, 0.606, 0.017, -1.069], [0.807, -0.686, -0.943, 0.982]], [[-0.875, 1.948, -0.171, -0.568], [0.347, -1.233, -0.153, -0.103]], [[0.535, 0.092, 0.556, -0.08], [0.471, -0.417, -0.133, 0.268]], [[1.0, 0.557, 2.0, -1.13], [0.042, -0.567, 1.999, -1.245]]], [[[0.261, -0.498, -0.132, -0.779], [0.099, -0.258, -0.026, -0.159]], [[-0.137, 0.461, 0.317, 0.007], [0.851, 0.336, 0.1, 0.909]], [[-2.0, 0.198, -0.267, 1.377], [-0.546, -1.538, 0.415, -0.229]], [[0.361, -0.449, 0.445, -0.422], [-0.432, 1.037, 1.262, -0.48]]], [[[1.046, -0.163, -0.87, 0.164], [0.033, 1.701, -0.738, -0.286]], [[0.246, -0.256, -0.55, -0.463], [-0.273, 1.138, 0.087, -1.43]], [[0.223, 0.735, 0.24, 1.999], [-0.824, -0.894, 1.489, -0.574]], [[0.201, -0.385, 0.532, -0.166], [-1.383, 0.252, -0.135, -1.999]]], [[[-0.524, 0.84, 0.0, 1.175], [0.573, -2.0, 0.918, 0.228]], [[-0.135, 0.947, 0.812, 2.0], [0.264, 0.11, 0.008, 0.465]], [[-1.236, 0.5, 1.847, -0.98], [-0.031, 1.321, 0.3, -1.745]], [[-0.159, -0.85, 0.206, -0.017], [0.097, 0.64, -0.184, -1.718]]]])
x2 = np.array([0.231, -0.442])

print("calling the SUT...", flush=True)
actual = check(x0, x1, x2)
print("returned:")
print(actual)
