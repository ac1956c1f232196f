"""Every reproducer kept under tests/regressions/ still passes (`jaxcheck replay`)."""

import pytest

from tests.meta.command import ROOT, jaxcheck

pytestmark = pytest.mark.meta


def test_every_kept_reproducer_passes():
    run = jaxcheck("replay", str(ROOT / "tests" / "regressions"))
    assert run.returncode == 0, run.stdout + run.stderr
    assert " 0 failed" in run.stdout and not run.stdout.startswith("0 passed"), run.stdout
