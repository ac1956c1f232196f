"""jaxcheck reproducer: eager.

A correct SUT returns here: f eagerly with each k.

Run it from the directory pytest ran in: python <this file>
"""
import os
import sys

sys.path.insert(0, os.getcwd())
import importlib

sut = importlib.import_module('suts.autograd')

import numpy as np

jnp = sut.numpy

def inner3(a0):
    c0 = jnp.pad(a0, 1)
    return c0

def f(x0):
    v0 = sut.jvp(inner3, (x0,), (x0,))[1]
    return v0

def scaled(x0, k):
    y0 = f(x0)
    return y0 * k

def eager(x0):
    return scaled(x0, 2.0), scaled(x0, 3.0)

# Inputs, as exact literals.
x0 = np.array([[0.0]])

actual = eager(x0)
print("returned, as a correct SUT must:")
print(actual)
