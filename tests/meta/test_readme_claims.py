"""What README.md says of budgets is what the code does: the numbers that can drift, held."""

import re

import pytest

from jaxcheck import cli, profiles
from tests.meta.command import ROOT

pytestmark = pytest.mark.meta

README = " ".join((ROOT / "README.md").read_text().split())


def test_the_profiles_example_budgets_are_the_ones_it_names():
    assert f"`ci` (derandomized, {profiles.PROFILES['ci']['max_examples']} examples per" in README
    assert f"(`check --quick`: {profiles.PROFILES['triage']['max_examples']} examples)" in README
    assert f"`thorough` ({profiles.PROFILES['thorough']['max_examples']:,})" in README


def test_the_quick_rounds_budget_is_the_one_it_names():
    quick = re.search(r"`--quick` is the newcomer.s round: (.*?)\. Exit", README)[1]
    assert f"{profiles.PROFILES['triage']['max_examples']} derandomized examples" in quick
    assert f"its share of {cli.QUICK_MINUTES} minutes" in quick
    assert f"shrinks cut at {cli.QUICK_SHRINKS} steps" in quick
