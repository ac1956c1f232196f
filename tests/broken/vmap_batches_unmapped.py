"""Broken SUT: vmap batches the arguments in_axes leaves unmapped (None).

Each unmapped argument is broadcast along a new batch axis and mapped like
the others.  Every value comes out the same, but an unmapped argument is now
a batched value inside the function, so a Python `if` on it (legal: it is
the same for every batch element) raises.  Built over refimpl, as
`vmap_axis_one_as_zero` is, so that shrinking takes seconds.

Family: batching.  Smallest input:
`vmap(lambda x, y: x * y if y > 0 else x, in_axes=(0, None))(np.ones(2), 1.0)`.
"""

import numpy as np

import refimpl
from refimpl import grad, jit, jvp, lax, numpy, vjp  # noqa: F401
from tests.broken import Witness

FAMILY = "batching"
WITNESS = Witness(
    "vmap(lambda x, y: x * y if y > 0 else x, in_axes=(0, None))(np.ones(2), 1.0)",
    shows="error")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def vmap(fun, in_axes=0, out_axes=0):
    def run(*args):
        axes = tuple(in_axes) if isinstance(in_axes, tuple | list) else (in_axes,) * len(args)
        size = next(np.shape(x)[axis] for x, axis in zip(args, axes) if axis is not None)
        batched = [x if axis is not None else np.broadcast_to(x, (size, *np.shape(x)))
                   for x, axis in zip(args, axes)]
        mapped = tuple(0 if axis is None else axis for axis in axes)
        return refimpl.vmap(fun, in_axes=mapped, out_axes=out_axes)(*batched)

    return run
