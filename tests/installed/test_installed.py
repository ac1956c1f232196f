"""jaxcheck installed from its wheel, run from a user's project with everything that could clash.

`tox -e installed` builds the sdist, pip builds the wheel from it (through
backend/jaxcheck_build.py, as `python -m build` does) and installs it into
a fresh environment; these tests then run the installed `jaxcheck` command
from a project folder of a user's own with a `tests/` package, a
`conftest.py`, a pytest configuration that would break any run it reached
(`filterwarnings = error`, `addopts`, `-p` plugins), a `strategies.py`
of the user's own that the user's SUT imports, an `oracles/` package and
a Hypothesis profile.  Where jaxcheck is not installed from a wheel (a
clone's editable install), they are skipped, saying so.

They import nothing of the clone: the clone is the build's input, not
what is tested.
"""

import json
import os
import subprocess
import sys
import sysconfig
from importlib import metadata
from pathlib import Path

import pytest


def _from_a_wheel() -> metadata.Distribution | None:
    """jaxcheck's distribution in this interpreter's site-packages where it was installed
    from its wheel: its files are the package itself, the properties inside it.  An
    editable install holds a path file and a finder instead (and pip's record of where it
    came from says "editable" only when pip made the editable wheel itself, not when tox
    hands it one); a clone's own `jaxcheck.egg-info`, beside its sources, is not looked at."""
    site = sysconfig.get_paths()["purelib"]
    for distribution in metadata.distributions(name="jaxcheck", path=[site]):
        if any(str(file) == "jaxcheck/tests/__init__.py" for file in distribution.files or ()):
            return distribution
    return None


WHEEL = _from_a_wheel()
pytestmark = pytest.mark.skipif(
    WHEEL is None,
    reason="needs jaxcheck installed from its wheel, not editable: run `tox -e installed`")

COMMAND = Path(sys.executable).with_name("jaxcheck")
CLONE = Path(__file__).resolve().parents[2]

HOSTILE = {
    "pyproject.toml": """\
[tool.pytest.ini_options]
addopts = "-x --strict-markers -p no:hypothesispytest --maxfail=1"
filterwarnings = ["error"]
testpaths = ["tests"]
""",
    "conftest.py": """\
from hypothesis import settings

settings.register_profile("user", max_examples=1)
settings.load_profile("user")
raise RuntimeError("the user's conftest.py was loaded")
""",
    "tests/__init__.py": "",
    "tests/conftest.py": "raise RuntimeError(\"the user's tests/conftest.py was loaded\")\n",
    "tests/test_theirs.py": "def test_theirs():\n    raise AssertionError('a user test ran')\n",
    "strategies.py": 'OWNER = "user"\n',
    "oracles/__init__.py": "raise ImportError(\"the user's oracles package was imported\")\n",
    "mypkg/__init__.py": "",
    # The user's SUT: refimpl as installed, beside a module of the user's own
    # named like one of jaxcheck's, which it must get.
    "mypkg/shim.py": """\
import strategies

from jaxcheck import refimpl

assert strategies.OWNER == "user", strategies


def __getattr__(name):
    return getattr(refimpl, name)
""",
    # A user's SUT with a bug: its jvp doubles the tangent.
    "mypkg/doubled.py": """\
from jaxcheck import refimpl

__version__ = "refimpl whose jvp doubles the tangent"


def __getattr__(name):
    return getattr(refimpl, name)


def jvp(fun, primals, tangents):
    out, tangent = refimpl.jvp(fun, primals, tangents)
    return out, 2 * tangent
""",
}

KNOWN = """\
# Our system's known findings

### B1. `jvp` doubles every tangent

Signature (mypkg.doubled): `sut\\.jvp\\(`
"""

# A few properties of each kind: values, forward and reverse mode, batching.
SOME = ("test_value_matches_numpy_and_reference or test_jvp_matches_finite "
        "or test_grad_matches_finite or test_vmap_matches_loop_and_stack")


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> Path:
    project = tmp_path_factory.mktemp("hostile")
    for name, text in HOSTILE.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    return project


def jaxcheck(project: Path, *args: str, command=(str(COMMAND),)) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTEST_ADDOPTS": "--the-users-own-option"}
    return subprocess.run([*command, *args], cwd=project, capture_output=True, text=True,
                          timeout=1200, env=env)


def outcomes(out: Path) -> dict[str, str]:
    (path,) = out.glob("logs/*/verdicts.json")
    verdicts = json.loads(path.read_text())["verdicts"]  # a check's record: one column
    return {v["nodeid"]: v["outcome"] for v in verdicts}


def test_version_names_jaxcheck_and_the_jax_it_was_checked_against(hostile):
    run = jaxcheck(hostile, "--version")
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith(f"jaxcheck {WHEEL.version} (checked against "
                                 "JAX "), run.stdout


def test_the_wheel_adds_one_name_to_site_packages():
    """Its files, the console script aside (installed in bin/, outside site-packages)."""
    files = [str(f) for f in WHEEL.files if f.parts[0] != ".."]
    assert {f.split("/", 1)[0] for f in files} == {
        "jaxcheck", f"jaxcheck-{WHEEL.version}.dist-info"}, files
    assert "jaxcheck/tests/test_grad.py" in files and "jaxcheck/refimpl/__init__.py" in files
    assert not any(f.startswith(("jaxcheck/tests/meta", "jaxcheck/tests/broken")) for f in files)


def test_a_check_from_a_hostile_project_meets_none_of_it(hostile):
    run = jaxcheck(hostile, "check", "--sut", "mypkg.shim", "--only", SOME,
                   "--out", str(hostile / "out-shim"))
    assert run.returncode == 0, run.stdout + run.stderr
    found = outcomes(hostile / "out-shim")
    assert len(found) == 4 and set(found.values()) == {"passed"}, found


def test_the_installed_verdicts_are_the_clones(hostile):
    """refimpl, from the installed wheel in the hostile project and from the clone."""
    installed = jaxcheck(hostile, "check", "--sut", "refimpl", "--only", SOME,
                         "--out", str(hostile / "out-installed"))
    clone = jaxcheck(CLONE, "check", "--sut", "refimpl", "--only", SOME,
                     "--out", str(hostile / "out-clone"),
                     command=(sys.executable, "-m", "jaxcheck"))
    assert installed.returncode == clone.returncode == 0, installed.stdout + clone.stdout
    assert outcomes(hostile / "out-installed") == outcomes(hostile / "out-clone")


def test_a_quick_round_of_the_toy_shim_judges_every_property(hostile):
    run = jaxcheck(hostile, "check", "--sut", "suts.dual_numbers", "--quick",
                   "--out", str(hostile / "out-quick"))
    assert run.returncode == 0, run.stdout + run.stderr
    found = outcomes(hostile / "out-quick")
    assert len(found) > 100 and "interrupted" not in found.values(), found


def test_a_known_run_passes_on_known_findings_and_fails_on_a_new_one(hostile):
    known = hostile / "known.md"
    known.write_text(KNOWN)
    junit = hostile / "junit.xml"
    run = jaxcheck(hostile, "check", "--sut", "mypkg.doubled", "--only", SOME, "--known",
                   str(known), "--junit-xml", str(junit), "--out", str(hostile / "out-known"))
    assert run.returncode == 0, run.stdout + run.stderr
    assert " known" in run.stdout and "known  B1. `jvp` doubles every tangent" in run.stdout
    assert 'type="jaxcheck.known"' in junit.read_text()
    known.write_text(KNOWN.replace("sut\\.jvp\\(", "no failure shows this"))
    # A new failure is shrunk again; how far does not change its verdict (5
    # shrinks: 5 s, where shrinking to the end took 38 s).
    again = jaxcheck(hostile, "check", "--sut", "mypkg.doubled", "--only", SOME, "--known",
                     str(known), "--max-shrinks", "5", "--out", str(hostile / "out-new"))
    assert again.returncode == 1, again.stdout + again.stderr
    assert "NEW    failures that show no known finding" in again.stdout, again.stdout


USER_PROJECT = {
    "pytest.ini": "[pytest]\naddopts = -rA\n",
    "conftest.py": """\
def pytest_addoption(parser):
    parser.addoption("--sut", default="theirs")
""",
    "test_user.py": """\
import pytest

def test_adds(request):
    assert request.config.getoption("--sut") == "theirs"

@pytest.mark.skip(reason="the user's own skip")
def test_skipped():
    pass
""",
}


@pytest.fixture
def user_project(tmp_path) -> Path:
    for name, text in USER_PROJECT.items():
        (tmp_path / name).write_text(text)
    return tmp_path


def _pytest(project: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
                          cwd=project, capture_output=True, text=True, timeout=600)


def test_a_users_own_pytest_run_is_the_same_with_jaxcheck_installed(user_project):
    with_it, without = _pytest(user_project), _pytest(user_project, "-p", "no:jaxcheck")
    assert with_it.returncode == without.returncode == 0, with_it.stdout + with_it.stderr

    def same(text: str) -> list[str]:  # but the durations and pytest's list of plugins
        return [line.rsplit(" in ", 1)[0] for line in text.splitlines()
                if not line.startswith("plugins: ")]

    assert same(with_it.stdout) == same(without.stdout)


def test_asked_the_properties_run_inside_the_users_pytest_run(user_project):
    (user_project / "conftest.py").unlink()  # their own --sut would clash with jaxcheck's
    run = _pytest(user_project, "--pyargs", "jaxcheck.tests", "-p", "jaxcheck", "--sut",
                  "refimpl", "--hypothesis-profile=ci", "-k",
                  "test_value_matches_numpy_and_reference")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 passed" in run.stdout and "jaxcheck SUT: refimpl" in run.stdout, run.stdout
