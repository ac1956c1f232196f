"""jaxcheck reproducer: grad(sum of f).

A correct SUT returns here: the sum of f's output is a scalar.

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
    v0 = jnp.diagonal(x0, offset=0)
    return v0

def total(x0):
    return jnp.sum(f(x0))

def control(x0):
    return sut.grad(total, argnums=0)(x0)

def check(x0):
    return sut.grad(f, argnums=0)(x0)

# Inputs, as exact literals.
x0 = np.array([[0.0, 0.0], [0.0, 0.0]])

actual = control(x0)
print("returned, as a correct SUT must:")
print(actual)
