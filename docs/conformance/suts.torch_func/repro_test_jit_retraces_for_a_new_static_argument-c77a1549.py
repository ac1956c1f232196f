"""jaxcheck reproducer: eager.

A correct SUT returns here: f eagerly with each k.

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
    v0 = jnp.add(x0, x0)
    v1 = x0 + v0
    return v1

def scaled(x0, x1, k):
    y0 = f(x0, x1)
    return y0 * k

def eager(x0, x1):
    return scaled(x0, x1, 2.0), scaled(x0, x1, 3.0)

# Inputs, as exact literals.
x0 = np.array(0.0)
x1 = np.array(0.0)

actual = eager(x0, x1)
print("returned, as a correct SUT must:")
print(actual)
