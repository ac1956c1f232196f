"""Identities between the SUT's own transformations: one quantity computed two ways.

Each side runs on the SUT; the second is recomputed beside the first in the
reproducer (`Expectation.source`), so a failure shows both as the SUT
computes them, and no outside oracle is needed to find it.  To say which
side is wrong, one is asked where they differ: the reference, and the
judges below (NumPy, finite differences of the same quantity).  Where the two sides are
sums of the same products in another order, the tolerance scales with the
sum of their magnitudes (`adjoint_magnitude`, `linearity_magnitude`, from
finite differences of J), so cancellation can neither fake nor hide a
mismatch.  The properties: `tests/test_identities.py`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from oracles import finite_diff
from oracles.compare import Judge, Witness, allowed
from oracles.experiment import case_experiment
from oracles.reference import referee
from oracles.sut import Sut
from oracles.tolerance import EXACT, FINITE_DIFFERENCES, Tolerance
from oracles.verify import verify_agrees
from strategies.language.evaluation import evaluate
from strategies.program import Program, ProgramCase
from strategies.wrappers import Wrapper, argnums_tuple


def verify_identity(sut: Sut, case: ProgramCase, left: Wrapper, right: Wrapper, title: str,
                    origin: str, tolerance: Tolerance, *, inputs, constants=None,
                    reference: Sut | None = None, judges: Sequence[Judge] = ()) -> None:
    """`left` on the SUT equals `right` on the SUT, which the reproducer recomputes.

    Where they differ, the reference's result of `left` and `judges` (oracles of
    the same quantity, below) tell which side is wrong.
    """
    __tracebackhide__ = True
    lhs = case_experiment(case, left, title, inputs=inputs, constants=constants)
    verify_agrees(sut, lhs, right.call, f"{origin} on {sut.name}", tolerance,
                  [*referee(reference, lhs, tolerance), *judges])


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


# ----------------------------------------------------------------------------- judges
# Oracles of the quantity an identity's two sides compute, asked about one element
# only where the sides disagree (`compare.assert_agree`): NumPy for f's value,
# central finite differences for a derivative.  Each answers for the outputs
# from `first` on that hold its quantity, and None for the others.

BY_DIFFERENCES = "the finite-difference estimate"


def _by_differences(value: float, error: float) -> Witness:
    return Witness(BY_DIFFERENCES, value, float(allowed(value, FINITE_DIFFERENCES, error)))


def value_judge(program: Program, args, first: int = 0) -> Judge:
    """f's outputs, by NumPy float64."""
    def judge(output: int, index: tuple) -> Witness | None:
        if not first <= output < first + len(program.outputs):
            return None
        value = float(evaluate(program, args)[output - first][index])
        return Witness("NumPy float64", value, float(allowed(value, EXACT, 0.0)))

    return judge


def tangent_judge(program: Program, args, direction, first: int = 0) -> Judge:
    """J v for the tangent `direction` v, one output per output of f."""
    def judge(output: int, index: tuple) -> Witness | None:
        if not first <= output < first + len(program.outputs):
            return None
        estimate = finite_diff.directional(program, args, direction)
        return _by_differences(float(estimate.value[output - first][index]),
                               float(estimate.error[output - first][index]))

    return judge


def gradient_judge(program: Program, args, weights, argnums, first: int = 0) -> Judge:
    """The gradient of <weights, f> with respect to the inputs `argnums`, one output per
    input (an int `argnums`: one output), element by element."""
    nums = argnums_tuple(argnums)

    def judge(output: int, index: tuple) -> Witness | None:
        if not first <= output < first + len(nums):
            return None
        direction = [np.zeros(np.shape(x)) for x in args]
        direction[nums[output - first]][index] = 1.0
        estimate = finite_diff.directional(program, args, direction)
        return _by_differences(finite_diff.inner(weights, estimate.value),
                               finite_diff.inner_error(weights, estimate.error))

    return judge


def slope_judge(program: Program, args, tangents, cotangents) -> Judge:
    """<u, J t>, a scalar."""
    def judge(output: int, index: tuple) -> Witness | None:
        if output != 0:
            return None
        estimate = finite_diff.directional(program, args, tangents)
        return _by_differences(finite_diff.inner(cotangents, estimate.value),
                               finite_diff.inner_error(cotangents, estimate.error))

    return judge


def commute_judges(case: ProgramCase, transform: str, inputs: dict, constants: dict,
                   options: dict) -> list[Judge]:
    """What T(f) is, for T of `jit_commute_sides` (strategies/wrappers.py): jvp gives
    f's outputs then J t, grad the gradient of the loss <w, f>, vjp f's outputs then
    J^T u for every input; vmap has no judge here but the reference."""
    program, args = case.program, case.args
    outputs = len(program.outputs)
    if transform == "jvp":
        tangents = [inputs[f"t{i}"] for i in range(len(args))]
        return [value_judge(program, args), tangent_judge(program, args, tangents, outputs)]
    if transform == "grad":
        weights = [constants[f"w{k}"] for k in range(outputs)]
        return [gradient_judge(program, args, weights, options["argnums"])]
    if transform == "vjp":
        cotangents = [inputs[f"u{k}"] for k in range(outputs)]
        return [value_judge(program, args),
                gradient_judge(program, args, cotangents, tuple(range(len(args))), outputs)]
    return []
