"""Compute an experiment on the SUT and hold the result against expectations.

`verify` computes the experiment once, compares the result with each expectation
in turn, and attaches the reproducer for the expectation being checked to
any failure, including the SUT raising or hanging before any comparison.
`verify_agrees` holds one computation on the SUT to another on the same SUT
(an identity: no outside oracle is needed to find a failure, only to tell
which side is wrong).  Both widen their tolerance where the example uses an
operation the SUT declares less accurate (`Sut.tolerance_for`) and where
the example computes in float32 (`tolerance_of`).  `verify_raises` is for programs a
correct SUT refuses: raising any `Exception` passes (ending the process,
`sys.exit`, does not), returning fails;
`verify_returns` is its control, the same source where a correct SUT returns.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from oracles.compare import Judge, assert_agree, assert_close
from oracles.errors import SutDidNotRaise, SutRaised
from oracles.experiment import Experiment
from oracles.reproducer import Expectation, attached, refusal_script, returns_script, script
from oracles.sut import Sut
from oracles.tolerance import Tolerance, in_float32


def verify(sut: Sut, exp: Experiment, *expectations: Expectation) -> tuple[np.ndarray, ...]:
    """The SUT's result, after checking it against every expectation."""
    __tracebackhide__ = True
    expectations = [replace(e, tolerance=tolerance_of(sut, exp, e.tolerance))
                    for e in expectations]
    current = list(expectations[:1])
    with attached(lambda: script(exp, sut.name, current[0])):
        actual = exp.result_on(sut)
        for expectation in expectations:
            current[0] = expectation
            assert_close(expectation.judged(actual), expectation.values, expectation.tolerance,
                         f"{exp.title} on {sut.name}, against {expectation.origin}",
                         error=expectation.error)
    return actual


def tolerance_of(sut: Sut, exp: Experiment, tolerance: Tolerance) -> Tolerance:
    """`tolerance` for `exp` on `sut`: widened where it uses an operation the SUT
    declares less accurate (`Sut.tolerance_for`) and where it computes in float32."""
    tolerance = sut.tolerance_for(exp.source + exp.call, tolerance)
    return in_float32(tolerance) if exp.in_float32 else tolerance


def verify_agrees(sut: Sut, exp: Experiment, call: str, origin: str, tolerance: Tolerance,
                  judges: Sequence[Judge] = ()) -> tuple[np.ndarray, ...]:
    """`exp` on the SUT equals `call`, run on the same SUT in the same module.

    Neither side is the oracle of the other: a failure says what each gives,
    and which is wrong where one of `judges` (an oracle of the same quantity:
    the reference, finite differences) can tell (`compare.assert_agree`).
    The reproducer recomputes `call` beside `exp` (`Expectation.source`), so it
    shows both sides as the SUT computes them; the other side raising is
    reported with that same reproducer.
    """
    __tracebackhide__ = True
    tolerance = tolerance_of(sut, replace(exp, call=exp.call + call), tolerance)
    other = replace(exp, title=origin, call=call)
    with attached(lambda: script(exp, sut.name, Expectation((0.0,), origin, tolerance,
                                                            source=call))):
        second = other.result_on(sut)
    with attached(lambda: script(exp, sut.name, Expectation(second, origin, tolerance,
                                                            source=call))):
        first = exp.result_on(sut)
        names = (exp.title, origin.removesuffix(f" on {sut.name}"))
        assert_agree(first, second, tolerance, names,
                     f"{names[0]} and {names[1]}, both on {sut.name}", judges)
    return first


def verify_raises(sut: Sut, exp: Experiment, why: str,
                  context: Expectation | None = None) -> None:
    """The SUT raises (any Exception) on `exp`; returning is a failure with a reproducer.

    `context` (what a correct run returns elsewhere) is printed against a
    returned result in the reproducer, so a silently wrong value shows.
    """
    __tracebackhide__ = True
    with attached(lambda: refusal_script(exp, sut.name, why, context)):
        try:
            returned = exp.result_on(sut)
        except SutRaised as failure:
            if isinstance(failure.__cause__, Exception):
                return
            raise  # SystemExit, KeyboardInterrupt: ending the process is no refusal
        shapes = ", ".join(str(a.shape) for a in returned)
        raise SutDidNotRaise(f"got {len(returned)} array(s) of shape {shapes}, but should "
                             f"raise: {why} [{exp.title} on {sut.name}]")


def verify_returns(sut: Sut, exp: Experiment, why: str) -> tuple[np.ndarray, ...]:
    """The SUT returns on `exp` (the control of a `verify_raises`); its result."""
    __tracebackhide__ = True
    with attached(lambda: returns_script(exp, sut.name, why)):
        return exp.result_on(sut)
