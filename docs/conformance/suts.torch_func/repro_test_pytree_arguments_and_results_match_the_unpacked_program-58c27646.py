"""jaxcheck reproducer: jvp of f.

A correct SUT returns here: f is the same program, unpacked.

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
    v0 = 2.0 % x1
    v1 = jnp.add(x1, v0)
    return v1

def check(x0, x1, t0, t1):
    return sut.jvp(f, (x0, x1), (t0, t1))

# Inputs, as exact literals.
x0 = np.array(0.0)
x1 = np.array(0.252)
t0 = np.array(1.0)
t1 = np.array(1.0)

actual = check(x0, x1, t0, t1)
print("returned, as a correct SUT must:")
print(actual)
