"""Suite throughput: examples per second per property, and peak memory, for one SUT.

Runs the properties with pytest in a child process, with Hypothesis's
statistics on, and reads per property the examples run and the seconds
spent; peak memory is the child's maximum resident set size.  Writes the
table into docs/performance.md (its own section, one per SUT and profile).

    python bench/bench_suite.py --sut jax --profile thorough
    python bench/bench_suite.py --sut refimpl --profile ci --no-write
    python bench/bench_suite.py --sut jax --profile thorough --from-log tox.log

`--from-log` reads a pytest log written with `--hypothesis-show-statistics`
(e.g. of `tox -e jax -- --hypothesis-profile=thorough
--hypothesis-show-statistics`) instead of running the properties again.
"""

from __future__ import annotations

import argparse
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.report import machine, publish  # noqa: E402

PROPERTIES = ["tests/test_value.py", "tests/test_jvp.py", "tests/test_grad.py",
              "tests/test_identities.py", "tests/test_vmap.py", "tests/test_jit.py",
              "tests/test_stacks.py", "tests/test_python_control_flow.py",
              "tests/test_pytrees.py", "tests/test_errors.py"]

_TEST = re.compile(r"^(tests/\S+::\S+):$")
_PHASE = re.compile(r"- during (\w+) phase \(([\d.]+) seconds\)")
# Hypothesis words this "N passing examples, ..." (6.155) or
# "N passing, N failing, and N invalid test cases" (6.170).
_COUNTS = re.compile(r"- (\d+) passing(?: examples?)?, (\d+) failing(?: examples?)?,"
                     r"(?: and)? (\d+) invalid")


def parse_statistics(text: str) -> dict[str, dict]:
    """Per test: examples (passing, failing, invalid) and seconds, summed over phases."""
    stats, current = {}, None
    for line in text.splitlines():
        line = line.strip()
        if match := _TEST.match(line):
            current = stats.setdefault(match.group(1), dict(passing=0, failing=0, invalid=0,
                                                            seconds=0.0))
        elif current is not None and (match := _PHASE.search(line)):
            current["seconds"] += float(match.group(2))
        elif current is not None and (match := _COUNTS.search(line)):
            for key, value in zip(("passing", "failing", "invalid"), match.groups()):
                current[key] += int(value)
    return stats


# pytest's closing line: "==== 3 failed, 32 passed, 9 skipped in 9852.31s (2:44:12) ====".
# A tox log ends with tox's own lines ("evaluation failed :("), so the last
# line that merely contains "failed" is not it.
_SUMMARY = re.compile(r"^=+ (\d+ \w+.* in [\d.]+s.*?) =+$")


def pytest_summary(text: str) -> str:
    """pytest's closing line (counts and seconds), or "?" when the log has none."""
    lines = (_SUMMARY.match(line.strip()) for line in reversed(text.splitlines()))
    return next((match.group(1) for match in lines if match), "?")


def run(sut: str, profile: str, extra: list[str]) -> tuple[dict, float, float, int, str]:
    """Run the properties; the full pytest output is kept in reports/ for failures."""
    command = [sys.executable, "-m", "pytest", *PROPERTIES, "-q", "-p", "no:cacheprovider",
               "-W", "ignore", f"--sut={sut}", f"--hypothesis-profile={profile}",
               "--hypothesis-show-statistics", *extra]
    started = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - started
    peak_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    log = ROOT / "reports" / f"bench_suite_{sut}_{profile}.log"
    log.parent.mkdir(exist_ok=True)
    log.write_text(done.stdout + done.stderr)
    tail = pytest_summary(done.stdout) if done.stdout.strip() else done.stderr[-500:]
    return parse_statistics(done.stdout), wall, peak_mib, done.returncode, tail


def table(stats: dict) -> str:
    rows = ["| property | examples | invalid | seconds | examples/s |",
            "|---|---:|---:|---:|---:|"]
    for test, s in stats.items():
        examples = s["passing"] + s["failing"] + s["invalid"]
        rate = examples / s["seconds"] if s["seconds"] else float("nan")
        rows.append(f"| `{test.split('::')[1]}` | {examples} | {s['invalid']} | "
                    f"{s['seconds']:.1f} | {rate:.1f} |")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sut", default="jax")
    parser.add_argument("--profile", default="ci")
    parser.add_argument("--no-write", action="store_true", help="print only")
    parser.add_argument("--from-log", type=Path, help="parse this pytest log; run nothing")
    parser.add_argument("--peak-mib", type=int,
                        help="with --from-log: the run's peak memory, measured outside")
    parser.add_argument("pytest_args", nargs="*", help="extra pytest arguments (after --)")
    args = parser.parse_args()
    if args.from_log:
        text = args.from_log.read_text()
        stats = parse_statistics(text)
        summary = pytest_summary(text)
        memory = f", peak resident memory {args.peak_mib} MiB" if args.peak_mib else ""
        whole = f"Whole run (from a pytest log): `{summary}`{memory}.  "
        command = (f"`tox -e {'jax' if args.sut == 'jax' else 'py'} -- --hypothesis-profile="
                   f"{args.profile} --hypothesis-show-statistics`, read by `python "
                   f"bench/bench_suite.py --sut {args.sut} --profile {args.profile} --from-log`.")
    else:
        stats, wall, peak, code, tail = run(args.sut, args.profile, args.pytest_args)
        whole = (f"Whole run: {wall:.0f} s wall, peak resident memory {peak:.0f} MiB, "
                 f"pytest exit code {code} (`{tail}`).  ")
        command = f"`python bench/bench_suite.py --sut {args.sut} --profile {args.profile}`."
    body = "\n".join([
        f"## Suite throughput: `--sut {args.sut}`, profile `{args.profile}`",
        "",
        table(stats),
        "",
        whole,
        f"Machine: {machine()}.  ",
        f"Command: {command}",
    ])
    publish(f"suite_{args.sut}_{args.profile}", body, write=not args.no_write)


if __name__ == "__main__":
    main()
