"""A crash or a hang of the SUT ends one property, not the run (jaxcheck/runner.py).

Each shim in tests/shims/ breaks one transformation badly: `grad` segfaults,
`jvp` loops forever in Python (the SUT's own time limit ends it), `jvp`
hangs where no Python signal handler can run (the parent's watchdog ends
it).  The properties that meet the broken transformation are reported as
crashed or hung, each with the reproducer of the exact call, and the
others still run and pass.  Wall-clock seconds are not asserted (they are
in docs/performance.md); that a hang is not shrunk through is: the property
ends on its first time-out, with one reproducer.  A flaky SUT, which fails
an example and then does otherwise on it, keeps its first failure's
reproducer and is named flaky.
"""

import subprocess
import sys
from pathlib import Path

import pytest

from tests.meta.command import ROOT, jaxcheck, verdicts

pytestmark = pytest.mark.meta

# Generated programs use grad inside them (an inner-grad construct), so most
# properties meet the crash; retracing jit on a new shape takes none.
ONLY = "test_grad_matches or test_jit_retraces_for_a_new_shape"


def test_a_segfault_is_a_crashed_property_with_a_reproducer_that_crashes(tmp_path):
    run = jaxcheck("check", "--sut", "tests.shims.grad_segfaults", "--only", ONLY,
                   "--out", str(tmp_path))
    assert run.returncode == 1, run.stdout + run.stderr
    found = verdicts(tmp_path)
    crashed = found["test_grad_matches_finite_differences_and_reference"]
    assert crashed["outcome"] == "crashed" and crashed["reason"] == "SIGSEGV", crashed
    assert found["test_jit_retraces_for_a_new_shape"]["outcome"] == "passed", found
    replay = subprocess.run([sys.executable, crashed["reproducers"][0]], cwd=ROOT,
                            capture_output=True, text=True, timeout=300)
    assert replay.returncode == -11, replay.stdout + replay.stderr


@pytest.mark.parametrize("shim", ["jvp_never_returns", "jvp_hangs_in_c"])
def test_a_hang_ends_its_property_at_the_first_time_out(tmp_path, shim):
    # No reference: a JAX compile on a loaded machine must not hit the short limit.
    run = jaxcheck("check", "--sut", f"tests.shims.{shim}", "--sut-timeout", "2", "--reference",
                   "none",
                   "--only", "test_jvp_matches or test_jit_retraces_for_a_new_shape",
                   "--out", str(tmp_path))
    assert run.returncode == 1, run.stdout + run.stderr
    found = verdicts(tmp_path)
    hung = found["test_jvp_matches_finite_differences_and_reference"]
    assert hung["outcome"] == "hung", hung
    assert hung["examples"] == 1 and len(hung["reproducers"]) == 1, hung
    assert "sut.jvp(" in open(hung["reproducers"][0]).read()
    assert found["test_jit_retraces_for_a_new_shape"]["outcome"] == "passed", found


def test_a_flaky_sut_keeps_the_reproducer_of_its_first_failure_and_is_named_flaky(tmp_path):
    """The SUT fails an example, and otherwise when Hypothesis runs it again (it
    fails earlier, so the property draws less): Hypothesis ends the property with
    an error of its own, which names no example.  The failing example saved when
    it was first met stays on disk and in the record, and the verdict says the
    SUT did not do the same twice, not that jaxcheck's data generation varies, with
    the first failure's own error, where a known finding's signature is searched."""
    run = jaxcheck("check", "--sut", "tests.shims.flaky_after_a_failure", "--profile", "triage",
                   "--only", "test_each_operand_rank_combination_under_every_mode[sin]",
                   "--out", str(tmp_path))
    assert run.returncode == 1, run.stdout + run.stderr
    (verdict,) = verdicts(tmp_path).values()
    assert verdict["outcome"] == "failed", verdict
    assert "did not do the same when Hypothesis ran it again" in verdict["message"], verdict
    assert verdict["failures"] and all(f["reproducers"] for f in verdict["failures"]), verdict
    assert all("The first failure: " in f["error"] and "jit call" in f["error"]
               for f in verdict["failures"]), verdict
    assert all(Path(path).exists() for path in verdict["reproducers"]), verdict
