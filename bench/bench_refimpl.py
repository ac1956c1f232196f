"""Benchmark: refimpl against JAX on the same generated programs.

Draws a fixed, derandomized sample of straight-line programs with exactly 10
and exactly 30 equations (`strategies.program.programs`), renders each to
source once, loads it for refimpl, for JAX (float64, CPU) and for plain NumPy
(a baseline), and times, in one process and after warm-up:

* `f`      -- the function called eagerly;
* `jvp`    -- `jvp(f, xs, ts)`;
* `grad`   -- `grad(loss, argnums=all)(xs)`, `loss = sum_k <w_k, f_k>`
              (`strategies.wrappers.loss`);
* `vmap`   -- `vmap(f, in_axes)` over a batch of `--batch` input sets
              (`in_axes` 0 for varying inputs, `None` for shared ones);
* `jit`    -- `jit(f)` called again after its first (compiling) call;
* `jit compile` -- that first call on a freshly loaded function, separately.

Every timing is the median over `--repeat` runs of the per-call time of a
loop sized to take at least `--min-time` seconds; JAX results are blocked on
(`jax.block_until_ready`).  Inputs are NumPy float64 arrays for both systems,
as the SUT contract (docs/sut-api.md) hands them.  Per size, the
table reports the median and quartiles over programs of the per-call times
and of the per-program ratio refimpl/JAX, and writes its section of
docs/performance.md.  Run from the repository root:

    python bench/bench_refimpl.py [--programs 20] [--no-write]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import types
from pathlib import Path
from typing import NamedTuple

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402

from bench.report import machine, publish  # noqa: E402
from oracles.sut import resolve  # noqa: E402
from strategies import wrappers  # noqa: E402
from strategies.language.opspec import OPS  # noqa: E402
from strategies.language.render import load, render_function, render_module  # noqa: E402
from strategies.program import ProgramCase, programs  # noqa: E402

TRANSFORMS = ("f", "jvp", "grad", "vmap", "jit")
SYSTEMS = ("refimpl", "jax")


# ----------------------------------------------------------------------------- the sample

def sample(eqns: int, count: int, batch: int, tolerance: float) -> list[ProgramCase]:
    """`count` distinct programs of `eqns` equations (± `tolerance`), the same on every run.

    The generator prunes equations no output needs, so a program drawn with
    `k` equations keeps fewer, spread widely; drawing `eqns..3*eqns` and
    keeping those whose pruned length is within the band gets the size
    asked for.  One Hypothesis run per seed 0, 1, ...; each run's first
    example is the simplest program (the shrink target), so the second, an
    independent random draw, is taken.  Repeats are skipped.
    """
    low, high = round(eqns * (1 - tolerance)), round(eqns * (1 + tolerance))
    strategy = programs(min_eqns=eqns, max_eqns=min(200, 3 * eqns), ops=tuple(OPS),
                        variants=batch)
    cases: dict[str, ProgramCase] = {}
    for k in range(1000 * count):
        if len(cases) == count:
            break
        case = _second_example(k, strategy)
        if low <= len(case.program.eqns) <= high:
            cases.setdefault(render_function(case.program), case)
    return list(cases.values())


def _second_example(k: int, strategy) -> ProgramCase:
    drawn: list[ProgramCase] = []

    @seed(k)
    @settings(database=None, max_examples=2, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def collect(case):
        drawn.append(case)

    collect()
    return drawn[-1]


class Workload(NamedTuple):
    """One program, rendered once, with every input its five calls need."""

    source: str
    args: tuple
    tangents: tuple
    batched: tuple
    in_axes: tuple
    eqns: int


def workload(case: ProgramCase, rng: np.random.Generator) -> Workload:
    program = case.program
    weights = {f"w{k}": rng.standard_normal(out.shape) for k, out in enumerate(program.outputs)}
    source = render_module(render_function(program), wrappers.loss(program), constants=weights)
    tangents = tuple(rng.standard_normal(x.shape) for x in case.args)
    in_axes = tuple(None if shared else 0 for shared in case.shared)
    batched = tuple(x if shared else np.stack([v[i] for v in case.variants])
                    for i, (x, shared) in enumerate(zip(case.args, case.shared)))
    return Workload(source, case.args, tangents, batched, in_axes, len(program.eqns))


# ----------------------------------------------------------------------------- timing

def calls(api, w: Workload) -> dict:
    """The five thunks to time, built on a fresh load of the program for `api`."""
    f, loss = load(w.source, api, "f"), load(w.source, api, "loss")
    jitted = api.jit(f)
    batched = api.vmap(f, in_axes=w.in_axes)
    grad = api.grad(loss, argnums=tuple(range(len(w.args))))
    return {
        "f": lambda: f(*w.args),
        "jvp": lambda: api.jvp(f, w.args, w.tangents),
        "grad": lambda: grad(*w.args),
        "vmap": lambda: batched(*w.batched),
        "jit": lambda: jitted(*w.args),
    }


def per_call(thunk, sync, repeat: int, min_time: float, warmup: int = 3) -> float:
    """Median per-call seconds after `warmup` calls, over `repeat` calibrated loops."""
    for _ in range(warmup):
        sync(thunk())
    number, elapsed = 1, 0.0
    while True:
        elapsed = _loop(thunk, sync, number)
        if elapsed >= min_time:
            break
        number *= 2 if elapsed == 0 else max(2, min(10, int(1.2 * min_time / elapsed) + 1))
    runs = [elapsed] + [_loop(thunk, sync, number) for _ in range(repeat - 1)]
    return statistics.median(runs) / number


def _loop(thunk, sync, number: int) -> float:
    start = time.perf_counter()
    for _ in range(number):
        sync(thunk())
    return time.perf_counter() - start


def compile_time(api, w: Workload, sync, repeat: int) -> float:
    """Median first-call time of `jit(f)`, each on a freshly loaded `f` (no cache to hit)."""
    times = []
    for _ in range(repeat):
        jitted = api.jit(load(w.source, api, "f"))
        start = time.perf_counter()
        sync(jitted(*w.args))
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def measure(w: Workload, apis: dict, syncs: dict, opts) -> dict:
    """{(system, transform): seconds}; refimpl and JAX alternate on each measurement."""
    result = {}
    for system in SYSTEMS:
        result[system, "compile"] = compile_time(apis[system], w, syncs[system],
                                                 opts.compile_repeat)
    thunks = {system: calls(apis[system], w) for system in SYSTEMS}
    for name in TRANSFORMS:
        for system in SYSTEMS:
            result[system, name] = per_call(thunks[system][name], syncs[system],
                                            opts.repeat, opts.min_time)
    numpy_f = load(w.source, apis["numpy"], "f")
    result["numpy", "f"] = per_call(lambda: numpy_f(*w.args), _identity, opts.repeat,
                                    opts.min_time)
    return result


def _identity(value):
    return value


# ----------------------------------------------------------------------------- report

def quartiles(values) -> tuple[float, float, float]:
    q1, q2, q3 = np.percentile(values, [25, 50, 75])
    return float(q1), float(q2), float(q3)


def fmt_us(values) -> str:
    q1, q2, q3 = (v * 1e6 for v in quartiles(values))
    return f"{_num(q2)} ({_num(q1)}–{_num(q3)})"


def fmt_ratio(values) -> str:
    q1, q2, q3 = quartiles(values)
    return f"{q2:.2f} ({q1:.2f}–{q3:.2f}) [{min(values):.2f}–{max(values):.2f}]"


def _num(x: float) -> str:
    return f"{x:.0f}" if x >= 100 else f"{x:.1f}" if x >= 10 else f"{x:.2f}"


def table(results: dict) -> str:
    """One Markdown table: a row per (size, measurement), over that size's programs."""
    rows = ["| eqns | measurement | refimpl µs | JAX µs | refimpl/JAX |",
            "|---:|---|---:|---:|---:|"]
    for eqns, runs in results.items():
        for name in (*TRANSFORMS, "compile"):
            label = "jit compile (first call)" if name == "compile" else _label(name)
            ref = [r["refimpl", name] for r in runs]
            jax = [r["jax", name] for r in runs]
            ratios = [a / b for a, b in zip(ref, jax)]
            rows.append(f"| {eqns} | {label} | {fmt_us(ref)} | {fmt_us(jax)} | "
                        f"{fmt_ratio(ratios)} |")
    return "\n".join(rows)


def baseline(results: dict) -> str:
    """The same source on plain NumPy, and each system's warm call relative to it."""
    rows = ["| eqns | NumPy `f` µs | refimpl `f` / NumPy | refimpl `jit(f)` / NumPy | "
            "JAX `jit(f)` / NumPy |", "|---:|---:|---:|---:|---:|"]
    for eqns, runs in results.items():
        numpy_f = [r["numpy", "f"] for r in runs]
        cells = [fmt_ratio([r[system, name] / r["numpy", "f"] for r in runs])
                 for system, name in (("refimpl", "f"), ("refimpl", "jit"), ("jax", "jit"))]
        rows.append(f"| {eqns} | {fmt_us(numpy_f)} | {' | '.join(cells)} |")
    return "\n".join(rows)


def _label(name: str) -> str:
    return {"f": "`f` eager", "jvp": "`jvp(f)`", "grad": "`grad(loss)`",
            "vmap": "`vmap(f)`", "jit": "`jit(f)` warm"}[name]


def section(results: dict, opts, seconds: float, sizes: dict, load: tuple) -> str:
    command = "python bench/bench_refimpl.py" + "".join(
        f" {flag}" for flag in opts.flags)
    counts = "; ".join(f"{len(runs)} of {eqns} equations (lengths {_span(sizes[eqns])}, median "
                       f"{statistics.median(sizes[eqns]):g})" for eqns, runs in results.items())
    return "\n".join([
        "## refimpl against JAX",
        "",
        "Per-call time of the same generated programs in refimpl and in JAX, measured in one "
        f"run. Programs: {counts}. Each size n is drawn from "
        "`strategies.program.programs(min_eqns=n, max_eqns=3n, ops=OPS, "
        f"variants={opts.batch})` (array operations only: straight-line programs, as "
        "first measured; one Hypothesis run per seed 0, 1, ..., second example), keeping "
        "programs whose length after the generator's dead-code pruning is within "
        f"±{opts.tolerance:.0%} "
        "of n: every equation feeds an output. Inputs are small (rank 0–3, dims 1–5), so "
        "these numbers measure per-operation overhead, not arithmetic.",
        "",
        f"Each cell: median over programs (quartiles); ratios also [min–max]. A per-program time "
        f"is the median of {opts.repeat} loops of ≥{opts.min_time * 1e3:.0f} ms after 3 warm-up "
        "calls; JAX outputs are blocked on. `grad` differentiates `loss = Σ⟨w_k, f_k⟩` "
        f"w.r.t. all inputs; `vmap` maps over {opts.batch} input sets (shared inputs "
        "`in_axes=None`). `jit(f)` warm excludes compilation; *jit compile* is the first call "
        f"of `jit(f)` on a freshly loaded `f` (median of {opts.compile_repeat}), for refimpl "
        "staging + generating NumPy source, for JAX tracing + lowering + XLA compilation.",
        "",
        table(results),
        "",
        "Baseline: the same rendered source run on plain NumPy (`jnp = numpy`), per program "
        "(time relative to it, median (quartiles) [min–max]).",
        "",
        baseline(results),
        "",
        f"Machine: {machine()}; 1-minute load average {load[0]:.1f} before and {load[1]:.1f} "
        "after the run.  ",
        f"Command: `{command}` (from the repository root; total {seconds:.0f} s).",
    ])


def _span(values) -> str:
    return f"{min(values)}–{max(values)}" if min(values) != max(values) else f"{min(values)}"


# ----------------------------------------------------------------------------- main

def options(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--programs", type=int, default=20, help="programs per size (20)")
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 30],
                        help="equations per program (10 30)")
    parser.add_argument("--tolerance", type=float, default=0.1,
                        help="accepted relative deviation from each size (0.1; 0 = exact, slow)")
    parser.add_argument("--batch", type=int, default=3, help="vmap batch size, 2-8 (3)")
    parser.add_argument("--repeat", type=int, default=5, help="timing loops per call (5)")
    parser.add_argument("--min-time", type=float, default=0.01,
                        help="seconds per timing loop (0.01)")
    parser.add_argument("--compile-repeat", type=int, default=3,
                        help="fresh jit compilations timed per program (3)")
    parser.add_argument("--no-write", action="store_true", help="print only")
    opts = parser.parse_args(argv)
    defaults = {a.dest: a.default for a in parser._actions}
    opts.flags = [f"--{k.replace('_', '-')} {' '.join(map(str, v)) if isinstance(v, list) else v}"
                  for k, v in vars(opts).items()
                  if k not in ("no_write", "flags", "help") and v != defaults[k]]
    return opts


def main(argv=None) -> None:
    opts = options(argv)
    started, load = time.perf_counter(), os.getloadavg()[0]
    apis = {name: resolve(name).api for name in SYSTEMS}
    apis["numpy"] = types.SimpleNamespace(numpy=np)
    import jax

    syncs = {"refimpl": _identity, "jax": jax.block_until_ready}
    rng = np.random.default_rng(0)
    results, sizes = {}, {}
    for eqns in opts.sizes:
        cases = sample(eqns, opts.programs, opts.batch, opts.tolerance)
        sizes[eqns] = [len(c.program.eqns) for c in cases]
        results[eqns] = []
        for i, case in enumerate(cases):
            results[eqns].append(measure(workload(case, rng), apis, syncs, opts))
            print(f"  {eqns} eqns: program {i + 1}/{len(cases)} "
                  f"({time.perf_counter() - started:.0f} s)", file=sys.stderr)
    text = section(results, opts, time.perf_counter() - started, sizes,
                   (load, os.getloadavg()[0]))
    publish("bench_refimpl", text, write=not opts.no_write)


if __name__ == "__main__":
    main()
