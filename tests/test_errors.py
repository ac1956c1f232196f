"""What a correct SUT must refuse: raising is right, silently returning a value is wrong.

* adding arrays whose shapes do not broadcast ((2, 3) and (4,)), eagerly or
  under jit, grad, vmap, jvp or vjp;
* `grad` of a function whose output is not a scalar (an SUT that declares
  `grad_nonscalar_sum` is held to the gradient of the output's sum there:
  `strategies/language/conventions.py`, `STAGING`);
* a tracer leaked from a transformation (appended to a Python list inside
  `jvp`, `grad`, `jit`, `vjp` or `vmap`) and used after it returned.

Any `Exception` counts as refusing; the message is not judged.  Each
property first runs a control from the same module source, where a correct
SUT returns (compatible shapes, a scalar loss, the leaked value left
unused), so a program that raises for some other reason cannot pass for a
refusal.
Programs, shapes and the transformation are drawn, so a failure shrinks;
`tests/meta/test_broken_suts.py` shows each property failing on
an SUT that does not raise.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from oracles.experiment import case_experiment
from oracles.reference import referee
from oracles.tolerance import EXACT
from oracles.verify import verify_agrees, verify_raises, verify_returns
from strategies.error_cases import (
    grad_of_non_scalar_source,
    leak_cases,
    leaking_function,
    mismatch_cases,
    non_scalar_cases,
    refusal_wrapper,
    supported,
    traced,
)
from strategies.language.conventions import STAGING
from strategies.program import ProgramCase
from strategies.wrappers import Wrapper

# Transformations a refusal is checked under, simplest first (shrinking goes
# there); tests/meta/test_tables.py holds it to strategies/language/transformations.py.
TRANSFORMS = ("eager", "jit", "grad", "vmap", "jvp", "vjp")


# ----------------------------------------------------------------------------- shapes

@given(data=st.data())
def test_shape_mismatch_raises(sut, vocabulary, data):
    """Adding arrays whose shapes do not broadcast raises, eagerly or under a transformation."""
    drawn = data.draw(mismatch_cases(vocabulary), label="drawn")
    transform = data.draw(supported(sut, TRANSFORMS), label="transformation")
    program, args, good, bad = drawn
    params = [v.name for v in program.inputs]
    case = ProgramCase(program, args, (args,), (False,) * len(args))
    step = program.eqns[-1]
    clash = f"{step.op} of shapes {good.shape} and {bad.shape}"
    control = case_experiment(case, refusal_wrapper(transform, params),
                              f"{transform} of f, z {good.shape}",
                              inputs=dict(zip(params, (*args, good))))
    verify_returns(sut, control,
                   f"z of shape {good.shape} broadcasts with {step.op}'s other operand")
    refused = case_experiment(case, refusal_wrapper(transform, params),
                              f"{transform} of f, z {bad.shape}",
                              inputs=dict(zip(params, (*args, bad))))
    verify_raises(sut, refused, f"f applies {clash}, which do not broadcast")


# ----------------------------------------------------------------------------- grad

SUMS = STAGING["grad_nonscalar_sum"]


@pytest.mark.needs("grad")
@given(data=st.data())
def test_grad_of_a_non_scalar_output_raises(sut, reference, vocabulary, data):
    """grad of a function whose output is not a scalar raises, eagerly or under jit.

    An SUT that declares `grad_nonscalar_sum` returns grad of the output's sum instead."""
    drawn = data.draw(non_scalar_cases(vocabulary), label="drawn")
    case, argnums = drawn
    outer = data.draw(supported(sut, ("eager", "jit")), label="around grad")
    xs = ", ".join(v.name for v in case.program.inputs)
    shape = case.program.outputs[0].shape
    source = grad_of_non_scalar_source(case.program, argnums, outer)
    title = "grad" if outer == "eager" else "jit(grad)"
    control = case_experiment(case, Wrapper(source, f"control({xs})"), f"{title}(sum of f)")
    check = case_experiment(case, Wrapper(source, f"check({xs})"),
                            f"{title}(f), f of shape {shape}")
    if not sut.supports(SUMS.feature):
        verify_agrees(sut, check, control.call,
                      f"{control.title} (declared: {SUMS.feature}) on {sut.name}", EXACT,
                      referee(reference, control, EXACT))
        return
    verify_returns(sut, control, "the sum of f's output is a scalar")
    verify_raises(sut, check, f"grad of f, whose output has shape {shape}, not ()")


# ----------------------------------------------------------------------------- leaks

@pytest.mark.needs("leak_check")
@given(data=st.data())
def test_a_leaked_tracer_raises_when_used(sut, vocabulary, data):
    """A tracer leaked out of a transformation raises when it is used after that returned."""
    drawn = data.draw(leak_cases(vocabulary), label="drawn")
    staging = [t for t in TRANSFORMS[1:] if t != "jit" or sut.supports("jit_staging")]
    transform = data.draw(supported(sut, staging), label="transformation")
    case, use = drawn
    candidates = traced(case.program, derivative=transform in ("jvp", "grad", "vjp"))
    leaked = data.draw(st.sampled_from(candidates), label="leaked variable")
    params = [v.name for v in case.program.inputs]
    function = leaking_function(case.program, leaked)
    after = use.format("leaked[0]")
    both = refusal_wrapper(transform, params, after)  # check(..) calls transformed(..), the control
    control = case_experiment(case, both._replace(call=f"transformed({', '.join(params)})"),
                              f"{transform} of f (leaks)", function=function)
    verify_returns(sut, control, f"f stores {leaked.name} in a list; nothing uses it yet")
    used = case_experiment(case, both, f"{transform} of f, then {after}", function=function)
    verify_raises(sut, used, f"{after} uses {leaked.name}, a tracer f leaked from {transform}, "
                             "after that transformation returned")
