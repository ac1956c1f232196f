"""The tolerance policy: every number jaxcheck compares with, and why.

Generated programs keep every intermediate within |v| <= 100 and away from
poles and kinks (`strategies/domains.py`).  Two correct float64
implementations of such a program (JAX, refimpl, NumPy; eager or compiled;
different association orders) differ by about 1e-13 relative; the bugs this
suite hunts (a wrong derivative rule, a misplaced batch axis, a stale cache)
move results by 1e-3 or more.  The tolerances sit between the two, several
orders of magnitude from each: a failure means a bug, and a bug fails.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Tolerance:
    """|actual - expected| <= atol + rtol * |expected| (+ error_factor * error estimate)."""

    rtol: float
    atol: float
    why: str
    error_factor: float = 0.0


# SUT against an exact oracle: NumPy evaluation, a reference SUT, eager vs jit,
# vmap vs a loop.  Rounding through <= 30 float64 operations on values <= 100
# stays below 1e-11 absolute; 1e-7 leaves four orders of margin on each side.
EXACT = Tolerance(
    rtol=1e-7, atol=1e-7,
    why="float64 rounding differences between correct implementations are < 1e-11",
)

# SUT against central finite differences.  The oracle's Richardson error
# estimate covers truncation and rounding; ten times it, plus 1e-6 for what
# the estimate can miss on O(1) values, still lies far below the 1e-3 effect
# of a wrong derivative rule.
FINITE_DIFFERENCES = Tolerance(
    rtol=1e-6, atol=1e-6, error_factor=10.0,
    why="1e-6 plus ten times the finite-difference error estimate",
)

# Identities between the SUT's own transformations (<u, J v> == <J^T u, v>).
# Both sides are sums of the same products in another order; the scale is the
# sum of their magnitudes, so cancellation cannot fake a mismatch.
IDENTITY = Tolerance(
    rtol=1e-9, atol=1e-9,
    why="same products summed in another order; compared against the sum of magnitudes",
)

# Finite-difference step (inputs are O(1)): truncation ~ h**4 after Richardson,
# rounding ~ 1e-16 * |f| / h; both ~ 1e-10 at h = 1e-3.
FD_STEP = 1e-3

# An FD estimate whose own error estimate exceeds this (relative to the size
# of the derivative, floor 1) is unreliable: the generator made a program too
# close to a singularity, which is a jaxcheck bug, reported as such.
FD_RELIABLE = 1e-4
