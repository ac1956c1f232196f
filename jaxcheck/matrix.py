"""The conformance matrix as data: its systems, its rows grouped by family, their tallies.

`report.py` draws the matrix twice, as Markdown and as one HTML page; what
the two say (how a system is named, how a cell reads, which rows are the
ones where the systems differ, what each system's counts are) is decided
here once, so the twins cannot drift apart.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from jaxcheck import properties
from jaxcheck.findings import EXPLAINABLE, Finding, Recognised
from jaxcheck.properties import Property
from jaxcheck.runner import OUTCOMES, Verdict

# The outcomes the summary shows even at zero; the others only where some system has one.
ALWAYS = OUTCOMES[:5]
# The outcomes that put a row among those "where the systems differ": a pass and a
# skip agree (a skip says which feature its system declares unsupported).
WRONG = ("failed", "crashed", "hung", "error", "interrupted")
# What a failed or crashed cell is, given the findings (Cell.kind).
KINDS = ("known", "unclassified")
# How a verdict reads in a cell.
WORDS = {"passed": "pass", "failed": "FAIL", "skipped": "skip", "crashed": "CRASH",
         "hung": "HANG", "interrupted": "stopped", "error": "ERROR"}

# What the matrix knows of each cell's failures: column -> node id -> what was recognised.
Known = dict[str, dict[str, Recognised]]

# How an SUT describes itself (oracles.sut.Sut.describe, held equal by
# tests/meta/test_jaxcheck_report.py): "NAME VERSION (declares unsupported: A, B)",
# then " (lacks optional: C)" where jaxcheck set some for it, then " (declares
# accuracy: exp 1e-06)" where it computes some operations less accurately; a
# record written before descriptions may carry the bare name.  A run joined from
# shards with some missing ends in a note: " [shards 3, 4 of 4 missing]"
# (jaxcheck/record.py).
_DESCRIBED = re.compile(r"(?P<name>\S+)(?: (?P<version>.*?))??"
                        r"(?: \(declares unsupported: (?P<unsupported>[^()]*)\))?"
                        r"(?: \(lacks optional: (?P<lacking>[^()]*)\))?"
                        r"(?: \(declares accuracy: (?P<accuracy>[^()]*)\))?"
                        r"(?: \[(?P<note>[^\]]*)\])?")


def plural(count: int, word: str, words: str = "") -> str:
    """'1 example', '1,623 examples'; `words` for a plural that is not `word` + 's'."""
    return f"{count:,} {word if count == 1 else words or word + 's'}"


@dataclass(frozen=True)
class System:
    """A column's SUT, as its description names it.

    `unsupported` is every feature its run left out; `unmapped`, those of them
    the SUT does not offer without declaring them (the description's "lacks
    optional"), which the summary keeps apart from what it declares: a
    declaration says the system lacks the feature (or does it otherwise, a
    finding saying why), an unmapped name only that its shim does not offer it
    yet."""

    description: str
    name: str
    version: str
    unsupported: tuple[str, ...]
    accuracy: str = ""
    note: str = ""  # what the column lacks: "shards 3, 4 of 4 missing"
    unmapped: tuple[str, ...] = ()

    @property
    def declarations(self) -> str:
        """What it declares, for the summary: 'while_loop; exp to 1e-06 only'."""
        accuracy = f"{self.accuracy} only" if self.accuracy else ""
        declared = [f for f in self.unsupported if f not in self.unmapped]
        return "; ".join(filter(None, [", ".join(declared), accuracy])) or "nothing"

    @property
    def not_mapped(self) -> str:
        """What it leaves unmapped, for the summary: 'cbrt, nanmean', or 'none'."""
        return ", ".join(self.unmapped) or "none"

    @property
    def short_version(self) -> str:
        """The version without its parenthesised notes, and what the column lacks:
        'autograd 1.9.1', 'jax 0.10.2 [shards 3, 4 of 4 missing]'."""
        return self.version.split(" (", 1)[0] + self.lacks

    @property
    def lacks(self) -> str:
        return f" [{self.note}]" if self.note else ""

    @property
    def heading(self) -> str:
        return f"{self.name} {self.short_version}".strip()


def system(description: str) -> System:
    match = _DESCRIBED.fullmatch(description.strip())
    if match is None:
        return System(description, description, "", ())
    listed = match["unsupported"] or "nothing"
    unsupported = () if listed == "nothing" else tuple(listed.split(", "))
    unmapped = tuple(match["lacking"].split(", ")) if match["lacking"] else ()
    accuracy = ", ".join(item.replace(" ", " to ", 1)
                         for item in filter(None, (match["accuracy"] or "").split(", ")))
    return System(description, match["name"], match["version"] or "", unsupported + unmapped,
                  accuracy, match["note"] or "", unmapped)


@dataclass(frozen=True)
class Cell:
    """One property's verdict on one system, and what the findings say of it."""

    verdict: Verdict | None
    found: Recognised | None = None

    @property
    def outcome(self) -> str:
        return self.verdict.outcome if self.verdict else "none"

    @property
    def words(self) -> str:
        return WORDS[self.verdict.outcome] if self.verdict else "-"

    @property
    def examples(self) -> str:
        if self.verdict is None or self.verdict.examples is None:
            return ""
        return plural(self.verdict.examples, "example")

    @property
    def detail(self) -> str:
        """'60 examples'; '1 example; refimpl declares ...'; 'not run'."""
        if self.verdict is None:
            return "not run"
        reason = self.verdict.reason if self.outcome != "passed" else ""
        return "; ".join(part for part in (self.examples, reason) if part)

    @property
    def reproducers(self) -> list[str]:
        return self.verdict.reproducers if self.verdict else []

    @property
    def kind(self) -> str:
        """'known' (every failure shows a finding), 'unclassified', or '' (nothing to explain)."""
        if self.found is None or self.outcome not in EXPLAINABLE:
            return ""
        return self.found.kind

    @property
    def findings(self) -> list[Finding]:
        return self.found.findings if self.kind else []

    @property
    def unclassified_note(self) -> str:
        """How many of the cell's failures show no finding, where others do."""
        if self.kind != "unclassified" or not self.found.findings:
            return ""
        return f"{len(self.found.unexplained)} of its failures"


@dataclass(frozen=True)
class Row:
    property: Property
    cells: tuple[Cell, ...]

    @property
    def wrong(self) -> bool:
        return any(cell.outcome in WRONG for cell in self.cells)


class Matrix:
    """Every property against every system, rows grouped by family (`properties.ORDER`),
    in the order the runs met them within a family."""

    def __init__(self, columns: dict[str, list[Verdict]], known: Known | None = None):
        self.classified = known is not None
        self.systems = [system(description) for description in columns]
        by_node = [{v.nodeid: v for v in verdicts} for verdicts in columns.values()]
        found = [(known or {}).get(description, {}) for description in columns]
        nodeids = dict.fromkeys(v.nodeid for verdicts in columns.values() for v in verdicts)
        rows = [Row(properties.parse(nodeid),
                    tuple(Cell(verdicts.get(nodeid), recognised.get(nodeid))
                          for verdicts, recognised in zip(by_node, found)))
                for nodeid in nodeids]
        self.rows = sorted(rows, key=lambda row: properties.ORDER.index(row.property.family))

    def groups(self, rows: list[Row] | None = None) -> list[tuple[str, list[Row]]]:
        """The rows (all, by default) by family, in the matrix's order."""
        grouped: dict[str, list[Row]] = {}
        for row in self.rows if rows is None else rows:
            grouped.setdefault(row.property.family, []).append(row)
        return list(grouped.items())

    def differing(self) -> list[Row]:
        """The rows some system neither passed nor skipped."""
        return [row for row in self.rows if row.wrong]

    def tally(self, column: int) -> Counter:
        """A system's count of each outcome, and of each kind of failed cell."""
        cells = [row.cells[column] for row in self.rows if row.cells[column].verdict]
        return Counter(c.outcome for c in cells) + Counter(c.kind for c in cells if c.kind)

    def shown_outcomes(self) -> list[str]:
        tallies = [self.tally(i) for i in range(len(self.systems))]
        return [o for o in OUTCOMES if o in ALWAYS or any(t[o] for t in tallies)]

    def findings(self, column: int) -> list[Finding]:
        """The findings a system's cells show, each once."""
        return list(dict.fromkeys(f for row in self.rows for f in row.cells[column].findings))

    def shown(self) -> dict[Finding, int]:
        """Every finding the matrix shows, and in how many cells."""
        return Counter(f for row in self.rows for cell in row.cells for f in cell.findings)


def opening(rows: list[Row], key) -> list[bool]:
    """Per row, whether it opens a run of rows with the same `key`."""
    keys = [key(row) for row in rows]
    return [i == 0 or keys[i - 1] != k for i, k in enumerate(keys)]


def first_of_its_property(rows: list[Row]) -> list[bool]:
    """Per row, whether it opens its property's run of rows: a parametrized
    property's description is shown once, on the first of its rows."""
    return opening(rows, lambda row: (row.property.path, row.property.function))


def first_of_its_family(rows: list[Row]) -> list[bool]:
    return opening(rows, lambda row: row.property.family)
