"""Identities between the SUT's own transformations: one quantity computed two ways.

Each side runs on the SUT; the second is recomputed beside the first in the
reproducer (`Expectation.source`), so a failure shows both as the SUT
computes them, and no outside oracle is needed.  Where the two sides are
sums of the same products in another order, the tolerance scales with the
sum of their magnitudes (`adjoint_magnitude`, `linearity_magnitude`, from
finite differences of J), so cancellation can neither fake nor hide a
mismatch.  The properties: `tests/test_identities.py`.
"""

from __future__ import annotations

import numpy as np

from oracles import finite_diff
from oracles.experiment import case_experiment
from oracles.sut import Sut
from oracles.tolerance import Tolerance
from oracles.verify import verify_agrees
from strategies.program import ProgramCase
from strategies.wrappers import Wrapper


def verify_identity(sut: Sut, case: ProgramCase, left: Wrapper, right: Wrapper, title: str,
                    origin: str, tolerance: Tolerance, *, inputs, constants=None) -> None:
    """`left` on the SUT equals `right` on the SUT, which the reproducer recomputes."""
    __tracebackhide__ = True
    lhs = case_experiment(case, left, title, inputs=inputs, constants=constants)
    verify_agrees(sut, lhs, right.call, f"{origin} on {sut.name}", tolerance)


def adjoint_magnitude(case: ProgramCase, tangents, cotangents) -> float:
    """sum |u| |J t|: the scale of both sides of <u, J t> == <J^T u, t>."""
    jt = finite_diff.directional(case.program, case.args, tangents).value
    return finite_diff.inner([np.abs(u) for u in cotangents], [np.abs(v) for v in jt])


def linearity_magnitude(case: ProgramCase, t, s, a, b) -> float:
    """max |a| |J t| + |b| |J s|: the scale of both sides of J (a t + b s) == a J t + b J s."""
    along_t = finite_diff.directional(case.program, case.args, t).value
    along_s = finite_diff.directional(case.program, case.args, s).value
    return max((float(np.max(abs(a) * np.abs(jt) + abs(b) * np.abs(js), initial=0.0))
                for jt, js in zip(along_t, along_s)), default=0.0)
