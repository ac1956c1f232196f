"""The reference oracle: the same experiment on a reference SUT, as an exact expectation.

A reference (`--reference`: refimpl, or JAX when the SUT is refimpl) runs the
very source the SUT ran; its result is what a correct SUT returns, within
`EXACT`.  With no reference (`--reference=none`) these add nothing and the
other oracles (finite differences, identities) carry the check.  A
reference that fails is jaxcheck's problem, not a verdict on the SUT.
"""

from __future__ import annotations

import numpy as np

from oracles.errors import SutFailure
from oracles.experiment import Experiment
from oracles.reproducer import Expectation
from oracles.sut import Sut
from oracles.tolerance import EXACT
from oracles.verify import verify


class ReferenceFailed(RuntimeError):
    """The reference SUT failed: a problem of the oracle, not a verdict on the SUT."""


def on_reference(reference: Sut, exp: Experiment) -> tuple[np.ndarray, ...]:
    """The same experiment on the reference SUT; its failure is jaxcheck's problem."""
    try:
        return exp.result_on(reference)
    except SutFailure as exc:
        raise ReferenceFailed(
            f"the reference SUT {reference.name} failed on {exp.title}: {exc}. The reference "
            "must be correct; choose another with --reference, or report this."
        ) from exc


def from_reference(reference: Sut | None, exp: Experiment) -> list[Expectation]:
    """What the reference computes for `exp`, as an exact expectation; none without one."""
    if not reference:
        return []
    return [Expectation(on_reference(reference, exp), reference.describe(), EXACT)]


def verify_matches_reference(sut: Sut, reference: Sut | None, exp: Experiment) -> None:
    """`exp` on the SUT equals `exp` on the reference; nothing runs without one."""
    __tracebackhide__ = True
    if reference:
        verify(sut, exp, *from_reference(reference, exp))
