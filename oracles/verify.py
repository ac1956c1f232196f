"""Run an experiment on the SUT and hold the result against expectations.

`verify` runs the experiment once, compares the result with each expectation
in turn, and attaches the reproducer for the expectation being checked to
any failure, including the SUT raising or hanging before any comparison.
"""

from __future__ import annotations

import numpy as np

from oracles.compare import assert_close
from oracles.errors import SutFailure
from oracles.experiment import Experiment
from oracles.reproducer import Expectation, attached, script
from oracles.sut import Sut
from strategies.program import ProgramCase
from strategies.render import render_function, render_module
from strategies.stacks import Wrapper


class ReferenceFailed(RuntimeError):
    """The reference SUT failed: a problem of the oracle, not a verdict on the SUT."""


def experiment(case: ProgramCase, wrapper: Wrapper, title: str, *, inputs=None,
               constants=None) -> Experiment:
    """The program, the wrapper and any constants as one module; `inputs` default to x0.."""
    source = render_module(render_function(case.program), wrapper.source, constants=constants)
    inputs = inputs if inputs is not None else {f"x{i}": x for i, x in enumerate(case.args)}
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


def on_reference(reference: Sut, exp: Experiment) -> tuple[np.ndarray, ...]:
    """The same experiment on the reference SUT; its failure is jaxcheck's problem."""
    try:
        return exp.run(reference)
    except SutFailure as exc:
        raise ReferenceFailed(
            f"the reference SUT {reference.name} failed on {exp.title}: {exc}. The reference "
            "must be correct; choose another with --reference, or report this."
        ) from exc
