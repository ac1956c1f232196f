"""The properties' pytest plugin: the SUT, the reference, Hypothesis profiles, reproducers.

Whoever runs the properties loads it: the clone's conftest.py for every
pytest run there, the `jaxcheck` command's children with `-p
jaxcheck.plugin`, and a user's own pytest run with `-p jaxcheck` (the
pytest11 entry point, jaxcheck/pytest_entry.py).

* `--sut NAME` (or `SUT=NAME`) picks the system under test, `--reference`
  the SUT whose results serve as exact expectations; both are resolved and
  contract-checked once, at start-up, and a problem is one usage-error line.
* Hypothesis profiles (`ci` derandomized with a fixed budget, `dev` the
  default, `thorough`, `slow`, `catch`: jaxcheck/profiles.py) are chosen
  with `--hypothesis-profile`.
* JAX's caches are cleared every few dozen examples, so memory stays flat
  over a long run (jaxcheck/examples.py); its compilation cache on disk
  (`~/.cache/jaxcheck/xla`, unless `JAX_COMPILATION_CACHE_DIR` says
  otherwise) is kept across runs (jaxcheck/runner.py, `XLA_CACHE`).
* Tests marked `needs("feature")` are skipped, with the feature named, when
  the SUT lists it in `__sut_unsupported__`.
* `--jaxcheck-coverage=FILE` records which operations (by operand ranks and
  transformation mode) and construct regimes each property's examples
  reach, and writes them to FILE (strategies/coverage.py).
* A failing property's reproducer (a note on its exception) is saved under
  `--reproducers` (default `counterexamples/`), its path shown in the report
  and kept in the report's `user_properties` with the error it shows, one
  entry per distinct failure (the `jaxcheck` command reads them from there:
  jaxcheck/child.py).
"""

from __future__ import annotations

import math
import os

import hypothesis
import pytest
from hypothesis.internal.conjecture import engine

from jaxcheck import arguments, profiles
from jaxcheck.examples import MemoryBound, amplifying, shrinking_until, wrapped
from jaxcheck.runner import XLA_CACHE
from oracles import reproducer
from oracles.sut import (
    DEFAULT_SUT,
    DEFAULT_TIMEOUT,
    SutError,
    misnamed_needs,
    reference_name,
    resolve,
)
from strategies import coverage
from strategies.language.vocabulary import Vocabulary, vocabulary_for

profiles.register()
profiles.load_library()

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
                         "'none', or 'auto' (refimpl; JAX when the SUT is refimpl)")
    group.addoption("--sut-timeout", type=arguments.sut_timeout, default=DEFAULT_TIMEOUT,
                    help="seconds one SUT call may take before it counts as hung: 0 (no "
                         f"limit) to {arguments.MAX_SUT_TIMEOUT:g}")
    group.addoption("--max-shrinks", type=int, default=None, metavar="N",
                    help="stop shrinking a failure after N successful shrinks (Hypothesis: "
                         "500); the meta-tests bound their slowest rows with it")
    group.addoption("--shrink-goal", type=int, default=None, metavar="N",
                    help="stop shrinking a failure once its reproducer's program has at "
                         "most N equations (the meta-tests need no smaller)")
    group.addoption("--jaxcheck-coverage", metavar="FILE",
                    help="write the cells (operation x operand ranks x mode, construct x "
                         "regime) each property's examples reach to FILE "
                         "(strategies/coverage.py)")
    group.addoption("--reproducers", default=reproducer.DIRECTORY, metavar="DIR",
                    help="where failing properties' reproducers are saved, relative to the "
                         f"directory pytest runs in (default: {reproducer.DIRECTORY})")


def _shrink_until_done() -> None:
    """Let Hypothesis shrink past its five-minute limit, which its engine keeps as
    a module constant "monkeypatchable, for the rare users who need to keep on
    shrinking" (hypothesis/internal/conjecture/engine.py); its count limit stays."""
    if not hasattr(engine, "MAX_SHRINKING_SECONDS"):
        raise pytest.UsageError(
            f"hypothesis {hypothesis.__version__} has no engine.MAX_SHRINKING_SECONDS: the "
            f"profiles {sorted(profiles.UNTIMED_SHRINKING)} cannot lift its shrinking time limit; "
            "see _shrink_until_done in jaxcheck/plugin.py")
    engine.MAX_SHRINKING_SECONDS = math.inf


def _shrink_at_most(successful: int) -> None:
    """Stop shrinking after `successful` shrinks, by the engine's other module
    constant (`MAX_SHRINKS`, 500): a count, so the result is the same on any machine."""
    if not hasattr(engine, "MAX_SHRINKS"):
        raise pytest.UsageError(f"hypothesis {hypothesis.__version__} has no "
                                "engine.MAX_SHRINKS: --max-shrinks cannot be honoured")
    engine.MAX_SHRINKS = successful


def pytest_configure(config):
    for marker, description in MARKERS.items():
        config.addinivalue_line("markers", f"{marker}: {description}")
    if config.getoption("--hypothesis-profile") in profiles.UNTIMED_SHRINKING:
        _shrink_until_done()
    if config.getoption("--max-shrinks") is not None:
        _shrink_at_most(config.getoption("--max-shrinks"))
    config.jaxcheck_memory = MemoryBound()
    # Before the SUT and the reference are resolved, which is where JAX is imported
    # and reads these: afterwards they would do nothing.
    for name, value in XLA_CACHE.items():
        os.environ.setdefault(name, value)
    if config.getoption("--jaxcheck-coverage"):
        coverage.RECORDER = coverage.Recorder()
    timeout = config.getoption("--sut-timeout")  # checked as it was read (arguments.py)
    try:
        # The reference first: it is frozen with the oracle before the SUT's import
        # can change it (oracles/frozen.py).
        reference = reference_name(config.getoption("--sut"), config.getoption("--reference"))
        config.jaxcheck_reference = (None if reference == "none"
                                     else resolve(reference, timeout, option="--reference"))
        config.jaxcheck_sut = resolve(config.getoption("--sut"), timeout)
    except SutError as exc:
        raise pytest.UsageError(str(exc)) from None


def pytest_sessionfinish(session):
    path = session.config.getoption("--jaxcheck-coverage")
    if path and coverage.RECORDER is not None:
        coverage.RECORDER.write(session.config.invocation_params.dir / path)


def pytest_report_header(config):
    sut, reference = config.jaxcheck_sut, config.jaxcheck_reference
    lines = [f"jaxcheck SUT: {sut.describe()}",
             f"jaxcheck reference: {reference.describe() if reference else 'none'}"]
    left_out = sut.left_out()
    return lines + ([f"jaxcheck left out: {left_out}"] if left_out else [])


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


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_call(item):
    """Every property's examples, with JAX's memory kept bounded, a shrunk value
    mismatch amplified and, with `--shrink-goal`, shrinking ended at the goal
    (jaxcheck/examples.py).  First of the wrappers, so these wrap the body
    innermost: amplification's extra runs are not examples."""
    goal = item.config.getoption("--shrink-goal")
    outer = shrinking_until(goal) if goal is not None else (lambda body: body)
    bound = engine.MAX_SHRINKS
    try:
        with wrapped(item, lambda body: outer(item.config.jaxcheck_memory.wrap(amplifying(body)))):
            return (yield)
    finally:
        engine.MAX_SHRINKS = bound


def pytest_collection_modifyitems(config, items):
    """A `needs` marker naming a feature no SUT can declare would never skip its test:
    a usage error at collection, naming it and the known features."""
    problems = (misnamed_needs(item.nodeid.partition("[")[0], marker.args)
                for item in items for marker in item.iter_markers("needs"))
    problems = list(dict.fromkeys(filter(None, problems)))
    if problems:
        raise pytest.UsageError("\n".join(problems))


def pytest_runtest_setup(item):
    if coverage.RECORDER is not None:
        coverage.RECORDER.current = item.nodeid
    if item.get_closest_marker("slow") and item.config.getoption("hypothesis_profile") != "slow":
        pytest.skip("a slow test: run it with --hypothesis-profile=slow")
    sut = item.config.jaxcheck_sut
    for marker in item.iter_markers("needs"):
        lacking = [f for f in marker.args if not sut.supports(f)]
        if lacking:
            pytest.skip(sut.lacking(lacking))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.failed and call.excinfo is not None:
        directory = item.config.invocation_params.dir / item.config.getoption("--reproducers")
        for error, texts in reproducer.failures(call.excinfo.value):
            paths, unsaved, trouble = [], [], []
            for text in texts:
                try:
                    paths.append(str(reproducer.save(text, item.name, directory)))
                except OSError as exc:  # a full disk: the failure stands, its script is kept
                    unsaved.append(text)
                    trouble.append(f"a reproducer could not be saved to {directory} "
                                   f"({exc.strerror}); it is printed in the report instead")
            report.user_properties.append((reproducer.FAILURE_KEY, {
                "error": error, "reproducers": paths, "unsaved": unsaved, "trouble": trouble}))
            report.sections += [("jaxcheck reproducer", f"saved to {path}\n"
                                                         f"run it with: python {path}")
                                for path in paths]
    return report
