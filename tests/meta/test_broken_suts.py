"""Every property must fail on a broken SUT, and shrink the failure to a tiny reproducer.

Each row names a broken shim (`tests/broken/`) and the property that must
catch it.  The property runs as a user would run it: `pytest --sut <shim>`
in a child process under a derandomized profile (a profile binds when a
test is decorated, so it cannot be switched inside this process).  The run
must fail, save a reproducer whose program has at most three equations, and
that saved file must exit non-zero when run with `python`.

Rows for the constructs of the program language (cond, loops, nested jvp)
run the `catch` profile: a bug in one construct's rule shows only in the
programs that use that construct, which the 60 examples of `ci` may not
include (measured: 6 of ci's 60 jvp examples hold a cond); `catch` is
derandomized too, with 500 examples.  Their shims are built over refimpl and
run with `--reference=none` (finite differences carry the check), so those
examples cost milliseconds, not the compilations eager JAX needs.  Their
reproducers may hold up to `MAX_CONSTRUCT_EQUATIONS` top-level equations:
Hypothesis shrinks a construct's blocks well, but the equations around a
construct that carry its bug to the output less reliably (measured: 5 for
the scan shim).
"""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests import test_grad, test_jit, test_jvp, test_vmap

ROOT = Path(__file__).resolve().parents[2]

CONSTRUCT = ("--hypothesis-profile=catch", "--reference=none")

CATCHES = [
    ("tests.broken.wrong_sin_derivative",
     test_jvp.test_jvp_matches_finite_differences_and_reference, ()),
    ("tests.broken.wrong_sin_derivative",
     test_grad.test_grad_matches_finite_differences_and_reference, ()),
    ("tests.broken.vmap_axis_one_as_zero", test_vmap.test_vmap_matches_loop_and_stack, ()),
    ("tests.broken.jit_ignores_shapes", test_jit.test_jit_retraces_for_a_new_shape, ()),
    # One per construct of the program language (built over refimpl, to shrink fast).
    ("tests.broken.cond_false_branch_derivative",
     test_jvp.test_jvp_matches_finite_differences_and_reference, CONSTRUCT),
    ("tests.broken.fori_loop_derivative_off_by_one",
     test_jvp.test_jvp_matches_finite_differences_and_reference, CONSTRUCT),
    ("tests.broken.scan_reverse_in_wrong_order",
     test_grad.test_grad_matches_finite_differences_and_reference, CONSTRUCT),
    ("tests.broken.nested_jvp_confusion",
     test_jvp.test_jvp_matches_finite_differences_and_reference, CONSTRUCT),
    ("tests.broken.vmap_cond_one_branch", test_vmap.test_vmap_matches_loop_and_stack, CONSTRUCT),
]

MAX_EQUATIONS = 3
MAX_CONSTRUCT_EQUATIONS = 6
_SAVED = re.compile(r"saved to (\S+\.py)")


def node_id(prop) -> str:
    return f"{prop.__module__.replace('.', '/')}.py::{prop.__name__}"


def run_property(shim: str, prop, *options: str) -> subprocess.CompletedProcess:
    """`pytest <property> --sut <shim> --hypothesis-profile=ci` in a child process
    (`options` come last, so they may name another profile)."""
    command = [sys.executable, "-m", "pytest", node_id(prop), "-q", "-p", "no:cacheprovider",
               "-W", "ignore", f"--sut={shim}", "--hypothesis-profile=ci", *options]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=900)


def saved_reproducer(output: str) -> Path | None:
    """The smallest reproducer the run saved (one per distinct bug Hypothesis found)."""
    paths = [Path(p) for p in _SAVED.findall(output)]
    return min(paths, key=lambda p: equations_in(p.read_text()) if p.exists() else 1 << 30,
               default=None)


def equations_in(script: str) -> int:
    """Equations of the generated `f` in a reproducer (lines `    vN = ...`)."""
    body = script.split("def f(", 1)[1].split("\n\n", 1)[0]
    return len(re.findall(r"^    v\d+(?:, v\d+)* = ", body, flags=re.MULTILINE))


@pytest.mark.meta
@pytest.mark.parametrize("shim, prop, options", CATCHES,
                         ids=[f"{s.rsplit('.', 1)[1]}-{p.__name__}" for s, p, _ in CATCHES])
def test_broken_sut_is_caught_with_a_small_reproducer(shim, prop, options):
    run = run_property(shim, prop, *options)
    assert run.returncode == 1, f"{prop.__name__} did not fail on {shim}:\n{run.stdout[-3000:]}"
    path = saved_reproducer(run.stdout)
    assert path and path.exists(), f"no reproducer saved:\n{run.stdout[-3000:]}"
    script = path.read_text()
    shown = [line for line in script.splitlines() if line.strip() and line not in run.stdout]
    assert not shown, f"lines of the saved reproducer missing from the report: {shown[:5]}"
    limit = MAX_CONSTRUCT_EQUATIONS if options == CONSTRUCT else MAX_EQUATIONS
    assert equations_in(script) <= limit, script
    replay = subprocess.run([sys.executable, str(path)], cwd=ROOT, capture_output=True,
                            text=True, timeout=300)
    assert replay.returncode != 0, replay.stdout + replay.stderr
    assert "MISMATCH" in replay.stdout or "Error" in replay.stderr, replay.stdout + replay.stderr
