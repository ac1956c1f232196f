"""Every property must fail on a broken SUT, and shrink the failure to a tiny reproducer.

Each row names a broken shim (`tests/broken/`) and the property that must
catch it.  The property runs with the shim as SUT under the derandomized
`meta` profile; the failure must carry a reproducer whose program has at
most three equations, and running that reproducer must exit non-zero.
"""

import contextlib
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from oracles import reproducer
from oracles.sut import resolve
from tests import test_grad, test_jit, test_jvp, test_vmap

ROOT = Path(__file__).resolve().parents[2]

settings.register_profile("meta", max_examples=300, derandomize=True, database=None,
                          deadline=None, print_blob=False,
                          suppress_health_check=[HealthCheck.too_slow])

CATCHES = [
    ("tests.broken.wrong_sin_derivative",
     test_jvp.test_jvp_matches_finite_differences_and_reference),
    ("tests.broken.wrong_sin_derivative",
     test_grad.test_grad_matches_finite_differences_and_reference),
    ("tests.broken.vmap_axis_one_as_zero", test_vmap.test_vmap_matches_loop_and_stack),
    ("tests.broken.jit_ignores_shapes", test_jit.test_jit_retraces_for_a_new_shape),
]

MAX_EQUATIONS = 3


@contextlib.contextmanager
def profile(name):
    previous = settings.get_current_profile_name()
    settings.load_profile(name)
    try:
        yield
    finally:
        settings.load_profile(previous)


def equations_in(script: str) -> int:
    """Equations of the generated `f` in a reproducer (lines `    vN = ...`)."""
    body = script.split("def f(", 1)[1].split("\nreturn", 1)[0].split("\n\n", 1)[0]
    return len(re.findall(r"^    v\d+ = ", body, flags=re.MULTILINE))


@pytest.mark.meta
@pytest.mark.parametrize("shim, prop", CATCHES, ids=[f"{s.rsplit('.', 1)[1]}-{p.__name__}"
                                                     for s, p in CATCHES])
def test_broken_sut_is_caught_with_a_small_reproducer(shim, prop, tmp_path):
    with profile("meta"), pytest.raises(Exception) as failure:
        prop(sut=resolve(shim), reference=None) if "reference" in _params(prop) else prop(
            sut=resolve(shim))
    script = reproducer.find(failure.value)
    assert script, f"{prop.__name__} failed without a reproducer: {failure.value!r}"
    assert equations_in(script) <= MAX_EQUATIONS, script
    path = tmp_path / "reproducer.py"
    path.write_text(script)
    run = subprocess.run([sys.executable, str(path)], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    assert run.returncode != 0, run.stdout + run.stderr
    assert "MISMATCH" in run.stdout or "Error" in run.stderr, run.stdout + run.stderr


def _params(prop):
    import inspect

    return inspect.signature(prop.hypothesis.inner_test).parameters
