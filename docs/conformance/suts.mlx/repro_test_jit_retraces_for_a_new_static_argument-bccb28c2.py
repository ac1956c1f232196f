"""jaxcheck reproducer: eager.

A correct SUT returns here: f eagerly with each k.

Run it from the directory pytest ran in: python <this file>
"""
import os
import sys

sys.path.insert(0, os.getcwd())
import importlib

sut = importlib.import_module('suts.mlx')

import numpy as np

jnp = sut.numpy

def step0(a0, a1):
    c0 = jnp.matmul(a0, a1)
    return c0, c0

def true6(b0):
    return b0

def false7(b0):
    return b0

def f(x0, x1, x2):
    v0, v1 = sut.lax.scan(step0, x2, x1)
    def inner4(a0):
        c0 = jnp.arctan(x2)
        c1 = sut.lax.cond(jnp.sum(c0) < 1.0, true6, false7, v1)
        return c1
    v2 = sut.jit(inner4)(v1)
    v3 = jnp.arcsinh(v2)
    return v3

def scaled(x0, x1, x2, k):
    y0 = f(x0, x1, x2)
    return y0 * k

def eager(x0, x1, x2):
    return scaled(x0, x1, x2, 2.0), scaled(x0, x1, x2, 3.0)

# Inputs, as exact literals.
x0 = np.array(-0.162)
x1 = np.array([[[-0.435, -0.136, -0.228, 0.563, -2.0], [-0.117, -0.212, -0.771, 0.74, -0.154], [0.665, 0.369, 0.069, -0.4, 0.04], [0.812, 1.101, -1.09, -0.058, -0.191], [-0.546, 0.115, -0.121, 1.425, 1.247]], [[0.153, -0.766, -1.131, -0.257, 0.059], [-0.144, -0.311, 0.467, -0.317, -0.717], [0.23, -0.377, -1.134, 1.999, -0.052], [0.222, 0.18, -0.325, 0.948, 0.304], [0.4, 1.535, -1.201, -0.447, -0.59]], [[-0.438, -0.079, 1.134, 1.445, 1.906], [-0.004, 0.216, -0.103, -0.304, -0.098], [-0.364, 0.998, -0.18, -0.325, 0.358], [0.786, -1.154, 0.688, 0.187, -2.0], [-0.549, -1.999, 0.144, -0.778, 0.469]], [[-0.073, 1.703, 0.292, -0.188, 0.838], [-0.083, 0.59, -1.268, 1.359, 0.847], [0.1, 2.0, 1.205, 0.551, -1.999], [-0.272, 0.688, -0.879, 0.128, 1.8], [1.376, 0.832, -0.51, 0.884, -0.539]], [[0.088, 1.327, 0.786, 0.617, 0.142], [0.682, -0.563, 0.285, 0.52, -0.473], [0.21, -0.912, -2.0, -0.281, 1.999], [-1.383, -0.448, 0.064, 1.999, -0.831], [-0.048, -0.486, -1.264, 0.078, -1.201]]])
x2 = np.array([[-0.134, 0.25, -0.24, -0.33, 1.158], [0.177, 2.0, 0.007, 0.053, 0.032], [0.209, -0.243, 0.494, -0.394, 0.43], [-0.575, 1.043, -0.116, -0.172, 2.0], [0.3, 0.286, 1.637, 0.889, 0.201]])

actual = eager(x0, x1, x2)
print("returned, as a correct SUT must:")
print(actual)
