"""Broken SUT: at a tie, sort gives each tied place the mean of the tied elements' tangents.

A symmetric rule, as `max` over an axis shares its tangent at a tie: each
place of the result takes the tangents of every element equal to it,
averaged.  Off ties one element is equal and the rule is right; at a tie
JAX's sort is stable, so each tied place carries its own element's
tangent, in input order.  `median` and `quantile` are built on this sort, so
they average a tie's tangents too.  Along tangents equal over the tie every
rule agrees; the rows `sort_tie`, `median_tie` and `quantile_tie`
(tests/test_conventions.py) draw tangents apart.  Built over refimpl: the
derivative is carried by a weighted sum, the value is the sort.

Family: kink.  Smallest input: `jvp(numpy.sort, (np.ones(2),), (np.array([1.0, 2.0]),))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, vjp, vmap  # noqa: F401
from refimpl import numpy as refimpl_numpy
from refimpl.core import aval_of
from refimpl.lax import stop_gradient
from tests.broken import Witness, refimpl_numpy_with

FAMILY = "kink"
WITNESS = Witness("jvp(numpy.sort, (np.ones(2),), (np.array([1.0, 2.0]),))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

R = refimpl_numpy


def _averaging_sort(x):
    """x sorted along the last axis, each place's tangent the mean of its equals'."""
    ordered = stop_gradient(R.sort(x, -1))
    places, elements = R.expand_dims(ordered, -1), R.expand_dims(stop_gradient(x), -2)
    equal = R.where(R.less(places, elements), 0.0, R.where(R.less(elements, places), 0.0, 1.0))
    weights = stop_gradient(equal / R.sum(equal, axis=-1, keepdims=True))
    carrier = R.sum(weights * R.expand_dims(x, -2), axis=-1)  # correct: a stable permutation
    return ordered + (carrier - stop_gradient(carrier))


def sort(x, axis=-1):
    x, axis = (R.ravel(x), 0) if axis is None else (x, axis)
    return R.moveaxis(_averaging_sort(R.moveaxis(x, axis, -1)), -1, axis)


def quantile(a, q, axis=None, keepdims=False):
    """NumPy's linear method over the sort above."""
    if isinstance(axis, tuple) or (axis is None and keepdims):
        return R.quantile(a, q, axis, keepdims)
    a, axis = (R.ravel(a), 0) if axis is None else (a, axis)
    ordered = _averaging_sort(R.moveaxis(a, axis, -1))
    n = aval_of(ordered).shape[-1]
    position = (n - 1) * float(q)
    low = int(position)
    fraction = position - low
    out = (R.take(ordered, [low], axis=-1) * (1.0 - fraction)
           + R.take(ordered, [min(low + 1, n - 1)], axis=-1) * fraction)
    return R.moveaxis(out, -1, axis) if keepdims else R.squeeze(out, -1)


def median(a, axis=None, keepdims=False):
    return quantile(a, 0.5, axis, keepdims)


numpy = refimpl_numpy_with(sort=sort, median=median, quantile=quantile)
