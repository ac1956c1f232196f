"""Broken SUT: kron lays out blocks of the second operand scaled by the first's elements
the other way round, as kron(b, a).

NumPy's `kron(a, b)` is a block matrix whose (i, j) block is `a[i, j] * b`;
this one builds `b[i, j] * a`, the operands swapped, which has the same
elements in another order (and the same result where either is a scalar).
Derivatives follow the wrong value consistently, so only the value shows it.

Family: semantics.  Smallest input: `numpy.kron(np.array([1.0, 2.0]), np.array([1.0, 10.0]))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, vjp, vmap  # noqa: F401
from refimpl import numpy as refimpl_numpy
from tests.broken import Witness, refimpl_numpy_with

FAMILY = "semantics"
WITNESS = Witness("numpy.kron(np.array([1.0, 2.0]), np.array([1.0, 10.0]))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def kron(a, b):
    return refimpl_numpy.kron(b, a)  # correct: kron(a, b)


numpy = refimpl_numpy_with(kron=kron)
