"""docs/writing-a-shim.md cannot go stale: it quotes its toy SUT verbatim, and every
`jaxcheck` command it shows is one the code accepts, with the counts it prints.

The guide builds a shim around `suts/dual_numbers.py` and shows each command a
newcomer runs, with its output.  These tests hold the guide to the file (the
one Python block marked as the toy must be the file, byte for byte) and to the
command: every ```text block that starts with `$ jaxcheck ...` must parse with
the command's own parser, the property count of its header and the total of
its closing counts line must be the number of properties that selection
collects today, and one of them, the `--only` check, runs for real and must
print exactly the counts the guide shows.
"""

import functools
import re
import shlex
from dataclasses import dataclass

import pytest

from jaxcheck import cli
from jaxcheck.runner import RunOptions, collect, shard
from tests.meta.command import ROOT, jaxcheck, verdicts

pytestmark = pytest.mark.meta

GUIDE = ROOT / "docs" / "writing-a-shim.md"
TOY = ROOT / "suts" / "dual_numbers.py"
# The block right after this marker line is the toy, as the guide quotes it.
MARKER = "<!-- quoted verbatim from suts/dual_numbers.py (tests/meta/test_writing_a_shim.py) -->"
# The selection of the one shown command this test runs for real: the full check of
# the toy took 89 s on 2 shared cores (too long for CI, which runs one command here),
# this one 20-40 s.
ONLY = "test_jvp or test_value"

# A closing counts line as jaxcheck.table.summary writes it: "N passed, N failed",
# then the other outcomes that occurred ("N skipped", ...).
COUNTS = re.compile(r"^\d+ passed, \d+ failed(?:, \d+ [a-z]+)*$", flags=re.MULTILINE)
# The first line of a run: "jaxcheck check: N properties, ..." (a hunt names its
# minutes and database between the command and the colon).
HEADER = re.compile(r"^jaxcheck \w+[^:\n]*: (\d+) properties", flags=re.MULTILINE)


@dataclass(frozen=True)
class Shown:
    """One command the guide shows: its arguments after `jaxcheck`, and its output."""

    argv: tuple[str, ...]
    output: str

    def __str__(self) -> str:
        return shlex.join(self.argv)

    @property
    def counts(self) -> str | None:
        """The closing counts line shown, if the output gets that far."""
        found = COUNTS.findall(self.output)
        return found[-1] if found else None


def _shown_commands() -> list[Shown]:
    """Each ```text block of the guide that starts with `$ jaxcheck`, its command joined
    over the lines it continues with a backslash."""
    shown = []
    for block in re.findall(r"^```text\n(.*?)^```", GUIDE.read_text(),
                            flags=re.DOTALL | re.MULTILINE):
        lines = block.splitlines()
        if not lines[0].startswith("$ jaxcheck "):
            continue
        command = lines.pop(0)
        while command.endswith("\\"):
            command = command[:-1] + lines.pop(0)
        shown.append(Shown(tuple(shlex.split(command)[2:]), "\n".join(lines)))
    return shown


SHOWN = _shown_commands()


def _total(counts: str) -> int:
    return sum(int(n) for n in re.findall(r"(\d+) [a-z]+", counts))


@functools.cache
def _collected(sut: str, profile: str, only: str | None) -> list[str]:
    return collect(RunOptions(sut=sut, profile=profile), only)


def _quoted_toy() -> str:
    text = GUIDE.read_text()
    assert text.count(MARKER) == 1, f"{GUIDE.name} must mark the toy's block once with {MARKER}"
    found = re.search(re.escape(MARKER) + r"\n```python\n(.*?)```\n", text, flags=re.DOTALL)
    assert found, f"no ```python block right after the marker in {GUIDE.name}"
    return found.group(1)


def test_the_guide_quotes_the_toy_verbatim():
    assert _quoted_toy() == TOY.read_text()


def test_the_guide_shows_the_commands_a_newcomer_runs():
    commands = [s.argv for s in SHOWN]
    assert any("--quick" in argv for argv in commands), "the guide shows no `check --quick`"
    assert any(argv[0] == "check" and "--only" not in argv and "--quick" not in argv
               for argv in commands), "the guide shows no full `check`"
    assert any(argv[-2:] == ("--only", ONLY) and s.counts for argv, s in zip(commands, SHOWN)), \
        f'the guide shows no run of --only "{ONLY}" with its counts'


@pytest.mark.parametrize("shown", SHOWN, ids=str)
def test_each_shown_command_is_accepted_by_the_parser(shown, capsys):
    try:
        cli.parser().parse_args(list(shown.argv))
    except SystemExit:
        pytest.fail(f"`jaxcheck {shown}` is refused: {capsys.readouterr().err.strip()}")


@pytest.mark.parametrize("shown", SHOWN, ids=str)
def test_each_shown_run_counts_the_properties_its_selection_collects(shown):
    args = cli.parser().parse_args(list(shown.argv))
    if args.command not in ("check", "hunt"):
        pytest.skip("not a run of the properties")
    selected = _collected(args.sut, args.profile, args.only)
    if getattr(args, "shard", None):
        selected = shard(selected, *args.shard)
    header = HEADER.search(shown.output)
    assert header or shown.counts, f"`jaxcheck {shown}` shows neither its header nor its counts"
    if header:
        assert int(header[1]) == len(selected), (
            f"the guide's `jaxcheck {shown}` shows {header[1]} properties, but that selection "
            f"collects {len(selected)} today: run it again and show what it prints")
    if shown.counts:
        assert _total(shown.counts) == len(selected), (
            f"the guide's `jaxcheck {shown}` ends with {shown.counts!r}, but that selection "
            f"collects {len(selected)} properties today: run it again and show what it prints")


def test_the_toy_prints_the_counts_the_guide_shows_for_its_only_run(tmp_path):
    shown = [s for s in SHOWN if s.argv[-2:] == ("--only", ONLY) and s.counts]
    assert shown, f'the guide shows no run of --only "{ONLY}" with its counts'
    run = jaxcheck(*shown[0].argv, "--out", str(tmp_path))
    assert run.returncode == 0, run.stdout + run.stderr
    printed = COUNTS.findall(run.stdout)
    for each in shown:
        assert printed[-1:] == [each.counts], (
            f"`jaxcheck {each}` printed {printed[-1:]} but the guide shows {each.counts!r}")
    found = verdicts(tmp_path)
    assert found["test_jvp_matches_finite_differences_and_reference"]["examples"] >= 60
    assert found["test_value_matches_numpy_and_reference"]["examples"] >= 60
