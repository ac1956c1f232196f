"""jaxcheck's grad property against `jax.test_util.check_grads`, on the same programs.

Draws grad cases exactly as `tests/test_grad.py` does (derandomized, JAX's
vocabulary), then, interleaved per program in one process, times:

* the jaxcheck grad check: `oracles.derivatives.check_grad` with JAX as the
  SUT and refimpl as the reference (the `--sut jax` property's whole body,
  draws excepted);
* `check_grads(loss, args, order=1, modes=("rev",))` and
  `check_grads(loss, args, order=2, modes=("fwd", "rev"))` on the same `loss`;
* the floor: the program and one central difference in plain NumPy.

Also: JAX's compile time (`jax.monitoring` duration events whose name
holds "compile"), and the process's RSS, now and at its peak.  JAX's
persistent cache goes to a fresh directory unless `--cache` names one, so
the first run measures a cold cache and a rerun with the same `--cache` a
warm one.

    python bench/bench_grads.py --examples 200           # writes docs/performance.md
    python bench/bench_grads.py --examples 20 --no-write
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import jax  # noqa: E402
import numpy as np  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from jax.test_util import check_grads  # noqa: E402

from bench.report import machine, publish  # noqa: E402
from oracles.derivatives import check_grad  # noqa: E402
from oracles.sut import resolve  # noqa: E402
from strategies import wrappers  # noqa: E402
from strategies.cases import grad_cases  # noqa: E402
from strategies.language.evaluation import evaluate  # noqa: E402
from strategies.language.render import load, render_function, render_module  # noqa: E402
from strategies.language.vocabulary import vocabulary_for  # noqa: E402

COMPILE_SECONDS = [0.0]


def _on_duration(event: str, seconds: float, **_) -> None:
    if "compile" in event:
        COMPILE_SECONDS[0] += seconds


def draw_cases(count: int, sut) -> list:
    drawn = []

    @settings(max_examples=count, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(st.data())
    def collect(data):
        drawn.append(data.draw(grad_cases(vocabulary_for(sut.unsupported))))

    collect()
    return drawn[:count]


def jax_loss(case, weights):
    source = render_module(render_function(case.program), wrappers.loss(case.program),
                           constants=wrappers.named("w", weights))
    return load(source, jax, "loss")


def numpy_floor(case, weights, argnums, along) -> float:
    def loss(args):
        return sum(float(np.sum(y * w)) for y, w in zip(evaluate(case.program, args), weights))
    h = 1e-4
    positions = argnums if isinstance(argnums, tuple) else (argnums,)
    plus, minus = list(case.args), list(case.args)
    for position, v in zip(positions, along):
        plus[position] = plus[position] + h * v
        minus[position] = minus[position] - h * v
    return (loss(plus) - loss(minus)) / (2 * h)


def rss_mib() -> float:
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def timed(action, drawn) -> tuple[float, str | None]:
    start = time.perf_counter()
    try:
        action(drawn)
        outcome = None
    except Exception as exc:  # check_grads' own assertion, or a failure of ours
        outcome = f"{type(exc).__name__}: {str(exc).splitlines()[0][:120]}"
    return time.perf_counter() - start, outcome


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=200)
    parser.add_argument("--cache", help="JAX's persistent cache directory (default: a fresh one)")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    # Every compile kept, as the suite keeps them (tox.ini, jaxcheck/runner.py).
    jax.config.update("jax_compilation_cache_dir",
                      args.cache or tempfile.mkdtemp(prefix="jaxcheck-xla-"))
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
    jax.monitoring.register_event_duration_secs_listener(_on_duration)
    sut, reference = resolve("jax"), resolve("refimpl")
    cases = draw_cases(args.examples, sut)
    columns = {
        "jaxcheck grad check (JAX; refimpl reference)": lambda c: check_grad(sut, reference, *c),
        "`check_grads(order=1, modes=('rev',))`": lambda c: check_grads(
            jax_loss(c.case, c.weights), tuple(c.case.args), order=1, modes=("rev",)),
        "`check_grads(order=2, modes=('fwd', 'rev'))`": lambda c: check_grads(
            jax_loss(c.case, c.weights), tuple(c.case.args), order=2, modes=("fwd", "rev")),
        "NumPy floor (the program + one central difference)": lambda c: numpy_floor(
            c.case, c.weights, c.argnums, c.directions),
    }
    seconds = {name: [] for name in columns}
    compile_seconds = dict.fromkeys(columns, 0.0)
    failures = {name: [] for name in columns}
    start_rss = rss_mib()
    began = time.perf_counter()
    names = list(columns)
    for number, drawn in enumerate(cases):
        # The first column to meet a new shape pays JAX's compiles for it; the
        # JAX columns take turns at going first.
        jax_columns = names[:3]
        turn = number % len(jax_columns)
        for name in [*jax_columns[turn:], *jax_columns[:turn], *names[3:]]:
            action = columns[name]
            before = COMPILE_SECONDS[0]
            took, failed = timed(action, drawn)
            seconds[name].append(took)
            compile_seconds[name] += COMPILE_SECONDS[0] - before
            if failed:
                failures[name].append(failed)
    wall = time.perf_counter() - began
    base = statistics.median(seconds[next(iter(columns))])
    rows = [f"| {name} | {statistics.median(s) * 1e3:.3g} ms | {sum(s):,.1f} s | "
            f"{len(s) / sum(s):,.1f} | {base / statistics.median(s):.2f} | "
            f"{100 * compile_seconds[name] / sum(s):.0f}% | {len(failures[name])} |"
            for name, s in seconds.items()]
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    lines = [
        "## jaxcheck's grad check against `check_grads`", "",
        f"{len(cases)} grad cases drawn as `tests/test_grad.py` draws them (derandomized, "
        "JAX's vocabulary), each run through every column in one process, the three JAX "
        "columns taking turns at going first (the first to meet a shape pays its compiles). "
        "*vs jaxcheck* is the median time of jaxcheck's check over the column's; "
        "*compile* is the share of the column's time in JAX compile events; "
        "*raised* counts examples where the column raised (for `check_grads`: its own "
        "tolerance check).", "",
        "| per example | median | total | examples/s | vs jaxcheck | compile | raised |",
        "|---|---:|---:|---:|---:|---:|---:|", *rows, "",
        f"RSS: {start_rss:,.0f} MiB after drawing, {rss_mib():,.0f} MiB at the end, "
        f"peak {peak:,.0f} MiB; {wall:,.0f} s in all.", "",
        *(f"* {name}, first raise: {failures[name][0]}" for name in columns if failures[name]),
        "", f"Machine: {machine()}.  ",
        f"Command: `python bench/bench_grads.py --examples {args.examples}"
        + (f" --cache {args.cache}`" if args.cache else "` (a fresh persistent cache)."),
    ]
    publish("bench_grads", "\n".join(lines), write=not args.no_write)


if __name__ == "__main__":
    main()
