"""jaxcheck reproducer: vmap(f, in_axes=(-1, None, None), out_axes=-2).

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

def f(x0, x1, x2):
    v0 = jnp.expand_dims(x2, 1)
    v1 = jnp.transpose(v0, axes=(0, 2, 1))
    v2 = jnp.subtract(v1, v0)
    v3 = -v2
    v4 = jnp.sum(v3, axis=(1, 2))
    v5 = jnp.transpose(v4, axes=None)
    v6 = jnp.cos(v5)
    v7 = jnp.expand_dims(v6, 0)
    v8 = jnp.broadcast_to(v7, (2, 1, 2))
    v9 = jnp.log(v8)
    v10 = jnp.transpose(v9, axes=(2, 1, 0))
    v11 = jnp.exp(v5)
    return v11, v10

def check(x0, x1, x2):
    return sut.vmap(f, in_axes=(-1, None, None), out_axes=-2)(x0, x1, x2)

# Inputs, as exact float64 literals.
x0 = np.array([[-2.0, 0.926], [-0.467, -0.476]])
x1 = np.array([1.024, -0.269])
x2 = np.zeros((2, 0))

print("calling the SUT...", flush=True)
actual = check(x0, x1, x2)
print("returned:")
print(actual)
