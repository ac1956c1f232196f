"""The finite-difference oracle on programs whose derivatives are known.

Each program is one equation, chosen to sit where the oracle has to decide
something: a step that leaves the domain, a derivative too sharp for the
ordinary steps, one too sharp for every step, a kink no step avoids.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable

from oracles import finite_diff
from oracles.errors import GeneratorBug, TooSharp
from oracles.tolerance import FD_SHARP_DERIVATIVE, FD_STEPS
from strategies.language.ir import Eqn, Var
from strategies.program import Program

X, Y = Var("x0", ()), Var("v0", ())


def unary(op: str, *literals, syntax="call") -> Program:
    """y = op(x, *literals) on one scalar."""
    return Program((X,), (Eqn(op, (X, *literals), (), Y, syntax),), (Y,))


def sharp_sine(frequency: float) -> Program:
    """y = sin(frequency * x): derivative frequency cos(frequency x), third ~ frequency**3."""
    scaled = Var("v1", ())
    return Program((X,), (Eqn("multiply", (X, frequency), (), scaled, "operator"),
                          Eqn("sin", (scaled,), (), Y, "call")), (Y,))


def along_one(program: Program, x: float, **kwargs) -> finite_diff.Estimate:
    return finite_diff.directional(program, [np.array(x)], [np.array(1.0)], **kwargs)


def test_a_step_that_leaves_the_domain_is_not_trusted():
    # sqrt at 8e-4: the step 1e-3 reaches sqrt(-2e-4) = NaN, which compares
    # False with every bound; a smaller step must be used instead.
    estimate = along_one(unary("sqrt"), 8e-4)
    exact = 0.5 / np.sqrt(8e-4)
    assert np.isfinite(estimate.value[0])
    assert abs(estimate.value[0] - exact) <= estimate.error[0]


def test_a_sharp_derivative_is_resolved_by_the_fallback_steps():
    # d/dx sin(1e4 x) = 1e4 cos(1e4 x): truncation ~ 1e12 h^2 defeats 1e-5, not 1e-6.
    program = sharp_sine(1e4)
    exact = 1e4 * np.cos(1e4 * 0.1)
    estimate = along_one(program, 0.1)
    assert abs(estimate.value[0] - exact) <= estimate.error[0]
    with pytest.raises(TooSharp):
        along_one(program, 0.1, steps=FD_STEPS)


def test_mixed_falls_back_to_the_sharp_steps_too():
    estimate = finite_diff.mixed(sharp_sine(1e4), lambda eps: [np.array(0.1 + eps["a"])],
                                 lambda eps: [np.array(1.0)], ("a",))
    assert abs(estimate.value - 1e4 * np.cos(1e3)) <= estimate.error


def test_a_program_too_sharp_for_every_step_is_rejected_not_blamed():
    assert 1e9 > FD_SHARP_DERIVATIVE
    with pytest.raises(TooSharp, match="unreliable at every step"):
        along_one(sharp_sine(1e9), 0.1)

    @settings(max_examples=5, database=None)
    @given(st.none())
    def inside_a_property(_):
        along_one(sharp_sine(1e9), 0.1)

    with pytest.raises(Unsatisfiable):  # every example rejected, none failed
        inside_a_property()


def test_a_kink_crossed_at_every_step_is_a_generator_bug():
    # maximum(x, 0) at x = 1e-9: every perturbed point switches side.
    with pytest.raises(GeneratorBug, match="crosses a kink"):
        along_one(unary("maximum", 0.0), 1e-9)


def test_a_kink_crossed_at_every_step_inside_every_margin_is_too_sharp():
    # maximum(1e4 x, 0) at x = 1e-5: 0.1 from its kink, twice KINK_MARGIN, yet every
    # second-order step (1e-4 at the finest) moves 1e4 x across it: a slope of 1e4.
    scaled = Var("v1", ())
    program = Program((X,), (Eqn("multiply", (X, 1e4), (), scaled, "operator"),
                             Eqn("maximum", (scaled, 0.0), (), Y, "call")), (Y,))
    with pytest.raises(TooSharp, match="crosses a kink"):
        finite_diff.mixed(program, lambda eps: [np.array(1e-5 + eps["a"] + eps["b"])],
                          lambda eps: [np.array(1.0)], ("a", "b"))
