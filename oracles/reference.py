"""The reference oracle: the same experiment on a reference SUT, as an exact expectation.

A reference (`--reference`: refimpl, or JAX when the SUT is refimpl) runs the
very source the SUT ran; its result is what a correct SUT returns, within
`EXACT`.  With no reference (`--reference=none`) these add nothing and the
other oracles (finite differences, identities) carry the check.  A
reference that fails is jaxcheck's problem, not a verdict on the SUT; but a
change to the oracle found as the reference ran is the SUT's (oracles/frozen.py).

Where two computations on the SUT disagree (an identity), the reference's own
result tells which is wrong (`referee`).

An SUT may do more than its reference: autograd differentiates through a
`while_loop` in reverse mode, and JAX and refimpl refuse to by design.  What
the reference declares unsupported narrows what it judges: an example that
uses such a feature gets no reference expectation, and the other oracles of
its property judge it alone.
"""

from __future__ import annotations

import numpy as np

from oracles.compare import Judge, Witness, allowed
from oracles.errors import OracleChanged, SutFailure
from oracles.experiment import Experiment
from oracles.reproducer import Expectation
from oracles.sut import Sut
from oracles.tolerance import EXACT, Tolerance
from oracles.verify import verify


class ReferenceFailed(RuntimeError):
    """The reference SUT failed: a problem of the oracle, not a verdict on the SUT."""


def on_reference(reference: Sut, exp: Experiment) -> tuple[np.ndarray, ...]:
    """The same experiment on the reference SUT; its failure is jaxcheck's problem."""
    try:
        return exp.result_on(reference)
    except OracleChanged:
        raise  # the SUT's doing, found as the reference ran (oracles/frozen.py)
    except SutFailure as exc:
        raise ReferenceFailed(
            f"the reference SUT {reference.name} failed on {exp.title}: {exc}. The reference "
            "must be correct; choose another with --reference, or report this."
        ) from exc


def judges(reference: Sut | None, exp: Experiment) -> bool:
    """Whether there is a reference and it offers every feature `exp` uses."""
    return bool(reference) and all(map(reference.supports, exp.features))


def from_reference(reference: Sut | None, exp: Experiment) -> list[Expectation]:
    """What the reference computes for `exp`, as an exact expectation; none without
    a reference, or where `exp` uses a feature the reference declares unsupported."""
    if not judges(reference, exp):
        return []
    return [Expectation(on_reference(reference, exp), reference.describe(), EXACT)]


def verify_matches_reference(sut: Sut, reference: Sut | None, exp: Experiment) -> None:
    """`exp` on the SUT equals `exp` on the reference; nothing runs where the
    reference cannot judge (`judges`)."""
    __tracebackhide__ = True
    if judges(reference, exp):
        verify(sut, exp, *from_reference(reference, exp))


def referee(reference: Sut | None, exp: Experiment, tolerance: Tolerance) -> list[Judge]:
    """The reference as a judge of two SUT computations of `exp`'s quantity that
    disagree (`compare.assert_agree`): its own result of `exp`, computed when first
    asked, an element within `tolerance` of it right; none where it cannot judge."""
    if not judges(reference, exp):
        return []
    computed: list = []

    def judge(output: int, index: tuple) -> Witness:
        if not computed:
            try:
                computed.append(on_reference(reference, exp))
            except ReferenceFailed:
                computed.append(None)
        if computed[0] is None:
            raise ReferenceFailed(f"the reference {reference.name} failed on {exp.title}")
        value = float(computed[0][output][index])
        return Witness(f"the reference {reference.name}", value,
                       float(allowed(value, tolerance, 0.0)))

    return [judge]
