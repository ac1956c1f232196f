"""Which of its few `ci` examples first shows each bug of one operation.

`tests/test_cells.py` runs 3 examples per operation in `ci`, so what each
one can show matters: a bug the first example cannot show has two chances
left, not sixty.  For every row of the kill matrix on the per-operation
property (`tests/meta/test_broken_suts.py::CATCHES`), this runs that
property with the row's broken shim under the `ci` profile, without
shrinking, and reads the example that failed first (`bench/first_failure.py`),
or that none did.

    python bench/cell_rows_in_ci.py
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.first_failure import first_failure  # noqa: E402
from bench.report import machine, revision  # noqa: E402
from tests import test_cells  # noqa: E402
from tests.meta.test_broken_suts import CATCHES, run_property  # noqa: E402

PER_OPERATION = test_cells.test_each_operand_rank_combination_under_every_mode


def first_failing_example(row) -> int | None:
    """The `ci` example at which the row's property first failed on its shim, or None."""
    done = run_property(row.shim, row.prop, "-p", "bench.first_failure", *row.options,
                        "--hypothesis-profile=ci", param=row.param, shrinks=0)
    found = first_failure(done.stdout)
    return found[0] if found and done.returncode == 1 else None


def main() -> None:
    rows = [row for row in CATCHES if row.prop is PER_OPERATION]
    firsts = {}
    for number, row in enumerate(rows, 1):
        name = f"{row.shim.rsplit('.', 1)[1]}[{row.param}]"
        firsts[name] = first_failing_example(row)
        print(f"[{number}/{len(rows)}] {name}: "
              f"{'example ' + str(firsts[name]) if firsts[name] else 'not caught'}",
              file=sys.stderr, flush=True)
    counts = Counter(firsts.values())
    print(f"{len(rows)} rows at {revision()}: " + ", ".join(
        f"{counts[k]} first at example {k}" for k in sorted(k for k in counts if k)) +
        f", {counts[None]} not caught in ci")
    print("not at the first: " + ", ".join(
        f"{name} ({first or '-'})" for name, first in firsts.items() if first != 1))
    print(f"Machine: {machine()}.")


if __name__ == "__main__":
    main()
