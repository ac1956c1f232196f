"""Time to find a bug: each broken SUT against the property that must catch it.

For every row of `tests/meta/test_broken_suts.py::CATCHES`, runs that property
with the broken shim as SUT as the meta-test does, under the derandomized
`catch` profile (so a rerun gives the same figures), and reads examples and
seconds until the first failure (`bench/first_failure.py`), the shrink phase
from Hypothesis's statistics, and the equations left in the saved reproducer.

    python bench/bench_catch.py            # prints and writes docs/benchmarks.md
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.first_failure import MARK  # noqa: E402
from bench.report import machine, publish  # noqa: E402
from tests.meta.test_broken_suts import (  # noqa: E402
    CATCHES,
    equations_in,
    run_property,
    saved_reproducer,
)

_PHASE = re.compile(r"- during (\w+) phase \(([\d.]+) seconds\):\n\s+- Typical runtimes[^\n]*\n"
                    r"\s+- (\d+) passing(?: examples?)?, (\d+) failing(?: examples?)?,(?: and)? "
                    r"(\d+) invalid")
_FIRST = re.compile(re.escape(MARK) + r" \S+ example (\d+) after ([\d.]+) s")


def catch(row) -> dict:
    started = time.perf_counter()
    done = run_property(row.shim, row.prop, "--hypothesis-show-statistics",
                        "-p", "bench.first_failure", *row.options, param=row.param)
    phases = {m.group(1): (float(m.group(2)), sum(map(int, m.group(3, 4, 5))))
              for m in _PHASE.finditer(done.stdout)}
    first = _FIRST.search(done.stdout)
    saved = saved_reproducer(done.stdout)
    script = saved.read_text() if saved else ""
    prop = row.prop.__name__ + (f"[{row.param}]" if row.param else "")
    return dict(shim=row.shim.rsplit(".", 1)[1], prop=prop, caught=done.returncode == 1,
                find=(float(first.group(2)), int(first.group(1))) if first else (float("nan"), 0),
                shrink=phases.get("shrink", (float("nan"), 0)),
                equations=equations_in(script) if script else None,
                wall=time.perf_counter() - started)


def table(rows) -> str:
    lines = ["| broken SUT | property | caught | examples to find | s to find | "
             "shrink steps | s to shrink | equations left | s in all |",
             "|---|---|---|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| `{r['shim']}` | `{r['prop']}` | {'yes' if r['caught'] else 'NO'} | "
                     f"{r['find'][1]} | {r['find'][0]:.1f} | {r['shrink'][1]} | "
                     f"{r['shrink'][0]:.1f} | {r['equations']} | {r['wall']:.0f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args()
    rows = []
    for number, row in enumerate(CATCHES, 1):
        rows.append(catch(row))
        print(f"[{number}/{len(CATCHES)}] {row.shim} {rows[-1]['prop']}: "
              f"{'caught' if rows[-1]['caught'] else 'NOT caught'}, {rows[-1]['wall']:.0f} s",
              file=sys.stderr, flush=True)
    body = "\n".join([
        "## Time to find a bug",
        "",
        "Each deliberately broken SUT of `tests/broken/` against the property that must catch "
        "it, run as the meta-test runs it: `catch` profile (derandomized, and free of "
        "Hypothesis's clocks: it stops at the first failure and shrinks it until nothing is left "
        "to try or 500 shrinks have succeeded, so every column but the seconds reproduces on any "
        "machine).  *Examples to find* counts test cases up to and including the first failure "
        "(read by `bench/first_failure.py`); *shrink steps* and *s to shrink* are Hypothesis's "
        "shrink phase; *s in all* is the whole child run, what the row costs CI.",
        "",
        table(rows),
        "",
        f"Machine: {machine()}.  ",
        "Command: `python bench/bench_catch.py`.",
    ])
    publish("catch", body, write=not args.no_write)


if __name__ == "__main__":
    main()
