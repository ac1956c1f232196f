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

import pytest

from oracles.errors import SutFailure
from oracles.experiment import Experiment, _time_limit
from oracles.sut import Sut

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
