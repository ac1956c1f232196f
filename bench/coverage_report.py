"""Coverage of the generated examples within the `ci` budget: which cells the
properties reach, and which they reach fewer than three times.

A cell (strategies/coverage.py) is an operation with its operands' ranks
under one transformation mode, or a construct in a regime that makes its
rules matter.  This runs the properties against refimpl under the `ci`
profile with `--jaxcheck-coverage` and no reference (coverage counts what is
drawn, the same with any reference, and JAX's compiles of every draw would
take most of the run), then writes docs/coverage.md: per mode,
how many of the cells the language allows are reached at least three times,
once or twice, or never; the operation table with a count per cell; the
constructs by regime; the pairs of transformations around each construct and
family of operations; and the cells each property reaches.

    python bench/coverage_report.py               # run, then write docs/coverage.md
    python bench/coverage_report.py --no-write    # print only
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import refimpl  # noqa: E402
from bench.report import machine, publish_page  # noqa: E402
from strategies import coverage, pairs, stacks  # noqa: E402
from strategies.language.constructs import CONSTRUCTS  # noqa: E402
from strategies.language.opspec import OPS  # noqa: E402
from strategies.language.vocabulary import vocabulary_for  # noqa: E402

DOC = ROOT / "docs" / "coverage.md"
# A cell reached fewer times than this within the ci budget is thin (docs/coverage.md's bar).
ENOUGH = 3


# The summary's rows for the cells of operations' parameters, every mode together.
PARAMETER_KINDS = {"regimes": "regime", "special points": "special"}


# The summary's row for the pairs of transformations around each subject.
PAIR_KINDS = {"pairs": "pair"}


def _summary_cells(allowed: set, row: str) -> list[tuple]:
    """The cells of one row of the summary: an operation's in a mode, the constructs'
    regimes, or a kind of `PARAMETER_KINDS` in every mode."""
    if row in coverage.MODES:
        return [c for c in allowed if c[0] == "op" and c[3] == row]
    kind = (PARAMETER_KINDS | PAIR_KINDS).get(row, "construct")
    return [c for c in allowed if c[0] == kind]


def record(path: Path, jobs: int) -> float:
    command = [sys.executable, "-m", "pytest", "tests", "--ignore=tests/meta",
               "--ignore=tests/refimpl", "-q", "-p", "no:cacheprovider", "--sut=refimpl",
               "--hypothesis-profile=ci", "--reference=none", f"--jaxcheck-coverage={path}",
               "-n", str(jobs)]
    started = time.time()
    subprocess.run(command, cwd=ROOT, check=False, stdout=subprocess.DEVNULL)
    return time.time() - started


def _cell(count: int) -> str:
    return f"**{count}**" if count < ENOUGH else str(count)


def document(by_property: dict[str, Counter], seconds: float, command: str) -> str:
    total: Counter = sum(by_property.values(), Counter())
    # What refimpl, the SUT of this run, declares unsupported is left out on purpose:
    # reverse mode through while_loop (its `reverse_feature`).
    refused = {("construct", name, "reverse") for name, row in CONSTRUCTS.items()
               if getattr(row, "reverse_feature", None) in refimpl.__sut_unsupported__}
    allowed = coverage.allowed(OPS) - refused
    allowed |= coverage.pair_cells_allowed(lambda f: f not in refimpl.__sut_unsupported__,
                                           vocabulary_for(refimpl.__sut_unsupported__))
    lines = ["# Coverage of the generated examples (`ci` budget)", "",
             "Cells (strategies/coverage.py): an operation with its operands' ranks (`lit`: "
             "a float literal) under a transformation mode, a construct in a regime that "
             "makes its rules matter, or an operation in a regime of its parameters or at a "
             f"special point of its rule, under a mode.  **Bold**: reached fewer than {ENOUGH} "
             "times by all properties together.  Left out: "
             + (", ".join(f"`{c[1]}` {c[2]}" for c in sorted(refused)) or "nothing")
             + ", which refimpl, this run's SUT, declares unsupported.", "",
             "| mode | allowed cells | reached 3+ times | once or twice | never |",
             "|---|---:|---:|---:|---:|"]
    for mode in (*coverage.MODES, "constructs", *PARAMETER_KINDS, *PAIR_KINDS):
        cells = _summary_cells(allowed, mode)
        counts = [total[c] for c in cells]
        lines.append(f"| {mode} | {len(cells)} | {sum(n >= ENOUGH for n in counts)} | "
                     f"{sum(0 < n < ENOUGH for n in counts)} | {sum(n == 0 for n in counts)} |")
    outside = sorted({c for c in total if c not in allowed}, key=str)
    if outside:
        lines += ["", "Reached but not in `ALLOWED` (the table needs a row): "
                  + ", ".join(f"`{c}`" for c in outside)]
    lines += ["", "## Operations", "",
              "| operation | ranks | " + " | ".join(coverage.MODES) + " |",
              "|---|---|" + "---:|" * len(coverage.MODES)]
    shapes = sorted({(c[1], c[2]) for c in allowed if c[0] == "op"})
    for op, ranks in shapes:
        lines.append(f"| {op} | {', '.join(ranks)} | "
                     + " | ".join(_cell(total[("op", op, ranks, m)]) for m in coverage.MODES)
                     + " |")
    lines += ["", "## Constructs", "", "| construct | regime | examples |", "|---|---|---:|"]
    for name, regimes in coverage.REGIMES.items():
        lines += [f"| {name} | {r} | {_cell(total[('construct', name, r)])} |" for r in regimes
                  if ("construct", name, r) in allowed]
    for kind, heading in (("regime", "Regimes of operations' parameters"),
                          ("special", "Special points of derivative rules")):
        lines += ["", f"## {heading}", "", f"| operation | {kind} | "
                  + " | ".join(coverage.MODES) + " |", "|---|---|" + "---:|" * len(coverage.MODES)]
        for op, name in sorted({(c[1], c[2]) for c in allowed if c[0] == kind}):
            lines.append(f"| {op} | {name} | " + " | ".join(
                _cell(total[(kind, op, name, m)]) for m in coverage.MODES) + " |")
    lines += _pairs(allowed, total)
    lines += ["", "## Per property", "", "| property | cells reached |", "|---|---:|"]
    lines += [f"| `{prop.split('::', 1)[-1]}` | {len(counts)} |"
              for prop, counts in sorted(by_property.items())]
    lines += ["", f"`{command}` on {machine()}, {time.strftime('%Y-%m-%d')}: the property "
              f"run took {seconds:.0f} s."]
    return "\n".join(lines) + "\n"


def _pairs(allowed: set, total: Counter) -> list[str]:
    """The pair matrix: a row per subject and outer transformation, a column per inner
    one; `-` where the contract allows no such pair around the subject."""
    lines = ["", "## Pairs of transformations", "",
             "Each construct with a rule of its own and each family of operations "
             "(strategies/pairs.py) under `outer(inner(f))`: a row per subject and outer "
             "transformation, a column per inner one.", "",
             "| subject | outer | " + " | ".join(stacks.ORDER) + " |",
             "|---|---|" + "---:|" * len(stacks.ORDER)]
    for subject, outer in pairs.ROWS:
        cells = [("pair", subject, outer, inner) for inner in stacks.ORDER]
        if not any(c in allowed for c in cells):
            continue
        lines.append(f"| {subject} | {outer} | " + " | ".join(
            _cell(total[c]) if c in allowed else "-" for c in cells) + " |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "coverage.json"
        seconds = record(path, args.jobs)
        by_property = coverage.read(path)
    text = document(by_property, seconds,
                    " ".join(["python bench/coverage_report.py", *sys.argv[1:]]))
    publish_page(DOC, text, write=not args.no_write)


if __name__ == "__main__":
    main()
