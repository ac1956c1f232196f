"""pytest wiring for jaxcheck: the SUT, the reference, Hypothesis profiles, reproducers.

* `--sut NAME` (or `SUT=NAME`) picks the system under test, `--reference`
  the SUT whose results serve as exact expectations; both are resolved and
  contract-checked once, at start-up, and a problem is one usage-error line.
* Hypothesis profiles (`ci` derandomized with a fixed budget, `dev` the
  default, `thorough`, `slow`, `catch`) are chosen with `--hypothesis-profile`.
* Tests marked `needs("feature")` are skipped, with the feature named, when
  the SUT lists it in `__sut_unsupported__`.
* A failing property's reproducer (a note on its exception) is saved under
  `counterexamples/` and its path shown in the report.
"""

from __future__ import annotations

import math
import os

import hypothesis
import pytest
from hypothesis import HealthCheck, settings
from hypothesis.internal.conjecture import engine

from oracles import reproducer
from oracles.sut import DEFAULT_TIMEOUT, SutError, resolve
from strategies.vocabulary import Vocabulary, vocabulary_for

# The default SUT: the reference implementation, which passes the whole suite.
DEFAULT_SUT = "refimpl"

# The reference for each SUT ("auto"); an SUT missing here is checked against JAX.
# JAX is checked against refimpl: two independent implementations.
AUTO_REFERENCE = {"jax": "refimpl"}

_COMMON = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])
# ci: what tox and CI run, the same examples every time; thorough: the
# acceptance run (>= 2,000 examples per property); dev: day to day.
settings.register_profile("ci", max_examples=60, derandomize=True, database=None,
                          print_blob=False, **_COMMON)
settings.register_profile("dev", max_examples=100, **_COMMON)
settings.register_profile("thorough", max_examples=2000, **_COMMON)
# slow: long programs (tests marked `slow` run only under it).
settings.register_profile("slow", max_examples=100, **_COMMON)
# catch: the meta-tests' budget to find each broken SUT's bug (tests/meta/test_broken_suts.py).
# Its reproducers must not depend on how busy the machine is, so neither of
# Hypothesis's clocks may decide them: after a first failure it looks for
# other bugs for up to 10 s (report_multiple_bugs=False stops at the first
# failure, found by count), and it stops shrinking after 300 s
# (`_shrink_until_done` lifts that for these profiles; the count limit of 500
# successful shrinks stays).  Why, measured: docs/benchmarks.md, "Time to find a bug".
settings.register_profile("catch", max_examples=500, derandomize=True, database=None,
                          print_blob=False, report_multiple_bugs=False, **_COMMON)
UNTIMED_SHRINKING = {"catch"}
settings.load_profile("dev")

MARKERS = {
    "needs(*features)": "skip unless the SUT supports every named feature "
                        "(see __sut_unsupported__ in docs/sut-api.md)",
    "meta": "tests of jaxcheck itself: strategies, oracles, broken SUTs it must catch",
    "slow": "long programs; run only with --hypothesis-profile=slow",
}


def pytest_addoption(parser):
    group = parser.getgroup("jaxcheck")
    group.addoption("--sut", default=os.environ.get("SUT", DEFAULT_SUT),
                    help="system under test: refimpl, jax, a module path or module:attribute "
                         f"(default: $SUT or {DEFAULT_SUT})")
    group.addoption("--reference", default=os.environ.get("REFERENCE", "auto"),
                    help="SUT whose results are exact expectations: a name as for --sut, "
                         "'none', or 'auto' (JAX; refimpl when the SUT is JAX)")
    group.addoption("--sut-timeout", type=float, default=DEFAULT_TIMEOUT,
                    help="seconds one SUT call may take before it counts as hung (0: no limit)")


def _reference_name(config) -> str:
    name = config.getoption("--reference")
    if name == "auto":
        return AUTO_REFERENCE.get(config.getoption("--sut"), "jax")
    return name


def _shrink_until_done() -> None:
    """Let Hypothesis shrink past its five-minute limit, which its engine keeps as
    a module constant "monkeypatchable, for the rare users who need to keep on
    shrinking" (hypothesis/internal/conjecture/engine.py); its count limit stays."""
    if not hasattr(engine, "MAX_SHRINKING_SECONDS"):
        raise pytest.UsageError(
            f"hypothesis {hypothesis.__version__} has no engine.MAX_SHRINKING_SECONDS: the "
            f"profiles {sorted(UNTIMED_SHRINKING)} cannot lift its shrinking time limit; "
            "see _shrink_until_done in conftest.py")
    engine.MAX_SHRINKING_SECONDS = math.inf


def pytest_configure(config):
    for marker, description in MARKERS.items():
        config.addinivalue_line("markers", f"{marker}: {description}")
    if config.getoption("--hypothesis-profile") in UNTIMED_SHRINKING:
        _shrink_until_done()
    timeout = config.getoption("--sut-timeout")
    try:
        config.jaxcheck_sut = resolve(config.getoption("--sut"), timeout)
        reference = _reference_name(config)
        config.jaxcheck_reference = None if reference == "none" else resolve(reference, timeout)
    except SutError as exc:
        raise pytest.UsageError(str(exc)) from None


def pytest_report_header(config):
    sut, reference = config.jaxcheck_sut, config.jaxcheck_reference
    return [f"jaxcheck SUT: {sut.describe()}",
            f"jaxcheck reference: {reference.describe() if reference else 'none'}"]


@pytest.fixture(scope="session")
def sut(pytestconfig):
    return pytestconfig.jaxcheck_sut


@pytest.fixture(scope="session")
def vocabulary(pytestconfig) -> Vocabulary:
    """What programs may use: the operations and constructs the SUT supports (and, for
    reverse mode, can differentiate), from its `__sut_unsupported__`.  Properties pass
    it to the case strategies they draw from."""
    return vocabulary_for(pytestconfig.jaxcheck_sut.unsupported)


@pytest.fixture(scope="session")
def reference(pytestconfig):
    """The reference SUT, or None (finite differences and identities carry the check)."""
    return pytestconfig.jaxcheck_reference


def pytest_runtest_setup(item):
    if item.get_closest_marker("slow") and item.config.getoption("hypothesis_profile") != "slow":
        pytest.skip("a slow test: run it with --hypothesis-profile=slow")
    sut = item.config.jaxcheck_sut
    for marker in item.iter_markers("needs"):
        lacking = [f for f in marker.args if not sut.supports(f)]
        if lacking:
            pytest.skip(f"{sut.name} declares {', '.join(lacking)} unsupported "
                        "(__sut_unsupported__)")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.failed and call.excinfo is not None:
        for text in reproducer.find_all(call.excinfo.value):
            path = reproducer.save(text, item.name, item.config.invocation_params.dir)
            report.sections.append(("jaxcheck reproducer", f"saved to {path}\n"
                                                            f"run it with: python {path}"))
    return report
