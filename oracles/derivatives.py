"""Derivatives (jvp, grad, vjp) judged by central finite differences and the reference.

Method (as JAX's `check_jvp`/`check_vjp`): one random direction, never a
full Jacobian.  `jvp` must return the program's value exactly and J t within
the finite-difference error estimate; `grad` and `vjp` are projected to a
scalar, `<w, J v>` for the loss weights or cotangents w and a drawn
direction v, and held to the same estimate of that scalar.  Where a
reference SUT is given, the whole transformed result must also equal the
reference's (`oracles/reference.py`).

`check_jvp`, `check_grad` and `check_vjp` are the whole oracle for a
straight-line program (`tests/test_jvp.py`, `tests/test_grad.py`,
`tests/test_long_programs.py`); `verify_jvp`, `verify_grad` and `verify_vjp`
are the judging steps alone, given an estimate of J v from elsewhere (the
path a Python `if` takes: `tests/test_python_control_flow.py`).
`check_grad_again` holds one gradient function called at two input sets,
as `oracles.values.check_jit` holds one jitted function
(`tests/test_cells.py`, each construct).
"""

from __future__ import annotations

from oracles import finite_diff
from oracles.experiment import Experiment, case_experiment
from oracles.reference import from_reference
from oracles.reproducer import Expectation
from oracles.sut import Sut
from oracles.tolerance import EXACT, FINITE_DIFFERENCES
from oracles.verify import verify, verify_returns
from strategies import wrappers
from strategies.cases import full_direction, inputs_of
from strategies.language.evaluation import evaluate
from strategies.program import ProgramCase


def verify_jvp(sut: Sut, reference: Sut | None, exp: Experiment, primal,
               estimate: finite_diff.Estimate, origin: str) -> None:
    """`exp` returns (primal, J t): the primal exactly, J t within the estimate's error;
    then all of it against the reference."""
    __tracebackhide__ = True
    zeros = [0 * p for p in primal]
    by_differences = Expectation((*primal, *estimate.value), origin, FINITE_DIFFERENCES,
                                 error=(*zeros, *estimate.error))
    verify(sut, exp, by_differences, *from_reference(reference, exp))


def slope(weights, estimate: finite_diff.Estimate, origin: str) -> Expectation:
    """The scalar <weights, J v> that `estimate` (of J v) gives, within its error: what
    an experiment's first output must be (the rest is for the reference)."""
    value = finite_diff.inner(weights, estimate.value)
    error = finite_diff.inner_error(weights, estimate.error)
    return Expectation((value,), origin, FINITE_DIFFERENCES, error=(error,), leaves=1)


def check_jvp(sut: Sut, reference: Sut | None, case: ProgramCase, tangents) -> None:
    """jvp's primal and tangent against finite differences and the reference."""
    __tracebackhide__ = True
    exp = case_experiment(case, wrappers.jvp(case.program), "jvp(f, x, t)",
                          inputs=inputs_of(case, t=tangents))
    estimate = finite_diff.directional(case.program, case.args, tangents)
    verify_jvp(sut, reference, exp, evaluate(case.program, case.args), estimate,
               "central finite differences (Richardson)")


def verify_grad(sut: Sut, reference: Sut | None, case: ProgramCase, argnums, weights, along,
                estimate: finite_diff.Estimate, origin: str, *,
                function: str | None = None) -> None:
    """<grad loss, v> within `estimate` (of J v, v being `along` on the differentiated
    inputs); all of grad loss against the reference; one SUT call for both.
    `function`: f's source, when it is not the rendered program (see `case_experiment`)."""
    __tracebackhide__ = True
    exp = case_experiment(case, wrappers.grad_along(case.program, argnums),
                          "<grad loss, v>, grad loss", inputs=inputs_of(case, v=along),
                          constants=wrappers.named("w", weights), function=function)
    verify(sut, exp, slope(weights, estimate, origin), *from_reference(reference, exp))


def verify_vjp(sut: Sut, reference: Sut | None, case: ProgramCase, cotangents, along,
               estimate: finite_diff.Estimate, origin: str, *,
               function: str | None = None) -> None:
    """<vjp(u), v> against <u, J v> within `estimate` (of J v); all of vjp against the
    reference; one SUT call for both.  `function` as for `verify_grad`."""
    __tracebackhide__ = True
    exp = case_experiment(case, wrappers.vjp_along(case.program), "<vjp(u), v>, vjp(f, x)(u)",
                          inputs=inputs_of(case, u=cotangents, v=along), function=function)
    verify(sut, exp, slope(cotangents, estimate, origin), *from_reference(reference, exp))


def check_grad(sut: Sut, reference: Sut | None, case: ProgramCase, argnums, weights,
               along) -> None:
    """<grad loss, v> against finite differences; all of grad loss against the reference."""
    __tracebackhide__ = True
    estimate = finite_diff.directional(case.program, case.args,
                                       full_direction(case.args, argnums, along))
    verify_grad(sut, reference, case, argnums, weights, along, estimate,
                "central finite differences of loss along v")


def check_vjp(sut: Sut, reference: Sut | None, case: ProgramCase, cotangents, along) -> None:
    """<vjp(u), v> against <u, J v> by finite differences; all of vjp against the reference."""
    __tracebackhide__ = True
    estimate = finite_diff.directional(case.program, case.args, along)
    verify_vjp(sut, reference, case, cotangents, along, estimate,
               "<u, J v> by central finite differences")


def check_grad_again(sut: Sut, reference: Sut | None, case: ProgramCase, weights) -> None:
    """One grad(loss) by every input, called at the case's first input set, then at
    its second, against grad(loss) built afresh at each on the SUT (a wrong
    gradient is `check_grad`'s to report; this is what a gradient function, or
    a function with custom rules or a checkpoint in it, keeps of its first
    call), and the reference."""
    __tracebackhide__ = True
    every = tuple(range(len(case.args)))
    constants = wrappers.named("w", weights)
    sets = case.variants[:2]
    afresh = [verify_returns(sut, case_experiment(case._replace(args=args),
                                                  wrappers.grad(case.program, every),
                                                  "grad(loss)(x), built afresh",
                                                  constants=constants),
                             "grad(loss) built afresh, which one called before must equal")
              for args in sets]
    exp = case_experiment(case, wrappers.grad_twice(case.program),
                          "one grad(loss) at x, then at y", inputs=inputs_of(case, y=sets[-1]),
                          constants=constants, also=sets[1:])
    verify(sut, exp, Expectation(tuple(g for gs in afresh for g in gs),
                                 f"grad(loss) built afresh at each on {sut.name}", EXACT),
           *from_reference(reference, exp))
