"""The Hypothesis profiles of the suite, one home for pytest (jaxcheck/plugin.py) and the command.

`ci` is what tox and CI run, the same examples every time; `triage` a first
look at a new system (`jaxcheck check --quick`); `thorough` the
acceptance run (>= 2,000 examples per property); `dev` day to day (the
default of plain pytest); `slow` adds the long programs (tests marked
`slow` run only under it); `catch` is the meta-tests' budget to find each
broken SUT's bug (tests/meta/test_broken_suts.py).
"""

from __future__ import annotations

import importlib
import pkgutil

from hypothesis import HealthCheck, Phase, settings

from oracles.names import LIBRARY as LIBRARY_PREFIX

# No explain phase: after a failure it reruns the example under sys.settrace to
# list the lines only failing runs executed.  Through JAX's tracing code that
# costs 30-100 s per failure (a broken-SUT row: 96 s with it, 0.8 s without),
# and the lines it lists are jaxcheck's comparison code, not the SUT's bug.
_PHASES = [phase for phase in Phase if phase is not Phase.explain]
_COMMON = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow], phases=_PHASES)

PROFILES = {
    # ci: the same examples every time, and the first failure only (with
    # several bugs, Hypothesis would look for others for up to 10 s of clock,
    # and shrink each: one bug per property is what a check run reports).
    "ci": dict(max_examples=60, derandomize=True, database=None, print_blob=False,
               report_multiple_bugs=False),
    "dev": dict(max_examples=100),
    "thorough": dict(max_examples=2000),
    "slow": dict(max_examples=100),
    # catch: its reproducers must not depend on how busy the machine is, so
    # neither of Hypothesis's clocks may decide them: after a first failure it
    # looks for other bugs for up to 10 s (report_multiple_bugs=False stops at
    # the first failure, found by count), and it stops shrinking after 300 s
    # (the plugin lifts that for UNTIMED_SHRINKING; the count limit of 500
    # successful shrinks stays, and `--max-shrinks` lowers it).  Why,
    # measured: docs/performance.md, "Time to find a bug".
    # triage: a newcomer's first look at a new system (`check --quick`): a few
    # examples of every property, the same every time, and every distinct bug of
    # a property reported (a system with several bugs shows them in one round).
    "triage": dict(max_examples=10, derandomize=True, database=None, print_blob=False,
                   report_multiple_bugs=True),
    "catch": dict(max_examples=500, derandomize=True, database=None, print_blob=False,
                  report_multiple_bugs=False),
}
UNTIMED_SHRINKING = {"catch"}
DEFAULT = "dev"


def register() -> None:
    """Each profile on Hypothesis's own defaults.  Without a parent a profile inherits
    the one loaded, and where the environment names a CI runner (`CI` set, as GitHub
    Actions and tox set it) Hypothesis has loaded its `ci` profile: `dev` and
    `thorough` would then draw the same examples every run and keep no database."""
    defaults = settings.get_profile("default")
    for name, values in PROFILES.items():
        settings.register_profile(name, parent=defaults, **_COMMON, **values)
    settings.load_profile(DEFAULT)


# The packages of the checkout whose modules' constants Hypothesis mixes into its draws
# (every local module outside tests/: hypothesis.internal.constants_ast); `__main__`
# is the command's entry, which takes its process's signals over.
LIBRARY = ("strategies", "oracles", "jaxcheck", "refimpl")
NOT_LOADED = ("__main__",)
# Installed, the library's packages are inside `jaxcheck` (oracles/names.py): walking
# it must not import the properties or the shims, whose systems may be absent.
NOT_WALKED = ("tests", "suts")


def load_library() -> None:
    """Import every module of LIBRARY, before any example is drawn.

    Now and then Hypothesis draws a constant written in a local module loaded
    so far instead of a random choice, so the same derandomized seed gave one
    property other examples when it ran alone than beside the properties
    whose test files load `strategies/cell_cases.py` or `oracles/cost.py`,
    and the `jaxcheck` child, which loads `jaxcheck/child.py`, other examples
    than plain pytest.  With every module loaded first, the examples of a
    `ci` run depend on the seed and the SUT's own module only (docs/properties.md).
    """
    for package in LIBRARY:
        name = package if package == "jaxcheck" else LIBRARY_PREFIX + package
        path = importlib.import_module(name).__path__
        for module in pkgutil.walk_packages(path, f"{name}."):
            parts = module.name.split(".")
            if parts[-1] not in NOT_LOADED and not set(parts[1:]) & set(NOT_WALKED):
                importlib.import_module(module.name)
