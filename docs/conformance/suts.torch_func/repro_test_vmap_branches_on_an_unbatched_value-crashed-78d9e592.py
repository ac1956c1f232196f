"""jaxcheck reproducer: vmap(f, in_axes=(-2, None), out_axes=-2).

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

def f(x0, x1):
    v0 = jnp.sin(x0)
    v1 = jnp.transpose(x1, axes=None)
    v2 = jnp.sum(v1, axis=0)
    v3 = jnp.broadcast_to(v0, (3, 2))
    v4 = jnp.divide(v2, v2)
    v5 = jnp.add(v3, 2.0)
    v6 = jnp.maximum(2.0, v2)
    v7 = jnp.sin(v4)
    v9 = jnp.where(jnp.less(v6, v1), v4, x1)
    v10 = -1.5 * v9
    v11 = jnp.where(jnp.less(v10, v7), -1.5, v7)
    v12 = jnp.concatenate([v5, v3], axis=1)
    if jnp.sum(v9) > -0.226:
        y = v12
    else:
        y = 1.0 - v12
    return y, v11

def check(x0, x1):
    return sut.vmap(f, in_axes=(-2, None), out_axes=-2)(x0, x1)

# Inputs, as exact float64 literals.
x0 = np.array([[0.003, 0.004], [0.444, 0.306]])
x1 = np.array([-0.374, 1.283, 0.286, -1.021, 0.1])

print("calling the SUT...", flush=True)
actual = check(x0, x1)
print("returned:")
print(actual)
