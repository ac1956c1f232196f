"""Broken SUT: a dict's leaves are flattened in insertion order, not by sorted key.

JAX orders a dict's entries by key, so two dicts with the same keys have
one structure however they were written.  Here `{"b": 1, "a": 2}` and
`{"a": 1, "b": 2}` flatten to different structures: a tangent, a
cotangent or an in_axes prefix written in another order than its primal is
refused (or paired with the wrong leaves).  refimpl with its pytree
flattening replaced.

Family: pytree.  Smallest input:
`jvp(lambda d: d["a"] * 2.0 + d["b"], ({"b": 1.0, "a": 2.0},), ({"a": 1.0, "b": 0.0},))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, numpy, pytree, vjp, vmap  # noqa: F401
from tests.broken import Witness

FAMILY = "pytree"
WITNESS = Witness(
    'jvp(lambda d: d["a"] * 2.0 + d["b"], ({"b": 1.0, "a": 2.0},), ({"a": 1.0, "b": 0.0},))',
    shows="error")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

_right = pytree._flatten


def _insertion_order(x, leaves):
    if isinstance(x, dict):  # correct: keys = tuple(sorted(x))
        return (dict, tuple(x), tuple(_insertion_order(x[k], leaves) for k in x))
    return _right(x, leaves)  # which recurses through this module's replacement


pytree._flatten = _insertion_order
