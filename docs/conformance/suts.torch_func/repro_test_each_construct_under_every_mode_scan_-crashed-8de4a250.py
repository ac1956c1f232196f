"""jaxcheck reproducer: vmap(f, in_axes=(None, None, -1), out_axes=-2).

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

def step1(b0, b1):
    d0 = jnp.sum(b0, axis=None)
    d1 = d0 ** 1
    return b1, d1

def f(x0, x1, x2):
    def step0(a0, a1):
        c0 = jnp.dot(a0, a1)
        c1, c2 = sut.lax.scan(step1, c0, x0)
        c3 = jnp.expm1(c1)
        return a0, c3
    v0, v1 = sut.lax.scan(step0, x1, x0)
    return v1, v1

def check(x0, x1, x2):
    return sut.vmap(f, in_axes=(None, None, -1), out_axes=-2)(x0, x1, x2)

# Inputs, as exact float64 literals.
x0 = np.array([[0.175, -0.075, -0.748, 0.06], [-0.852, 1.305, 0.724, -0.454], [0.325, -0.154, -0.474, 0.083], [0.261, -2.0, -0.449, -2.0]])
x1 = np.array(1.0)
x2 = np.array([-0.665, -0.758])

print("calling the SUT...", flush=True)
actual = check(x0, x1, x2)
print("returned:")
print(actual)
