"""The tolerance policy: every number jaxcheck compares with, and why.

Generated programs keep every intermediate within |v| <= 100 and away from
poles and kinks (`strategies/language/domains.py`).  Two correct float64
implementations of such a program (JAX, refimpl, NumPy; eager or compiled;
different association orders) differ by about 1e-13 relative; the bugs this
suite hunts (a wrong derivative rule, a misplaced batch axis, a stale cache)
move results by 1e-3 or more.  The tolerances sit between the two, several
orders of magnitude from each: a failure means a bug, and a bug fails.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

# An SUT may declare that it computes an operation less accurately than
# float64 rounding (`__sut_accuracy__`, docs/sut-api.md): each call errs by at
# most e (1 + |value|), relative above 1 and absolute below, its derivative
# rules included.  An example that uses such an operation is judged with
# DECLARED_ERROR_GROWTH * e added to both parts of every tolerance.  A program
# carries the error to its result multiplied by products of slopes, and
# those reach 1e4: on an SUT that errs by 5e-6 at every call of exp, sin and
# cos, growth 1,000 left a false failure where sin's argument (68, reached
# through exp) carried the error and its tangent multiplied it by 128
# (docs/performance.md, "A declared accuracy").  1e5 leaves a factor of 6
# above the largest amplification measured, as EXACT leaves 1e4 above float64
# rounding.
DECLARED_ERROR_GROWTH = 1e5

# The largest error a declaration may state: grown as above it is 5e-2, so a
# rule wrong by a sign, a factor or a dropped term (an error of the size of
# the result) still fails.  Subtler errors hide in it: that is what "checked
# at the declared accuracy" means, and the report shows the declaration.
# MLX's float64 exp errs by up to 4.8e-7 (docs/findings/mlx.md, M3).
MAX_DECLARED_ERROR = 5e-7


@dataclass(frozen=True)
class Tolerance:
    """|actual - expected| <= atol + rtol * |expected| (+ error_factor * error estimate)."""

    rtol: float
    atol: float
    why: str
    error_factor: float = 0.0
    # How many times an operation's declared error (`declared`) is added to
    # both parts: DECLARED_ERROR_GROWTH for a program, 1 for one call alone.
    declared_growth: float = DECLARED_ERROR_GROWTH


# SUT against an exact oracle: NumPy evaluation, a reference SUT, eager vs jit,
# vmap vs a loop.  Rounding through <= 30 float64 operations on values <= 100
# stays below 1e-11 absolute; 1e-7 leaves four orders of margin on each side.
EXACT = Tolerance(
    rtol=1e-7, atol=1e-7,
    why="float64 rounding differences between correct implementations are < 1e-11",
)

# One operation alone (no reduction or contraction, whose summation order is
# the implementation's choice) against NumPy.  Correct float64 implementations
# agree within a few ulps: JAX against NumPy, 200,000 inputs of magnitude
# 1e-3..100 per operation, at most 7.8e-16 relative (tanh; add, multiply,
# divide, sin, cos, sqrt: 0).  A float32 step inside one is off by up to
# 6e-8 relative, which EXACT's 1e-7 lets through; 1e-12 is 1,000 times above
# the first and 60,000 below the second.  The 1e-15 floor is for results
# within rounding of 0.
# An operation the SUT declares less accurate is held to its declaration
# itself: one call, so its declared error exactly, grown by nothing.
ONE_OPERATION = Tolerance(
    rtol=1e-12, atol=1e-15,
    why="one float64 operation: correct implementations agree within a few ulps (< 1e-15)",
    declared_growth=1.0,
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

# Finite-difference steps, tried in turn (inputs are O(1)).  Truncation error
# shrinks as h**2 (the estimate) and h**4 (Richardson); rounding grows as
# 1e-16 * |f| / h.  1e-3 suits most programs; a program whose third
# derivative is large (sin(x**-2) at the pole margin: about 1e6) needs 1e-4 or
# 1e-5, where rounding (< 1e-9 for |f| <= 100) is still far below FD_RELIABLE.
FD_STEPS = (1e-3, 1e-4, 1e-5)

# Fallback steps, tried only when no step of FD_STEPS is reliable.  Inside
# every domain margin, derivatives still compound: a loop multiplies them at
# each iteration, exp of a value near its cap has slope 100, and a Python
# `for` of cos over such a chain gives third derivatives near 4e13, so that
# the Richardson error falls like h**2 only below 1e-5.  At 1e-7 rounding is
# 8 eps (1 + |f|) / h < 1.8e-6 for |f| <= 100: still well inside FD_RELIABLE
# for any derivative >= 1, and such programs' derivatives are in the
# thousands.  An example some step of FD_STEPS resolves never reaches these,
# so its estimate is unchanged.  The programs that showed the need, and how
# often these steps judge an example: docs/performance.md, "Finite
# differences: which steps judge an example".
FD_STEPS_SHARP = (1e-6, 1e-7)

# A derivative estimate above this, when no step is reliable, marks a
# program too sharp for float64 finite differences: the example is rejected
# and counted (`oracles.finite_diff._give_up`), not blamed on anyone.  Below
# it, the outputs move by h |J v| <= 1e-4 at the finest step, far inside
# KINK_MARGIN (0.05) and POSITIVE_FLOOR (0.25), and a third derivative large
# enough to defeat every step would need a length scale of about 1e-6: that
# is a generator bug and fails loudly.
FD_SHARP_DERIVATIVE = 1e3

# An FD estimate whose own error estimate exceeds this (relative to the size
# of the derivative, floor 1) is unreliable: the generator made a program too
# close to a singularity, which is a jaxcheck bug, reported as such.
FD_RELIABLE = 1e-4


# ----------------------------------------------------------------------------- stacks
# A stack of transformations (`strategies/stacks.py`) is checked against its
# NumPy meaning projected on random weights: a sum of terms, each a mixed
# derivative of order 0, 1 or 2 of psi(eps) = <w(eps), f(x(eps))>
# (`oracles.finite_diff.mixed`).  Order 2 uses the mixed central difference
#     D(h) = (psi(h, h) - psi(h, -h) - psi(-h, h) + psi(-h, -h)) / 4h^2,
# whose truncation error is (h^2 / 6)(psi_aaab + psi_abbb) + O(h^4); Richardson
# with h/2 leaves O(h^4), and |D(h/2) - D(h)| / 3 estimates what is left.
# Rounding: an error d in psi moves D(h) by up to d / h^2 and the Richardson
# value by (4 * 4 + 1) / 3 * d / h^2, about 6 d / h^2; with d ~ 2.7 eps (1 + |psi|)
# that is 16 eps (1 + |psi|) / h^2, and 8 eps (1 + |psi|) / h at order 1 (as
# `directional` uses): FD_ROUNDING_MIXED * k * eps * (1 + scale) / h^k, where
# scale = sum |w| (1 + |f|) so cancellation inside psi cannot hide it.
FD_ROUNDING_MIXED = 8.0

# Second-order steps.  Rounding grows as 1/h^2, so they are larger than
# FD_STEPS: at 1e-2 rounding is 3.5e-14 * scale / 1e-4 = 3.5e-10 * scale and
# the O(h^4) Richardson remainder ~1e-8 * psi^(6); smaller steps serve
# programs with large high derivatives (sin of x**-2 at the pole margin) or a
# kink within 1e-2.  `mixed` uses the reliable step with the smallest bound.
# Measured over 800 drawn stacks (313 second-order terms): the chosen bound
# is 1.6e-10 relative at the median and 6.8e-7 at most (first order: 6e-12,
# 5.8e-9); 1e-4 alone is rounding-dominated (1e-6 median), a last resort.
FD_STEPS_SECOND_ORDER = (1e-2, 3e-3, 1e-3, 1e-4)

# A stack's value on the SUT, projected on random weights, against its NumPy
# meaning: the numbers of FINITE_DIFFERENCES, for the same reason, with the
# mixed finite-difference error bound above in place of the first-order
# estimate (the terms of order 0 are exact).  The SUT's own rounding on sums
# of up to a few thousand products of values <= 100 is below 1e-9; a wrong
# rule, a misplaced batch element or a dropped tangent moves the sum by
# ~1e-2 or more.
STACK_MEANING = replace(
    FINITE_DIFFERENCES,
    why="1e-6 plus ten times the error bound of the (order <= 2) finite differences",
)

# Two SUT computations of one second-order quantity in two orders:
# <p, H q> and <q, H p> for the Hessian H of a loss, each by jvp of grad.
# Both are sums of the same second partials (|.| <= about 1e4 at the domain
# margins: 12 x**-5 at |x| = 0.25 is 1.2e4) times directions in [-1, 1],
# over <= 1,500 elements; rounding stays below 1e-8 (measured: at most
# 2.3e-13 on JAX and 1.1e-13 on refimpl, values up to 2.9e3), and an
# asymmetric rule moves the sums by O(|p| |q|) ~ 1e-1.
HESSIAN_SYMMETRY = Tolerance(
    rtol=1e-7, atol=1e-7,
    why="the same second partials summed in another order; rounding < 1e-8",
)


# A program against its rewrite into an equal one (`strategies/equivalences.py`),
# both on the SUT under the same transformations.  The rewrites change
# rounding only (a reassociated matmul, `a * (1 / b)` for `a / b`: a few ulps
# of values <= 100, carried through <= 30 more operations, < 1e-11), and they
# are exact at the ties and kinks they create (a tie's derivative has weights
# that sum to one, in every convention the contract allows), while a rule
# that is wrong at a tie moves a derivative by the size of a tangent, ~1e-1.
EQUIVALENT = replace(
    EXACT,
    why="equal programs differ by rounding only (< 1e-11), at ties and kinks too",
)


# An SUT at a kink or a domain edge against the value the contract's convention
# states (`strategies/language/conventions.py`), computed in NumPy by the chain rule
# JAX applies: the same few operations per element, in another order at most
# (`u * (0.5 / s)` against `u / (2 s)`), < 1e-13 on values <= 1e2; a NaN or an
# infinity is compared by its kind, exactly.  Another convention moves a
# derivative by the size of a tangent (0.5 at a tie) or makes it non-finite.
CONVENTION = replace(
    EXACT,
    why="the convention's value by the same chain rule in NumPy; NaN and inf compared by kind",
)


# A computation in float32 (the contract's float32 part: float32 inputs give a
# float32 computation) rounds at every operation, by up to float32's unit
# roundoff 2**-24 = 6e-8 relative.  It is judged as an example using an
# operation an SUT declares accurate to that is: DECLARED_ERROR_GROWTH times it
# added to both parts of every tolerance, 6e-3 (1 + |value|), since every
# operation errs where a declaration has a few.  The largest error measured
# on correct float32 implementations against this tolerance, 8.6e-6
# (1 + |value|), 700 times below it: docs/performance.md, "float32 and integer
# arguments".  A wrong rule moves a result by the size of a tangent (~1e-1 and
# more); a float32 result returned as float64 is caught by its dtype
# (tests/test_dtypes.py).
FLOAT32_ROUNDING = 2.0**-24


def in_float32(tolerance: Tolerance) -> Tolerance:
    """`tolerance` for an example that computes in float32."""
    return declared(tolerance, FLOAT32_ROUNDING,
                    "the example computes in float32 (unit roundoff 6e-8 at each operation)")


def scaled(tolerance: Tolerance, magnitude: float) -> Tolerance:
    """`tolerance` with its absolute part scaled by (1 + magnitude) of the summed terms."""
    return replace(tolerance, atol=tolerance.atol * (1 + magnitude))


def declared(tolerance: Tolerance, error: float, what: str) -> Tolerance:
    """`tolerance` for an example using operations the SUT declares accurate to
    `error` only (`what` says which, and why)."""
    widening = tolerance.declared_growth * error
    return replace(tolerance, rtol=tolerance.rtol + widening, atol=tolerance.atol + widening,
                   why=f"{tolerance.why}; widened by {widening:.3g} because {what}")
