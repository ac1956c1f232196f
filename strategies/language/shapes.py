"""Shapes for generated programs: small, and drawn from a per-program pool of sizes.

Drawing every dimension of a program's inputs from one small pool of sizes
makes broadcasting, `matmul`, `dot` and `concatenate` partners common (the
generator finds operands that fit), and keeps the number of distinct shapes
a run produces small: the reference oracle compiles once per shape, so the
shape vocabulary sets the suite's warm-up time (docs/performance.md).
"""

from __future__ import annotations

from typing import NamedTuple

from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument
from hypothesis.extra import numpy as hnp

from strategies.language.domains import MAX_DIM, MAX_RANK
from strategies.language.operands import choose


def check_type(name: str, value, kind) -> None:
    if not isinstance(value, kind) or isinstance(value, bool):
        raise InvalidArgument(f"{name}={value!r} must be of type {kind.__name__}")


def check_range(name: str, low: int, high: int, *, floor: int, ceiling: int) -> None:
    """`floor <= low <= high <= ceiling`, else InvalidArgument naming the bad bound."""
    check_type(f"min_{name}", low, int)
    check_type(f"max_{name}", high, int)
    if low < floor:
        raise InvalidArgument(f"min_{name}={low} is smaller than {floor}")
    if high > ceiling:
        raise InvalidArgument(f"max_{name}={high} is larger than {ceiling}")
    if low > high:
        raise InvalidArgument(f"min_{name}={low} is larger than max_{name}={high}")


def batch_axes(rank: int, *, last_first: bool = False) -> list[int]:
    """Positions a batch axis may take in an array of `rank` (before batching), simplest
    first: what vmap's in_axes and out_axes are drawn from.  With `last_first` the
    last position (-1) leads, so that a property's simplest draw (its first example)
    shows a rule that takes the batch axis to be the first."""
    axes = [a for a in (0, 1, -1, 2, -2, 3) if -(rank + 1) <= a <= rank]
    return sorted(axes, key=lambda a: a != -1) if last_first else axes


def array_shapes(*, min_rank=0, max_rank=3, min_dim=1, max_dim=5) -> st.SearchStrategy:
    """Shapes of rank `min_rank..max_rank` with dims `min_dim..max_dim`.

    Defaults: rank 0-3, dims 1-5.  Examples shrink towards `()`.
    Thin over `hypothesis.extra.numpy.array_shapes`, with jaxcheck's limits.
    """
    check_range("rank", min_rank, max_rank, floor=0, ceiling=MAX_RANK)
    check_range("dim", min_dim, max_dim, floor=1, ceiling=MAX_DIM)
    return hnp.array_shapes(min_dims=min_rank, max_dims=max_rank, min_side=min_dim,
                            max_side=max_dim)


class InputShapes(NamedTuple):
    pool: tuple[int, ...]
    shapes: tuple[tuple[int, ...], ...]


# One program in this many has a 0 in its pool of sizes (about 80 in 1,000
# programs then have an empty input: a pool holding 0 still offers its other
# sizes): enough to hold every operation to its empty-array behaviour, rare
# enough that most programs compute on real values.  The draw adds 0 at its
# lowest value, which Hypothesis reaches early and often (a range's top value
# only in a few fresh examples).
EMPTY_ODDS = 8

# The edge shapes the language must reach, as a test of one shape each; the
# generator reports which a program's inputs hit (`event`), so the
# self-test statistics show how often each edge is exercised.
EDGES = {
    "rank 0": lambda shape: len(shape) == 0,
    "size-1 dim": lambda shape: 1 in shape,
    "zero-size dim": lambda shape: 0 in shape,
}


def edges(shapes) -> list[str]:
    """The names of the EDGES that any of `shapes` hits."""
    shapes = list(shapes)
    return [name for name, hits in EDGES.items() if any(map(hits, shapes))]


@st.composite
def input_shapes(draw, count, *, min_rank=0, max_rank=3, min_dim=1, max_dim=5, pool_size=2,
                 allow_empty=False):
    """`count` shapes whose dims all come from one drawn pool of `pool_size` sizes.

    With `allow_empty`, one program in `EMPTY_ODDS` also has 0 in its pool.
    Examples shrink towards rank-0 shapes and a pool of the smallest sizes.
    """
    check_type("count", count, int)
    check_range("rank", min_rank, max_rank, floor=0, ceiling=MAX_RANK)
    check_range("dim", min_dim, max_dim, floor=1, ceiling=MAX_DIM)
    check_type("pool_size", pool_size, int)
    if count < 0 or pool_size < 1:
        raise InvalidArgument(f"count={count} and pool_size={pool_size} must be >= 0 and >= 1")
    sizes = st.integers(min_dim, max_dim)
    pool = tuple(draw(st.lists(sizes, min_size=1, max_size=pool_size, unique=True)))
    if allow_empty and draw(st.integers(0, EMPTY_ODDS - 1), label="zero-size dims") == 0:
        pool += (0,)

    def one(i):
        rank = draw(st.integers(min_rank, max_rank), label=f"rank x{i}")
        return tuple(choose(draw, pool, label=f"dim {k} x{i}") for k in range(rank))

    return InputShapes(pool, tuple(one(i) for i in range(count)))
