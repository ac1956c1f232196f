"""Domain margins: how far from a singularity or a kink a generated value must stay.

Every operation in `opspec.OPS` is offered only where its domain holds *with
margin* at the concrete values the program has reached.  The margins are the
reason finite differences are trustworthy on generated programs: a central
difference with step `h` moves an intermediate value by about `h * |J v|`,
and these margins are several orders of magnitude larger than that, so no
perturbed evaluation crosses a kink, a pole or the edge of a domain.  The
finite-difference oracle still checks this at every evaluation it makes
(`oracles.finite_diff`), so a margin that proves too thin shows up as a loud
generator bug, never as a false alarm against the SUT.  The margins bound
values, not derivatives: loops and exp chains can compound |J v| past 1e3
inside every margin, and the oracle rejects such a program as too sharp to
judge (`oracles.tolerance.FD_SHARP_DERIVATIVE`).
"""

# log and sqrt need their argument >= this everywhere.  log'(x) = 1/x and
# sqrt'(x) = 1/(2 sqrt x) stay below 4 and 1 here, so derivatives stay tame.
POSITIVE_FLOOR = 0.25

# A divisor, or the base of a negative integer power, has |x| >= this.
NONZERO_FLOOR = 0.25

# Two sides of a comparison (`where` predicates, `maximum`) differ by at least
# this everywhere, so the branch taken is stable under perturbation.
KINK_MARGIN = 0.05

# Every intermediate value has |v| <= this.  Keeps exp/pow/matmul chains from
# overflowing and bounds float64 rounding error to ~1e-13 in absolute terms.
VALUE_CAP = 100.0

# Intermediate arrays stay small: the reference oracle compiles per shape, so
# a bounded shape vocabulary is what keeps the suite fast (docs/performance.md).
MAX_RANK = 3
MAX_DIM = 8

# A matrix solved, inverted or whose determinant is taken has a condition number
# (the ratio of its largest singular value to its smallest) at most this.  A
# derivative through a^-1 amplifies a perturbation by up to the condition number
# each time a^-1 appears (twice in a second derivative), so the finite
# differences' error stays within their estimate; and float64's rounding in a
# solve grows by the same factor, far below the comparisons' tolerance.
MAX_CONDITION = 10.0
