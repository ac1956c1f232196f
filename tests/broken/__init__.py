"""Deliberately broken SUTs: JAX, refimpl or the dual-number toy with one bug each.

Each module here meets the contract (docs/sut-api.md) by re-exporting an SUT with exactly one
piece replaced by a plausible bug: JAX through `tests.broken.over_jax` (`from
tests.broken.over_jax import *`, and `numpy_with` for the numpy namespace), or
refimpl, imported directly, where refimpl's speed makes shrinking fast.  This
package itself does not import JAX: a shim over refimpl, its child pytest
run and its reproducer start 1.6 s sooner without it.
`tests/meta/test_broken_suts.py` shows that the matching property catches
it and shrinks it to a tiny reproducer; a property no broken SUT can fail
would be toothless.

Every shim says what it is in one shape: a docstring that names the bug,
ends with `Family: <family>.  Smallest input: `<call>`.`, and two
constants the meta-tests read, `FAMILY` (a key of `FAMILIES`) and
`WITNESS` (a `Witness` whose call is the one the docstring shows).
`tests/meta/test_broken_witnesses.py` runs every witness on the shim and
on refimpl and holds them to differ as `Witness.shows` says.
"""

from functools import partial
from types import SimpleNamespace
from typing import NamedTuple

from refimpl import core
from refimpl import numpy as refimpl_numpy
from refimpl.core import Primitive, aval_of, bind
from refimpl.pytree import argnums_tuple, tree_flatten, tree_unflatten
from refimpl.staging import Staging
from refimpl.vmap import FRONT_MOVES, defelementwise, front_batch, vmap_rules

# The rule families a bug can live in, one vocabulary for every shim's FAMILY.
FAMILIES = {
    "jvp": "a primitive's forward-mode (JVP) rule",
    "transpose": "a primitive's transpose rule, reverse mode only",
    "construct": "a rule of cond, fori_loop, scan or while_loop: branch, trip count, "
                 "step order, carries",
    "batching": "a vmap rule or vmap's in_axes/out_axes",
    "jit": "jit's cache key or its staging",
    "interface": "how a transformation passes arguments and results (argnums, cotangents)",
    "composition": "one transformation applied to another's result",
    "higher_order": "a rule right to first order and wrong to second",
    "kink": "the convention at a kink: a tie, the side of a where not taken, x**n at 0",
    "precision": "a step computed in less than float64",
    "dtype": "a result's dtype: a float32 computation's result in float64, a gradient not in "
             "its primal's dtype",
    "cost": "right values at super-linear work",
    "pytree": "the order of a pytree's leaves",
    "nesting": "one transformation inside another: perturbation confusion",
    "reuse": "one transformed function called again: what it keeps of an earlier call "
             "(a primal, a residual, a trace of its values)",
    "refusal": "a call the contract says must raise returns a value instead",
    "semantics": "an operation's value: what NumPy's parameters mean (repeat's order, var's "
                 "count, diagonal's offset)",
    "custom_rule": "a user-defined derivative rule or checkpoint: the rule skipped, or the "
                   "derivative by what the function captures lost",
    "derived": "a transformation built from the others (linearize, jacfwd, jacrev, hessian): "
               "its basis, the axes of its result, its nesting",
}


class Witness(NamedTuple):
    """The smallest input that shows a shim's bug, as data.

    `call` is one Python expression over the contract's names (`jvp vjp grad
    vmap jit linearize jacfwd jacrev hessian custom_jvp custom_vjp checkpoint numpy
    lax`,
    and `np` for NumPy),
    evaluated once with the shim's and once with refimpl's; `shows` says how
    the two must differ: "value" (both return, the values differ), "dtype" (both
    return the same values, in other dtypes), "refusal" (refimpl raises, the
    shim returns), "error" (the shim raises, refimpl returns), or "cost"
    (`call` names a family of `oracles.cost.FAMILIES` whose grad work grows
    super-linearly on the shim and linearly on refimpl).
    """

    call: str
    shows: str = "value"


SHOWS = ("value", "dtype", "refusal", "error", "cost")


def refimpl_numpy_with(**overrides) -> SimpleNamespace:
    """refimpl's numpy namespace, with `overrides` in place of some."""
    return SimpleNamespace(**({name: getattr(refimpl_numpy, name) for name in dir(refimpl_numpy)
                               if not name.startswith("_")} | overrides))


def elementwise_copy(prim) -> Primitive:
    """A copy of refimpl's elementwise `prim` (value, shape rule, cost, jit source
    and batching rule) for a shim to give a broken derivative rule of its own:
    refimpl's tables gain an entry for the copy, and no existing entry changes."""
    copy = Primitive(prim.name, elementwise=True)
    copy.impl, copy.shape_rule, copy.cost, copy.source = (prim.impl, prim.shape_rule, prim.cost,
                                                          prim.source)
    defelementwise(copy)
    return copy


def structural_copy(prim) -> Primitive:
    """A copy of refimpl's non-elementwise `prim` (value, shape rule, cost, jit
    source, and batching rule where refimpl batches it at the front,
    `FRONT_MOVES`), with no other rules yet: the shim registers each for the
    copy, the broken one among them, and no existing entry changes."""
    copy = Primitive(prim.name, transposable=prim.transposable)
    copy.impl, copy.shape_rule, copy.cost, copy.source = (prim.impl, prim.shape_rule, prim.cost,
                                                          prim.source)
    if prim in FRONT_MOVES:
        vmap_rules[copy] = partial(front_batch, copy, FRONT_MOVES[prim])
    return copy


def bound_reduction(prim):
    """NumPy's `max(x, axis=None, keepdims=False)` (or another reduction) of refimpl,
    binding `prim` (a `structural_copy` of a reduction)."""
    def reduce(x, axis=None, keepdims=False):
        shape = aval_of(x).shape
        axes = range(len(shape)) if axis is None else (axis,) if isinstance(axis, int) else axis
        axes = tuple(sorted(a % len(shape) for a in axes))
        out = bind(prim, x, axes=axes)
        return refimpl_numpy.reshape(out, [1 if i in axes else d for i, d in enumerate(shape)]
                                     ) if keepdims else out
    return reduce


def bound_cumsum(prim):
    """NumPy's `cumsum(x, axis=None)` of refimpl, binding `prim` (a `structural_copy`
    of refimpl's `cumsum`)."""
    def cumsum(x, axis=None):
        if axis is None:
            x, axis = refimpl_numpy.reshape(x, (-1,)), 0
        return bind(prim, x, axis=axis % len(aval_of(x).shape), reverse=False)
    return cumsum


def bound_elementwise(prim, name: str):
    """`numpy.<name>` of refimpl, binding `prim` (an `elementwise_copy`)."""
    return lambda *xs: refimpl_numpy._elementwise(prim, name, *xs)


def each_derivative(result, argnums, depth: int, change):
    """A result of refimpl's jacfwd or jacrev (`depth` 1) or hessian (2), each leaf
    replaced by `change(leaf, positions)`: `positions` are the arguments the leaf
    differentiates by, outermost first.  JAX nests the leaves output by output,
    then by `argnums` (twice for a Hessian), so leaf k's last position is
    `argnums[k % n]`, the one before it `argnums[k // n % n]`, and so on."""
    nums = argnums_tuple(argnums)
    leaves, tree = tree_flatten(result)

    def positions(k):
        return tuple(nums[k // len(nums) ** d % len(nums)] for d in reversed(range(depth)))

    return tree_unflatten(tree, [change(leaf, positions(k)) for k, leaf in enumerate(leaves)])


def staging() -> bool:
    """A jit trace is beneath the current interpreter (a linearize trace is not one):
    for the bugs that live only where a function is staged."""
    interp = core.current
    while interp is not None:
        if type(interp) is Staging:
            return True
        interp = getattr(interp, "prev", None)
    return False
