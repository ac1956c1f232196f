"""How many distinct inputs the draws of each cell give, and which fallback built them.

`tests/test_cells.py` runs 3 examples per operation in `ci`, and the
coverage report counts an example once per distinct program and inputs
(`strategies/coverage.py`): a cell whose draws often end at one input is
reached fewer times than its examples.  This draws each cell of the named
operations (all by default) `--draws` times, derandomized, in each regime, as
`strategies/cell_cases.py` builds it, and prints per cell the distinct
inputs and how many draws each stage built: 0 the drawn inputs, 1 the
positive ones (`_easy`), then each of `FALLBACKS` in order.

    python bench/cell_draws.py                       # every operation, 40 draws
    python bench/cell_draws.py arcsin,kron --draws 100
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from strategies import cell_cases as module  # noqa: E402
from strategies import coverage  # noqa: E402


def counted_grow():
    """`cell_cases`'s `_grow`, counting its calls: the stage that built a case is the
    number of calls less one."""
    calls = []
    grow = module._grow

    def counting(*args, **kwargs):
        calls.append(None)
        return grow(*args, **kwargs)

    return calls, counting


def cell_draws(op: str, ranks: tuple[str, ...], regime, draws: int,
               calls: list) -> tuple[int, Counter]:
    """Distinct inputs among `draws` draws of the cell in `regime`, and the draws built
    per stage."""
    inputs, stages = set(), Counter()

    @settings(max_examples=draws, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(st.data())
    def draw(data):
        calls.clear()
        case = data.draw(module.cell_cases(op, ranks, variants=2, regime=regime))
        stages[len(calls) - 1] += 1
        inputs.add(coverage.inputs_key(case.args))

    draw()
    return len(inputs), stages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ops", nargs="?", help="comma-separated operations (default: all)")
    parser.add_argument("--draws", type=int, default=40)
    args = parser.parse_args()
    ops = args.ops.split(",") if args.ops else list(module.OPS)
    unknown = [op for op in ops if op not in module.OPS]
    if unknown:
        parser.error(f"not operations of the language: {', '.join(unknown)}")
    calls, module._grow = counted_grow()
    print(f"{'operation':14} {'ranks':9} {'distinct':>8}  draws per stage")
    for op in ops:
        for ranks, regime in module.builds(op):
            distinct, stages = cell_draws(op, ranks, regime, args.draws, calls)
            cell = " ".join([", ".join(ranks), *([str(regime)] if regime else [])])
            print(f"{op:14} {cell:9} {distinct:8}  {dict(sorted(stages.items()))}")


if __name__ == "__main__":
    main()
