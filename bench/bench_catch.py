"""Time to find a bug: each broken SUT against the property that must catch it.

For every row of `tests/meta/test_broken_suts.py::CATCHES`, runs that property
with the broken shim as SUT under the derandomized `ci` profile (so a rerun
gives the same figures) and reads Hypothesis's statistics: examples and
seconds until the failure was found, seconds spent shrinking, and the
equations left in the saved reproducer.

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

from bench.bench_suite import machine, write_section  # noqa: E402
from tests.meta.test_broken_suts import (  # noqa: E402
    CATCHES,
    equations_in,
    run_property,
    saved_reproducer,
)

_PHASE = re.compile(r"- during (\w+) phase \(([\d.]+) seconds\):\n\s+- Typical runtimes[^\n]*\n"
                    r"\s+- (\d+) passing(?: examples?)?, (\d+) failing(?: examples?)?,(?: and)? "
                    r"(\d+) invalid")


def catch(row) -> dict:
    started = time.perf_counter()
    done = run_property(row.shim, row.prop, "--hypothesis-show-statistics", *row.options,
                        param=row.param)
    phases = {m.group(1): (float(m.group(2)), sum(map(int, m.group(3, 4, 5))))
              for m in _PHASE.finditer(done.stdout)}
    saved = saved_reproducer(done.stdout)
    script = saved.read_text() if saved else ""
    prop = row.prop.__name__ + (f"[{row.param}]" if row.param else "")
    return dict(shim=row.shim.rsplit(".", 1)[1], prop=prop, caught=done.returncode == 1,
                find=phases.get("generate", (float("nan"), 0)),
                shrink=phases.get("shrink", (float("nan"), 0)),
                equations=equations_in(script) if script else None,
                wall=time.perf_counter() - started)


def table(rows) -> str:
    lines = ["| broken SUT | property | caught | examples to find | s to find | "
             "shrink steps | s to shrink | equations left |",
             "|---|---|---|---:|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| `{r['shim']}` | `{r['prop']}` | {'yes' if r['caught'] else 'NO'} | "
                     f"{r['find'][1]} | {r['find'][0]:.1f} | {r['shrink'][1]} | "
                     f"{r['shrink'][0]:.1f} | {r['equations']} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args()
    rows = [catch(row) for row in CATCHES]
    body = "\n".join([
        "## Time to find a bug",
        "",
        "Each deliberately broken SUT of `tests/broken/` against the property that must catch "
        "it, `catch` profile (derandomized: a rerun gives the same examples). *Examples to find* "
        "counts examples up to and including the first failure.",
        "",
        table(rows),
        "",
        f"Machine: {machine()}.  ",
        "Command: `python bench/bench_catch.py`.",
    ])
    print(body)
    if not args.no_write:
        write_section("catch", body)


if __name__ == "__main__":
    main()
