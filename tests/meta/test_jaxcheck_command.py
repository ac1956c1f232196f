"""The `jaxcheck` command as a user meets it: usage errors, check, hunt, replay."""

import re
import subprocess
import sys

import pytest

from tests.meta.command import ROOT, jaxcheck, verdicts

pytestmark = pytest.mark.meta

BAD_CALLS = [
    (("check", "--sut", "nosuchmodule"), "could not import module 'nosuchmodule'"),
    (("check", "--sut", "refimpl", "--only", "no_such_property"), "no property matches"),
    (("check", "--profile", "fast"), "invalid choice: 'fast'"),
    (("check", "--jobs", "0"), "expected a whole number of at least 1"),
    (("check", "--max-shrinks", "0"), "expected a whole number of at least 1"),
    (("hunt", "--minutes", "0"), "argument --minutes: expected a positive number"),
    (("hunt", "--minutes", "1", "--db", "ftp://example"),
     "expected a directory path or redis://HOST:PORT"),
    (("replay", "no/such/file.py"), "no such file or folder"),
    (("replay", "README.md"), "does not begin with"),
    (("report", "--sut", "refimpl", "--findings", "no/such.md"),
     "cannot read the findings document"),
]


@pytest.mark.parametrize("args, message", BAD_CALLS, ids=[" ".join(a) for a, _ in BAD_CALLS])
def test_bad_input_is_one_clear_line_and_exit_2(args, message):
    run = jaxcheck(*args)
    assert run.returncode == 2, run.stdout + run.stderr
    assert message in run.stdout + run.stderr
    assert "Traceback" not in run.stdout + run.stderr


def test_check_runs_the_properties_only_and_prints_the_table(tmp_path):
    run = jaxcheck("check", "--sut", "refimpl", "--only", "test_value or test_errors",
                   "--out", str(tmp_path))
    assert run.returncode == 0, run.stdout + run.stderr
    assert re.search(r"^verdict\s+examples\s+seconds\s+property", run.stdout, flags=re.MULTILINE)
    assert "5 passed, 0 failed" in run.stdout
    assert "tests/meta" not in run.stdout and "test_refimpl" not in run.stdout
    found = verdicts(tmp_path)
    assert found["test_value_matches_numpy_and_reference"]["examples"] >= 60


def test_a_hunt_writes_a_reproducer_that_replay_and_python_show_failing(tmp_path):
    out = tmp_path / "d"
    run = jaxcheck("hunt", "--sut", "tests.shims.jvp_tangent_doubled", "--minutes", "0.25",
                   "--only", "test_jvp_matches", "--out", str(out), "--db", str(tmp_path / "db"))
    assert run.returncode == 1, run.stdout + run.stderr
    scripts = sorted(out.glob("repro_*.py"))
    assert scripts, run.stdout
    failures = verdicts(out)["test_jvp_matches_finite_differences_and_reference"]["failures"]
    # The doubled tangent shows as a mismatch, or (a tuple of tangents doubled) as
    # too many outputs: the hunt's draws are fresh each time.
    assert failures and all(f["error"].startswith(("Mismatch: ", "SutBadOutput: "))
                            for f in failures), failures
    assert {path for f in failures for path in f["reproducers"]} == set(map(str, scripts))
    shown = subprocess.run([sys.executable, str(scripts[0])], cwd=ROOT, capture_output=True,
                           text=True, timeout=300)
    assert shown.returncode == 1 and "MISMATCH" in shown.stdout, shown.stdout + shown.stderr
    replayed = jaxcheck("replay", str(out))
    assert replayed.returncode == 1, replayed.stdout + replayed.stderr
    assert re.search(rf"^still fails .*{scripts[0].name}", replayed.stdout, flags=re.MULTILINE)
    assert f"0 passed, {len(scripts)} failed" in replayed.stdout, replayed.stdout
