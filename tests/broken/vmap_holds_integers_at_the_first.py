"""Broken SUT: `vmap` gives every example the first element of a mapped integer argument.

An integer argument (a count, an index, a scale) is mapped like any other
(docs/sut-api.md, "Dtypes"); this vmap, as one that batches floating-point
values only would, holds it fixed at its first element.  Built over
refimpl: `vmap` maps each integer argument's first element, repeated.

Family: batching.  Smallest input: `vmap(lambda n: numpy.multiply(1.0, n))(np.array([2, 3]))`.
"""

import numpy as np

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, numpy, vjp  # noqa: F401
from tests.broken import Witness

FAMILY = "batching"
WITNESS = Witness("vmap(lambda n: numpy.multiply(1.0, n))(np.array([2, 3]))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def vmap(fun, in_axes=0, out_axes=0):
    def mapped(*args):
        axes = in_axes if isinstance(in_axes, (tuple, list)) else (in_axes,) * len(args)
        held = [np.broadcast_to(np.take(a, [0], axis), a.shape)
                if isinstance(a, np.ndarray) and a.dtype.kind == "i" and axis is not None
                else a for a, axis in zip(args, axes)]
        return refimpl.vmap(fun, in_axes, out_axes)(*held)  # correct: (*args)
    return mapped
