"""`jaxcheck --version` names jaxcheck's version and the JAX it was checked against, and that JAX
is the one CI checks: tox.ini's pins, held equal to jaxcheck/version.py here."""

import configparser
import re

import pytest

from jaxcheck import version
from tests.meta.command import ROOT, jaxcheck

pytestmark = pytest.mark.meta


def _tox_pins() -> dict[str, str]:
    tox = configparser.ConfigParser(interpolation=None)
    tox.read(ROOT / "tox.ini")
    deps = tox["testenv"]["deps"].split()
    return dict(re.fullmatch(r"([\w-]+)==(.+)", dep).groups() for dep in deps if "==" in dep)


def test_the_jax_ci_checks_is_the_one_the_version_names():
    pins = _tox_pins()
    assert pins["jax"] == pins["jaxlib"] == version.JAX_CHECKED, pins


def test_version_prints_jaxchecks_version_and_the_jax_it_was_checked_against():
    run = jaxcheck("--version")
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == version.line()
    assert f"checked against JAX {version.JAX_CHECKED}" in run.stdout

