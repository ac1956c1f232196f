"""How long a run spread over N machines would take, read from the record of a run.

`jaxcheck check --shard K/N` gives machine K every N-th property in collection
order, and on each machine `--jobs J` workers take every J-th property of its
share, one after another (jaxcheck/runner.py, `shard` and `deal`); with
`--balance`, both deal by an earlier run's times instead (`balanced`).  Given the
verdicts.json of a run (one whole run, or its shards, joined as
`jaxcheck report --from` joins them), this prints for each N the time each
share's busiest worker spends in properties: what that machine's run takes,
less a child's start-up and collection.  The largest over the shares is the
wall time of the run on N machines.  No share can be quicker than its
longest property, so the figures also say whether adding machines still
helps.

    python bench/shard_plan.py RUN/logs/*/verdicts.json [--jobs 2] [--machines 1,2,4,8]
    python bench/shard_plan.py RUN/logs/*/verdicts.json --balance   # as check --balance deals

The properties are collected as the command collects them (the SUT of the
record must import here); a property the record lacks counts 0 s and is said.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from jaxcheck import record  # noqa: E402
from jaxcheck.runner import RunOptions, collect, deal, shard  # noqa: E402


def busiest_worker(nodeids: list[str], seconds: dict[str, float], jobs: int,
                   costs: dict[str, float] | None) -> float:
    """Seconds of the busiest of `jobs` workers given `nodeids`, as `run` deals them
    (by `costs`, as `check --balance` does, when given)."""
    return max(sum(seconds.get(n, 0.0) for n in share) for share in deal(nodeids, jobs, costs))


def minutes(seconds: float) -> str:
    return f"{seconds / 60:.0f}" if seconds >= 600 else f"{seconds / 60:.1f}"


def plan(nodeids: list[str], seconds: dict[str, float], jobs: int,
         machines: list[int], costs: dict[str, float] | None = None) -> list[str]:
    lines = ["| machines | each share's busiest worker (min) | wall time (min) |",
             "|---:|---|---:|"]
    for count in machines:
        shares = [busiest_worker(shard(nodeids, k, count, costs), seconds, jobs, costs)
                  for k in range(1, count + 1)]
        lines.append(f"| {count} | {', '.join(map(minutes, shares))} | "
                     f"{minutes(max(shares))} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", nargs="+", type=Path, metavar="VERDICTS")
    parser.add_argument("--jobs", type=int, default=2, help="workers per machine (default 2)")
    parser.add_argument("--machines", default="1,2,4,8,12",
                        help="comma-separated machine counts (default 1,2,4,8,12)")
    parser.add_argument("--balance", action="store_true",
                        help="deal as `check --balance` given these records deals: by the "
                             "run's own times, the best that balancing can do")
    args = parser.parse_args()
    try:
        column = record.one_run(args.records)
    except record.RecordError as exc:
        sys.exit(str(exc))
    seconds = {v.nodeid: v.seconds for v in column.verdicts}
    nodeids = collect(RunOptions(sut=column.sut, reference="none", profile=column.profile))
    missing = [n for n in nodeids if n not in seconds]
    longest = max(column.verdicts, key=lambda v: v.seconds)
    print(f"{column.description}, profile {column.profile}"
          + (f", seed {column.seed}" if column.seed is not None else "")
          + f": {len(nodeids)} properties, {minutes(sum(seconds.values()))} min in properties; "
          f"the longest {minutes(longest.seconds)} min ({longest.nodeid})")
    if missing:
        print(f"not in the record (counted 0 s): {len(missing)}, e.g. {missing[0]}")
    print("\n".join(plan(nodeids, seconds, args.jobs, [int(n) for n in args.machines.split(",")],
                         seconds if args.balance else None)))


if __name__ == "__main__":
    main()
