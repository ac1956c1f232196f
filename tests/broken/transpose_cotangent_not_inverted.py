"""Broken SUT: the cotangent of `transpose(x, perm)` is permuted by perm, not its inverse.

Every permutation of two axes is its own inverse, so every matrix transpose
comes out right; a cyclic permutation of three axes, such as (1, 2, 0),
sends the gradient to the wrong positions (or to the wrong shape).  Forward
mode is right.  refimpl with its `transpose` transpose rule replaced.

Family: transpose.  Smallest input:
`grad(lambda x: numpy.sum(numpy.transpose(x, (1, 2, 0)) * np.arange(8.0).reshape(2, 2,
2)))(np.ones((2, 2, 2)))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, numpy, ops, vjp, vmap  # noqa: F401
from refimpl import primitives as P
from refimpl.transpose import transpose_rules
from tests.broken import Witness

FAMILY = "transpose"
WITNESS = Witness("grad(lambda x: numpy.sum(numpy.transpose(x, (1, 2, 0)) * "
                  "np.arange(8.0).reshape(2, 2, 2)))(np.ones((2, 2, 2)))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

transpose_rules[P.transpose_p] = lambda ct, x, *, permutation: [
    ops.transpose(ct, permutation)]  # correct: np.argsort(permutation)
