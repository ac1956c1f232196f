"""jaxcheck reproducer: vjp of f.

A correct SUT returns here: f is the same program, unpacked.

Run it from the directory pytest ran in: python <this file>
"""
import os
import sys

sys.path.insert(0, os.getcwd())
import importlib

sut = importlib.import_module('suts.autograd')

import numpy as np

jnp = sut.numpy

def f(x0):
    v0 = x0 * -1.5
    v1 = v0 * x0
    v2 = jnp.diagonal(v1, offset=1)
    v3 = jnp.multiply(x0, x0)
    v4 = jnp.log1p(v3)
    v5 = jnp.rad2deg(v4)
    v6 = jnp.einsum('ab,c->', v5, v2)
    return v6

def check(x0, u0):
    out, pullback = sut.vjp(f, x0)
    return out, pullback(u0)

# Inputs, as exact literals.
x0 = np.array([[0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 1.245]])
u0 = np.array(1.0)

actual = check(x0, u0)
print("returned, as a correct SUT must:")
print(actual)
