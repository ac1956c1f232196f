"""Broken SUT: vmap batches along axis 0 where in_axes says 1.

Built over refimpl rather than JAX: eager JAX compiles every operation for
every new shape, which makes shrinking a vmap failure take minutes; refimpl
runs each attempt in microseconds, so the meta-test shrinks in seconds.

Family: batching.  Smallest input: `vmap(numpy.sin, in_axes=1)(np.ones((2, 3)))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, numpy, vjp  # noqa: F401
from tests.broken import Witness

FAMILY = "batching"
WITNESS = Witness("vmap(numpy.sin, in_axes=1)(np.ones((2, 3)))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def _misread(axis):
    return 0 if axis == 1 else axis


def vmap(fun, in_axes=0, out_axes=0):
    if isinstance(in_axes, tuple | list):
        in_axes = type(in_axes)(_misread(a) for a in in_axes)
    return refimpl.vmap(fun, in_axes=_misread(in_axes), out_axes=out_axes)
