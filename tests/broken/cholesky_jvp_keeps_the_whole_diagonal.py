"""Broken SUT: cholesky's derivative keeps the whole diagonal where it needs half.

From a = l l^T, l^-1 da l^-T = m + m^T with m = l^-1 dl lower triangular,
whose diagonal counts m's twice: dl = l phi(l^-1 da l^-T), phi keeping the
strict lower triangle and half the diagonal.  Keeping all of it (a plain
`tril`, the natural first guess) doubles the diagonal of m: values are
right, every derivative of the factor is wrong but where da's part on it
is zero.  Built over refimpl: `numpy.linalg.cholesky` binds a copy of
refimpl's primitive with this rule.

Family: jvp.  Smallest input:
`jvp(lambda a: numpy.linalg.cholesky(a @ numpy.swapaxes(a, -1, -2)), (np.eye(2),), (np.eye(2),))`.
"""

from types import SimpleNamespace

import numpy as np

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, ops, vjp, vmap  # noqa: F401
from refimpl import numpy as refimpl_numpy
from refimpl import primitives as P
from refimpl.core import Tracer, aval_of, bind
from refimpl.jvp import defjvp
from tests.broken import Witness, refimpl_numpy_with, structural_copy

FAMILY = "jvp"
WITNESS = Witness("jvp(lambda a: numpy.linalg.cholesky(a @ numpy.swapaxes(a, -1, -2)), "
                  "(np.eye(2),), (np.eye(2),))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

cholesky_p = structural_copy(P.cholesky_p)


def _cholesky_jvp(t, l, a):
    inner = ops.matrix_transpose(ops.solve(l, ops.matrix_transpose(ops.solve(l, t))))
    lower = np.tri(np.shape(l)[-1])  # correct: np.tri(n, k=-1) + np.eye(n) / 2
    return ops.matmul(l, ops.mul(inner, np.broadcast_to(lower.astype(aval_of(l).dtype),
                                                        np.shape(l))))


defjvp(cholesky_p, _cholesky_jvp)


def cholesky(a):
    """refimpl's `linalg.cholesky`, binding the copy."""
    if not isinstance(a, Tracer):
        return np.linalg.cholesky(a)
    return bind(cholesky_p, a)


numpy = refimpl_numpy_with(linalg=SimpleNamespace(**{**vars(refimpl_numpy.linalg),
                                                     "cholesky": cholesky}))
