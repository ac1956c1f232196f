"""`@pytest.mark.needs(...)` names features an SUT may declare unsupported; a misspelt one
would never skip its test, so it is an error at collection (jaxcheck/plugin.py)."""

import subprocess
import sys

import pytest

from oracles.sut import EXTRA_FEATURES, known_features, misnamed_needs

pytestmark = pytest.mark.meta

MISSPELT = '''import pytest


@pytest.mark.needs("grad")
def test_known():
    pass


@pytest.mark.needs("jvp", "grda")
@pytest.mark.parametrize("n", [1, 2])
def test_misspelt(n):
    pass
'''


def test_the_known_features_are_the_contract_and_the_extra_ones():
    assert {"grad", "vmap", "sin", "dynamic_slice", *EXTRA_FEATURES} <= known_features()
    assert misnamed_needs("t", ("grad", "while_loop_reverse")) is None
    message = misnamed_needs("t", ("jvp", "grda"))
    assert message.startswith("t: needs('jvp', 'grda') names unknown features ['grda']; "
                              "known features: [")


def test_a_misspelt_feature_is_a_usage_error_at_collection_naming_it(tmp_path):
    (tmp_path / "test_misspelt.py").write_text(MISSPELT)
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
                          "-p", "jaxcheck.plugin", "--rootdir", str(tmp_path), "--co", "-q",
                          str(tmp_path)], cwd=tmp_path, capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == 4, run.stdout + run.stderr
    lines = [line for line in run.stderr.splitlines() if "grda" in line]
    assert len(lines) == 1, run.stderr  # once, for both parameters
    assert "test_misspelt.py::test_misspelt: needs('jvp', 'grda') names unknown " in lines[0]
    assert "known features: [" in lines[0] and "'while_loop_reverse'" in lines[0]
    assert "Traceback" not in run.stdout + run.stderr
