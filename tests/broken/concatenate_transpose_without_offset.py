"""Broken SUT: the transpose of `concatenate` slices every operand's cotangent from offset 0.

Each operand's cotangent is its own stretch of the output's cotangent; this
rule forgets to advance past the operands before it, so every operand after
the first gets the first one's stretch.  Forward mode is right.  refimpl
with its `concatenate` transpose rule replaced.

Family: transpose.  Smallest input:
`grad(lambda x, y: numpy.sum(numpy.concatenate([x, y]) * np.array([1.0, 2.0])),
argnums=1)(np.ones(1), np.ones(1))`.
"""

import numpy as np

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, numpy, ops, vjp, vmap  # noqa: F401
from refimpl import primitives as P
from refimpl.core import aval_of
from refimpl.transpose import is_linear, transpose_rules
from tests.broken import Witness

FAMILY = "transpose"
WITNESS = Witness("grad(lambda x, y: numpy.sum(numpy.concatenate([x, y]) * np.array([1.0, 2.0])), "
                  "argnums=1)(np.ones(1), np.ones(1))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def _from_zero(ct, *xs, dimension):
    outs = []
    for x in xs:
        if not is_linear(x):
            outs.append(None)
            continue
        hi = list(aval_of(ct).shape)
        hi[dimension] = np.shape(x)[dimension]  # correct: start + size, start advancing
        outs.append(ops.slice(ct, [0] * len(hi), hi))
    return outs


transpose_rules[P.concatenate_p] = _from_zero
