"""Every operation at every operand-rank combination: one-equation programs, cell by cell.

A bug confined to one operand-rank combination (the transpose of `matmul`
for a vector times a matrix, the sum a scalar's cotangent needs when it met
a matrix) shows only in an example that has that combination under the
transformation whose rule is wrong.  Programs drawn from the whole language
reach the common combinations often and some never: a rank-0 and a rank-2
value seldom meet in one scope (docs/coverage.md).  Drawing more programs
does not fix that; enumerating does.  `cells` lists each operation of a
vocabulary with each rank combination its builder may draw
(`operands.Builder.ranks`), `regimes` the regimes its parameters choose
between (`Builder.regimes`: each of `convolve`'s modes, an axis counted from
either end, a diagonal above or below the main one, an update written past
the start), `builds` pairs them so that one example of the row builds every
rank combination and every regime (a covering, not their product, which
would multiply a row's cost), and `cell_cases` draws the one-equation program
of a cell in a regime, with inputs made so that the cell can always be built:

* shapes are suffixes of one drawn base shape, so every pair broadcasts,
  and square where the operands must contract, or each drawn alone where
  the operands share no dim (`convolve`'s vectors), or the second shorter
  than the first along some axes where it is written inside it (an update,
  which can then start past 0), or with size-1 axes where the operation drops
  or stretches them (`squeeze`, `broadcast_to`), as the builder's `shapes` says;
  the simplest draw, a row's first example, is 2 x 3 x 2 (vectors of 2 and
  3 apart), so its matrices are not square;
* a cell of two arrays reads both (`Scope.meets`): one array read twice
  meets itself, `x - x` or `arctan2(x, x)`, where a rule that swaps its
  operands' partials still gives the right sum, and two vectors of one
  length hide `correlate`'s corner; builders start at the first variable,
  so the same-rank cells read `x0` twice in most first examples;
* values keep every domain by construction: |x| >= 5/16 (divisors,
  negative powers), and each input on its own residue modulo 1/4, apart
  from the other input and from the literals (multiples of 1/4) by at least
  1/16, so `maximum` and `where` never meet a tie (KINK_MARGIN is 0.05);
  the simplest draw is a ramp along each array, not a constant (`_arrays`);
* where the drawn inputs still leave the operation no operands (`log` and
  `sqrt` of a negative element, `broadcast_to` of a rank-3 shape with no
  size-1 dim to widen), the same inputs made positive, with a leading dim of
  1, do; and where even those do not, one of `FALLBACKS`, each made of those
  positive inputs: capped at 1 (`tan` at 1.5625, by its pole); scaled into
  or lifted past the unit interval (`arcsin` wants |x| <= 3/4, `arccosh`
  x >= 5/4); a ramp of distinct values in the order of the drawn ones
  (`max` and `min` need their chosen element apart from the rest); every
  axis cut to 2 (a result that outgrows MAX_DIM, `ravel` of 3 x 3); two
  bands apart (`remainder`, whose quotient must stay off the integers); or
  each matrix made diagonally dominant (`linalg`, well-conditioned).  Each
  keeps most of what was drawn: one that gave most draws one input (a ramp
  fixed by the shape alone, or `arcsin`'s magnitudes capped before they are
  scaled) would make a cell's few examples one example, which
  tests/meta/test_coverage.py rules out.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import NamedTuple

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from strategies.language.equations import Scope
from strategies.language.inputs import moved_by_place
from strategies.language.ir import Var, prune
from strategies.language.operands import APART, INSIDE, ONES, SQUARE, Regime
from strategies.language.opspec import OPS
from strategies.language.shapes import check_type
from strategies.language.table import LANGUAGE
from strategies.program import Program, ProgramCase, draw_shared

# An input's magnitude is OFFSET[i] + k/4 (k = 0..6): at least 5/16, at most 1.94.
OFFSET = (5 / 16, 7 / 16)
STEPS = 7


def cells(ops) -> list[tuple[str, tuple[str, ...]]]:
    """(operation, operand ranks) for each operation in `ops` (constructs left out) and
    each rank combination its builder may draw, in `ops` order."""
    return [(op, ranks) for op in ops if op in OPS for ranks in OPS[op].build.ranks]


def regimes(op: str) -> tuple[Regime, ...]:
    """The regimes `op`'s parameters choose between (`Builder.regimes`): none for
    an operation whose parameters choose no formula."""
    return OPS[op].build.regimes


def builds(op: str) -> list[tuple[tuple[str, ...], Regime | None]]:
    """(operand ranks, regime) of each cell one example of `op`'s row builds, in the
    order `cells` lists the rank combinations: each regime at the first rank
    combination it exists at (`Regime.at`) that no regime took yet, then each rank
    combination left in no regime (None: any parameters the builder draws there,
    so that one which fits no regime, tensordot's of two rank-3 operands, still
    builds).  Every rank combination and every regime is built, in as many
    cells as the longer of the two lists, or a few more (convolve's one pair of
    vectors in each of its three modes: three)."""
    combos = [ranks for _, ranks in cells([op])]
    taken: dict[tuple[str, ...], list[Regime | None]] = {ranks: [] for ranks in combos}
    for regime in regimes(op):
        admitting = [ranks for ranks in combos if regime.at(ranks)]
        if not admitting:
            raise AssertionError(f"{op}'s regime {regime} exists at none of its ranks")
        ranks = next((r for r in admitting if not taken[r]), admitting[0])
        taken[ranks].append(regime)
    return [(ranks, regime) for ranks in combos for regime in taken[ranks] or [None]]


def _arrays(shape, i: int) -> st.SearchStrategy:
    """Input i's values, +-(OFFSET[i] + k/4), each element drawn alone (no fill, as
    `inputs.arrays`) as a step j of the 2 * STEPS values and moved on by its place in
    the array (`_ramp`), so that the simplest draw, every j 0, is a ramp and not a
    constant: a constant input, under a constant tangent or cotangent, hides a rule
    that swaps elements or axes (a transpose not inverted, a flip's transpose left
    out) in the row's first example, one of only 3 in `ci`."""
    steps = hnp.arrays(np.int64, shape, elements=st.integers(0, 2 * STEPS - 1),
                       fill=st.nothing())
    return steps.map(lambda j: _ramp(j, OFFSET[i]))


def _ramp(steps, offset: float):
    """Step j at place p (row-major) is k = (j + p) mod 2 * STEPS: offset + k/4 for the
    first STEPS, then the same values negated; a scalar is its own step."""
    k = moved_by_place(steps, 1, 2 * STEPS)
    return np.where(k < STEPS, 1.0, -1.0) * (offset + (k % STEPS) / 4)


def _shapes(draw, op: str, ranks: tuple[str, ...]) -> list[tuple[int, ...]]:
    arrays = [int(r) for r in ranks if r != "lit"]
    if not arrays:  # where(p, 2.0, 0.5): the predicate still needs an input
        arrays = [draw(st.integers(0, 3), label="predicate's rank")]
    if OPS[op].build.shapes == APART:  # the first shorter, as long or longer
        return [tuple(1 + (draw(st.integers(0, 2), label=f"x{i} dim {k}") + i + 1) % 3
                      for k in range(rank))
                for i, rank in enumerate(arrays)]
    if OPS[op].build.shapes == SQUARE:  # every rank pair contracts
        base = (draw(st.integers(2, 3), label="size"),) * 3
    elif OPS[op].build.shapes == ONES:  # size-1 axes at the back, and at rank 3's front
        # d up to 4: rank 3's (1, d, 1) has d elements only, and of 3 examples at d of
        # 2 or 3 two drew one input for squeeze's tuple of axes.
        base = (1, draw(st.integers(2, 4), label="size"), 1)
    else:
        base = tuple(2 + (draw(st.integers(0, 1), label=f"dim {k}") + k) % 2 for k in range(3))
    shapes = [base[3 - rank:] for rank in arrays]
    if OPS[op].build.shapes == INSIDE:  # the second one shorter along its first axis at least
        shapes[1:] = [tuple(d - (k == 0 or draw(st.booleans(), label=f"x1 shorter along {k}"))
                            for k, d in enumerate(shape)) for shape in shapes[1:]]
    return shapes


def _easy(arrays):
    """The fallback inputs: positive, and a rank-3 input's leading dim cut to 1."""
    return tuple(abs(x[:1] if x.ndim == 3 else x) for x in arrays)


def _capped(arrays):
    """At most 1 (tan's poles start at 1.57)."""
    return tuple(np.minimum(x, 1.0) for x in arrays)


def _spread(arrays):
    """For `max` and `min`, whose chosen element must stand apart from the rest: each
    input's elements in a ramp, `OFFSET[i] + k/4`, on the input's own residue and
    1/4 apart, the element of the k-th smallest drawn value at step k (ties in
    drawn order), so that the ramp still follows the draw."""
    return tuple(OFFSET[i] + _order(x) / 4 for i, x in enumerate(arrays))


def _order(x):
    """Each element's place among the elements of `x` sorted (ties: first first)."""
    places = np.empty(x.size, dtype=np.float64)
    places[np.argsort(x, axis=None, kind="stable")] = np.arange(x.size)
    return places.reshape(x.shape)


def _scaled(arrays):
    """For the domains inside the unit interval: the magnitudes times 3/8, which maps
    the largest drawn, 1.94, to 0.73, inside `arcsin`'s |x| <= 3/4."""
    return tuple(abs(x) * 3 / 8 for x in arrays)


def _lifted(arrays):
    """For `arccosh`'s domain, x >= 5/4: 5/4 plus the magnitudes scaled as `_scaled`
    scales them (1.37 to 1.98)."""
    return tuple(1.25 + abs(x) * 3 / 8 for x in arrays)


def _smaller(arrays):
    """For a result that outgrows MAX_DIM (`ravel` of 3 x 3): every axis cut to 2."""
    return tuple(x[tuple(slice(0, 2) for _ in x.shape)] for x in arrays)


def _ratios(arrays):
    """For `remainder` and `fmod`, whose quotient must stay off the integers: the
    first input in [0.8, 0.9), the second in [1.6, 1.7), so the quotient of the two,
    and of either and a literal, is at least 0.05 from every integer."""
    return tuple((0.8, 1.6)[i] + abs(x) % 0.1 for i, x in enumerate(arrays))


def _conditioned(arrays):
    """For `linalg`'s matrices, which must be well-conditioned: each matrix of a stack
    made diagonally dominant, (x + 8 I) / 4 of positive x below 1.94: the diagonal
    in [2, 2.5], each other element at most 1/2, so at size 3 its condition number
    stayed below 2 in 400,000 draws (MAX_CONDITION is 10), and its determinant is
    below 18 (Hadamard's bound; VALUE_CAP is 100)."""
    return tuple((x + 8 * np.eye(x.shape[-1])) / 4 if x.ndim >= 2 and x.shape[-1] == x.shape[-2]
                 else x for x in arrays)


# Tried in turn on the positive inputs (`_easy`) where those too leave the operation
# no operands.
FALLBACKS = (_capped, _scaled, _lifted, _spread, _smaller, _ratios, _conditioned)


def _grow(draw, op, ranks, regime, sets, spec=None):
    names = [f"x{i}" for i in range(len(sets[0]))]
    scope = Scope([Var(n, x.shape) for n, x in zip(names, sets[0])],
                  [dict(zip(names, args)) for args in sets], specs=[spec or LANGUAGE[op]],
                  language=LANGUAGE, focus=ranks, regime=regime)
    if len(names) == 2:
        scope.meets = (frozenset(names[:1]), frozenset(names[1:]))
    scope.grow(draw, 1)
    return scope


@st.composite
def cell_cases(draw, op: str, ranks: tuple[str, ...], *, variants: int = 1,
               regime: Regime | None = None) -> ProgramCase:
    """A `ProgramCase` whose program is the one equation `op` on operands of `ranks`,
    in `regime` (one of `regimes(op)`; default: any parameters).

    `variants` input sets (for vmap) as in `programs`.  Raises ValueError
    for a cell its builder cannot draw (not in `cells`) or a regime it has not.
    """
    check_type("variants", variants, int)
    if (op, ranks) not in cells([op]):
        raise ValueError(f"{op} has no operands of ranks {ranks}; cells() lists those it has")
    if regime is not None and regime not in regimes(op):
        raise ValueError(f"{op} has no regime {regime}; regimes() lists those it has")
    shapes = _shapes(draw, op, ranks)
    shared = draw_shared(draw, len(shapes), variants)
    first = tuple(draw(_arrays(s, i), label=f"x{i}") for i, s in enumerate(shapes))
    sets = [first] + [
        tuple(x if shared[i] else draw(_arrays(x.shape, i), label=f"x{i}[{k}]")
              for i, x in enumerate(first))
        for k in range(1, variants)]
    scope = _grow(draw, op, ranks, regime, sets)
    if not scope.eqns:
        sets = [_easy(args) for args in sets]
        scope = _grow(draw, op, ranks, regime, sets)
    easy = sets
    for fallback in FALLBACKS:
        if not scope.eqns:
            sets = [fallback(args) for args in easy]
            scope = _grow(draw, op, ranks, regime, sets)
    if not scope.eqns:
        raise AssertionError(f"the cell {op} {ranks} could not be built at {sets[0]}")
    program = prune(Program(tuple(scope.vars[:len(shapes)]), tuple(scope.eqns),
                            (scope.eqns[0].outs[0],)))
    return ProgramCase(program, sets[0], tuple(sets), shared)


# ----------------------------------------------------------------------------- special points

class Special(NamedTuple):
    """A point inside an operation's domain where its derivative is defined but its
    rule is delicate: a zero in a product (a rule that divides by the element gives
    0 / 0 there), a tie in a sort or at the chosen element of an order statistic
    (a rule that breaks the tie, or shares it, another way).  The cell inputs keep
    |x| >= 5/16 and every drawn element apart from the others, so no drawn cell
    meets one; a special cell is placed on it.

    * ``name``: what the point is, as the coverage report names it;
    * ``ranks``: the operand ranks of its cell;
    * ``place(args)``: one input set moved onto the point, whatever parameters
      the builder then draws (a zero at the corner lies in the slice of every axis
      through it; a tie over the corner block of two along every axis is a tie
      along every axis and flattened);
    * ``steady(directions)``: tangents (directions of finite differences) that keep
      the point: equal over a tie, so that the perturbed points keep it exactly and
      the derivative along them is one whatever the convention at the tie (the
      reference, and a vjp's cotangent, still see the whole rule);
    * ``holds(values, params)``: an equation's operand values are on the point
      (what `coverage.py` counts).
    """

    name: str
    ranks: tuple[str, ...]
    place: Callable[[tuple], tuple]
    steady: Callable[[list], list]
    holds: Callable[[tuple, dict], bool]


def _corner(x) -> tuple[slice, ...]:
    """The block of the first two elements along every axis."""
    return tuple(slice(0, 2) for _ in np.shape(x))


def _zero_at_corner(args):
    """x0 with its first element 0."""
    x = np.array(args[0], dtype=np.float64)
    x[(0,) * x.ndim] = 0.0
    return (x, *args[1:])


def _tie(operand: int, value: Callable[[np.ndarray], float]):
    """Operand `operand` spread apart (`_spread`), then its corner block set to
    `value(spread)`: a tie there and nowhere else."""
    def place(args):
        spread = _spread(args)[operand]
        spread[_corner(spread)] = value(spread)
        return (*args[:operand], spread, *args[operand + 1:])
    return place


def _tie_kept(operand: int):
    def steady(directions):
        d = np.array(directions[operand], dtype=np.float64)
        d[_corner(d)] = d[(0,) * d.ndim]
        return [*directions[:operand], d, *directions[operand + 1:]]
    return steady


def _unchanged(directions):
    return directions


def _slices(x, axis):
    """x's elements reduced together by `axis` (None, an int, a tuple), each set a row."""
    x = np.real(np.asarray(x))
    axes = range(x.ndim) if axis is None else np.atleast_1d(axis) % max(x.ndim, 1)
    axes = sorted(set(int(a) for a in axes))
    rest = [a for a in range(x.ndim) if a not in axes]
    return np.transpose(x, rest + axes).reshape(-1, int(np.prod([x.shape[a] for a in axes])))


def _holds_zero(values, params):
    return bool(np.any(np.asarray(values[0]) == 0))


def _tied(operand: int, where: Callable[[np.ndarray], np.ndarray] = None):
    """Some set of elements the equation reduces (or sorts) together holds a tie, at
    the largest (or smallest) where `where` picks it (None: anywhere)."""
    def holds(values, params):
        ranked = np.sort(_slices(values[operand], params.get("axis")), axis=-1)
        if ranked.shape[-1] < 2:
            return False
        ties = ranked[:, 1:] == ranked[:, :-1]
        return bool(np.any(ties if where is None else where(ties)))
    return holds


def _at_top(ties):
    return ties[:, -1]


def _at_bottom(ties):
    return ties[:, 0]


def _apart(directions):
    """The second operand moved against the first: off the tie, either way."""
    return [directions[0], -np.asarray(directions[0])]


def _logaddexp_tie(args):
    return (args[0], np.array(args[0]))


def _equal_somewhere(values, params) -> bool:
    """logaddexp's operands equal in some element.  The coverage count asks it of
    every logaddexp equation of every program, whose operands need not broadcast
    as given (a batched equation's, seen whole): those hold no tie."""
    x, y = np.asarray(values[0]), np.asarray(values[1])
    try:
        np.broadcast_shapes(x.shape, y.shape)
    except ValueError:
        return False
    return bool(np.any(x == y))


_TIE_AT_MAX = _tie(0, lambda x: np.max(x) + 0.25)
SPECIALS: dict[str, tuple[Special, ...]] = {
    "prod": (Special("a zero", ("2",), _zero_at_corner, _unchanged, _holds_zero),),
    "cumprod": (Special("a zero", ("2",), _zero_at_corner, _unchanged, _holds_zero),),
    "sort": (Special("a tie", ("2",), _tie(0, lambda x: x[0, 0]), _tie_kept(0), _tied(0)),),
    "max": (Special("a tie at the max", ("2",), _TIE_AT_MAX, _tie_kept(0),
                    _tied(0, _at_top)),),
    "min": (Special("a tie at the min", ("2",), _tie(0, lambda x: np.min(x) - 0.25),
                    _tie_kept(0), _tied(0, _at_bottom)),),
    "ptp": (Special("a tie at the max", ("2",), _TIE_AT_MAX, _tie_kept(0),
                    _tied(0, _at_top)),),
    "median": (Special("a tie at the max", ("2",), _TIE_AT_MAX, _tie_kept(0),
                       _tied(0, _at_top)),),
    "quantile": (Special("a tie at the max", ("2",), _TIE_AT_MAX, _tie_kept(0),
                         _tied(0, _at_top)),),
    "argmax": (Special("a tie at the max", ("2", "2"), _tie(1, lambda y: np.max(y) + 0.25),
                       _tie_kept(1), _tied(1, _at_top)),),
    # logaddexp(x, x): log 2 + x, slope 1/2 each, smooth, but a rule made of
    # max(x, y) and log1p(exp(-|x - y|)) meets both kinks there, and its conventions
    # must cancel; only a direction that moves x and y apart shows whether they do.
    "logaddexp": (Special("a tie", ("2", "2"), _logaddexp_tie, _apart, _equal_somewhere),),
}


def specials(op: str) -> tuple[Special, ...]:
    """The special points of `op` (`SPECIALS`), each a cell of every example of its row."""
    return SPECIALS.get(op, ())


@st.composite
def special_cases(draw, op: str, special: Special, *, variants: int = 1) -> ProgramCase:
    """A `ProgramCase` whose program is the one equation `op` at `special`: the inputs
    drawn as a cell's of `special.ranks`, each set placed on the point, the operation
    built there with its domain (which keeps drawn programs off ties) set aside."""
    check_type("variants", variants, int)
    if special not in specials(op):
        raise ValueError(f"{op} has no special point {special.name}; specials() lists those")
    shapes = _shapes(draw, op, special.ranks)
    shared = draw_shared(draw, len(shapes), variants)
    first = tuple(draw(_arrays(s, i), label=f"x{i}") for i, s in enumerate(shapes))
    sets = [first] + [
        tuple(x if shared[i] else draw(_arrays(x.shape, i), label=f"x{i}[{k}]")
              for i, x in enumerate(first))
        for k in range(1, variants)]
    sets = [special.place(args) for args in sets]
    scope = _grow(draw, op, special.ranks, None, sets,
                  dataclasses.replace(LANGUAGE[op], domain=None))
    if not scope.eqns:
        raise AssertionError(f"{op} at {special.name} could not be built at {sets[0]}")
    program = prune(Program(tuple(scope.vars[:len(shapes)]), tuple(scope.eqns),
                            (scope.eqns[0].outs[0],)))
    return ProgramCase(program, sets[0], tuple(sets), shared)
