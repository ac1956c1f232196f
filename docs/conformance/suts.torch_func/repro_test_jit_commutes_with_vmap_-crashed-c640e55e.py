"""jaxcheck reproducer: vmap(jit(f)) on suts.torch_func.

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

def body0(carry):
    count, a0 = carry
    c0 = count + 1.0
    return c0, a0

def step4(a0, a1):
    c0 = jnp.tanh(a0)
    c1 = jnp.negative(c0)
    return c1, a0

def f(x0, x1, x2):
    v0 = jnp.exp(x1)
    v1 = sut.lax.while_loop(lambda carry: carry[0] < 4.5, body0, (0.0, v0))[1]
    v2 = jnp.log(x0)
    v3 = jnp.subtract(v1, v2)
    v4, v5 = sut.lax.scan(step4, v2, v3)
    v6 = jnp.exp(v4)
    v7 = jnp.expand_dims(v6, -1)
    v8 = -1.5 + v7
    return v8

def transformed(x0, x1, x2):
    return sut.vmap(f, in_axes=(None, 3, -2), out_axes=-2)(x0, x1, x2)

def transformed_of_jit(x0, x1, x2):
    return sut.vmap(sut.jit(f), in_axes=(None, 3, -2), out_axes=-2)(x0, x1, x2)

# Inputs, as exact float64 literals.
x0 = np.array(0.761)
x1 = np.zeros((5, 0, 0, 3))
x2 = np.zeros((0, 3, 0))

print("calling the SUT...", flush=True)
actual = transformed_of_jit(x0, x1, x2)
print("returned:")
print(actual)
