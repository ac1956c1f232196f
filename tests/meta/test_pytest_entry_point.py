"""jaxcheck's pytest11 entry point (jaxcheck/pytest_entry.py): nothing in a user's own pytest run
unless it says `-p jaxcheck`, and then the properties run inside that run against its SUT.

Installing jaxcheck registers the entry point in every pytest run of the
environment.  A user's unrelated run, one with a `--sut` option of its
own, must collect and print what it did without jaxcheck; only the line
where pytest itself lists the installed plugins may differ.  Asked, the
entry point brings the properties' options and wiring: here without the
clone's conftest.py (`--noconftest`), so the entry point alone does it.
"""

import os
import re
import subprocess
import sys
from importlib import metadata

import pytest

from tests.meta.command import ROOT

pytestmark = [
    pytest.mark.meta,
    pytest.mark.skipif(not metadata.entry_points(group="pytest11", name="jaxcheck"),
                       reason="jaxcheck is not installed here (pip install -e .), so its "
                              "pytest11 entry point is not registered"),
]

USER_TESTS = '''
import pytest

def test_adds(sut_option):
    assert 1 + 1 == 2 and sut_option == "theirs"

@pytest.mark.skip(reason="the user's own skip")
def test_skipped():
    pass

@pytest.mark.parametrize("n", [1, 2])
def test_counts(n):
    assert n
'''

USER_CONFTEST = '''
import pytest

def pytest_addoption(parser):
    parser.addoption("--sut", default="theirs", help="the user's own --sut")

@pytest.fixture
def sut_option(request):
    return request.config.getoption("--sut")

def pytest_report_header(config):
    return "the user's own header"
'''

# What changes from one run to the next by itself: durations, and the line where
# pytest names every installed plugin (jaxcheck among them once installed).
_VARYING = re.compile(r" in \d+\.\d+s|^plugins: .*$", re.MULTILINE)


def _pytest(project, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
                          cwd=project, capture_output=True, text=True, timeout=600,
                          env={**os.environ, **(env or {})})


@pytest.fixture
def project(tmp_path):
    (tmp_path / "pytest.ini").write_text("[pytest]\naddopts = -rA\n")
    (tmp_path / "conftest.py").write_text(USER_CONFTEST)
    (tmp_path / "test_user.py").write_text(USER_TESTS)
    return tmp_path


@pytest.mark.parametrize("args", [(), ("--collect-only",), ("-q",), ("-v",)],
                         ids=["run", "collect", "quiet", "verbose"])
def test_a_users_own_run_is_the_same_with_jaxcheck_installed(project, args):
    with_it = _pytest(project, *args)
    without = _pytest(project, "-p", "no:jaxcheck", *args)
    assert with_it.returncode == without.returncode == 0, with_it.stdout + with_it.stderr
    assert _VARYING.sub("", with_it.stdout) == _VARYING.sub("", without.stdout)
    assert with_it.stderr == without.stderr


def test_unasked_the_properties_options_are_unknown(project):
    run = _pytest(project, "--noconftest", "--jaxcheck-coverage=x", "test_user.py")
    assert run.returncode == 4 and "unrecognized arguments: --jaxcheck-coverage" in run.stderr


def test_asked_the_properties_run_in_the_users_pytest_against_their_sut(tmp_path):
    """A broken SUT fails the property; its reproducer goes where the user's run is."""
    run = _pytest(tmp_path, "--noconftest", "-p", "jaxcheck",
                  "--sut", "tests.broken.div_jvp_denominator_sign", "--hypothesis-profile=ci",
                  "-k", "test_jvp_matches_finite_differences_and_reference",
                  str(ROOT / "tests" / "test_jvp.py"), env={"PYTHONPATH": str(ROOT)})
    assert run.returncode == 1, run.stdout + run.stderr
    assert "jaxcheck SUT: tests.broken.div_jvp_denominator_sign" in run.stdout, run.stdout
    assert list((tmp_path / "counterexamples").glob("repro_test_jvp_matches_*.py")), run.stdout
