"""Every property must fail on a broken SUT, and shrink the failure to a tiny reproducer.

Each row names a broken shim (`tests/broken/`) and the property that must
catch it.  The property runs as a user would run it: `pytest --sut <shim>`
in a child process under the derandomized `ci` profile (a profile binds
when a test is decorated, so it cannot be switched inside this process).
The run must fail, save a reproducer whose program has at most three
equations, and that saved file must exit non-zero when run with `python`.
"""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests import test_grad, test_jit, test_jvp, test_vmap

ROOT = Path(__file__).resolve().parents[2]

CATCHES = [
    ("tests.broken.wrong_sin_derivative",
     test_jvp.test_jvp_matches_finite_differences_and_reference),
    ("tests.broken.wrong_sin_derivative",
     test_grad.test_grad_matches_finite_differences_and_reference),
    ("tests.broken.vmap_axis_one_as_zero", test_vmap.test_vmap_matches_loop_and_stack),
    ("tests.broken.jit_ignores_shapes", test_jit.test_jit_retraces_for_a_new_shape),
]

MAX_EQUATIONS = 3
_SAVED = re.compile(r"saved to (\S+\.py)")


def node_id(prop) -> str:
    return f"{prop.__module__.replace('.', '/')}.py::{prop.__name__}"


def run_property(shim: str, prop, *options: str) -> subprocess.CompletedProcess:
    """`pytest <property> --sut <shim> --hypothesis-profile=ci` in a child process."""
    command = [sys.executable, "-m", "pytest", node_id(prop), "-q", "-p", "no:cacheprovider",
               "-W", "ignore", f"--sut={shim}", "--hypothesis-profile=ci", *options]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=900)


def saved_reproducer(output: str) -> Path | None:
    match = _SAVED.search(output)
    return Path(match.group(1)) if match else None


def equations_in(script: str) -> int:
    """Equations of the generated `f` in a reproducer (lines `    vN = ...`)."""
    body = script.split("def f(", 1)[1].split("\n\n", 1)[0]
    return len(re.findall(r"^    v\d+ = ", body, flags=re.MULTILINE))


@pytest.mark.meta
@pytest.mark.parametrize("shim, prop", CATCHES, ids=[f"{s.rsplit('.', 1)[1]}-{p.__name__}"
                                                     for s, p in CATCHES])
def test_broken_sut_is_caught_with_a_small_reproducer(shim, prop):
    run = run_property(shim, prop)
    assert run.returncode == 1, f"{prop.__name__} did not fail on {shim}:\n{run.stdout[-3000:]}"
    path = saved_reproducer(run.stdout)
    assert path and path.exists(), f"no reproducer saved:\n{run.stdout[-3000:]}"
    script = path.read_text()
    shown = [line for line in script.splitlines() if line.strip() and line not in run.stdout]
    assert not shown, f"lines of the saved reproducer missing from the report: {shown[:5]}"
    assert equations_in(script) <= MAX_EQUATIONS, script
    replay = subprocess.run([sys.executable, str(path)], cwd=ROOT, capture_output=True,
                            text=True, timeout=300)
    assert replay.returncode != 0, replay.stdout + replay.stderr
    assert "MISMATCH" in replay.stdout or "Error" in replay.stderr, replay.stdout + replay.stderr
