"""What README.md and the reference pages say of budgets, defaults and findings is what the
code and the findings pages say: the numbers that can drift, held where they are stated."""

import re

import pytest

from jaxcheck import arguments, cli, lifetime, probe, profiles, replay, signatures
from oracles import amplify
from oracles.sut import DEFAULT_TIMEOUT
from tests.meta.command import ROOT

pytestmark = pytest.mark.meta


def _read(name: str) -> str:
    """A page with its whitespace made single spaces, so a phrase may wrap anywhere."""
    return " ".join((ROOT / name).read_text().split())


README = _read("README.md")
PROPERTIES = _read("docs/properties.md")
COMMAND = _read("docs/command.md")
FINDINGS = ROOT / "docs" / "findings"
# Each system's findings page, and the letter of its findings' ids.
SYSTEMS = {"jax": "J", "autograd": "A", "torch_func": "T", "mlx": "M", "tensorflow": "TF"}


def test_the_profiles_example_budgets_are_the_ones_it_names():
    assert f"`ci` (derandomized, {profiles.PROFILES['ci']['max_examples']} examples per" in \
        PROPERTIES
    assert f"`triage` (`check --quick`: {profiles.PROFILES['triage']['max_examples']} " \
           "examples)" in PROPERTIES
    assert f"`thorough` ({profiles.PROFILES['thorough']['max_examples']:,})" in PROPERTIES
    assert f"`catch` (derandomized, {profiles.PROFILES['catch']['max_examples']} examples)" in \
        PROPERTIES
    assert "`dev`: the default for plain `pytest` and `hunt`" in PROPERTIES
    assert profiles.DEFAULT == "dev"


def test_the_quick_rounds_budget_is_the_one_it_names():
    quick = re.search(r"`--quick` is the newcomer.s round: (.*?)\. Exit", COMMAND)[1]
    assert f"{profiles.PROFILES['triage']['max_examples']} derandomized examples" in quick
    assert f"its share of {cli.QUICK_MINUTES} minutes" in quick
    assert f"shrinks cut at {cli.QUICK_SHRINKS} steps" in quick


def test_the_commands_defaults_and_bounds_are_the_ones_it_names():
    assert (f"one SUT call longer than this is a hang (default {DEFAULT_TIMEOUT:g}; 0: no limit; "
            f"at most {arguments.MAX_SUT_TIMEOUT:g}, a day)") in COMMAND
    assert arguments.MAX_SUT_TIMEOUT == 24 * 60 * 60
    assert f"a hang past `--timeout`, default {replay.REPLAY_TIMEOUT:g} s" in COMMAND
    assert (f"at most {amplify.MAX_TRIALS} more runs of the property, or "
            f"{amplify.MAX_SECONDS:g} s") in COMMAND


def _findings(system: str) -> int:
    text = (FINDINGS / f"{system}.md").read_text()
    return len(re.findall(rf"^### {SYSTEMS[system]}\d+\. ", text, re.MULTILINE))


def test_the_findings_it_counts_are_the_sections_of_each_systems_page():
    counted = dict((page, int(n)) for n, page in
                   re.findall(r"\[(\d+) findings\]\(docs/findings/(\w+)\.md\)", README))
    assert counted == {system: _findings(system) for system in SYSTEMS}
    index = " ".join((FINDINGS / "README.md").read_text().split())
    for system, letter in SYSTEMS.items():
        n = _findings(system)
        assert re.search(rf"\]\({system}\.md\): {n} findings \({letter}1-{letter}{n}\)", index), \
            system
    assert sorted(p.stem for p in FINDINGS.glob("*.md")) == sorted([*SYSTEMS, "README"])


def test_the_test_command_ci_runs_is_in_the_two_commands():
    section = (ROOT / "README.md").read_text().split("## The two commands", 1)[1]
    block = section.split("```sh\n", 1)[1].split("```", 1)[0]
    ci_runs = [line.removeprefix("python3 -m ") for line in
               (ROOT / ".ci/run").read_text().splitlines() if " tox run" in line]
    assert len(ci_runs) == 1, ci_runs
    assert ci_runs[0] in [line.split("#")[0].strip() for line in block.splitlines()]


FAULTS = _read("docs/faults.md")


def test_the_limits_the_faults_page_states_are_the_codes():
    assert f"ended after {lifetime.END_SECONDS:g} s" in FAULTS
    assert f"`--sut-timeout` (at least {probe.IMPORT_FLOOR:g} s)" in FAULTS
    assert f"1 <= K <= N <= {arguments.MAX_SHARDS}" in FAULTS
    assert (f"nests groups more than {signatures.MAX_DEPTH} deep, counts a repetition past "
            f"{signatures.MAX_COUNT:,} or is longer than {signatures.MAX_LENGTH:,} characters; a "
            f"search that runs past {signatures.MATCH_SECONDS:g} s") in FAULTS
