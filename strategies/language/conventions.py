"""The contract's conventions at kinks and domain edges, as a table of small functions.

Where a function has no derivative (a tie of `maximum` or `minimum` or of
`max` and `min` over an axis, `clip` at a bound, `abs` at 0) or its
derivative is not finite (`sqrt` and `log` at 0), an SUT still returns a
number, and which number is a convention.  A few rows state a derivative
that is no convention but is easy to get wrong at such a point (`prod` and
`cumprod` at a zero, where dividing by the element gives NaN).
The contract takes JAX's (docs/sut-api.md, "Conventions at kinks and domain
edges"; each row below was checked against JAX 0.10 in float64).
`CONVENTIONS` has one row per convention:

* ``feature``: the name an SUT that follows another convention declares in
  `__sut_unsupported__` (None: no choice is left, the row is the operation's
  meaning);
* ``source``: the function `f`, a few lines over `jnp`;
* ``inputs(draw)``: inputs on the kink or edge: a drawn shape, values on the
  grid, and a drawn mask that moves elements off it (the mask shrinks
  towards "all on it");
* ``value``, ``jvp``, ``vjp``: what the contract says the SUT returns, in
  NumPy, edges included (NaN, +-inf), written as the chain rule JAX applies
  so that a NaN is where JAX's is.

`tests/test_conventions.py` holds an SUT to every row, under jvp and vjp,
jitted or not.

`STAGING` holds the conventions of the transformations themselves, where
JAX refuses what other systems do by design (TensorFlow sums a non-scalar
output's gradient, stages a Python `if` under jit, and traces vmap's
function as a graph).  Declaring one of those is no opting out: the
property that holds every other SUT to JAX's refusal (or, for vmap, to
JAX's working branch) checks the declared behaviour instead.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from strategies.language.inputs import arrays

# Shapes of the inputs: small, since a convention is per element.
SHAPES = hnp.array_shapes(min_dims=0, max_dims=2, min_side=1, max_side=3)
# Shapes of a reduction's input along its last axis: at least 2 elements to tie or
# to hold a zero beside others.
ROWS = hnp.array_shapes(min_dims=1, max_dims=2, min_side=2, max_side=3)


def _off(draw, shape, label: str) -> np.ndarray:
    """A mask of the elements moved off the kink; shrinks towards none (all on it)."""
    return draw(hnp.arrays(np.bool_, shape, elements=st.booleans(), fill=st.nothing()),
                label=label)


def _tied_pair(draw):
    """(x0, x1) equal where a drawn mask says, apart elsewhere."""
    shape = draw(SHAPES, label="shape")
    x0 = draw(arrays(shape), label="x0")
    apart = _off(draw, shape, "x1 apart from x0")
    x1 = np.where(apart, draw(arrays(shape), label="x1 where apart"), x0)
    return (x0, x1)


def _at_zero(draw, *, positive=False, shapes=SHAPES):
    """x0 zero where a drawn mask says, drawn (made positive with `positive`) elsewhere."""
    shape = draw(shapes, label="shape")
    moved = _off(draw, shape, "off zero")
    values = draw(arrays(shape), label="x0 off zero")
    if positive:
        values = np.abs(values) + 0.25
    return (np.where(moved, values, 0.0),)


def _quiet(fun):
    """`fun` with NumPy's warnings at NaN and inf silenced: they are the point here."""
    def quiet(*args):
        with np.errstate(all="ignore"):
            return fun(*args)
    return quiet


@dataclass(frozen=True)
class Convention:
    name: str
    feature: str | None
    what: str
    source: str
    inputs: Callable
    value: Callable
    jvp: Callable
    vjp: Callable

    @property
    def arity(self) -> int:
        return self.source.split("(", 1)[1].split(")", 1)[0].count(",") + 1


def _tie_jvp(wins):
    """maximum's (`wins` is `>`) or minimum's (`<`) tangent: the winner's, half of each at a tie."""
    return lambda x0, x1, t0, t1: (np.where(wins(x0, x1), t0, np.where(wins(x1, x0), t1,
                                                                        0.5 * (t0 + t1))),)


def _tie_vjp(wins):
    def vjp(x0, x1, u):
        tie = x0 == x1
        return (u * wins(x0, x1) + u * 0.5 * tie, u * wins(x1, x0) + u * 0.5 * tie)
    return vjp


# clip's bounds in its row, and the slope JAX's clip has at them: it is
# minimum(hi, maximum(lo, x)), and each takes half of each tangent at a tie.
CLIP_LO, CLIP_HI = -1.0, 1.0


def _clip_slope(x0):
    inside = (x0 > CLIP_LO) & (x0 < CLIP_HI)
    return np.where(inside, 1.0, np.where((x0 == CLIP_LO) | (x0 == CLIP_HI), 0.5, 0.0))


def _few_values(draw):
    """x0 of a rank 1 or 2 shape, its elements from three values, so that its largest
    and smallest along the last axis are often tied."""
    shape = draw(ROWS, label="shape")
    return (draw(hnp.arrays(np.float64, shape, elements=st.sampled_from([0.5, 1.0, 1.5]),
                            fill=st.nothing()), label="x0"),)


def _chosen(x0, reduce):
    """Where x0 equals its max (or min) along the last axis, as weights that share 1."""
    hit = x0 == reduce(x0, axis=-1, keepdims=True)
    return hit / np.sum(hit, axis=-1, keepdims=True)


def _others(x0):
    """For each element, the product of the others along the last axis."""
    position = np.arange(x0.shape[-1])
    return np.stack([np.prod(np.where(position == i, 1.0, x0), axis=-1)
                     for i in position], axis=-1)


# Shapes of a sort's input: up to 20 elements along the sorted (last) axis, since an
# unstable sort keeps a tie's order in short rows and not in long ones: NumPy's
# default argsort swaps tied elements from 5 of them, torch.sort from 17.
SORTED_ROWS = st.builds(lambda lead, n: (*lead, n),
                        hnp.array_shapes(min_dims=0, max_dims=1, min_side=1, max_side=3),
                        st.integers(2, 20))


def _tied_row(draw, shapes=ROWS):
    """x0 of a rank 1 or 2 shape, 1.0 (all tied along the last axis) except where a
    drawn mask moves an element off the tie."""
    shape = draw(shapes, label="shape")
    moved = _off(draw, shape, "off the tie")
    return (np.where(moved, draw(arrays(shape), label="x0 off the tie"), 1.0),)


def _order(x0):
    """The stable argsort along the last axis: tied elements keep their input order, as
    JAX's sort does, and their tangents follow them."""
    return np.argsort(x0, axis=-1, kind="stable")


def _unsort(x0, u):
    """The cotangent of sorted positions sent back to the input's positions."""
    back = np.zeros(np.broadcast_shapes(x0.shape, u.shape))
    np.put_along_axis(back, _order(x0), u, axis=-1)
    return back


# The quantile in its row, and the weights JAX's linear method gives the two sorted
# elements at either side of its position (n - 1) q.
QUANTILE = 0.9


def _quantile_weights(x0, q):
    """Per sorted position along the last axis, its weight in the q-quantile: JAX's
    linear method, 1 - f at the floor of (n - 1) q and f at its ceiling (f the
    fraction).  At q = 1/2 it is `median`'s midpoint of the middle two (f is 0 or 1/2)."""
    n = x0.shape[-1]
    position = q * (n - 1)
    low = int(np.floor(position))
    fraction = position - low
    weights = np.zeros(n)
    weights[low] += 1.0 - fraction
    weights[min(low + 1, n - 1)] += fraction
    return weights


def _order_statistic(q):
    """(jvp, vjp) of the q-quantile along the last axis at ties: the weights of the
    sorted positions, applied to the tangents in stable sorted order."""
    def jvp(x0, t0):
        ordered = np.take_along_axis(np.broadcast_to(t0, x0.shape), _order(x0), axis=-1)
        return (np.sum(ordered * _quantile_weights(x0, q), axis=-1),)

    def vjp(x0, u):
        return (_unsort(x0, u[..., None] * _quantile_weights(x0, q)),)
    return jvp, vjp


def _cumulative_others(x0):
    """[..., j, i]: the partial of cumprod's j-th element by x0's i-th, the product of
    the others up to j (0 for i > j); no division, so a zero is no NaN."""
    n = x0.shape[-1]
    rows = []
    for j in range(n):
        rows.append(np.stack([np.prod(np.where(np.arange(j + 1) == i, 1.0, x0[..., :j + 1]),
                                      axis=-1) if i <= j else np.zeros(x0.shape[:-1])
                              for i in range(n)], axis=-1))
    return np.stack(rows, axis=-2)


def _at_bounds(draw):
    """x0 on clip's bounds (each element on the lower or the upper one) where a drawn
    mask says, drawn elsewhere."""
    shape = draw(SHAPES, label="shape")
    moved = _off(draw, shape, "off the bounds")
    upper = draw(hnp.arrays(np.bool_, shape, elements=st.booleans(), fill=st.nothing()),
                 label="on the upper bound")
    values = draw(arrays(shape), label="x0 off the bounds")
    return (np.where(moved, values, np.where(upper, CLIP_HI, CLIP_LO)),)


def _where_nan_vjp(x0, u):
    """The zero cotangent of sqrt's side times sqrt's derivative, 0.5 / sqrt(x0)."""
    taken = x0 > 0.0
    return (u * ~taken + (u * taken) * (0.5 / np.sqrt(x0)),)


def _powers(x0):
    return (x0 ** 0, x0 ** 1, x0 ** 2, x0 ** 3)


def _powers_jvp(x0, t0):
    return (np.zeros_like(x0), t0, 2.0 * x0 * t0, 3.0 * x0 ** 2 * t0)


def _powers_vjp(x0, u0, u1, u2, u3):
    return (u1 + u2 * 2.0 * x0 + u3 * 3.0 * x0 ** 2,)


CONVENTIONS: dict[str, Convention] = {row.name: row for row in [
    Convention(
        "maximum_tie", "tie_convention", "maximum at a tie",
        "def f(x0, x1):\n    return jnp.maximum(x0, x1)\n", _tied_pair,
        _quiet(lambda x0, x1: (np.maximum(x0, x1),)),
        _quiet(_tie_jvp(np.greater)), _quiet(_tie_vjp(np.greater))),
    Convention(
        "minimum_tie", "tie_convention", "minimum at a tie",
        "def f(x0, x1):\n    return jnp.minimum(x0, x1)\n", _tied_pair,
        _quiet(lambda x0, x1: (np.minimum(x0, x1),)),
        _quiet(_tie_jvp(np.less)), _quiet(_tie_vjp(np.less))),
    Convention(
        "max_min_tie", "reduction_tie_convention", "max and min over an axis at a tie",
        "def f(x0):\n    return jnp.max(x0, axis=-1), jnp.min(x0, axis=-1)\n", _few_values,
        _quiet(lambda x0: (np.max(x0, axis=-1), np.min(x0, axis=-1))),
        _quiet(lambda x0, t0: (np.sum(t0 * _chosen(x0, np.max), axis=-1),
                               np.sum(t0 * _chosen(x0, np.min), axis=-1))),
        _quiet(lambda x0, u0, u1: (u0[..., None] * _chosen(x0, np.max)
                                   + u1[..., None] * _chosen(x0, np.min),))),
    Convention(
        "ptp_tie", "reduction_tie_convention", "ptp over an axis at a tie",
        "def f(x0):\n    return jnp.ptp(x0, axis=-1)\n", _tied_row,
        _quiet(lambda x0: (np.ptp(x0, axis=-1),)),
        _quiet(lambda x0, t0: (np.sum(t0 * (_chosen(x0, np.max) - _chosen(x0, np.min)),
                                      axis=-1),)),
        _quiet(lambda x0, u0: (u0[..., None] * (_chosen(x0, np.max) - _chosen(x0, np.min)),))),
    Convention(
        "sort_tie", "sort_tie_convention", "sort at a tie",
        "def f(x0):\n    return jnp.sort(x0, axis=-1)\n",
        lambda draw: _tied_row(draw, SORTED_ROWS),
        _quiet(lambda x0: (np.sort(x0, axis=-1),)),
        _quiet(lambda x0, t0: (np.take_along_axis(t0, _order(x0), axis=-1),)),
        _quiet(lambda x0, u: (_unsort(x0, u),))),
    Convention(
        "median_tie", "sort_tie_convention", "median over an axis at a tie",
        "def f(x0):\n    return jnp.median(x0, axis=-1)\n",
        lambda draw: _tied_row(draw, SORTED_ROWS),
        _quiet(lambda x0: (np.median(x0, axis=-1),)),
        *(_quiet(rule) for rule in _order_statistic(0.5))),
    Convention(
        "quantile_tie", "sort_tie_convention", f"quantile {QUANTILE} over an axis at a tie",
        f"def f(x0):\n    return jnp.quantile(x0, {QUANTILE}, axis=-1)\n",
        lambda draw: _tied_row(draw, SORTED_ROWS),
        _quiet(lambda x0: (np.quantile(x0, QUANTILE, axis=-1),)),
        *(_quiet(rule) for rule in _order_statistic(QUANTILE))),
    Convention(
        "prod_at_zero", None, "prod over an axis holding zeros",
        "def f(x0):\n    return jnp.prod(x0, axis=-1)\n",
        lambda draw: _at_zero(draw, shapes=ROWS),
        _quiet(lambda x0: (np.prod(x0, axis=-1),)),
        _quiet(lambda x0, t0: (np.sum(t0 * _others(x0), axis=-1),)),
        _quiet(lambda x0, u0: (u0[..., None] * _others(x0),))),
    Convention(
        "cumprod_at_zero", None, "cumprod along an axis holding zeros",
        "def f(x0):\n    return jnp.cumprod(x0, axis=-1)\n",
        lambda draw: _at_zero(draw, shapes=ROWS),
        _quiet(lambda x0: (np.cumprod(x0, axis=-1),)),
        _quiet(lambda x0, t0: (np.sum(_cumulative_others(x0) * t0[..., None, :], axis=-1),)),
        _quiet(lambda x0, u: (np.sum(_cumulative_others(x0) * u[..., :, None], axis=-2),))),
    Convention(
        "clip_at_bounds", "clip_convention", "clip at its bounds",
        f"def f(x0):\n    return jnp.clip(x0, {CLIP_LO}, {CLIP_HI})\n", _at_bounds,
        _quiet(lambda x0: (np.clip(x0, CLIP_LO, CLIP_HI),)),
        _quiet(lambda x0, t0: (t0 * _clip_slope(x0),)),
        _quiet(lambda x0, u: (u * _clip_slope(x0),))),
    Convention(
        "abs_at_zero", "abs_at_zero", "abs and sign at 0 (JAX: abs has slope 1 there)",
        "def f(x0):\n    return jnp.abs(x0), jnp.sign(x0)\n", _at_zero,
        _quiet(lambda x0: (np.abs(x0), np.sign(x0))),
        _quiet(lambda x0, t0: (np.where(x0 >= 0.0, t0, -t0), np.zeros_like(x0))),
        _quiet(lambda x0, u0, u1: (np.where(x0 >= 0.0, u0, -u0),))),
    Convention(
        "where_unselected", None, "the side of where not taken, the predicate at a tie",
        "def f(x0, x1):\n    return jnp.where(x0 > x1, x0, x1)\n", _tied_pair,
        _quiet(lambda x0, x1: (np.where(x0 > x1, x0, x1),)),
        _quiet(lambda x0, x1, t0, t1: (np.where(x0 > x1, t0, t1),)),
        _quiet(lambda x0, x1, u: (u * (x0 > x1), u * (x0 <= x1)))),
    Convention(
        "where_nan", "unselected_nan", "a non-finite derivative on the side of where not taken",
        "def f(x0):\n    return jnp.where(x0 > 0.0, jnp.sqrt(x0), x0)\n",
        lambda draw: (draw(arrays(draw(SHAPES, label="shape")), label="x0"),),
        _quiet(lambda x0: (np.where(x0 > 0.0, np.sqrt(x0), x0),)),
        _quiet(lambda x0, t0: (np.where(x0 > 0.0, t0 * (0.5 / np.sqrt(x0)), t0),)),
        _quiet(_where_nan_vjp)),
    Convention(
        "power_at_zero", "pow_at_zero", "x ** n at 0",
        "def f(x0):\n    return x0 ** 0, x0 ** 1, x0 ** 2, x0 ** 3\n", _at_zero,
        _quiet(_powers), _quiet(_powers_jvp), _quiet(_powers_vjp)),
    Convention(
        "sqrt_at_zero", "domain_edge", "sqrt at 0",
        "def f(x0):\n    return jnp.sqrt(x0)\n", lambda draw: _at_zero(draw, positive=True),
        _quiet(lambda x0: (np.sqrt(x0),)),
        _quiet(lambda x0, t0: (t0 * (0.5 / np.sqrt(x0)),)),
        _quiet(lambda x0, u: (u * (0.5 / np.sqrt(x0)),))),
    Convention(
        "log_at_zero", "domain_edge", "log at 0",
        "def f(x0):\n    return jnp.log(x0)\n", lambda draw: _at_zero(draw, positive=True),
        _quiet(lambda x0: (np.log(x0),)),
        _quiet(lambda x0, t0: (t0 / x0,)),
        _quiet(lambda x0, u: (u / x0,))),
]}



@dataclass(frozen=True)
class StagingConvention:
    """How a transformation treats what JAX refuses: a behaviour of real systems that
    differs from JAX's by design, which an SUT declares and is then checked for.

    * ``feature``: the name it declares in `__sut_unsupported__`;
    * ``what``: the situation, as a failure or a skip names it;
    * ``jax``: what JAX does there, which an SUT that does not declare it must do;
    * ``declared``: what an SUT that declares it must do instead;
    * ``prop``: the property that checks either (`tests/<file>::<test>`).
    """

    feature: str
    what: str
    jax: str
    declared: str
    prop: str


STAGING: dict[str, StagingConvention] = {row.feature: row for row in [
    StagingConvention(
        "grad_nonscalar_sum", "grad of a function whose output is not a scalar",
        "raises: a gradient is defined for a scalar output only",
        "returns the gradient of the sum of the output's elements, as TensorFlow's "
        "GradientTape and torch's backward with a cotangent of ones do",
        "tests/test_errors.py::test_grad_of_a_non_scalar_output_raises"),
    StagingConvention(
        "jit_stages_control_flow", "jit of a Python `if` on a traced value",
        "raises: the traced value has no concrete truth value (a concretization error)",
        "stages the `if` as a conditional, so each call takes the branch its own inputs "
        "select, as TensorFlow's AutoGraph does",
        "tests/test_python_control_flow.py::"
        "test_jit_refuses_a_python_branch_on_a_traced_value"),
    StagingConvention(
        "vmap_stages_function", "vmap of a Python `if` on an unbatched argument",
        "passes the unbatched argument as it is, so the branch works and vmap equals a "
        "loop over the batch",
        "traces the function once as a staged graph, so the `if` reads a staged value and "
        "raises (it must never return a value), as TensorFlow's vectorized_map does",
        "tests/test_python_control_flow.py::test_vmap_branches_on_an_unbatched_value"),
]}


# What an SUT may declare instead of following the contract's convention, with
# what declaring it changes: the rows of CONVENTIONS it turns off, or the
# property that then checks the declared behaviour (STAGING).
FEATURES: dict[str, tuple[str, ...]] = {
    **{feature: tuple(r.name for r in CONVENTIONS.values() if r.feature == feature)
       for feature in dict.fromkeys(r.feature for r in CONVENTIONS.values() if r.feature)},
    **{row.feature: (row.prop,) for row in STAGING.values()}}
