"""Broken SUT: `vmap` of `cond` with a batched predicate takes one branch for the whole batch.

refimpl with its cond batching rule fed the first example's predicate in
place of the batch of predicates: every example follows the branch the first
one takes, instead of each its own (JAX and refimpl run both and select).

Family: batching.  Smallest input:
`vmap(lambda x: lax.cond(x > 0.0, numpy.sin, numpy.cos, x))(np.array([1.0, -1.0]))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, numpy, vjp, vmap  # noqa: F401
from refimpl import lax as rlax
from refimpl.control import cond_p
from refimpl.vmap import vmap_rules
from tests.broken import Witness

FAMILY = "batching"
WITNESS = Witness(
    "vmap(lambda x: lax.cond(x > 0.0, numpy.sin, numpy.cos, x))(np.array([1.0, -1.0]))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

_right = vmap_rules[cond_p]


def _first_example_decides(size, vals, dims, **params):
    (pred, *ops), (pdim, *odims) = vals, dims
    if pdim is not None:
        first = rlax.slice(rlax.moveaxis(pred, pdim, 0), (0,), (1,))
        pred, pdim = rlax.reshape(first, ()), None
    return _right(size, (pred, *ops), (pdim, *odims), **params)


vmap_rules[cond_p] = _first_example_decides
