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

def f(x0, x1, x2):
    v0 = jnp.where(jnp.less(x0, 2.0), x0, x2)
    return v0

def total(x0, x1, x2):
    return jnp.sum(f(x0, x1, x2))

def control(x0, x1, x2):
    return sut.grad(total, argnums=0)(x0, x1, x2)

def check(x0, x1, x2):
    return sut.grad(f, argnums=0)(x0, x1, x2)

# Inputs, as exact float64 literals.
x0 = np.array([0.0, 0.0, 0.0, 0.0])
x1 = np.array([[[0.0, 0.0]]])
x2 = np.array([[[0.0], [0.0]], [[0.0], [0.0]], [[0.0], [0.0]], [[0.0], [1.404]]])

actual = control(x0, x1, x2)
print("returned, as a correct SUT must:")
print(actual)
