"""docs/writing-a-shim.md cannot go stale: it quotes its toy SUT verbatim, and the toy passes.

The guide builds a shim around `suts/dual_numbers.py` and shows it passing
the forward-mode properties.  These tests hold the guide to the file (the
one Python block marked as the toy must be the file, byte for byte) and the
file to the suite (the command the guide shows, on the `ci` profile, exits
0 with every selected property passed or skipped by declaration).
"""

import re

import pytest

from tests.meta.command import ROOT, jaxcheck, verdicts

pytestmark = pytest.mark.meta

GUIDE = ROOT / "docs" / "writing-a-shim.md"
TOY = ROOT / "suts" / "dual_numbers.py"
# The block right after this marker line is the toy, as the guide quotes it.
MARKER = "<!-- quoted verbatim from suts/dual_numbers.py (tests/meta/test_writing_a_shim.py) -->"
# The properties the guide's passing run selects: forward mode and plain evaluation.
ONLY = "test_jvp or test_value"


def _quoted_toy() -> str:
    text = GUIDE.read_text()
    assert text.count(MARKER) == 1, f"{GUIDE.name} must mark the toy's block once with {MARKER}"
    found = re.search(re.escape(MARKER) + r"\n```python\n(.*?)```\n", text, flags=re.DOTALL)
    assert found, f"no ```python block right after the marker in {GUIDE.name}"
    return found.group(1)


def test_the_guide_quotes_the_toy_verbatim():
    assert _quoted_toy() == TOY.read_text()


def test_the_guide_shows_the_command_this_test_runs():
    assert f'--only "{ONLY}"' in GUIDE.read_text()


def test_the_toy_passes_the_properties_the_guide_runs(tmp_path):
    run = jaxcheck("check", "--sut", "suts.dual_numbers", "--jobs", "1", "--profile", "ci",
                   "--only", ONLY, "--out", str(tmp_path))
    assert run.returncode == 0, run.stdout + run.stderr
    found = verdicts(tmp_path)
    assert found["test_jvp_matches_finite_differences_and_reference"]["examples"] >= 60
    assert found["test_value_matches_numpy_and_reference"]["examples"] >= 60
