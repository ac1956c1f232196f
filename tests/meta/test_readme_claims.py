"""What README.md says of budgets and findings is what the code and docs/findings.md say:
the numbers that can drift, held."""

import re

import pytest

from jaxcheck import cli, profiles
from tests.meta.command import ROOT

pytestmark = pytest.mark.meta

README = " ".join((ROOT / "README.md").read_text().split())
FINDINGS = (ROOT / "docs" / "findings.md").read_text()
NUMBER_WORDS = dict(enumerate(["zero", "one", "two", "three", "four", "five", "six", "seven",
                               "eight", "nine", "ten", "eleven", "twelve", "thirteen",
                               "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
                               "nineteen", "twenty"]))


def test_the_profiles_example_budgets_are_the_ones_it_names():
    assert f"`ci` (derandomized, {profiles.PROFILES['ci']['max_examples']} examples per" in README
    assert f"(`check --quick`: {profiles.PROFILES['triage']['max_examples']} examples)" in README
    assert f"`thorough` ({profiles.PROFILES['thorough']['max_examples']:,})" in README


def test_the_quick_rounds_budget_is_the_one_it_names():
    quick = re.search(r"`--quick` is the newcomer.s round: (.*?)\. Exit", README)[1]
    assert f"{profiles.PROFILES['triage']['max_examples']} derandomized examples" in quick
    assert f"its share of {cli.QUICK_MINUTES} minutes" in quick
    assert f"shrinks cut at {cli.QUICK_SHRINKS} steps" in quick


def _sections(letter: str) -> int:
    return len(re.findall(rf"^### {letter}\d+\. ", FINDINGS, re.MULTILINE))


def test_the_findings_it_counts_are_the_sections_of_the_findings():
    assert f"And JAX itself (J1-J{_sections('J')})" in README
    mlx = NUMBER_WORDS[_sections("M")]
    assert f"MLX 0.32.4 CPU, float32 and float64): {mlx} findings" in README
