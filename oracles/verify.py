"""Run an experiment on the SUT and hold the result against expectations.

`verify` runs the experiment once, compares the result with each expectation
in turn, and attaches the reproducer for the expectation being checked to
any failure, including the SUT raising or hanging before any comparison.
`verify_agrees` holds one computation on the SUT to another on the same SUT
(an identity, needing no outside oracle).  `verify_raises` is for programs a
correct SUT refuses: raising any `Exception` passes, returning fails;
`verify_runs` is its control, the same source where a correct SUT returns.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from oracles.compare import assert_close
from oracles.errors import SutDidNotRaise, SutFailure, SutRaised
from oracles.experiment import Experiment
from oracles.reproducer import Expectation, attached, refusal_script, run_script, script
from oracles.sut import Sut
from oracles.tolerance import Tolerance
from strategies.program import ProgramCase
from strategies.render import render_function, render_module
from strategies.wrappers import Wrapper, named


class ReferenceFailed(RuntimeError):
    """The reference SUT failed: a problem of the oracle, not a verdict on the SUT."""


def experiment(case: ProgramCase, wrapper: Wrapper, title: str, *, inputs=None,
               constants=None, function: str | None = None) -> Experiment:
    """The program, the wrapper and any constants as one module; `inputs` default to x0..

    `function` is the source of `f` when it is not `render_function(case.program)`
    (a program with Python control flow, say).
    """
    function = function if function is not None else render_function(case.program)
    source = render_module(function, wrapper.source, constants=constants)
    inputs = inputs if inputs is not None else named("x", case.args)
    return Experiment(title, source, wrapper.call, inputs)


def verify(sut: Sut, exp: Experiment, *expectations: Expectation) -> tuple[np.ndarray, ...]:
    """The SUT's result, after checking it against every expectation."""
    __tracebackhide__ = True
    current = list(expectations[:1])
    with attached(lambda: script(exp, sut.name, current[0])):
        actual = exp.run(sut)
        for expectation in expectations:
            current[0] = expectation
            assert_close(actual, expectation.values, expectation.tolerance,
                         f"{exp.title} on {sut.name}, against {expectation.origin}",
                         error=expectation.error)
    return actual


def verify_agrees(sut: Sut, exp: Experiment, call: str, origin: str,
                  tolerance: Tolerance) -> tuple[np.ndarray, ...]:
    """`exp` on the SUT equals `call`, run on the same SUT in the same module.

    The reproducer recomputes `call` beside `exp` (`Expectation.source`), so a
    failure shows both sides as the SUT computes them; the other side
    raising is reported with that same reproducer.
    """
    __tracebackhide__ = True
    other = replace(exp, title=origin, call=call)
    with attached(lambda: script(exp, sut.name, Expectation((0.0,), origin, tolerance,
                                                            source=call))):
        expected = other.run(sut)
    return verify(sut, exp, Expectation(expected, origin, tolerance, source=call))


def on_reference(reference: Sut, exp: Experiment) -> tuple[np.ndarray, ...]:
    """The same experiment on the reference SUT; its failure is jaxcheck's problem."""
    try:
        return exp.run(reference)
    except SutFailure as exc:
        raise ReferenceFailed(
            f"the reference SUT {reference.name} failed on {exp.title}: {exc}. The reference "
            "must be correct; choose another with --reference, or report this."
        ) from exc


def verify_raises(sut: Sut, exp: Experiment, why: str,
                  context: Expectation | None = None) -> None:
    """The SUT raises (any Exception) on `exp`; returning is a failure with a reproducer.

    `context` (what a correct run returns elsewhere) is printed against a
    returned result in the reproducer, so a silently wrong value shows.
    """
    __tracebackhide__ = True
    with attached(lambda: refusal_script(exp, sut.name, why, context)):
        try:
            returned = exp.run(sut)
        except SutRaised:
            return
        shapes = ", ".join(str(a.shape) for a in returned)
        raise SutDidNotRaise(f"got {len(returned)} array(s) of shape {shapes}, but should "
                             f"raise: {why} [{exp.title} on {sut.name}]")


def verify_runs(sut: Sut, exp: Experiment, why: str) -> tuple[np.ndarray, ...]:
    """The SUT returns on `exp` (the control of a `verify_raises`); its result."""
    __tracebackhide__ = True
    with attached(lambda: run_script(exp, sut.name, why)):
        return exp.run(sut)
