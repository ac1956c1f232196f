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

def f(x0, x1, x2):
    v0 = jnp.broadcast_to(x0, (2,))
    return v0

def check(x0, x1, x2, u0):
    out, pullback = sut.vjp(f, x0, x1, x2)
    return out, pullback(u0)

# Inputs, as exact float64 literals.
x0 = np.array(0.0)
x1 = np.array(0.0)
x2 = np.array(0.0)
u0 = np.array([1.0, 1.0])

actual = check(x0, x1, x2, u0)
print("returned, as a correct SUT must:")
print(actual)
