"""Well-conditioned float64 inputs.

Values are multiples of 1/1000 in [-2, 2]: far from overflow, with no
subnormals, NaNs, infinities or negative zeros, and short exact literals in
reproducers (`0.517`, not `0.5170000000000001`).  Domains (log of a positive
value, division by a value away from zero) are the program generator's job:
it offers an operation only where its operands satisfy it.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument
from hypothesis.extra import numpy as hnp

GRID = 1000  # values are k / GRID


# A later input set of one program is drawn `APART` steps on per set from the first
# (`arrays(shift=)`): the simplest draws are 0.0, then 0.25, 0.5, ..., so a function
# called at two of them already sees other values in the simplest example.
APART = GRID // 4


def values(*, bound: float = 2.0, shift: int = 0) -> st.SearchStrategy[float]:
    """Floats `k / 1000` in `[-bound, bound]`; shrink towards 0.0, or with `shift`
    towards `shift / 1000`: each drawn step moved on by `shift`, wrapping within
    the bound (the same draws, other values)."""
    if not isinstance(bound, int | float) or not 0 < bound <= 100:
        raise InvalidArgument(f"bound={bound!r} must be a number in (0, 100]")
    steps = int(bound * GRID)
    return st.integers(-steps, steps).map(
        lambda k: ((k + shift + steps) % (2 * steps + 1) - steps) / GRID)


def arrays(shape, *, bound: float = 2.0, shift: int = 0) -> st.SearchStrategy[np.ndarray]:
    """float64 arrays of `shape` with every element drawn by `values` (`shift` too).

    `fill=st.nothing()` draws each element on its own: Hypothesis's default
    fill would repeat one value and create ties that `maximum` cannot take.
    Examples shrink towards all zeros (all `shift / 1000`).
    """
    if not isinstance(shape, tuple) or not all(isinstance(d, int) and d >= 0 for d in shape):
        raise InvalidArgument(f"shape={shape!r} must be a tuple of non-negative ints")
    return hnp.arrays(np.float64, shape, elements=values(bound=bound, shift=shift),
                      fill=st.nothing())


def _unit(k):
    """Step k (of 2 * GRID + 1) as `1 - k/1000` in [-1, 1]: step 0 is 1.0, the most
    readable direction, where a direction's steps shrink."""
    return 1 - k / GRID


def _unit_values() -> st.SearchStrategy[float]:
    return st.integers(0, 2 * GRID).map(_unit)


def directions(shapes, *, ramp: bool = False) -> st.SearchStrategy[tuple[np.ndarray, ...]]:
    """One array per shape, elements in [-1, 1]: tangents, cotangents, FD directions.

    Examples shrink towards all ones (a zero direction would hide every bug),
    or with `ramp` towards 1, 7/8, 3/4, ... in row-major order: a constant
    cotangent hides a transpose that moves elements (a flip's transpose left
    out), which matters where a property has few examples to show it
    (tests/test_cells.py: 3 per row in `ci`).
    """
    if ramp:
        return st.tuples(*(hnp.arrays(np.int64, tuple(shape), elements=st.integers(0, 2 * GRID),
                                      fill=st.nothing()).map(_ramp) for shape in shapes))
    return st.tuples(*(hnp.arrays(np.float64, tuple(shape), elements=_unit_values(),
                                  fill=st.nothing()) for shape in shapes))


RAMP_STEP = GRID // 8  # 1/8 apart: the simplest draw runs from 1 to -1 in 17 places, then wraps


def _ramp(steps: np.ndarray) -> np.ndarray:
    """`_unit_values`' steps, each moved on by RAMP_STEP per place."""
    return _unit(moved_by_place(steps, RAMP_STEP, 2 * GRID + 1))


def moved_by_place(steps: np.ndarray, stride: int, count: int) -> np.ndarray:
    """Each drawn step (of `count`) moved on by `stride` per place in row-major order,
    modulo `count`: the simplest draw, every step 0, becomes a ramp along the array
    instead of a constant, and a random draw stays as random."""
    places = np.arange(steps.size).reshape(steps.shape)
    return (steps + places * stride) % count
