"""Time to find a bug: each broken SUT against the property that must catch it.

For every row of `tests/meta/test_broken_suts.py::CATCHES`, runs that property
with the broken shim as SUT as the meta-test does, under the derandomized
`catch` profile (so a rerun gives the same figures), and reads examples and
seconds until the first failure (`bench/first_failure.py`), the shrink phase
from Hypothesis's statistics, the equations left in the saved reproducer,
and what amplification made of a value mismatch (oracles/amplify.py): the
error-to-tolerance ratio of the shrunk and of the amplified example.

    python bench/bench_catch.py               # every row shrunk to the end
    python bench/bench_catch.py --as-pushed   # as the meta-test runs them (goal, bounds)

The first writes its table to docs/performance.md.  The second writes
docs/power.md's first section: every broken SUT with the verdict every push
holds it to, the rows above, the complexity properties' catches for the
shims that are right but too slow (tests/meta/test_cost_catches.py) and the
documented escapes, so the page says of each of today's broken SUTs whether
it is caught even where the complete matrix (bench/power.py, hours) is of an
older, smaller set.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.first_failure import first_failure  # noqa: E402
from bench.report import machine, publish, revision  # noqa: E402
from oracles.reproducer import equations  # noqa: E402
from tests.meta.test_broken_suts import (  # noqa: E402
    CATCHES,
    COST_ONLY,
    ESCAPES,
    equation_limit,
    run_property,
    saved_reproducer,
)
from tests.meta.test_broken_witnesses import SHIMS  # noqa: E402

POWER = ROOT / "docs" / "power.md"
COST_CATCHES = "tests/meta/test_cost_catches.py"

_PHASE = re.compile(r"- during (\w+) phase \(([\d.]+) seconds\):\n\s+- Typical runtimes[^\n]*\n"
                    r"\s+- (\d+) passing(?: examples?)?, (\d+) failing(?: examples?)?,(?: and)? "
                    r"(\d+) invalid")
_SUCCESSFUL = re.compile(r"Tried \d+ shrinks of which (\d+) were successful")
_AMPLIFIED = re.compile(r"Amplified: the shrunk example's error was (\S+) times the tolerance; "
                        r".*? it is (\S+) times \(\d+ input sets tried in ([\d.]+) s\)")
_NOT_AMPLIFIED = re.compile(r"Not amplified: .*?(\S+) times the tolerance.*?in ([\d.]+) s\)")


def amplification(output: str) -> tuple[float, float, float] | None:
    """(shrunk ratio, amplified ratio, seconds), from the failure's message."""
    found = _AMPLIFIED.search(output)
    if found:
        return tuple(map(float, found.groups()))
    found = _NOT_AMPLIFIED.search(output)
    if found:
        ratio, seconds = map(float, found.groups())
        return ratio, ratio, seconds
    return None


def catch(row, as_pushed: bool) -> dict:
    started = time.perf_counter()
    done = run_property(row.shim, row.prop, "--hypothesis-show-statistics",
                        "-p", "bench.first_failure", *row.options,
                        param=row.param, shrinks=row.shrinks if as_pushed else None,
                        goal=equation_limit(row) if as_pushed else None)
    phases = {m.group(1): (float(m.group(2)), sum(map(int, m.group(3, 4, 5))))
              for m in _PHASE.finditer(done.stdout)}
    first = first_failure(done.stdout)
    saved = saved_reproducer(done.stdout)
    script = saved.read_text() if saved else ""
    prop = row.prop.__name__ + (f"[{row.param}]" if row.param else "")
    return dict(shim=row.shim.rsplit(".", 1)[1], prop=prop, caught=done.returncode == 1,
                find=(first[1], first[0]) if first else (float("nan"), 0),
                shrink=phases.get("shrink", (float("nan"), 0)),
                successful=int(m.group(1)) if (m := _SUCCESSFUL.search(done.stdout)) else 0,
                equations=equations(script) if script else None,
                amplified=amplification(done.stdout), wall=time.perf_counter() - started)


def _seconds(seconds: float) -> str:
    """A phase's seconds, "-" for one that did not run (a failure with nothing to shrink)."""
    return "-" if seconds != seconds else f"{seconds:.1f}"


def table(rows) -> str:
    lines = ["| broken SUT | property | caught | examples to find | s to find | "
             "shrink steps | successful | s to shrink | equations left | ratio shrunk | "
             "ratio amplified | s amplifying | s in all |",
             "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        shrunk, amplified, seconds = (
            (f"{x:.3g}" for x in r["amplified"]) if r["amplified"] else ("", "", ""))
        lines.append(f"| `{r['shim']}` | `{r['prop']}` | {'yes' if r['caught'] else 'NO'} | "
                     f"{r['find'][1]} | {_seconds(r['find'][0])} | {r['shrink'][1]} | "
                     f"{r['successful']} | {_seconds(r['shrink'][0])} | {r['equations']} | "
                     f"{shrunk} | {amplified} | "
                     f"{seconds} | {r['wall']:.0f} |")
    return "\n".join(lines)


def cost_catches() -> dict[str, list[str]]:
    """Per cost-only shim, the outcome of each catching test that names it."""
    done = subprocess.run([sys.executable, "-m", "pytest", COST_CATCHES, "-k", "catches", "-q",
                           "-rA", "-p", "no:cacheprovider"], cwd=ROOT, capture_output=True,
                          text=True, check=False)
    outcomes = re.findall(r"^(PASSED|FAILED|ERROR) (\S+)", done.stdout, flags=re.MULTILINE)
    return {shim: [outcome for outcome, nodeid in outcomes if f"[{shim}-" in nodeid]
            for shim in COST_ONLY}


def every_shim(rows, costs: dict[str, list[str]]) -> str:
    """Whether each of today's broken SUTs is caught: by its rows, its cost tests, or an
    escape the meta-test documents."""
    by_shim: dict[str, list[bool]] = {}
    for r in rows:
        by_shim.setdefault(r["shim"], []).append(r["caught"])
    cost = {shim.rsplit(".", 1)[1]: outcomes for shim, outcomes in costs.items()}
    caught = [s for s in SHIMS if (by_shim.get(s) and all(by_shim[s]))
              or (cost.get(s) and set(cost[s]) == {"PASSED"})]
    missed = [s for s in SHIMS if s not in caught and s not in ESCAPES]
    lines = [f"* {len(SHIMS)} broken SUTs; caught: **{len(caught)}**, "
             f"{sum(s in by_shim for s in caught)} by the {len(rows)} rows below and "
             f"{sum(s in cost for s in caught)} by the complexity properties "
             f"(`{COST_CATCHES}`, {sum(map(len, costs.values()))} tests)"]
    found = [r for r in rows if r["caught"] and r["find"][1]]
    if found:
        examples = sorted(r["find"][1] for r in found)
        lines.append(f"* examples to a row's first failure: median "
                     f"{examples[len(examples) // 2]}, {sum(e == 1 for e in examples)} rows at "
                     f"the first, most {examples[-1]}; equations left in a reproducer: at most "
                     f"{max(r['equations'] or 0 for r in found)}")
    lines += [f"* not caught, an escape the meta-test documents: `{s}`: {ESCAPES[s]}"
              for s in ESCAPES if s in SHIMS]
    lines += [f"* **not caught**: {', '.join(f'`{s}`' for s in missed)}"] if missed else []
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-write", action="store_true", help="print only")
    parser.add_argument("--as-pushed", action="store_true",
                        help="bound shrinking as the meta-test does (Catch.shrinks)")
    args = parser.parse_args()
    rows = []
    for number, row in enumerate(CATCHES, 1):
        rows.append(catch(row, args.as_pushed))
        print(f"[{number}/{len(CATCHES)}] {row.shim} {rows[-1]['prop']}: "
              f"{'caught' if rows[-1]['caught'] else 'NOT caught'}, {rows[-1]['wall']:.0f} s",
              file=sys.stderr, flush=True)
    how = ("as the meta-test runs it on every push (a row with `Catch.shrinks` stops "
           "after that many successful shrinks)" if args.as_pushed else
           "as the meta-test runs it, but every row shrunk to the end")
    summary = ["## Every broken SUT, as every push checks it", "",
               "What `tests/meta/test_broken_suts.py` and `tests/meta/test_cost_catches.py` "
               "hold each of today's broken SUTs to on every push, in minutes; the complete "
               "matrix after it, every property against every broken SUT, takes hours and "
               "is of the commit it names.", "",
               every_shim(rows, cost_catches()), ""] if args.as_pushed else []
    body = "\n".join([
        *summary,
        "### Each row, as pushed" if args.as_pushed else "## Time to find a bug",
        "",
        "Each deliberately broken SUT of `tests/broken/` against the property that must catch "
        f"it, {how}: `catch` profile (derandomized, and free of Hypothesis's clocks: it stops "
        "at the first failure and shrinks it until nothing is left to try or 500 shrinks have "
        "succeeded, so every column but the seconds reproduces on any machine).  "
        "*Examples to find* counts test cases up to and including "
        "the first failure (read by `bench/first_failure.py`); *shrink steps* (of which "
        "*successful*) and *s to shrink* are Hypothesis's shrink phase; *ratio shrunk* and "
        "*ratio amplified* are a value "
        "mismatch's error over its tolerance before and after amplification (the same where "
        "no input tried did better; blank for a failure that is not a value mismatch); *s in "
        "all* is the whole child run.",
        "",
        table(rows),
        "",
        f"Machine: {machine()}.  ",
        "Command: `python bench/bench_catch.py" + (" --as-pushed`" if args.as_pushed else "`")
        + f" at {revision()}, {time.strftime('%Y-%m-%d')}.",
    ])
    if args.as_pushed:
        publish("as-pushed", body, write=not args.no_write, doc=POWER)
    else:
        publish("catch", body, write=not args.no_write)


if __name__ == "__main__":
    main()
