"""Broken SUT: tensordot over two axes pairs x's last axis with y's first.

`tensordot(x, y, 2)` contracts x's axes (-2, -1) with y's (0, 1), in that
order; this one pairs them the other way round, x's -1 with y's 0 and -2 with
1, as a rule that reverses x's contracted axes to meet y's would.  Square
axes let it run; zero or one axis is right.

Family: semantics.  Smallest input:
`numpy.tensordot(np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([[0.0, 1.0], [0.0, 0.0]]), 2)`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, vjp, vmap  # noqa: F401
from refimpl import numpy as refimpl_numpy
from refimpl.core import aval_of
from tests.broken import Witness, refimpl_numpy_with

FAMILY = "semantics"
WITNESS = Witness("numpy.tensordot(np.array([[1.0, 2.0], [3.0, 4.0]]), "
                  "np.array([[0.0, 1.0], [0.0, 0.0]]), 2)")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def tensordot(x, y, axes=2):
    if axes == 2:
        rank = len(aval_of(x).shape)
        x = refimpl_numpy.swapaxes(x, rank - 2, rank - 1)  # correct: x as it is
    return refimpl_numpy.tensordot(x, y, axes)


numpy = refimpl_numpy_with(tensordot=tensordot)
