"""The complexity oracle's bounds: every constant the cost properties hold an SUT to, and why.

Work is counted by `oracles/cost.py` in the IR an SUT stages: elements
produced per equation, multiply-adds for dot_general, elements read for
reductions, loop bodies times their trip count.  How the numbers below were
measured, per operation and per SUT: docs/performance.md, "Gradient cost".
"""

from __future__ import annotations

# Reverse mode: work(grad f) <= C_GRAD * work(f) + slack.  Griewank and
# Walther's cheap gradient principle bounds reverse mode at about 4 times the
# forward operation count, with operations weighted by their cost; this model
# counts every element alike, so a correct rule may exceed 4 on its own.  The
# ratio of a whole program is at most the worst ratio of its operations, and
# the costliest correct rule known is JAX's tie-splitting `maximum`
# (comparisons, selects and a halving over the broadcast shape: 14.5 on
# maximum-only programs).  16 lies above it; the growth properties, not this
# constant, catch asymptotic losses.
C_GRAD = 16.0
# refimpl is held to its costliest correct rule: no reverse mode can promise less
# than 4 in this model (`q = x / y` reverses to `ct / y`, `* q` and a negation,
# four element operations per forward one), and refimpl's `max` and `min`
# reductions split ties, as JAX's do: an equality mask, its count, a division
# and a product per element read, beside the forward reduction again.  `ptp`
# alone (a max, a min and a subtraction of one 0-d result) stages 90 against
# 13, a ratio of 6.9; 8 lies above it.
C_GRAD_REFIMPL = 8.0

# Forward mode: work(jvp f) <= C_JVP * work(f) + slack.  For refimpl the
# costliest elementwise tangent rule is division's (t_x / y - t_y * x / y**2:
# four to five operations per element) plus the primal, so 6.  JAX's
# `maximum` tangent (tie-splitting) measures 20.8 on maximum-only programs,
# so every other SUT is held to 24.
C_JVP = 24.0
C_JVP_REFIMPL = 6.0

# The constant factors by SUT name; an SUT not listed is held to C_GRAD, C_JVP.
GRAD_FACTORS = {"refimpl": C_GRAD_REFIMPL}
JVP_FACTORS = {"refimpl": C_JVP_REFIMPL}

# The additive slack D, per transformed program: SLACK_FIXED plus one element
# per element of the result.  A derivative must write its result even where f
# never reads the input (an unused 5x5x5 input has a zero gradient of 125
# elements and costs f nothing), and seeding a cotangent or a tangent costs a
# few scalar operations a one-equation f does not have.  16 covers those and
# is small beside any program where a constant factor could hide.
SLACK_FIXED = 16

# Growth families (n -> 2n): a linear transformation at most doubles its
# work, plus rounding from fixed overheads; quadratic growth gives about 4 and
# exponential growth 2**n.  2.5 sits between the two.
GROWTH_LINEAR = 2.5

# Timing fallback (SUTs without make_jaxpr): sizes n and TIMING_FACTOR * n,
# the fastest of TIMING_REPEATS runs each in CPU seconds, one process (7: two
# more draws at the least disturbed run than 5, for milliseconds).  A linear SUT gives a
# ratio of at most 4 (less where fixed overheads dominate); a quadratic one
# 16.  8 is the geometric middle: noise that doubles one timing still passes
# a linear SUT, and a quadratic one still fails.
TIMING_FACTOR = 4
TIMING_REPEATS = 7
TIMING_GROWTH = 8.0
# A ratio over the bound is timed again, up to TIMING_ROUNDS rounds in all,
# each size's fastest run over every round judged: load only slows a run, so
# a quadratic SUT's fastest runs still grow by 16, while a linear one whose
# round a busy machine disturbed (8.95, then 8.29, in conformance runs
# beside other work) gets the undisturbed runs it needs.
TIMING_ROUNDS = 3


def grad_factor(sut_name: str) -> float:
    """The constant factor work(grad loss) / work(loss) may reach on this SUT."""
    return GRAD_FACTORS.get(sut_name, C_GRAD)


def jvp_factor(sut_name: str) -> float:
    """The constant factor work(jvp f) / work(f) may reach on this SUT."""
    return JVP_FACTORS.get(sut_name, C_JVP)
