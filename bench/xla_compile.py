"""Benchmark: what one JAX computation of a per-operation row costs, by XLA flags.

A per-operation row (tests/test_cells.py) runs each cell of an operation, a
one-equation program at drawn shapes, in six modes; against JAX every one of
those is a new computation that XLA compiles, and compiling is most of the
JAX run's time.  This times the same kind of work, `jvp` and `vmap` of
`grad` of `hypot` at 15 shapes (30 computations, none cached), for each
setting of `XLA_FLAGS` given, each in a fresh process so the flags apply:

    python bench/xla_compile.py [--flags=--xla_backend_optimization_level=0 ...]

Without `--flags` it compares XLA's defaults with the setting tox.ini uses;
each `--flags=...` (the `=` keeps a value that starts with `--` a value) adds
a setting, and `--flags=` is XLA's defaults.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

TOX_INI = Path(__file__).resolve().parents[1] / "tox.ini"

WORK = """
import time
import jax
import jax.numpy as jnp
import numpy as np
jax.config.update("jax_enable_x64", True)
start, count = time.perf_counter(), 0
for rows in range(1, 16):
    x, y = np.ones((rows, 3)), np.ones(3)
    jax.jvp(jnp.hypot, (x, y), (x, y))
    jax.vmap(jax.grad(lambda a, b: jnp.sum(jnp.hypot(a, b))))(x, x)
    count += 2
print((time.perf_counter() - start) / count * 1000)
"""


def tox_flags() -> str:
    """The XLA_FLAGS tox.ini sets where the environment sets none."""
    return re.search(r"XLA_FLAGS = \{env:XLA_FLAGS:(.*)\}", TOX_INI.read_text()).group(1)


def milliseconds_per_computation(flags: str) -> float:
    env = {key: value for key, value in os.environ.items()
           if key not in ("XLA_FLAGS", "JAX_COMPILATION_CACHE_DIR")}
    run = subprocess.run([sys.executable, "-c", WORK], env={**env, "XLA_FLAGS": flags},
                         capture_output=True, text=True, check=True)
    return float(run.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--flags", action="append",
                        help="an XLA_FLAGS setting to time (repeat; empty: XLA's defaults)")
    args = parser.parse_args()
    print("| XLA_FLAGS | ms per computation |\n|---|---:|")
    for flags in args.flags or ["", tox_flags()]:
        print(f"| `{flags or '(defaults)'}` | {milliseconds_per_computation(flags):.0f} |")


if __name__ == "__main__":
    main()
