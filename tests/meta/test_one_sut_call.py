"""What jaxcheck reports about one SUT call (`Experiment.result_on`): whose fault, and why.

Each test makes one call through the machinery every property uses, on a
small SUT built here or in `tests/faulty/`, and checks the exception type
and what its message says.
"""

import math
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import jax.numpy as jnp
import numpy as np
import pytest
from hypothesis import given, settings

from oracles.derivatives import check_grad
from oracles.errors import SutBadOutput, SutFailure, SutRaised
from oracles.experiment import Experiment, _time_limit
from oracles.sut import Sut, resolve
from oracles.verify import verify_raises
from strategies.cases import grad_cases
from strategies.vocabulary import Vocabulary

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
    assert "--sut-timeout: a time limit of inf s" in run.stderr
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
