"""Broken SUT: repeat lays its copies out as blocks, as tile does.

NumPy's `repeat([1, 2], 2)` is `[1, 1, 2, 2]`; this one returns
`[1, 2, 1, 2]`, NumPy's `tile`.  torch names the two the other way round
(`torch.repeat` is NumPy's tile, `repeat_interleave` NumPy's repeat), and a
shim that maps by name makes this bug.  Derivatives follow the wrong value
consistently, so only the value shows it.

Family: semantics.  Smallest input: `numpy.repeat(np.array([1.0, 2.0]), 2)`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, vjp, vmap  # noqa: F401
from refimpl import numpy as refimpl_numpy
from refimpl.core import aval_of
from tests.broken import Witness, refimpl_numpy_with

FAMILY = "semantics"
WITNESS = Witness("numpy.repeat(np.array([1.0, 2.0]), 2)")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def repeat(x, repeats, axis=None):
    """Blocks along `axis` (None: the flattened operand); correct: each element in turn."""
    if axis is None:
        x, axis = refimpl_numpy.ravel(x), 0
    rank = len(aval_of(x).shape)
    return refimpl_numpy.tile(x, [repeats if i == axis % rank else 1 for i in range(rank)])


numpy = refimpl_numpy_with(repeat=repeat)
