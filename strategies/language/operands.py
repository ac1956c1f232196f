"""Operand builders: draw operands and parameters that keep an operation in its domain.

Each builder takes the Hypothesis `draw`, the `Scope` (`equations.py`) of values the program
has computed so far, and the operation's `OpSpec`; it returns `(args, params)`
or None when nothing in scope fits.  Validity is by construction: a builder
only ever returns operands whose concrete values satisfy the margins in
`domains.py`, so the generator never needs `assume` and every shrunk choice
sequence still builds a valid program.

Each builder is a `Builder`, which carries with it what the coverage cells
need to know of the operands it draws: their rank combinations, the
parameters that choose between an operation's formulas, and how a cell's
shapes are laid out (`coverage.py`, `cell_cases.py`).

Choices go through `pick`, which draws a starting index and takes the first
valid option from there: the draw shrinks towards option 0 (the earliest
variable, the simplest parameter), and no draw is ever wasted on a rejection.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
from hypothesis import strategies as st

from strategies.language.domains import (
    MAX_DIM,
    MAX_RANK,
    VALUE_CAP,
)

# Python float literals a binary operation may take as one operand.
LITERALS = (2.0, 0.5, -1.5)

# Integer exponents for `x ** n`, simplest first.
EXPONENTS = (2, 3, 0, 1, -1, -2)


def bounded(value) -> bool:
    """Finite and within VALUE_CAP everywhere: what every intermediate value must be."""
    return bool(np.all(np.isfinite(value)) and np.all(np.abs(value) <= VALUE_CAP))


def fitting(value: np.ndarray) -> bool:
    """Small shape and `bounded`: what every generated value must be."""
    return value.ndim <= MAX_RANK and all(d <= MAX_DIM for d in value.shape) and bounded(value)


def index(draw, count: int, label: str | None = None) -> int:
    """An index into `count` options; shrinks towards 0, the first option.

    `st.integers(0, count - 1)` draws close to uniformly for the small counts
    used here; a wide fixed range scaled down would favour option 0 heavily,
    because Hypothesis biases wide integer ranges towards small values.
    """
    return draw(_indices(count), label=label)


@cache
def _indices(count: int) -> st.SearchStrategy[int]:
    """One strategy object per count: a program draws tens of thousands of
    indices, and building each strategy anew went through Hypothesis's
    strategy cache every time (docs/performance.md, "Where CI's time goes")."""
    return st.integers(0, count - 1)


def choose(draw, options: Sequence, label: str | None = None):
    """`st.sampled_from(options)`, with the fixed-range draw of `index`."""
    return options[index(draw, len(options), label)]


def pick(draw, options: Sequence, valid: Callable = lambda option: True):
    """Draw an option: a drawn start index, then the first valid one after it."""
    if not options:
        return None
    start = index(draw, len(options))
    for k in range(len(options)):
        option = options[(start + k) % len(options)]
        if valid(option):
            return option
    return None


def rank_of(operand) -> str:
    """An operand's rank as a coverage cell names it: "0".."3", or "lit" for a float literal."""
    return "lit" if isinstance(operand, float) else str(len(operand.shape))


def operand_ranks(op: str, args: Sequence) -> tuple[str, ...]:
    """The ranks that tell an equation's rules apart (`strategies/coverage.py`'s cells):
    the two selected values of `where`, the first array of `concatenate`, the first
    two operands of everything else."""
    if op == "where":
        return tuple(rank_of(a) for a in args[2:4])
    if op in ("concatenate", "stack"):
        return (rank_of(args[0]),)
    return tuple(rank_of(a) for a in args[:2])


# Every rank an operand may have in a coverage cell (`rank_of`): an array's, or a literal's.
RANKS = tuple(str(r) for r in range(MAX_RANK + 1))
VALUES = (*RANKS, "lit")


def each(ranks) -> tuple[tuple[str], ...]:
    """One operand, of each of `ranks` in turn."""
    return tuple((r,) for r in ranks)


def twins(ranks) -> tuple[tuple[str, str], ...]:
    """Two operands of one rank, each of `ranks` in turn."""
    return tuple((r, r) for r in ranks)


def pairs(options, rule=lambda a, b: True) -> tuple[tuple[str, str], ...]:
    """Two operands, each of `options`, that `rule` admits (never two literals)."""
    return tuple((a, b) for a, b in itertools.product(options, options)
                 if not (a == b == "lit") and rule(a, b))


def _contracts(a: str, b: str) -> bool:
    """dot's result rank a + b - 2 stays within MAX_RANK (a scalar operand: the other's)."""
    return "0" in (a, b) or int(a) + int(b) - 2 <= MAX_RANK


# How `cell_cases` shapes a cell's operands: suffixes of one base shape, so every
# pair broadcasts; square, where a dim of one operand contracts with one of the
# other; apart, each drawn alone, where they share no dim (`convolve`'s vectors,
# of any two lengths); or inside, the second of the first's rank and shorter along
# some axes (an update written into a bigger operand, at a start index past 0); or
# ones, suffixes of (1, d, 1), a size-1 axis at the back of every rank from 1 and at
# both ends of rank 3 (what `squeeze` drops and `broadcast_to` stretches).
SUFFIXES, SQUARE, APART, INSIDE, ONES = "suffixes", "square", "apart", "inside", "ones"


@dataclass(frozen=True)
class Regime:
    """Parameters (and operand shapes) that choose one of an operation's formulas or
    positions: `correlate`'s middle for 'same', an update written past the start, a
    diagonal above the main one.  A rule wrong in one regime shows only in an
    example that is in it, so `cell_cases` builds every regime of a row in each of
    its examples, and the coverage report counts each (`coverage.py`).

    * ``admits(shapes, params)``: the operands' shapes (a literal's is ()) and the
      parameters are in the regime;
    * ``at(ranks)``: the operand ranks (`operand_ranks`) at which it exists (a
      tuple of axes needs two axes).
    """

    name: str
    admits: Callable[[tuple, dict], bool]
    at: Callable[[tuple[str, ...]], bool] = lambda ranks: True

    def __str__(self) -> str:
        return self.name


def _rank_at_least(n: int) -> Callable[[tuple[str, ...]], bool]:
    return lambda ranks: int(ranks[0]) >= n


def _param(name: str, test: Callable) -> Callable[[tuple, dict], bool]:
    return lambda shapes, params: test(params[name])


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _axis(shapes, axis) -> int:
    """The length of the operand along `axis` (None: its size)."""
    shape = shapes[0]
    return int(np.prod(shape, dtype=int)) if axis is None else shape[axis]


def _axis_kind(axis) -> str:
    """None, "front" (an int from 0), "back" (a negative int) or "several" (a tuple)."""
    if axis is None:
        return "None"
    if isinstance(axis, tuple):
        return "several"
    return "front" if axis >= 0 else "back"


def _axis_regime(name: str, kind: str, kept: str | None, keeps: bool, rank: int) -> Regime:
    """Axes of `kind` (`_axis_kind`), and the keepdims parameter `kept` (if any) `keeps`."""
    def admits(shapes, params):
        return _axis_kind(params["axis"]) == kind and (kept is None or params[kept] is keeps)
    return Regime(name + (", kept" if kept and keeps else ""), admits, _rank_at_least(rank))


def axis_regimes(*, tuples=False, kept=None) -> tuple[Regime, ...]:
    """An axis parameter's regimes: every axis (None), one axis counted from the
    front, one counted from the back (a negative axis), and, with `tuples`, several;
    with `kept` (the name of a keepdims parameter), the one axis and the several kept
    and the others not, so that each example meets keepdims both ways."""
    regimes = (_axis_regime("every axis", "None", kept, False, 0),
               _axis_regime("an axis", "front", kept, True, 1),
               _axis_regime("a negative axis", "back", kept, False, 1))
    return regimes + ((_axis_regime("a tuple of axes", "several", kept, True, 2),)
                      if tuples else ())


def signed_regimes(name: str, what: str) -> tuple[Regime, ...]:
    """An offset's regimes: 0, above it, below it (`what`: what the offset counts)."""
    return (Regime(f"{name} = 0", _param(name, lambda k: k == 0)),
            Regime(f"{name} > 0 ({what} above)", _param(name, lambda k: k > 0)),
            Regime(f"{name} < 0 ({what} below)", _param(name, lambda k: k < 0)))


def start_regimes(starts: Callable[[tuple, dict], tuple]) -> tuple[Regime, ...]:
    """A window's regimes: at the operand's start, and past it along some axis."""
    return (Regime("at the start", lambda s, p: not any(starts(s, p))),
            Regime("past the start", lambda s, p: any(starts(s, p))))


@dataclass(frozen=True)
class Builder:
    """An operand builder with what the coverage cells must know of it.

    * ``draw_operands(draw, scope, spec)`` draws `(args, params)` or returns None
      (the module docstring).
    * ``ranks``: the operand-rank combinations (`operand_ranks`) it may draw; each
      is a cell of every operation it builds for (`coverage.allowed`), so a cell
      the generator never reaches shows up as a zero instead of being absent.
    * ``regimes``: the `Regime`s its parameters choose between.  A bug in one
      formula (correlate's middle for 'same') shows only where it is used, so
      `cell_cases` builds each regime in every example of the row, as each rank
      combination; `()` for a builder whose parameters choose no formula.
    * ``shapes``: how `cell_cases` shapes a cell's operands (`SUFFIXES`, `SQUARE`,
      `APART`, `INSIDE`, `ONES`).
    """

    draw_operands: Callable
    ranks: tuple[tuple[str, ...], ...]
    regimes: tuple[Regime, ...] = ()
    shapes: str = SUFFIXES

    def __call__(self, draw, scope, spec):
        return self.draw_operands(draw, scope, spec)


def builder(ranks, **facts) -> Callable[[Callable], Builder]:
    """The function below as a `Builder` of `ranks` (and `Builder`'s other `facts`)."""
    return lambda draw_operands: Builder(draw_operands, ranks, **facts)


def _shape(operand) -> tuple[int, ...]:
    return () if isinstance(operand, float) else operand.shape


def _broadcasts(*operands) -> bool:
    try:
        shape = np.broadcast_shapes(*(_shape(o) for o in operands))
    except ValueError:
        return False
    return len(shape) <= MAX_RANK and all(d <= MAX_DIM for d in shape)


def _in_domain(scope, spec, args, params) -> bool:
    """The operation's `domain` rule holds for these operands in every environment."""
    return spec.domain is None or scope.holds(lambda *values: spec.domain(*values, **params),
                                              *args)


@builder(each(RANKS))
def any_operand(draw, scope, spec):
    """One variable at which `spec` is in its domain."""

    def valid(x):
        return _in_domain(scope, spec, (x,), {}) and scope.fits(spec, (x,), {})

    x = pick(draw, scope.firsts, valid)
    return None if x is None else ((x,), {})


@builder(pairs(VALUES))
def broadcasting_pair(draw, scope, spec):
    """(x, y) with x a variable and y a variable or literal, either way round."""
    options = [(x, y) for x in scope.firsts for y in scope.partners()]
    options += [(y, x) for x, y in options if isinstance(y, float)]

    def valid(pair):
        return (_broadcasts(*pair) and _in_domain(scope, spec, pair, {})
                and scope.fits(spec, pair, {}))

    pair = pick(draw, options, valid)
    return None if pair is None else (pair, {})


# x ** n's formulas: a constant, the identity, a power, a quotient (a pole at 0).
POWER_REGIMES = (Regime("n = 0", _param("n", lambda n: n == 0)),
                 Regime("n = 1", _param("n", lambda n: n == 1)),
                 Regime("n > 1", _param("n", lambda n: n > 1)),
                 Regime("n < 0", _param("n", lambda n: n < 0)))


@builder(each(RANKS), regimes=POWER_REGIMES)
def integer_power(draw, scope, spec):
    options = [(x, n) for x in scope.firsts for n in EXPONENTS]

    def valid(option):
        x, n = option
        return _in_domain(scope, spec, (x,), {"n": n}) and scope.fits(spec, (x,), {"n": n})

    option = pick(draw, options, valid)
    return None if option is None else ((option[0],), {"n": option[1]})


# The bounds of `clip`: around 0, above it and below it, narrow and wide, so drawn
# values fall below, inside and above them.
CLIP_BOUNDS = ((-1.0, 1.0), (0.0, 0.5), (-2.0, -0.5), (0.5, 3.0))


@builder(each(RANKS))
def clip_bounds(draw, scope, spec):
    """One variable and `clip`'s bounds, each KINK_MARGIN from its every element."""
    options = [(x, {"lo": lo, "hi": hi}) for x in scope.firsts for lo, hi in CLIP_BOUNDS]

    def valid(option):
        x, params = option
        return _in_domain(scope, spec, (x,), params) and scope.fits(spec, (x,), params)

    option = pick(draw, options, valid)
    return None if option is None else ((option[0],), option[1])


def _with_params(draw, scope, spec, choices: Callable[[tuple[int, ...]], Sequence[dict]]):
    """One variable and one parameter dict from the shape-dependent `choices`, in
    the operation's domain."""
    options = [(x, params) for x in scope.firsts for params in choices(x.shape)]
    option = pick(draw, options, lambda o: _in_domain(scope, spec, (o[0],), o[1])
                  and scope.fits(spec, (o[0],), o[1]))
    return None if option is None else ((option[0],), option[1])


@cache
def _sum_axes(shape):
    rank = len(shape)
    axes = [None, *range(rank)] + ([-1] if rank else [])
    axes += [tuple(pair) for pair in itertools.combinations(range(rank), 2)]
    axes += [(0, -1)] if rank == 3 else []
    return [{"axis": axis} for axis in axes]


@builder(each(RANKS), regimes=axis_regimes(tuples=True))
def sum_axes(draw, scope, spec):
    return _with_params(draw, scope, spec, _sum_axes)


@cache
def _reduction_axes(shape):
    return [{**params, "keepdims": keepdims} for params in _sum_axes(shape)
            for keepdims in (False, True)]


@builder(each(RANKS), regimes=axis_regimes(tuples=True, kept="keepdims"))
def reduction_axes(draw, scope, spec):
    """NumPy's `axis` (None, an int, a negative int, a tuple) and `keepdims`."""
    return _with_params(draw, scope, spec, _reduction_axes)


@cache
def _one_axis(shape):
    rank = len(shape)
    return [{"axis": axis} for axis in [None, *range(rank)] + ([-1] if rank else [])]


@builder(each(RANKS), regimes=axis_regimes())
def one_axis(draw, scope, spec):
    """An `axis` of one operand: None (cumsum: the flattened operand; flip: every
    axis), an int, -1."""
    return _with_params(draw, scope, spec, _one_axis)


@cache
def _axis_pairs(shape):
    rank = len(shape)
    pairs = [(a, b) for a, b in itertools.combinations(range(rank), 2)]
    return [{"axis1": a, "axis2": b} for a, b in pairs + ([(0, -1)] if rank > 1 else [])]


@builder(each(RANKS[2:]), regimes=(
    Regime("both axes from the front", lambda s, p: p["axis1"] >= 0 and p["axis2"] >= 0),
    Regime("a negative axis", lambda s, p: p["axis1"] < 0 or p["axis2"] < 0)))
def axis_pair(draw, scope, spec):
    """Two axes of one operand (of rank 2 at least), one of them negative at times."""
    return _with_params(draw, scope, spec, _axis_pairs)


@cache
def _permutations(shape):
    perms = list(itertools.permutations(range(len(shape))))
    return [{"axes": None}] + [{"axes": p} for p in perms if p != tuple(range(len(shape)))]


@builder(each(RANKS), regimes=(
    Regime("axes None (all reversed)", _param("axes", lambda axes: axes is None)),
    Regime("a permutation", _param("axes", lambda axes: axes is not None), _rank_at_least(2))))
def permutation(draw, scope, spec):
    return _with_params(draw, scope, spec, _permutations)


@cache
def _factorizations(size, rank):
    if rank == 0:
        return [()] if size == 1 else []
    return [
        (d, *rest)
        for d in range(1, min(size, MAX_DIM) + 1)
        if size % d == 0
        for rest in _factorizations(size // d, rank - 1)
    ]


@cache
def _reshapes(shape):
    """reshape's target: every other shape of the operand's size, each also with its
    first dim left to NumPy (-1), where the size is not 0 (which leaves -1 open)."""
    size = int(np.prod(shape, dtype=int))
    targets = [t for rank in range(MAX_RANK + 1) for t in _factorizations(size, rank)
               if t != shape]
    inferred = [(-1, *t[1:]) for t in targets if t and size]
    return [{"shape": t} for t in targets + inferred]


def _target_rank(compare: Callable[[int, int], bool]) -> Callable[[tuple, dict], bool]:
    """The target names every dim (no -1) and its rank compares so with the operand's."""
    return lambda s, p: -1 not in p["shape"] and compare(len(p["shape"]), len(s[0]))


# reshape's regimes: to a higher rank, to a lower one (every dim given), and a dim left
# to be inferred, which a rule that reads the target as the result's shape gets wrong.
RESHAPE_REGIMES = (
    Regime("rank up", _target_rank(lambda new, old: new > old),
           lambda ranks: int(ranks[0]) < MAX_RANK),
    Regime("rank down", _target_rank(lambda new, old: new < old), _rank_at_least(2)),
    Regime("a -1 in the target", _param("shape", lambda shape: -1 in shape)))


@builder(each(RANKS), regimes=RESHAPE_REGIMES)
def reshape_target(draw, scope, spec):
    return _with_params(draw, scope, spec, _reshapes)


@cache
def _broadcasts_of(shape):
    widened = itertools.product(*[(1, 2, 3) if d == 1 else (d,) for d in shape])
    targets = [t for t in widened]
    if len(shape) < MAX_RANK:
        targets += [(n, *t) for t in list(targets) for n in (2, 3)]
    return [{"shape": t} for t in targets if t != shape]


def _stretches(shapes, params) -> bool:
    """Some size-1 axis of the operand is longer in the target (its trailing dims)."""
    shape, target = shapes[0], params["shape"]
    return any(d == 1 and n > 1 for d, n in zip(shape, target[len(target) - len(shape):]))


# broadcast_to's regimes: copies along a new leading axis, and along a size-1 axis
# stretched (its transpose sums over an axis it keeps, as size 1).
BROADCAST_REGIMES = (
    Regime("a new leading axis", lambda s, p: len(p["shape"]) > len(s[0]),
           lambda ranks: int(ranks[0]) < MAX_RANK),
    Regime("a size-1 axis stretched", _stretches, _rank_at_least(1)))


@builder(each(RANKS), regimes=BROADCAST_REGIMES, shapes=ONES)
def broadcast_target(draw, scope, spec):
    return _with_params(draw, scope, spec, _broadcasts_of)


@cache
def _new_axes(shape):
    rank = len(shape)
    return [{"axis": a} for a in range(-rank - 1, rank + 1)] if rank < MAX_RANK else []


@builder(each(RANKS[:-1]), regimes=(
    Regime("an axis from the front", _param("axis", lambda a: a >= 0)),
    Regime("a negative axis", _param("axis", lambda a: a < 0))))
def new_axis(draw, scope, spec):
    return _with_params(draw, scope, spec, _new_axes)


def _contraction(draw, scope, spec, shape_rule):
    options = [(x, y) for x in scope.firsts for y in scope.vars]

    def valid(pair):
        shape = shape_rule(pair[0].shape, pair[1].shape)
        return shape is not None and scope.fits(spec, pair, {})

    pair = pick(draw, options, valid)
    return None if pair is None else (pair, {})


def matmul_shape(a, b):
    """NumPy's matmul result shape, or None where the shapes do not contract."""
    if not a or not b:
        return None
    a2, b2 = (a if len(a) > 1 else (1, *a)), (b if len(b) > 1 else (*b, 1))
    if a2[-1] != b2[-2]:
        return None
    try:
        batch = np.broadcast_shapes(a2[:-2], b2[:-2])
    except ValueError:
        return None
    return (*batch, *a[-2:-1], *(b[-1:] if len(b) > 1 else ()))


def dot_shape(a, b):
    """NumPy's dot result shape, or None where the shapes do not contract."""
    if not a or not b:
        return a or b
    if a[-1] != (b[-2] if len(b) > 1 else b[0]):
        return None
    return (*a[:-1], *b[:-2], *b[-1:]) if len(b) > 1 else a[:-1]


@builder(pairs(RANKS[1:]), shapes=SQUARE)
def matmul_pair(draw, scope, spec):
    return _contraction(draw, scope, spec, matmul_shape)


@builder(pairs(RANKS, _contracts), shapes=SQUARE)
def dot_pair(draw, scope, spec):
    return _contraction(draw, scope, spec, dot_shape)


# where's comparisons, each its own primitive (`gt`, `lt`).
COMPARISONS = ("greater", "less")


# where's regimes: the comparison its predicate makes.
WHERE_REGIMES = tuple(Regime(name, _param("cmp", lambda c, cmp=cmp: c == cmp))
                      for name, cmp in zip(("a > b", "a < b"), COMPARISONS))


@builder(pairs(VALUES), regimes=WHERE_REGIMES)  # the two selected values, one a variable
def where_operands(draw, scope, spec):
    """`where(a > b, c, d)` or `where(a < b, c, d)`: b away from a by KINK_MARGIN, so
    the predicate is stable; c or d a variable, since a `where` of two Python
    scalars is float64 whatever its predicate (they are weak, in JAX as in NumPy),
    which would turn a float32 program float64 there (and its derivative is 0).
    The comparison is drawn with the selected values, so that a regime of it
    steers the last choice only."""

    def separated(pair):
        return _broadcasts(*pair) and _in_domain(scope, spec, (*pair, 0.0, 0.0),
                                                 {"cmp": COMPARISONS[0]})

    predicate = pick(draw, [(a, b) for a in scope.firsts for b in scope.partners()], separated)
    if predicate is None:
        return None
    branches = [(c, d, cmp) for c in scope.partners() for d in scope.partners()
                if not (isinstance(c, float) and isinstance(d, float)) for cmp in COMPARISONS]

    def valid(branch):
        args = (*predicate, *branch[:2])
        return _broadcasts(*args) and scope.fits(spec, args, {"cmp": branch[2]})

    branch = pick(draw, branches, valid)
    return None if branch is None else ((*predicate, *branch[:2]), {"cmp": branch[2]})


@builder(each(RANKS[1:]), regimes=axis_regimes()[1:])
def concatenable(draw, scope, spec):
    """`concatenate([x, y...], axis)`: partners equal to x in shape but along `axis`.

    x always matches itself, so once (x, axis) fits with x as its own partner,
    the partner draws below cannot come up empty.
    """
    options = [(x, axis) for x in scope.firsts for axis in (*range(len(x.shape)), -1) if x.shape]
    option = pick(draw, options, lambda o: scope.fits(spec, (o[0], o[0]), {"axis": o[1]}))
    if option is None:
        return None
    x, axis = option
    params = {"axis": axis}
    along = [y for y in scope.vars if _same_but_along(x.shape, y.shape, axis)]
    args = (x,)
    for _ in range(draw(st.integers(1, 2))):
        y = pick(draw, along, lambda y, args=args: scope.fits(spec, (*args, y), params))
        args += (y,) if y is not None else ()
    return args, params


def _same_but_along(a, b, axis):
    axis %= len(a)
    return len(a) == len(b) and all(m == n for i, (m, n) in enumerate(zip(a, b)) if i != axis)


def _one_operand(choices, ranks, regimes=(), shapes=SUFFIXES) -> Builder:
    """A builder of one variable, of `ranks`, and a parameter dict from `choices(shape)`,
    whose parameters choose between `regimes` (a cell's operands shaped as `shapes` says)."""
    def build(draw, scope, spec):
        return _with_params(draw, scope, spec, choices)
    build.__name__ = choices.__name__.lstrip("_")
    build.__doc__ = choices.__doc__
    return Builder(build, ranks, regimes, shapes)


def _axes_and_none(rank):
    return [None, *range(rank)] + ([-1] if rank else [])


@cache
def _squeeze_axes(shape):
    """squeeze's `axis`: None (every size-1 axis, or none), each size-1 axis counted
    from the front and from the back, all of them."""
    ones = tuple(i for i, d in enumerate(shape) if d == 1)
    return [{"axis": None}] + [{"axis": a} for a in ones] + (
        [{"axis": a - len(shape)} for a in ones]) + (
        [{"axis": ones}] if len(ones) > 1 else [])


def _drops(kind: str) -> Callable[[tuple, dict], bool]:
    """squeeze's axis is of `kind` (`_axis_kind`) and the operand has a size-1 axis to
    drop (squeezing none is the identity)."""
    return lambda s, p: _axis_kind(p["axis"]) == kind and 1 in s[0]


# squeeze's regimes, on a cell's operands (`ONES`): every size-1 axis, one counted from
# the front or the back, two at once (rank 3's ends).
SQUEEZE_REGIMES = (
    Regime("every size-1 axis (None)", _drops("None"), _rank_at_least(1)),
    Regime("an axis", _drops("front"), _rank_at_least(1)),
    Regime("a negative axis", _drops("back"), _rank_at_least(1)),
    Regime("a tuple of axes", _drops("several"), _rank_at_least(3)))


@cache
def _rolls(shape):
    """roll's `shift` (forward and back, past half the axis at times) and `axis`
    (None: the flattened operand)."""
    return [{"shift": shift, "axis": axis} for axis in _axes_and_none(len(shape))
            for shift in SHIFTS]


# roll's shifts: forward, back past half an axis of 3 (a whole turn of an axis of 2),
# back by one.
SHIFTS = (1, -2, -1)


def _shifted(forward: bool) -> Callable[[tuple, dict], bool]:
    """The shift runs forward (or back) and moves the elements (not a whole turn)."""
    return lambda s, p: (p["shift"] > 0) == forward and p["shift"] % max(_axis(s, p["axis"]), 1)


# roll's regimes: each way, flattened or along an axis counted from either end.
ROLL_REGIMES = (
    Regime("forward, flattened", lambda s, p: p["axis"] is None and _shifted(True)(s, p),
           _rank_at_least(1)),
    Regime("back, along an axis",
           lambda s, p: _is_int(p["axis"]) and p["axis"] >= 0 and _shifted(False)(s, p),
           _rank_at_least(1)),
    Regime("forward, along a negative axis",
           lambda s, p: _is_int(p["axis"]) and p["axis"] < 0 and _shifted(True)(s, p),
           _rank_at_least(1)),
    Regime("back, flattened", lambda s, p: p["axis"] is None and _shifted(False)(s, p),
           _rank_at_least(1)))


# tile's regimes: reps an int, a tuple shorter than the operand's rank (padded with
# 1s in front), or as long or longer (the operand's shape padded with 1s in front).
TILE_REGIMES = (
    Regime("reps an int", _param("reps", _is_int)),
    Regime("reps shorter than the rank",
           lambda s, p: isinstance(p["reps"], tuple) and len(p["reps"]) < len(s[0]),
           _rank_at_least(3)),
    Regime("reps as long as the rank or longer",
           lambda s, p: isinstance(p["reps"], tuple) and len(p["reps"]) >= len(s[0])))

# pad's regimes: one width everywhere, one (before, after) pair for every axis, a
# pair per axis.
PAD_REGIMES = (
    Regime("one width", _param("pad_width", _is_int)),
    Regime("one pair for every axis", _param("pad_width", lambda w: w == ((1, 0),)),
           _rank_at_least(2)),
    Regime("a pair per axis",
           _param("pad_width", lambda w: isinstance(w, tuple) and w != ((1, 0),))))


@cache
def _tilings(shape):
    """tile's `reps`: an int, and tuples shorter and longer than the rank."""
    return [{"reps": reps} for reps in (2, (2, 1), (1, 2), (2, 1, 1))]


@cache
def _repeats(shape):
    """repeat's count and `axis` (None: the flattened operand)."""
    return [{"repeats": n, "axis": axis} for axis in _axes_and_none(len(shape)) for n in (2, 3)]


@cache
def _pad_widths(shape):
    """pad's `pad_width`: an int for every side, one pair for every axis, a pair per axis."""
    rank = len(shape)
    if not rank:
        return []
    return [{"pad_width": 1}, {"pad_width": ((1, 0),)},
            {"pad_width": tuple((0, 2) if i == rank - 1 else (1, 1) for i in range(rank))}]


@cache
def _windows(shape):
    """dynamic_slice's `start_indices` and `slice_sizes`: every axis without its first
    element, or without its last, or its second half (an axis of one kept whole)."""
    if not shape:
        return []
    cuts = ((lambda d: (1, d - 1)), (lambda d: (0, d - 1)), (lambda d: (d // 2, d - d // 2)))
    windows = {tuple(cut(d) if d > 1 else (0, d) for d in shape) for cut in cuts}
    return [{"start_indices": tuple(s for s, _ in w), "slice_sizes": tuple(n for _, n in w)}
            for w in sorted(windows)]


@builder(twins(RANKS[1:]), regimes=start_regimes(lambda s, p: p["start_indices"]),
         shapes=INSIDE)
def update_windows(draw, scope, spec):
    """`dynamic_update_slice(x, u, start_indices)`: u of x's rank and nowhere longer,
    written at x's start or against its end."""
    options = [((x, u), {"start_indices": starts}) for x in scope.firsts if x.shape
               for u in scope.vars if len(u.shape) == len(x.shape)
               and all(m <= n for m, n in zip(u.shape, x.shape))
               for starts in dict.fromkeys([(0,) * len(x.shape),
                                            tuple(n - m for m, n in zip(u.shape, x.shape))])]
    return pick(draw, options, lambda o: scope.fits(spec, *o))


@cache
def _difference_axes(shape):
    """diff's `axis`: each axis of two elements at least, and -1."""
    axes = [a for a in range(len(shape)) if shape[a] >= 2]
    return [{"axis": a} for a in axes + ([-1] if axes and axes[-1] == len(shape) - 1 else [])]


@cache
def _triangle_offsets(shape):
    """tril's and triu's `k`: the main diagonal, one above, one below."""
    return [{"k": k} for k in (0, 1, -1)] if len(shape) >= 2 else []


@cache
def _diagonal_offsets(shape):
    """diagonal's and trace's `offset` (of the first two axes): the main diagonal, one
    above and one below where the diagonal still has an element."""
    if len(shape) < 2:
        return []
    return [{"offset": k} for k in (0, 1, -1)
            if min(shape[0] - max(-k, 0), shape[1] - max(k, 0)) >= 1]


@cache
def _deviation_axes(shape):
    """std's `axis` and `keepdims`, as a reduction's, of an operand with elements to
    spread (a scalar's deviation is 0, std's kink)."""
    return _reduction_axes(shape) if shape else []


deviation_axes = _one_operand(_deviation_axes, each(RANKS[1:]),
                              axis_regimes(tuples=True, kept="keepdims"))
squeeze_axes = _one_operand(_squeeze_axes, each(RANKS), SQUEEZE_REGIMES, ONES)
rolls = _one_operand(_rolls, each(RANKS), ROLL_REGIMES)
tilings = _one_operand(_tilings, each(RANKS), TILE_REGIMES)
repeats = _one_operand(_repeats, each(RANKS), axis_regimes())
pad_widths = _one_operand(_pad_widths, each(RANKS[1:]), PAD_REGIMES)
difference_axes = _one_operand(_difference_axes, each(RANKS[1:]), axis_regimes()[1:])
triangle_offsets = _one_operand(_triangle_offsets, each(RANKS[2:]),
                                signed_regimes("k", "the diagonal"))
diagonal_offsets = _one_operand(_diagonal_offsets, each(RANKS[2:]),
                                signed_regimes("offset", "the diagonal"))
windows = _one_operand(_windows, each(RANKS[1:]),
                       start_regimes(lambda s, p: p["start_indices"]))


@builder(each(RANKS[:-1]), regimes=(
    Regime("axis 0", _param("axis", lambda a: a == 0)),
    Regime("axis after the last", lambda s, p: p["axis"] == len(s[0]) > 0, _rank_at_least(1)),
    Regime("a negative axis", _param("axis", lambda a: a < 0))))
def stackable(draw, scope, spec):
    """`stack([x, y...], axis)`: partners of x's shape, axis first, last or -1."""
    options = [(x, axis) for x in scope.firsts for axis in (0, len(x.shape), -1)]
    option = pick(draw, options, lambda o: scope.fits(spec, (o[0], o[0]), {"axis": o[1]}))
    if option is None:
        return None
    x, axis = option
    params = {"axis": axis}
    alike = [y for y in scope.vars if y.shape == x.shape]
    args = (x,)
    for _ in range(draw(st.integers(1, 2))):
        y = pick(draw, alike, lambda y, args=args: scope.fits(spec, (*args, y), params))
        args += (y,) if y is not None else ()
    return args, params


@builder(pairs(RANKS[:2]))
def outer_pair(draw, scope, spec):
    """`outer(x, y)` of a scalar or a vector each (NumPy flattens either: bigger ones
    would outgrow MAX_DIM at once)."""
    options = [(x, y) for x in scope.firsts for y in scope.vars
               if len(x.shape) <= 1 and len(y.shape) <= 1]
    pair = pick(draw, options, lambda pair: scope.fits(spec, pair, {}))
    return None if pair is None else (pair, {})


@cache
def _quarter_turns(shape):
    """rot90's `k`: one, two and three quarter turns, and one the other way."""
    return [{"k": k} for k in (1, 2, 3, -1)] if len(shape) >= 2 else []


quarter_turns = _one_operand(_quarter_turns, each(RANKS[2:]), tuple(
    Regime(name, _param("k", lambda k, turns=turns: k == turns))
    for name, turns in (("one turn", 1), ("two turns", 2), ("three turns", 3),
                        ("one turn back", -1))))


def inner_shape(a, b):
    """NumPy's inner result shape (the last axes contracted), or None."""
    if not a or not b:
        return np.broadcast_shapes(a, b)
    return (*a[:-1], *b[:-1]) if a[-1] == b[-1] else None


@builder(pairs(RANKS, _contracts))
def inner_pair(draw, scope, spec):
    return _contraction(draw, scope, spec, inner_shape)


@builder(pairs(RANKS))
def kron_pair(draw, scope, spec):
    """Any two variables: kron's result, every product in blocks, is kept small by `fits`."""
    pair = pick(draw, [(x, y) for x in scope.firsts for y in scope.vars],
                lambda pair: scope.fits(spec, pair, {}))
    return None if pair is None else (pair, {})


@builder(twins(RANKS))
def twin_pair(draw, scope, spec):
    """Two variables of one shape (`vdot`'s flattened operands)."""
    options = [(x, y) for x in scope.firsts for y in scope.vars if y.shape == x.shape]
    pair = pick(draw, options, lambda pair: _in_domain(scope, spec, pair, {})
                and scope.fits(spec, pair, {}))
    return None if pair is None else (pair, {})


@builder(twins(RANKS), regimes=axis_regimes())
def weighted(draw, scope, spec):
    """`average(x, axis, weights=w)`: w of x's shape, the weights' sum over `axis` kept
    from 0 by the operation's domain."""
    options = [((x, w), params) for x in scope.firsts for w in scope.vars if w.shape == x.shape
               for params in _one_axis(x.shape)]
    return pick(draw, options, lambda o: _in_domain(scope, spec, *o) and scope.fits(spec, *o))


@builder(twins(RANKS[1:]), regimes=axis_regimes()[1:])
def argmax_pair(draw, scope, spec):
    """`take_along_axis(x, argmax(y, axis, keepdims=True), axis)`: y of x's shape (x
    itself at times: its max), an axis with elements (-1 at times)."""
    options = [((x, y), {"axis": axis}) for x in scope.firsts for y in scope.vars
               if y.shape == x.shape for axis in [*range(len(x.shape)), -1]
               if x.shape and x.shape[axis] > 0]
    return pick(draw, options, lambda o: _in_domain(scope, spec, *o) and scope.fits(spec, *o))


@builder(pairs(RANKS), shapes=SQUARE, regimes=(
    Regime("no axes (an outer product)", _param("axes", lambda n: n == 0)),
    Regime("one axis", _param("axes", lambda n: n == 1), lambda r: min(map(int, r)) >= 1),
    Regime("two axes", _param("axes", lambda n: n == 2), lambda r: min(map(int, r)) >= 2)))
def tensordot_pair(draw, scope, spec):
    """`tensordot(x, y, axes)`: x's last `axes` axes (0, 1 or 2) of y's first's sizes."""
    options = [((x, y), {"axes": n}) for x in scope.firsts for y in scope.vars
               for n in (0, 1, 2) if n <= min(len(x.shape), len(y.shape))
               and x.shape[len(x.shape) - n:] == y.shape[:n]]
    return pick(draw, options, lambda o: scope.fits(spec, *o))


# einsum's letters: x's axes take the first ones in order, each new axis of y the next.
_LETTERS = "abcdef"


@cache
def _einsum_inputs(x: tuple[int, ...], y: tuple[int, ...] | None) -> list[str]:
    """The operands' subscripts: x's axes the first letters in order, each axis of y
    a new letter or one of x's of its size that y has not taken yet; every axis of y
    new first, then each sharing in turn."""
    first = _LETTERS[:len(x)]
    if y is None:
        return [first]
    found = []

    def extend(letters: str, used: int) -> None:
        if len(letters) == len(y):
            found.append(f"{first},{letters}")
            return
        extend(letters + _LETTERS[used], used + 1)
        for c, d in zip(first, x):
            if d == y[len(letters)] and c not in letters:
                extend(letters + c, used)

    extend("", len(x))
    return found


def _letters(inputs: str) -> list[str]:
    """The letters of an einsum's inputs, in the order they first appear."""
    return list(dict.fromkeys(inputs.replace(",", "")))


@cache
def _einsum_outputs(inputs: str) -> list[str]:
    """The outputs: at most MAX_RANK of the inputs' letters, in each order; none
    (every product summed) first."""
    letters = _letters(inputs)
    return ["".join(p) for k in range(min(len(letters), MAX_RANK) + 1)
            for p in itertools.permutations(letters, k)]


def _probes(inputs: str) -> list[str]:
    """An output that sums everything and one that transposes two letters: between them
    they put inputs in each regime the inputs admit (`EINSUM_REGIMES`)."""
    letters = _letters(inputs)
    return [f"{inputs}->"] + ([f"{inputs}->{letters[1]}{letters[0]}"] if len(letters) > 1
                              else [])


def _subscripts(test: Callable[[list[str], str], bool]) -> Callable[[tuple, dict], bool]:
    """`test(inputs, output)` of the subscripts, the inputs one string per operand."""
    def admits(shapes, params):
        inputs, output = params["subscripts"].split("->")
        return test(inputs.split(","), output)
    return admits


def _two_arrays(ranks: tuple[str, ...]) -> bool:
    return len(ranks) == 2 and min(map(int, ranks)) >= 1


# einsum's regimes: a letter of both operands summed (a contraction), none shared (an
# outer product, each operand's letters apart), and an output in another order than
# its letters first appear (a transpose: einsum's last step, and its transpose's first).
EINSUM_REGIMES = (
    Regime("a shared index summed (a contraction)", _subscripts(
        lambda ins, out: len(ins) == 2 and any(c in ins[1] and c not in out for c in ins[0])),
        _two_arrays),
    Regime("no shared index (an outer product)", _subscripts(
        lambda ins, out: len(ins) == 2 and all(ins) and not set(ins[0]) & set(ins[1])),
        _two_arrays),
    Regime("the output transposed", _subscripts(
        lambda ins, out: list(out) != [c for c in _letters(",".join(ins)) if c in out]),
        lambda ranks: sum(map(int, ranks)) >= 2))


@builder(each(RANKS) + pairs(RANKS), shapes=SQUARE, regimes=EINSUM_REGIMES)
def einsum_operands(draw, scope, spec):
    """`einsum(subscripts, x)` or `einsum(subscripts, x, y)`: the operands (any variable,
    or two), then their inputs' subscripts (`_einsum_inputs`), then the output
    (`_einsum_outputs`), each the first from a drawn start that some output fits
    (`_probes`): the simplest draw, every letter new and none kept, sums every
    product, valid for any operands."""

    def inputs_of(args):
        return _einsum_inputs(args[0].shape, args[1].shape if len(args) == 2 else None)

    def probed(args, inputs):
        return any(scope.fits(spec, args, {"subscripts": s}) for s in _probes(inputs))

    def valid(args):  # all letters new, or the first sharing: every regime's inputs
        options = inputs_of(args)
        return any(probed(args, inputs) for inputs in options[:2])

    options = [(x,) for x in scope.firsts] + [(x, y) for x in scope.firsts for y in scope.vars]
    args = pick(draw, options, valid)
    if args is None:
        return None
    inputs = pick(draw, inputs_of(args), lambda inputs: probed(args, inputs))
    output = pick(draw, _einsum_outputs(inputs),
                  lambda output: scope.fits(spec, args, {"subscripts": f"{inputs}->{output}"}))
    return args, {"subscripts": f"{inputs}->{output}"}


# take's indices: how many (a gather may repeat an index or leave one out).
MAX_TAKEN = 4


def _taking(shape):
    """take's axes: None (the flattened operand), each axis, -1."""
    return [None, *range(len(shape))] + ([-1] if shape else [])


def _repeated(indices) -> bool:
    return len(set(indices)) < len(indices)


# take's regimes: each kind of axis, and indices all distinct or one of them repeated
# (where the transpose, a scatter, must add the cotangents that meet).
TAKE_REGIMES = axis_regimes() + (
    Regime("an index repeated", _param("indices", _repeated)),
    Regime("distinct indices", _param("indices", lambda indices: not _repeated(indices))))


@builder(each(RANKS), regimes=TAKE_REGIMES)
def take_indices(draw, scope, spec):
    """`take(x, indices, axis)`: a vector of 1 to MAX_TAKEN indices into x's `axis`
    (None: the flattened x), all distinct or one repeated (a gather's transpose adds
    the repeats); which of the two is chosen with x and the axis, so that a regime
    of either steers that choice (`fits` sees (0,) or (0, 0) for it)."""
    options = [(x, axis, repeats) for x in scope.firsts for axis in _taking(x.shape)
               if (int(np.prod(x.shape)) if axis is None else x.shape[axis]) > 0
               for repeats in (False, True)]
    option = pick(draw, options, lambda o: scope.fits(spec, (o[0],), {
        "indices": (0, 0) if o[2] else (0,), "axis": o[1]}))
    if option is None:
        return None
    x, axis, repeats = option
    n = int(np.prod(x.shape)) if axis is None else x.shape[axis]
    indices = draw(st.lists(st.integers(0, n - 1), min_size=1, unique=not repeats,
                            max_size=MAX_TAKEN - 1 if repeats else min(n, MAX_TAKEN)),
                   label="take's indices")
    if repeats:  # one of them again, at a drawn place
        again = indices[index(draw, len(indices), label="take's repeated index")]
        indices.insert(index(draw, len(indices) + 1, label="where it repeats"), again)
    params = {"indices": tuple(indices), "axis": axis}
    return ((x,), params) if scope.fits(spec, (x,), params) else None


# quantile's q: the median first, then a quartile, both ends (min and max) and one
# whose position falls between two elements of every axis longer than 1.
QUANTILES = (0.5, 0.25, 0.0, 1.0, 0.9)


@cache
def _median_axes(shape):
    """An axis with elements (None: all of them), and keepdims; a 0-d operand without
    keepdims, where JAX's result has shape (1,) and NumPy's () (docs/findings/jax.md, J2)."""
    axes = [None, *range(len(shape))] + ([-1] if shape else [])
    return [{"axis": axis, "keepdims": keepdims} for axis in axes
            if (int(np.prod(shape)) if axis is None else shape[axis]) > 0
            for keepdims in ((False, True) if shape else (False,))]


@cache
def _quantile_axes(shape):
    return [{"q": q, **params} for params in _median_axes(shape) for q in QUANTILES]


@builder(each(RANKS), regimes=axis_regimes(kept="keepdims"))
def median_axes(draw, scope, spec):
    """`median(x, axis, keepdims)`: None, an int or -1, each with elements."""
    return _with_params(draw, scope, spec, _median_axes)


def _between(shapes, params) -> float:
    """Where q falls between two sample points of its axis: the fractional part of its
    position q (n - 1), 0 on a sample point."""
    position = params["q"] * (_axis(shapes, params["axis"]) - 1)
    return 0.0 if abs(position - round(position)) < 1e-9 else position - np.floor(position)


def _off_middle(fraction: float) -> bool:
    """Between two samples, nearer one: the two weights differ, so swapping them shows."""
    return fraction > 1e-9 and abs(fraction - 0.5) > 1e-9


# quantile's regimes: q on a sample point (the derivative picks one element) or
# between two, nearer one (it splits unequally between them; the middle of two is
# the median's of an even count), each with a kind of axis.
QUANTILE_REGIMES = tuple(
    Regime(f"{axes.name}, q {'at a sample point' if at else 'between two, off their middle'}",
           lambda s, p, axes=axes, at=at: axes.admits(s, p) and (
               _between(s, p) < 1e-9 if at else _off_middle(_between(s, p))),
           axes.at if at else _rank_at_least(1))
    for axes, at in zip(axis_regimes(kept="keepdims") * 2, (True, False, True, False, True, False))
)[:4]


@builder(each(RANKS), regimes=QUANTILE_REGIMES)
def quantile_axes(draw, scope, spec):
    """`quantile(x, q, axis, keepdims)`: q one of QUANTILES, axes as `median_axes`."""
    return _with_params(draw, scope, spec, _quantile_axes)


# convolve's and correlate's modes: the whole result, its middle (the longer operand's
# length), and where the operands overlap wholly.
CONVOLUTION_MODES = ("full", "same", "valid")


@builder((("1", "1"),), regimes=tuple(Regime(mode, _param("mode", lambda m, mode=mode: m == mode))
                                      for mode in CONVOLUTION_MODES), shapes=APART)
def convolution_pair(draw, scope, spec):
    """`convolve(x, y, mode)` and `correlate`'s: two vectors (not empty), any lengths,
    any mode."""
    options = [((x, y), {"mode": mode}) for x in scope.firsts for y in scope.vars
               if len(x.shape) == len(y.shape) == 1 and x.shape[0] and y.shape[0]
               for mode in CONVOLUTION_MODES]
    return pick(draw, options, lambda o: scope.fits(spec, *o))


def _square(shape) -> bool:
    return len(shape) >= 2 and shape[-1] == shape[-2] and shape[-1] > 0


@builder((("2",), ("3",)), shapes=SQUARE)
def square_matrices(draw, scope, spec):
    """A stack of square matrices (rank 2 or 3) within the operation's domain."""
    options = [(x,) for x in scope.firsts if _square(x.shape)]
    args = pick(draw, options, lambda o: _in_domain(scope, spec, o, {}) and scope.fits(spec, o, {}))
    return None if args is None else (args, {})


def _right_hand_side(a, b) -> bool:
    """NumPy 2's solve: b a vector of a's size, or a stack of matrices of a's rows whose
    leading axes broadcast with a's."""
    if len(b) == 1:
        return b[0] == a[-1]
    if len(b) < 2 or b[-2] != a[-1]:
        return False
    try:
        np.broadcast_shapes(a[:-2], b[:-2])
    except ValueError:
        return False
    return True


@builder(tuple((a, b) for a in ("2", "3") for b in ("1", "2", "3")), shapes=SQUARE)
def solve_pair(draw, scope, spec):
    """`linalg.solve(a, b)`: a a stack of square matrices within the domain, b a
    right-hand side for it (`_right_hand_side`)."""
    options = [(a, b) for a in scope.firsts if _square(a.shape) for b in scope.vars
               if _right_hand_side(a.shape, b.shape)]
    pair = pick(draw, options, lambda o: _in_domain(scope, spec, o, {}) and scope.fits(spec, o, {}))
    return None if pair is None else (pair, {})
