"""Benchmark: one program checked at 10 sizes, staged symbolically once or per size.

The program is the loop of docs/refimpl-dynamic-shapes.md grown a little:
`x: f64[n,8]`, five steps `a = tanh(a @ w) + x`, then a row sum; it runs at
n = 1..10.  For each system (refimpl, and JAX in float64 on CPU):

* **concrete**: one `jit(f)` called at each size, so it stages and compiles
  once per size;
* **symbolic**: `export.export(jit(f))` on `ShapeDtypeStruct((n, 8))` once,
  then `exported.call` at each size (docs/sut-api.md, "Shape-polymorphic
  staging").

Reported per system and mode: *stagings* (Python runs of `f`, counted in
`f`), *compilations* (refimpl: programs compiled to NumPy source, counted on
`refimpl.compiler`; JAX: XLA backend compilations, from `jax.monitoring`),
the seconds of staging plus the ten first calls (what a check at ten sizes
pays), and the seconds of the ten calls again (all compiled).  Each number
is the median of `--repeat` runs, every run on fresh functions with JAX's
caches cleared.  Run from the repository root:

    python bench/bench_dynamic_shapes.py [--repeat 5] [--no-write]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import jax
import numpy as np
from jax import export as jax_export

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import refimpl  # noqa: E402
from bench.report import machine, publish  # noqa: E402
from refimpl import compiler  # noqa: E402

jax.config.update("jax_enable_x64", True)
SIZES = range(1, 11)
WIDTH = 8
COMPILES = {"jax": 0, "refimpl": 0}


def _count_jax(event: str, seconds: float, **kwargs) -> None:
    if event == "/jax/core/compile/backend_compile_duration":
        COMPILES["jax"] += 1


jax.monitoring.register_event_duration_secs_listener(_count_jax)
_compile = compiler._compile


def _counted_compile(jaxpr):
    COMPILES["refimpl"] += 1
    return _compile(jaxpr)


compiler._compile = _counted_compile  # count every program refimpl compiles

SYSTEMS = {
    "refimpl": (refimpl, refimpl.export, refimpl.ShapeDtypeStruct),
    "jax": (jax, jax_export, jax.ShapeDtypeStruct),
}


def program(api, runs: list):
    jnp, lax = api.numpy, api.lax

    def f(x, w):
        runs.append(None)

        def body(i, a):
            return jnp.tanh(jnp.matmul(a, w)) + x
        return jnp.sum(lax.fori_loop(0, 5, body, x) ** 2, axis=1)
    return f


def one_run(system: str, mode: str, args) -> dict:
    api, export, spec = SYSTEMS[system]
    if system == "jax":
        jax.clear_caches()
    runs: list = []
    f = program(api, runs)
    before, start = COMPILES[system], time.perf_counter()
    if mode == "symbolic":
        n, = export.symbolic_shape("n")
        staged = export.export(api.jit(f))(spec((n, WIDTH), np.float64),
                                           spec((WIDTH, WIDTH), np.float64))
        call = staged.call
    else:
        call = api.jit(f)
    first = [np.asarray(call(*a)) for a in args]
    cold = time.perf_counter() - start
    start = time.perf_counter()
    again = [np.asarray(call(*a)) for a in args]
    warm = time.perf_counter() - start
    assert all(np.allclose(x, y) for x, y in zip(first, again))
    return {"stagings": len(runs), "compilations": COMPILES[system] - before, "cold": cold,
            "warm": warm, "values": first}


def measure(repeat: int) -> dict:
    rng = np.random.default_rng(0)
    w = rng.normal(size=(WIDTH, WIDTH)) / WIDTH
    args = [(rng.normal(size=(n, WIDTH)), w) for n in SIZES]
    rows = {}
    for system in SYSTEMS:
        for mode in ("concrete", "symbolic"):
            runs = [one_run(system, mode, args) for _ in range(repeat)]
            rows[system, mode] = {k: statistics.median(r[k] for r in runs)
                                  for k in ("stagings", "compilations", "cold", "warm")}
            rows[system, mode]["values"] = runs[0]["values"]
    reference = rows["refimpl", "concrete"]["values"]
    for row in rows.values():  # every system and mode computes the same values
        assert all(np.allclose(a, b, rtol=1e-9, atol=1e-9)
                   for a, b in zip(row.pop("values"), reference))
    return rows


def table(rows: dict, repeat: int) -> str:
    lines = ["## Dynamic shapes: one program at 10 sizes, staged symbolically or per size",
             "",
             f"`x: f64[n,{WIDTH}]`, five loop steps `a = tanh(a @ w) + x`, a row sum; n = 1..10. "
             "*concrete*: one `jit(f)` called at each size; *symbolic*: "
             "`export.export(jit(f))` on `ShapeDtypeStruct((n, 8))` once, then `call` at each "
             "size.  Seconds: staging plus the ten first calls (*cold*), the ten calls again "
             f"(*warm*); medians of {repeat} runs on fresh functions.",
             "",
             "| system | staging | stagings of f | compilations | cold s | warm s |",
             "|---|---|---:|---:|---:|---:|"]
    for (system, mode), r in rows.items():
        lines.append(f"| {system} | {mode} | {r['stagings']:g} | {r['compilations']:g} | "
                     f"{r['cold']:.3f} | {r['warm']:.4f} |")
    lines += ["", "JAX traces `f` once under `export`, but XLA compiles for static shapes, so "
              "each new size still costs one backend compilation of the exported module; "
              "refimpl compiles the one symbolic program once and sizes it at run time.",
              "", f"Machine: {machine()}.  Command: `python bench/bench_dynamic_shapes.py "
              f"--repeat {repeat}`."]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-write", action="store_true")
    options = parser.parse_args()
    rows = measure(options.repeat)
    publish("dynamic_shapes", table(rows, options.repeat), write=not options.no_write)


if __name__ == "__main__":
    main()
