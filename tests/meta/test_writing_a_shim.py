"""docs/writing-a-shim.md cannot go stale: it quotes its toy SUT verbatim, and every run
it shows is generated, then held to the code.

The guide builds a shim around `suts/dual_numbers.py` and shows each command a
newcomer runs, with its output.  Those outputs are generated between marker lines
(`tox -e guide`, bench/guide_transcripts.py), since every new operation changes
them.  These tests hold

* the block marked as the toy to the file, byte for byte;
* every shown command to the command's parser;
* without running a property: each shown header to the toy and the reference as
  they describe themselves today (what the toy declares, and the "lacks optional:
  ..." list, which grows with every optional operation), and each run's property
  count and closing total to what its selection collects;
* by one real run, the full `ci` check of the toy (30-60 s on 2 shared cores): the
  full run's region to what it prints, and every other region's table to that
  run's rows of its selection.  `ci` draws the same examples for a property in
  any selection (derandomized, seeded per property); a quick round (`triage`) and
  a hunt draw others, so their example counts are not held.

What no test holds is what differs from run to run, and the generator masks it
(`guide_transcripts.steady`): the seconds, the log folder's time stamp, the job
count a command leaves to the machine, and the wall time.
"""

import difflib
import functools
import re
import shlex
from dataclasses import dataclass

import pytest

from bench import guide_transcripts as guide
from jaxcheck import cli
from jaxcheck.runner import RunOptions, collect, shard
from oracles.sut import reference_name, resolve
from tests.meta.command import ROOT

pytestmark = pytest.mark.meta

GUIDE = guide.GUIDE
TOY = ROOT / "suts" / "dual_numbers.py"
# The block right after this marker line is the toy, as the guide quotes it.
MARKER = "<!-- quoted verbatim from suts/dual_numbers.py (tests/meta/test_writing_a_shim.py) -->"
ONLY = guide.ONLY
FULL = guide.BY_NAME["full"]
REGENERATE = "run `tox -e guide` (python bench/guide_transcripts.py) and commit what it writes"
# The regions whose runs draw other examples than `ci` does: a quick round's
# `triage` profile, and a hunt's fresh draws.
DRAWS_OTHERS = ("quick", "hunt")

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


def _shown_commands(text: str) -> list[Shown]:
    """Each ```text block of the guide that starts with `$ jaxcheck`, its command joined
    over the lines it continues with a backslash."""
    shown = []
    for block in re.findall(r"^```text\n(.*?)^```", text, flags=re.DOTALL | re.MULTILINE):
        lines = block.splitlines()
        if not lines[0].startswith("$ jaxcheck "):
            continue
        command = lines.pop(0)
        while command.endswith("\\"):
            command = command[:-1] + lines.pop(0)
        shown.append(Shown(tuple(shlex.split(command)[2:]), "\n".join(lines)))
    return shown


SHOWN = _shown_commands(GUIDE.read_text())


def _total(counts: str) -> int:
    return sum(int(n) for n in re.findall(r"(\d+) [a-z]+", counts))


@functools.cache
def _collected(sut: str, profile: str, only: str | None) -> list[str]:
    return collect(RunOptions(sut=sut, profile=profile), only)


@functools.cache
def _described(name: str) -> str:
    return resolve(name).describe()


def _quoted_toy() -> str:
    text = GUIDE.read_text()
    assert text.count(MARKER) == 1, f"{GUIDE.name} must mark the toy's block once with {MARKER}"
    found = re.search(re.escape(MARKER) + r"\n```python\n(.*?)```\n", text, flags=re.DOTALL)
    assert found, f"no ```python block right after the marker in {GUIDE.name}"
    return found.group(1)


def _output(region: str) -> list[str]:
    """The lines a generated region shows of its command's output (after `$ ...`)."""
    return region.split("```text\n", 1)[1].split("\n```", 1)[0].splitlines()[1:]


def header_problems(text: str) -> list[str]:
    """Where a region of the guide `text` shows the toy or the reference otherwise than
    they describe themselves today: the cheap check, with no property run."""
    problems = []
    for name, region in guide.regions(text).items():
        args = cli.parser().parse_args(guide.BY_NAME[name].argv)
        shown = _output(region)[1:guide.HEADER[name]]
        wanted = [f"  SUT: {_described(args.sut)}",
                  f"  reference: {_described(reference_name(args.sut, args.reference))}"]
        for line, want in zip(shown, wanted):
            if line != want:
                problems.append(f"the guide's {name} run shows\n{line}\nwhere today's is\n{want}")
    return problems


def _selection(name: str, verdicts: list) -> list:
    """The verdicts of `verdicts` that region `name`'s selection collects, in their order."""
    args = cli.parser().parse_args(guide.BY_NAME[name].argv)
    selected = set(_collected(args.sut, "ci", args.only))
    return [v for v in verdicts if v.nodeid in selected]


def _held(name: str, lines: list[str]) -> str:
    """What of region `name`'s shown output a test holds: what differs from run to run
    masked, and the example counts of a run that draws other examples than `ci`."""
    text = guide.steady("\n".join(lines), name)
    return guide.uncounted(text) if name in DRAWS_OTHERS else text


def run_problems(text: str, full: guide.Run) -> list[str]:
    """Where a region of the guide `text` shows other rows, counts or (for the full run)
    header than the full run `full` printed for its selection."""
    problems = []
    for name, region in guide.regions(text).items():
        shown = _output(region)
        wanted = guide.body(guide.BY_NAME[name], _selection(name, full.verdicts))
        if name == FULL.name:
            wanted = [full.header[0], *wanted]
        else:
            shown = shown[guide.HEADER[name]:]
        if _held(name, shown) != _held(name, wanted):
            diff = difflib.unified_diff(_held(name, shown).splitlines(),
                                        _held(name, wanted).splitlines(), "the guide",
                                        "today's full run", lineterm="", n=1)
            problems.append(f"the guide's {name} run differs from today's:\n" + "\n".join(diff))
    return problems


# The tests of the full run share one worker under `-n 2 --dist loadgroup`, so the
# module's fixture runs it once.
ON_THE_FULL_RUN = pytest.mark.xdist_group("the guide's full run")


@pytest.fixture(scope="module")
def full_run(tmp_path_factory) -> guide.Run:
    return guide.run(FULL, tmp_path_factory.mktemp("full"))


def test_the_guide_quotes_the_toy_verbatim():
    assert _quoted_toy() == TOY.read_text()


def test_the_guide_has_each_generated_region_once_with_its_command():
    text = GUIDE.read_text()
    found = guide.regions(text)
    assert list(found) == list(guide.BY_NAME), (
        f"{GUIDE.name} has the generated regions {list(found)}, not {list(guide.BY_NAME)} "
        f"(each once, between its two marker lines): {REGENERATE}")
    for name, region in found.items():
        assert region.startswith(f"```text\n$ {guide.BY_NAME[name].command}\n"), (
            f"the {name} region of {GUIDE.name} does not show its command: {REGENERATE}")


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
    profile = cli.profile_of(args) if args.command == "check" else args.profile
    selected = _collected(args.sut, profile, args.only)
    if getattr(args, "shard", None):
        selected = shard(selected, *args.shard)
    header = HEADER.search(shown.output)
    assert header or shown.counts, f"`jaxcheck {shown}` shows neither its header nor its counts"
    if header:
        assert int(header[1]) == len(selected), (
            f"the guide's `jaxcheck {shown}` shows {header[1]} properties, but that selection "
            f"collects {len(selected)} today: {REGENERATE}")
    if shown.counts:
        assert _total(shown.counts) == len(selected), (
            f"the guide's `jaxcheck {shown}` ends with {shown.counts!r}, but that selection "
            f"collects {len(selected)} properties today: {REGENERATE}")


def test_each_shown_header_describes_the_toy_and_reference_as_they_are_today():
    """What the toy declares and lacks (its "lacks optional: ..." list: every optional
    operation of the table it does not offer), as the guide's headers show it."""
    problems = header_problems(GUIDE.read_text())
    assert not problems, "\n\n".join(problems) + f"\n\n{REGENERATE}"


@ON_THE_FULL_RUN
def test_each_shown_run_is_what_the_full_check_prints_for_its_selection(full_run):
    problems = run_problems(GUIDE.read_text(), full_run)
    assert not problems, "\n\n".join(problems) + f"\n\n{REGENERATE}"
    found = {v.name.rsplit("::", 1)[-1]: v for v in full_run.verdicts}
    assert found["test_jvp_matches_finite_differences_and_reference"].examples >= 60
    assert found["test_value_matches_numpy_and_reference"].examples >= 60


def _stale(text: str, name: str, pattern: str, change) -> str:
    """`text` with the first match of `pattern` in region `name` changed by `change`."""
    region = guide.regions(text)[name]
    changed = re.sub(pattern, change, region, count=1, flags=re.MULTILINE)
    assert changed != region, f"{pattern!r} matches nothing in the {name} region"
    return guide.rewrite(text, name, changed)


def test_a_stale_header_is_caught():
    """The guide as it was before an optional operation joined the table: the toy's
    list lacks its name."""
    stale = _stale(GUIDE.read_text(), "hunt", r"(?<=\(lacks optional: )\w+, ", "")
    assert [p.split("\n")[0] for p in header_problems(stale)] == ["the guide's hunt run shows"]


@pytest.mark.parametrize("name, pattern, change", [
    ("full", r"\d+(?= skipped$)", lambda m: str(int(m[0]) + 1)),
    ("only", r"(?<=^ok)(\s+)(\d+)", lambda m: m[1] + str(int(m[2]) + 1)),
    ("quick", r"^  ok  ", "  skip"),
    ("hunt", r"declares \w+ unsupported \(__sut", "declares nothing unsupported (__sut"),
], ids=["full-counts", "only-examples", "quick-verdict", "hunt-skip-reason"])
@ON_THE_FULL_RUN
def test_a_stale_run_is_caught(full_run, name, pattern, change):
    """A region with one fact of the run changed fails; its timings changed, it does not."""
    text = GUIDE.read_text()
    retimed = re.sub(r"(?<= )\d+\.\d(?=  test_)", "9.9", text)
    assert retimed != text and run_problems(retimed, full_run) == []
    problems = run_problems(_stale(text, name, pattern, change), full_run)
    assert [p.split("\n")[0] for p in problems] == [f"the guide's {name} run differs from today's:"]
