"""jaxcheck reproducer: vmap(f, in_axes=(None, 2), out_axes=-2).

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

def inner1(b0):
    return b0

def custom0(a0):
    c0 = a0 ** 1
    c1 = jnp.stack([c0, c0], axis=-1)
    c2 = sut.vmap(inner1)(c1)
    return c2

@sut.custom_jvp
def custom0_ruled(a0):
    return custom0(sut.lax.stop_gradient(a0))

@custom0_ruled.defjvp
def custom0_rule(primals, tangents):
    return sut.jvp(custom0, primals, tangents)

def f(x0, x1):
    v0 = custom0_ruled(x0)
    return v0, v0

def check(x0, x1):
    return sut.vmap(f, in_axes=(None, 2), out_axes=-2)(x0, x1)

# Inputs, as exact literals.
x0 = np.array([[1.335]])
x1 = np.array([[[-1.524, -0.706, 0.512]]])

print("calling the SUT...", flush=True)
actual = check(x0, x1)
print("returned:")
print(actual)
