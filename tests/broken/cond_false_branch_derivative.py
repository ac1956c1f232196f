"""Broken SUT: the derivative of `cond` is right only when the true branch is taken.

refimpl with its cond JVP rule wrapped so that output tangents are scaled by
the predicate: in the false branch every derivative is zero, while values
stay right.  Built over refimpl (as `vmap_axis_one_as_zero` is) so that
shrinking a failure takes seconds, not the minutes eager JAX needs to compile
every construct anew.

Family: construct.  Smallest input:
`jvp(lambda x: lax.cond(x < 0.0, numpy.sin, numpy.cos, x), (1.0,), (1.0,))`.
"""

import numpy as np

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, numpy, vjp, vmap  # noqa: F401
from refimpl import lax as rlax
from refimpl.control import cond_p
from refimpl.jvp import jvp_rules
from tests.broken import Witness

FAMILY = "construct"
WITNESS = Witness("jvp(lambda x: lax.cond(x < 0.0, numpy.sin, numpy.cos, x), (1.0,), (1.0,))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

_right = jvp_rules[cond_p]


def _true_branch_only(primals, tangents, **params):
    outs, out_tangents = _right(primals, tangents, **params)
    taken = rlax.convert_element_type(primals[0], np.float64)
    return outs, [None if t is None else numpy.multiply(t, taken) for t in out_tangents]


jvp_rules[cond_p] = _true_branch_only
