"""A profile means the same on a CI machine as on a laptop.

Hypothesis loads its own `ci` profile when the environment names a CI runner
(`CI` is set, as GitHub Actions and tox set it), and a profile registered
without a parent inherits whatever is loaded: there `dev` and `thorough`
would draw the same examples every run and keep no database, so a hunt on a
CI runner would never explore and never replay what it found.
"""

import json
import os
import subprocess
import sys

import pytest

from jaxcheck import profiles
from tests.meta.command import ROOT

pytestmark = pytest.mark.meta

PRINT_PROFILES = """
import json
from hypothesis import settings
from jaxcheck import profiles
profiles.register()
print(json.dumps({name: [settings.get_profile(name).derandomize,
                         settings.get_profile(name).database is not None]
                  for name in profiles.PROFILES}))
"""


# The variables by which Hypothesis knows a CI runner (tox keeps the second).
CI_VARIABLES = ("CI", "__TOX_ENVIRONMENT_VARIABLE_ORIGINAL_CI")
OUTSIDE_CI = {name: value for name, value in os.environ.items() if name not in CI_VARIABLES}


def _profiles(environment: dict[str, str]) -> dict[str, list[bool]]:
    """Each profile's [derandomize, has a database], as a fresh process registers them."""
    run = subprocess.run([sys.executable, "-c", PRINT_PROFILES], cwd=ROOT, check=True,
                         capture_output=True, text=True, env=environment)
    return json.loads(run.stdout)


@pytest.mark.parametrize("variable", CI_VARIABLES)
def test_a_ci_runners_environment_changes_no_profile(variable):
    assert _profiles({**OUTSIDE_CI, variable: "true"}) == _profiles(OUTSIDE_CI)


def test_the_exploring_profiles_draw_afresh_and_keep_what_they_find():
    exploring = {name for name, values in profiles.PROFILES.items()
                 if not values.get("derandomize")}
    assert exploring >= {"dev", "thorough"}
    drawn = _profiles({**OUTSIDE_CI, "CI": "true"})
    assert all(drawn[name] == [False, True] for name in exploring), drawn
