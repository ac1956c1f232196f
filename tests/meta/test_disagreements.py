"""What a failed comparison says: which side is wrong, NaN plainly, the operation that
lost precision.

Against an oracle a message reads "got X, but should be Y"; between two
computations of the SUT (an identity) neither is "expected", and where an
oracle of the same quantity can tell (the reference, finite differences)
the message says which side is wrong (`oracles.compare.assert_agree`).  A
NaN in the same place on both sides is agreement; on one side only it is
named as such.  End to end: `tests.broken.jit_drops_tangents` gets
`grad(jit(f))` wrong and `jit(grad(f))` right, and the jit-commutes identity
must say so, with the reference and without it (finite differences).
"""

import math
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from oracles.amplify import search
from oracles.compare import Witness, assert_agree, assert_close
from oracles.errors import Mismatch
from oracles.experiment import Experiment, case_experiment
from oracles.identities import commute_judges, gradient_judge, slope_judge, tangent_judge
from oracles.reproducer import Expectation, script
from oracles.sut import resolve
from oracles.tolerance import EXACT
from strategies import wrappers
from strategies.identity_cases import (
    adjoint_cases,
    commute_cases,
    grad_vjp_cases,
    linearity_cases,
)
from strategies.language.ir import Eqn, Var
from strategies.language.render import PRELUDE
from strategies.language.vocabulary import vocabulary_for
from strategies.program import Program, ProgramCase
from strategies.wrappers import named
from tests.meta.test_broken_suts import saved_reproducer

pytestmark = pytest.mark.meta
ROOT = Path(__file__).resolve().parents[2]
NAMES = ("jit(grad(f))", "grad(jit(f))")


def _message(check) -> Mismatch:
    with pytest.raises(Mismatch) as raised:
        check()
    return raised.value


# ----------------------------------------------------------------------------- NaN

@pytest.mark.parametrize("same", [math.nan, math.inf, -math.inf], ids=repr)
def test_the_same_nan_or_infinity_on_both_sides_is_agreement(same):
    a, b = np.array([1.0, same]), np.array([1.0, same])
    assert_close((a,), (b,), EXACT, "f(x)")
    assert_agree((a,), (b,), EXACT, NAMES, "f(x)")


def test_a_nan_on_one_side_says_so_and_a_real_difference_beside_it_is_not_hidden():
    sut_nan = _message(lambda: assert_close((np.array([1.0, math.nan]),),
                                            (np.array([1.0, 2.0]),), EXACT, "f(x)"))
    assert "output 0 at index (1,): got nan, but should be 2.0: a NaN on the SUT's side only" \
        in str(sut_nan)
    oracle_nan = _message(lambda: assert_close((np.array([2.0]),), (np.array([math.nan]),),
                                               EXACT, "f(x)"))
    assert "got 2.0, but should be nan: a NaN on the oracle's side only" in str(oracle_nan)
    # NaN at index 1 on both sides agrees: the worst element is the real difference at 0.
    beside = _message(lambda: assert_close((np.array([1.0, math.nan]),),
                                           (np.array([3.0, math.nan]),), EXACT, "f(x)"))
    assert "output 0 at index (0,): got 1.0, but should be 3.0" in str(beside)
    one_side = _message(lambda: assert_agree((np.array(math.nan),), (np.array(3.0),), EXACT,
                                             NAMES, "f(x)"))
    assert "jit(grad(f)) gives nan, grad(jit(f)) gives 3.0 (a NaN on one side only)" \
        in str(one_side)


def test_a_reproducer_agrees_where_compare_agrees_on_the_same_nan_or_infinity():
    source = PRELUDE + "\n\ndef f(x0):\n    return x0 * 2.0\n"
    inputs = {"x0": np.array([math.nan, math.inf, 1.0])}
    same = Expectation((np.array([math.nan, math.inf, 2.0]),), "by hand", EXACT)
    text = script(Experiment("f(x)", source, "f(x0)", inputs), "refimpl", same)
    run = subprocess.run([sys.executable, "-c", text], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0 and "agree within tolerance" in run.stdout, run.stdout + run.stderr


def test_values_are_written_as_numbers():
    failure = _message(lambda: assert_close((np.array(1.5),), (np.array(3.0),), EXACT, "f(x)"))
    assert "got 1.5, but should be 3.0" in str(failure) and "np.float64" not in str(failure)


# ----------------------------------------------------------------------------- which side

def _witness(value: float):
    return lambda output, index: Witness("an oracle", value, 1e-6)


@pytest.mark.parametrize("witnesses, verdict", [
    ([], "the two disagree, and no oracle here tells which is right"),
    ([_witness(3.0)], "jit(grad(f)) is wrong"),
    ([_witness(1.0)], "grad(jit(f)) is wrong"),
    ([_witness(3.0), _witness(3.0000001)], "jit(grad(f)) is wrong"),
    ([_witness(2.0)], "both are wrong"),
    ([_witness(3.0), _witness(1.0)], "the oracles here do not settle which is right"),
    ([lambda output, index: 1 / 0], "no oracle here tells which is right"),
    ([lambda output, index: None, _witness(3.0)], "jit(grad(f)) is wrong"),
], ids=["none", "first-wrong", "second-wrong", "two-agree", "both-wrong", "oracles-differ",
        "judge-fails", "judge-cannot-tell"])
def test_a_disagreement_says_which_side_is_wrong_where_an_oracle_tells(witnesses, verdict):
    failure = _message(lambda: assert_agree((np.array(1.0),), (np.array(3.0),), EXACT, NAMES,
                                            "both on the SUT", witnesses))
    line = str(failure).splitlines()[0]
    assert line.startswith("output 0: jit(grad(f)) gives 1.0, grad(jit(f)) gives 3.0 (they "
                           "differ by 2, "), line
    assert line.endswith(verdict), line
    assert "should be" not in str(failure) and "expected" not in str(failure)


def test_a_disagreement_keeps_the_ratio_and_relative_error_amplification_uses():
    first, second = (np.array([1.0, 2.0]),), (np.array([1.0, 2.5]),)
    agree = _message(lambda: assert_agree(first, second, EXACT, NAMES, "both"))
    close = _message(lambda: assert_close(first, second, EXACT, "against"))
    assert (agree.ratio, agree.relative) == (close.ratio, close.relative)
    assert agree.ratio > 1 and agree.relative == pytest.approx(0.2)


def _identity_run(tmp_path, *options) -> tuple[str, Path]:
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-W",
                          "ignore", "tests/test_identities.py::test_jit_commutes_with[grad]",
                          "--sut=tests.broken.jit_drops_tangents", "--hypothesis-profile=catch",
                          "--max-shrinks=20", f"--reproducers={tmp_path}", *options],
                         cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert run.returncode == 1, run.stdout[-3000:]
    return run.stdout, saved_reproducer(run.stdout)


@pytest.mark.parametrize("options, oracles", [
    ((), r"; the reference refimpl gives (\S+); the finite-difference estimate gives (\S+)"),
    (("--reference=none",), r"; the finite-difference estimate gives (\S+)"),
], ids=["reference", "no-reference"])
def test_the_jit_commutes_identity_names_the_wrong_side(tmp_path, options, oracles):
    output, reproducer = _identity_run(tmp_path, *options)
    found = re.search(r"jit\(grad\(f\)\) gives (\S+), grad\(jit\(f\)\) gives (\S+) \(they "
                      rf"differ by [^)]*\){oracles}: grad\(jit\(f\)\) is wrong", output)
    assert found, output[-3000:]
    right, *witnessed = found.groups()[0], *found.groups()[2:]
    assert all(float(w) == pytest.approx(float(right)) for w in witnessed), found.group(0)
    replay = subprocess.run([sys.executable, str(reproducer)], cwd=ROOT, capture_output=True,
                            text=True, timeout=300)
    assert replay.returncode == 1 and "MISMATCH" in replay.stdout, replay.stdout + replay.stderr


# ----------------------------------------------------------------------------- the judges

REFIMPL = resolve("refimpl")
VOCABULARY = vocabulary_for(REFIMPL.unsupported)


def _assert_every_element_judged_right(judges, result) -> None:
    """Every element of a correct SUT's `result` is judged by exactly one judge, and
    lies within what that judge allows: a judge never calls a right side wrong."""
    for output, array in enumerate(result):
        for index in np.ndindex(np.shape(array)):
            witnesses = [w for w in (judge(output, index) for judge in judges) if w is not None]
            assert len(witnesses) == 1, (output, index, witnesses)
            (w,) = witnesses
            assert abs(array[index] - w.value) <= w.allowed, (output, index, array[index], w)


@settings(max_examples=12, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), transform=st.sampled_from(["jvp", "grad", "vjp"]))
def test_the_jit_commutes_judges_agree_with_a_correct_sut_on_every_element(data, transform):
    case, inputs, constants, options = data.draw(commute_cases(VOCABULARY, transform))
    outside, _ = wrappers.jit_commute_sides(case.program, transform, **options)
    result = case_experiment(case, outside, f"jit({transform}(f))", inputs=inputs,
                             constants=constants).result_on(REFIMPL)
    _assert_every_element_judged_right(
        commute_judges(case, transform, inputs, constants, options), result)


@settings(max_examples=12, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_adjoint_linearity_and_grad_vjp_judges_agree_with_a_correct_sut(data):
    case, t, u = data.draw(adjoint_cases(VOCABULARY))
    forward, _ = wrappers.inner_product_sides(case.program)
    inputs = named("x", case.args) | named("t", t) | named("u", u)
    _assert_every_element_judged_right(
        [slope_judge(case.program, case.args, t, u)],
        case_experiment(case, forward, "<u, J t>", inputs=inputs).result_on(REFIMPL))
    case, t, s, a, b = data.draw(linearity_cases(VOCABULARY))
    combined, _ = wrappers.jvp_linearity_sides(case.program)
    _assert_every_element_judged_right(
        [tangent_judge(case.program, case.args, [a * ti + b * si for ti, si in zip(t, s)])],
        case_experiment(case, combined, "J (a t + b s)",
                        inputs=named("x", case.args) | named("t", t) | named("s", s),
                        constants={"a": a, "b": b}).result_on(REFIMPL))
    case, nums, weights = data.draw(grad_vjp_cases(VOCABULARY))
    by_grad, _ = wrappers.grad_vjp_sides(case.program, nums)
    _assert_every_element_judged_right(
        [gradient_judge(case.program, case.args, weights, nums)],
        case_experiment(case, by_grad, "grad", inputs=named("x", case.args),
                        constants=named("w", weights)).result_on(REFIMPL))


# ----------------------------------------------------------------------------- precision

def _one_operation(op: str) -> ProgramCase:
    x, y = Var("x0", (2,)), Var("v0", (2,))
    program = Program((x,), (Eqn(op, (x,), (), y, "call"),), (y,))
    args = (np.array([0.5, 0.25]),)
    return ProgramCase(program, args, (args,), (False,))


def _precision_loss(drawn: list) -> Mismatch:
    """A float32 step: about 3 times the tolerance at every input, 3e-7 relative."""
    return Mismatch("", ratio=3.0 + 0.1 * np.sin(float(np.sum(drawn[-1].args[0]))),
                    relative=3e-7)


def test_a_loss_of_precision_names_the_operation_that_lost_it():
    """The per-operation property draws one program per operation and checks each as
    it is drawn: the last one drawn is the one that failed."""
    drawn = [_one_operation("sin"), _one_operation("exp")]
    note = search(_precision_loss, drawn, Mismatch("", ratio=3.0, relative=3e-7)).note()
    assert "a loss of precision in exp, the program's one operation" in note, note
