"""What jaxcheck reports about one SUT call (`Experiment.result_on`): whose fault, and why.

Each test makes one call through the machinery every property uses, on a
small SUT built here or in `tests/faulty/`, and checks the exception type
and what its message says.
"""

import math
import signal
import subprocess
import sys
import tempfile
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import jax.numpy as jnp
import numpy as np
import pytest
from hypothesis import given, settings

import refimpl
from oracles import cost
from oracles.derivatives import check_grad
from oracles.errors import SutBadOutput, SutFailure, SutRaised
from oracles.experiment import Experiment, _time_limit
from oracles.inflight import InFlight
from oracles.reproducer import HEADER, Expectation, call_script
from oracles.sut import Sut, resolve
from oracles.tolerance import EXACT
from oracles.verify import verify, verify_raises
from strategies.cases import grad_cases, program_cases
from strategies.language.vocabulary import Vocabulary
from tests.meta.command import jaxcheck, verdicts

pytestmark = pytest.mark.meta
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("seconds", [math.inf, -math.inf, math.nan, 1e300, 1e10],
                         ids=repr)
def test_a_time_limit_that_is_not_a_finite_span_is_a_usage_error(seconds):
    with pytest.raises(ValueError, match="must be a finite number of seconds"):
        with _time_limit(seconds, "f(x)"):
            pass


@pytest.mark.parametrize("seconds", [math.inf, math.nan], ids=repr)
def test_a_bad_time_limit_is_refused_before_the_sut_runs_and_is_not_its_failure(seconds):
    api = SimpleNamespace(calls=[])
    exp = Experiment("f(x)", "def f(x0):\n    sut.calls.append(x0)\n    return x0\n", "f(x0)",
                     {"x0": 1.0})
    with pytest.raises(ValueError, match="time limit") as raised:
        exp.result_on(Sut("recorder", api, "test", timeout=seconds))
    assert not isinstance(raised.value, SutFailure)
    assert api.calls == []


def test_plain_pytest_refuses_a_bad_time_limit_in_one_line():
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
                          "--sut-timeout", "inf", "tests/test_value.py"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 4, run.stdout + run.stderr
    assert "argument --sut-timeout: expected seconds from 0" in run.stderr
    assert "got 'inf'" in run.stderr
    assert "Traceback" not in run.stdout + run.stderr


# ----------------------------------------------------------------------------- output types

def _answering(value) -> tuple[Sut, Experiment]:
    """An SUT whose only answer is `value`, and the experiment that asks for it."""
    sut = Sut("answers", SimpleNamespace(answer=value), "test")
    return sut, Experiment("f(x)", "def f(x0):\n    return sut.answer\n", "f(x0)", {"x0": 1.0})


BAD_OUTPUTS = [
    (np.array([1.0, 2.0]) + 0.5j, r"ndarray of dtype complex128 \(complex values, imaginary "
                                  r"parts up to 0.5\)"),
    (1.0 + 0j, r"complex \(complex values, imaginary parts up to 0\)"),
    (np.arange(3), r"dtype int64 \(integer values\)"),
    (np.arange(3, dtype=np.uint8), r"dtype uint8 \(unsigned integer values\)"),
    (np.array([True]), r"dtype bool \(boolean values\)"),
    (True, r"bool \(boolean values\)"),
    (np.array([None, 1.0]), r"dtype object \(Python object values\)"),
    (None, r"NoneType \(Python object values\)"),
    ("1.0", r"str \(non-numeric values\)"),
]


@pytest.mark.parametrize("value, came_back", BAD_OUTPUTS, ids=[repr(v) for v, _ in BAD_OUTPUTS])
def test_an_output_that_is_not_real_floating_point_is_a_bad_output(value, came_back):
    sut, exp = _answering(value)
    with pytest.raises(SutBadOutput, match=came_back + r", but should be real floating point.*"
                                           r"\[f\(x\) on answers\]"):
        exp.result_on(sut)


GOOD_OUTPUTS = [np.float32(1.5), np.array([1.5, -2.0], dtype=np.float16),
                jnp.array([1.5, 2.0], dtype=jnp.bfloat16), jnp.array(1.5, dtype=jnp.float32),
                2.5, 3]


@pytest.mark.parametrize("value", GOOD_OUTPUTS, ids=repr)
def test_real_floating_point_and_python_int_outputs_are_read_as_float64(value):
    """float16/float32 (and bfloat16) leaves are judged by the comparisons, not refused;
    a Python int is a count a wrapper returns (tests/test_dynamic_shapes.py)."""
    sut, exp = _answering(value)
    (result,) = exp.result_on(sut)
    assert result.dtype == np.float64
    assert np.array_equal(result, np.asarray(value, dtype=np.float64))


SMOOTH = Vocabulary(ops=("add", "multiply", "sin", "sum"), reverse_ops=("add", "multiply",
                                                                       "sin", "sum"))


@settings(max_examples=5, deadline=None, derandomize=True)
@given(drawn=grad_cases(SMOOTH))
def test_the_grad_oracle_refuses_a_complex_gradient_whose_real_part_is_right(drawn):
    """tests/faulty/grad_returns_complex.py: its real parts are refimpl's gradient, so
    read as float64 it passed; the grad property's oracle now names what came back."""
    case, argnums, weights, along = drawn
    sut = resolve("tests.faulty.grad_returns_complex")
    with pytest.raises(SutBadOutput, match=r"complex values.*\[<grad loss, v>, grad loss on "
                                           r"tests.faulty.grad_returns_complex\]"):
        check_grad(sut, None, case, argnums, weights, along)


# ----------------------------------------------------------------------------- reading

class RaisesWhenRead:
    """A result computed when read, whose computation fails (as MLX's arrays can)."""

    shape = (2,)

    def __array__(self, dtype=None, copy=None):
        raise RuntimeError("the lazy computation failed")


def test_an_error_raised_when_the_result_is_read_is_the_sut_raising():
    sut, exp = _answering(RaisesWhenRead())
    with pytest.raises(SutRaised, match="raised RuntimeError while reading its result of "
                                        "f\\(x\\): the lazy computation failed") as raised:
        exp.result_on(sut)
    assert "The example uses" in str(raised.value)
    assert isinstance(raised.value.__cause__, RuntimeError)


def _wrapped():
    """An error raised from another whose message ends with the reason, as TensorFlow's
    pfor and tf.function wrap theirs."""
    try:
        raise ValueError("in user code:\n\n    File \"f.py\", line 3\n"
                         "    ValueError: Required handle data not set for <tf.Tensor 'x'>\n")
    except ValueError as reason:
        raise ValueError("Encountered an exception while vectorizing the jacobian "
                         "computation.") from reason


@pytest.mark.parametrize("raising, origin", [
    (_wrapped, "(raised from ValueError: Required handle data not set for <tf.Tensor 'x'>)"),
    (lambda: 1 / 0, None),
])
def test_a_failure_names_the_error_the_sut_raised_it_from(raising, origin):
    """A finding's signature is matched against the failure's message, and a summary
    groups by it: the reason a system wrapped in another error must be in it."""
    sut, exp = _answering(RaisesWhenRead())
    with pytest.raises(SutRaised) as raised:
        exp.call_on(sut, raising)
    message = str(raised.value)
    assert (origin in message) if origin else "raised from" not in message, message
    assert message.index("while computing") < message.index("The example uses")


def test_the_sut_error_is_the_cause_of_its_failure_and_not_its_context():
    """Hypothesis tells bugs apart by their context too: an SUT error as context would
    make one kind of error a new bug in every program (`SutRaised.kind_of`)."""
    sut, exp = _answering(RaisesWhenRead())
    with pytest.raises(SutRaised) as read:
        exp.result_on(sut)
    with pytest.raises(SutRaised) as made:
        exp.call_on(sut, lambda: 1 / 0)
    for raised, cause in ((read, RuntimeError), (made, ZeroDivisionError)):
        assert isinstance(raised.value.__cause__, cause) and raised.value.__context__ is None


def test_a_refusal_raised_when_the_result_is_read_is_a_refusal():
    sut, exp = _answering(RaisesWhenRead())
    verify_raises(sut, exp, "a correct SUT refuses this")


def _pytest(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q",
                           "-W", "ignore", "--hypothesis-profile=ci", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=900)


def test_the_leaked_tracer_property_passes_an_sut_that_refuses_when_the_result_is_read(
        tmp_path):
    """tests/faulty/errors_raise_when_read.py refuses a leaked tracer as refimpl does, but
    (for a use through its numpy) when the result is read."""
    run = _pytest("tests/test_errors.py::test_a_leaked_tracer_raises_when_used",
                  "--sut", "tests.faulty.errors_raise_when_read", "--reproducers", str(tmp_path))
    assert run.returncode == 0, run.stdout[-3000:]


# ----------------------------------------------------------------------------- ending the process

JVP = Experiment("jvp(f, x, t)", "def f(x0):\n    return x0\n", "sut.jvp(f, (x0,), (t0,))",
                 {"x0": 1.0, "t0": 1.0})


def test_sys_exit_in_an_sut_call_is_its_failure_with_a_reproducer():
    sut = resolve("tests.faulty.jvp_exits")
    with pytest.raises(SutRaised, match=r"raised SystemExit while computing jvp\(f, x, t\): "
                                        r"sys.exit\(3\)") as raised:
        verify(sut, JVP, Expectation((1.0, 1.0), "by hand", EXACT))
    assert any(note.startswith(HEADER) for note in raised.value.__notes__)


def test_sys_exit_is_no_refusal():
    with pytest.raises(SutRaised, match="SystemExit"):
        verify_raises(resolve("tests.faulty.jvp_exits"), JVP, "a correct SUT refuses this")


def test_keyboard_interrupt_is_the_users_ctrl_c_under_plain_pytest():
    with pytest.raises(KeyboardInterrupt):
        JVP.result_on(resolve("tests.faulty.jvp_interrupts"))


def test_keyboard_interrupt_is_the_sut_failing_under_the_jaxcheck_command(tmp_path):
    """Under the command (`in_flight` set) the children run in their own session, which
    a terminal's Ctrl-C does not reach: the interrupt is the SUT's."""
    path = tmp_path / "inflight.py"
    sut = replace(resolve("tests.faulty.jvp_interrupts"), in_flight=InFlight(path, call_script))
    with pytest.raises(SutRaised, match=r"raised KeyboardInterrupt while computing "
                                        r"jvp\(f, x, t\)\n"):
        JVP.result_on(sut)
    assert not path.exists()


def test_the_jaxcheck_command_reports_a_keyboard_interrupt_of_the_sut_as_a_failure(tmp_path):
    """Not as a crash "SIGINT, outside an example's SUT call": a failure of that call,
    with its reproducer."""
    run = jaxcheck("check", "--sut", "tests.faulty.jvp_interrupts", "--reference", "none",
                   "--only", "test_jvp_matches", "--out", str(tmp_path))
    assert run.returncode == 1, run.stdout + run.stderr
    found = verdicts(tmp_path)["test_jvp_matches_finite_differences_and_reference"]
    assert found["outcome"] == "failed" and found["reproducers"], found
    # The summary shows a message's first and last lines; the record keeps it whole.
    assert "raised KeyboardInterrupt while computing jvp" in found["failures"][0]["error"], found


def test_a_property_whose_sut_calls_sys_exit_fails_with_a_reproducer(tmp_path):
    run = _pytest("tests/test_jvp.py::test_jvp_matches_finite_differences_and_reference",
                  "--sut", "tests.faulty.jvp_exits", "--reference", "none", "--max-shrinks=0",
                  "--reproducers", str(tmp_path))
    assert run.returncode == 1, run.stdout[-3000:] + run.stderr[-3000:]
    assert "SystemExit" in run.stdout and list(tmp_path.glob("repro_*.py")), run.stdout[-3000:]


# ----------------------------------------------------------------------------- the cost oracle

def _observed(path, *, make_jaxpr: bool):
    """refimpl, its `make_jaxpr` (or, without it, `grad`) noting for each call whether
    the call's script was on disk (`in_flight` at `path`) and a time limit running."""
    seen = []

    def noting(transform):
        def transformed(fun, *options, **keywords):
            inner = transform(fun, *options, **keywords)

            def call(*args):
                seen.append((path.read_text() if path.exists() else None,
                             signal.getitimer(signal.ITIMER_REAL)[0]))
                return inner(*args)

            return call

        return transformed

    api = SimpleNamespace(**{name: getattr(refimpl, name) for name in refimpl.__all__})
    unsupported = refimpl.__sut_unsupported__
    if make_jaxpr:
        api.make_jaxpr = noting(refimpl.make_jaxpr)
    else:
        del api.make_jaxpr
        api.grad = noting(refimpl.grad)
        unsupported |= {"make_jaxpr"}
    sut = Sut("observed", api, "test", unsupported, timeout=600,
              in_flight=InFlight(path, call_script))
    return sut, seen


@settings(max_examples=3, deadline=None, derandomize=True, database=None)
@given(case=program_cases(SMOOTH, reverse=True))
def test_every_make_jaxpr_of_the_cost_oracle_is_an_sut_call_with_its_script_and_limit(case):
    path = Path(tempfile.mkdtemp()) / "inflight.py"
    sut, seen = _observed(path, make_jaxpr=True)
    cost.growth(sut, "chain")
    cost.tracing_growth(sut, 4)
    cost.program_works(sut, case)
    assert len(seen) == 4 + 6 + 5
    for script, remaining in seen:
        assert script is not None and "sut.make_jaxpr(" in script, script
        assert 0 < remaining <= 600


def test_every_timed_grad_of_the_cost_oracle_is_an_sut_call_with_its_script_and_limit(tmp_path):
    path = tmp_path / "inflight.py"
    sut, seen = _observed(path, make_jaxpr=False)
    cost.timed_growth(sut, "chain", 2, 2)
    assert len(seen) == 2 * (1 + 2)
    for script, remaining in seen:
        assert script is not None and "actual = grad_loss(x, a)" in script, script
        assert 0 < remaining <= 600


def test_a_crash_in_make_jaxpr_is_a_crashed_property_with_a_reproducer_that_crashes(tmp_path):
    """Under the command, as a crash anywhere else: no "outside an example's SUT call"."""
    run = jaxcheck("check", "--sut", "tests.faulty.make_jaxpr_segfaults", "--reference", "none",
                   "--only", "test_staging_is_linear", "--out", str(tmp_path))
    assert run.returncode == 1, run.stdout + run.stderr
    crashed = verdicts(tmp_path)["test_staging_is_linear_in_program_length"]
    assert crashed["outcome"] == "crashed" and crashed["reason"] == "SIGSEGV", crashed
    replay = subprocess.run([sys.executable, crashed["reproducers"][0]], cwd=ROOT,
                            capture_output=True, text=True, timeout=300)
    assert replay.returncode == -11, replay.stdout + replay.stderr
