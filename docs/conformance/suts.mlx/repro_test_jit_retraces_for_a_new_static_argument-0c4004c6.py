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

def inner1(b0):
    return b0

def step5(a0, a1):
    c0 = jnp.add(a0, a1)
    return c0, c0

def inner8(a0):
    return a0

def f(x0):
    v0 = jnp.add(x0, x0)
    def inner0(a0):
        c0 = inner1(x0)
        c1 = jnp.add(c0, x0)
        return c1
    v1 = inner0(x0)
    def inner2(a0):
        c0 = jnp.sinh(v1)
        c1 = jnp.add(c0, x0)
        return c1
    v2 = sut.jit(inner2)(v1)
    v3 = jnp.where(jnp.greater(v2, v1), v0, x0)
    v4 = jnp.log1p(x0)
    v5, v6 = sut.lax.scan(step5, v3, v4)
    v7 = inner8(v6)
    return v7

def scaled(x0, k):
    y0 = f(x0)
    return y0 * k

def eager(x0):
    return scaled(x0, 2.0), scaled(x0, 3.0)

# Inputs, as exact float64 literals.
x0 = np.array([-0.587, 1.137, -0.272, 0.14])

actual = eager(x0)
print("returned, as a correct SUT must:")
print(actual)
