"""How often finite differences need the sharp steps, reject a program, or blame the generator.

Draws examples as the jvp properties do (straight-line and construct
programs from `strategies.cases.jvp_cases`, Python control flow from
`strategies.control_cases.jvp_control_cases`, both over refimpl's
vocabulary), derandomized so the figures reproduce, and asks the oracle
for J v along the drawn tangents: first with the ordinary steps
(`FD_STEPS`) alone, then, where those fail, with the sharp fallback steps
as the properties do.  No SUT runs.

    python bench/bench_fd_refusals.py                  # 10,000 examples per family
    python bench/bench_fd_refusals.py --examples 500 --no-write
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis.errors import UnsatisfiedAssumption  # noqa: E402

import refimpl  # noqa: E402
from bench.report import machine, publish  # noqa: E402
from oracles import finite_diff  # noqa: E402
from oracles.errors import GeneratorBug  # noqa: E402
from oracles.path_derivative import path_derivative  # noqa: E402
from oracles.tolerance import FD_STEPS  # noqa: E402
from strategies import cases  # noqa: E402
from strategies.control_cases import jvp_control_cases  # noqa: E402
from strategies.language.vocabulary import vocabulary_for  # noqa: E402

OUTCOMES = ("ordinary steps", "sharp steps", "rejected: too sharp", "generator bug")


def _plain(drawn, **steps):
    case, tangents = drawn
    return finite_diff.directional(case.program, case.args, tangents, **steps)


def _control(drawn, **steps):
    case, tangents = drawn
    return path_derivative(case, tangents, **steps)


# The SUT whose vocabulary is drawn from: refimpl, the default.
VOCABULARY = vocabulary_for(refimpl.__sut_unsupported__)

FAMILIES = {
    "jvp programs (`strategies.cases.jvp_cases`)": (lambda: cases.jvp_cases(VOCABULARY), _plain),
    "Python control flow (`jvp_control_cases`)": (lambda: jvp_control_cases(VOCABULARY),
                                                  _control),
}


def outcome(estimate, drawn) -> str:
    """Which steps judged `drawn`, or why none did."""
    try:
        estimate(drawn, steps=FD_STEPS)
        return "ordinary steps"
    except (GeneratorBug, UnsatisfiedAssumption):
        pass
    try:
        estimate(drawn)
        return "sharp steps"
    except UnsatisfiedAssumption:
        return "rejected: too sharp"
    except GeneratorBug:
        return "generator bug"


def measure(strategy, estimate, examples: int) -> tuple[Counter, float]:
    counts = Counter()

    @settings(max_examples=examples, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(strategy())
    def judge(drawn):
        counts[outcome(estimate, drawn)] += 1
        if sum(counts.values()) % 1000 == 0:
            print(f"  {sum(counts.values())} examples: {dict(counts)}", flush=True)

    started = time.perf_counter()
    judge()
    return counts, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=10_000, help="per family")
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args()
    rows = []
    for name, (strategy, estimate) in FAMILIES.items():
        print(f"{name}: {args.examples} examples", flush=True)
        counts, seconds = measure(strategy, estimate, args.examples)
        rows.append(f"| {name} | {sum(counts.values())} | "
                    + " | ".join(str(counts[o]) for o in OUTCOMES) + f" | {seconds:.0f} |")
    body = "\n".join([
        "## Finite differences: which steps judge an example",
        "",
        "| examples drawn as | examples | " + " | ".join(OUTCOMES) + " | seconds |",
        "|---|---:|" + "---:|" * len(OUTCOMES) + "---:|",
        *rows,
        "",
        "*Ordinary steps* are `FD_STEPS` (1e-3, 1e-4, 1e-5); the sharp steps (1e-6, "
        "1e-7) are tried only where those fail; a program whose derivative exceeds "
        "`FD_SHARP_DERIVATIVE` at every step is rejected (`oracles/tolerance.py`).  ",
        f"Machine: {machine()}.  ",
        f"Command: `python bench/bench_fd_refusals.py --examples {args.examples}` "
        "(derandomized: the counts reproduce).",
    ])
    publish("fd_refusals", body, write=not args.no_write)


if __name__ == "__main__":
    main()
