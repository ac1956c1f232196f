"""How accurately MLX computes each elementwise operation in float64, and its derivatives.

For every unary elementwise operation of the language MLX offers (and the
binary ones whose kernels or derivatives are transcendental), on a grid of inputs
inside the domain the generator draws from (`strategies/language/domains.py`), MLX's
value and first and second derivatives (by `mx.grad`, as the shim takes them)
against JAX's in float64.  The error is |MLX - JAX| / (1 + |JAX|): relative
above 1, absolute below, the measure `__sut_accuracy__` declares
(docs/sut-api.md).  suts/mlx.py declares what this prints for the operations
past float64 rounding.

    python bench/mlx_accuracy.py [--points N]

Needs mlx (tox -e mlx installs it) and jax.
"""

from __future__ import annotations

import argparse

import jax
import jax.numpy as jnp
import mlx.core as mx
import numpy as np

from strategies.language.domains import KINK_MARGIN, NONZERO_FLOOR, POSITIVE_FLOOR

jax.config.update("jax_enable_x64", True)
mx.set_default_device(mx.cpu)

# Each operation's grid: the inputs the generator may give it.  Every value of a
# generated program lies within 100 (`oracles/tolerance.py`), so an argument
# may be anywhere in [-100, 100] unless the operation's result would leave
# that range (exp and its kin stop at log 100 = 4.6, sinh and cosh at 5.3) or
# its domain margin says otherwise (strategies/language/opspec.py: log and sqrt above
# 0.25, log1p above -0.75, tan where |cos x| >= 0.25).
GRIDS = {
    "sin": (-100.0, 100.0), "cos": (-100.0, 100.0), "tanh": (-100.0, 100.0),
    "exp": (-100.0, 4.6), "log": (POSITIVE_FLOOR, 100.0), "sqrt": (POSITIVE_FLOOR, 100.0),
    "log1p": (-0.75, 100.0), "expm1": (-100.0, 4.6), "tan": (-100.0, 100.0),
    "arctan": (-100.0, 100.0), "arcsinh": (-100.0, 100.0), "sinh": (-5.3, 5.3),
    "cosh": (-5.3, 5.3), "square": (-10.0, 10.0), "negative": (-100.0, 100.0),
    "reciprocal": (NONZERO_FLOOR, 100.0), "abs": (-100.0, 100.0),
    "arcsin": (-1 + POSITIVE_FLOOR, 1 - POSITIVE_FLOOR),
    "arccos": (-1 + POSITIVE_FLOOR, 1 - POSITIVE_FLOOR),
    "arctanh": (-1 + POSITIVE_FLOOR, 1 - POSITIVE_FLOOR), "arccosh": (1 + POSITIVE_FLOOR, 100.0),
    "log2": (POSITIVE_FLOOR, 100.0), "log10": (POSITIVE_FLOOR, 100.0),
    "deg2rad": (-100.0, 100.0), "rad2deg": (-100.0, 100.0),
}

# MLX's names for the contract's operations it offers under another name.
MLX_NAMES = {"deg2rad": "radians", "rad2deg": "degrees"}


def _errors(name: str, *operands: np.ndarray) -> tuple[float, ...]:
    """The worst error of the value, the first derivative (in the first operand) in
    reverse and in forward mode, and the second derivative."""
    mlx_f, jax_f = getattr(mx, MLX_NAMES.get(name, name)), getattr(jnp, name)
    mlx_grad = mx.vmap(mx.grad(mlx_f))
    mlx_jvp = lambda x, *rest: mx.jvp(  # noqa: E731
        mlx_f, [x, *rest], [mx.ones_like(x), *map(mx.zeros_like, rest)])[1][0]
    mlx_second = mx.vmap(mx.grad(mx.grad(mlx_f)))
    jax_first, jax_second = jax.vmap(jax.grad(jax_f)), jax.vmap(jax.grad(jax.grad(jax_f)))
    x_mlx = [mx.array(x, dtype=mx.float64) for x in operands]
    x_jax = [jnp.asarray(x) for x in operands]
    pairs = [(mlx_f, jax_f), (mlx_grad, jax_first), (mlx_jvp, jax_first),
             (mlx_second, jax_second)]
    worst = []
    for mine, theirs in pairs:
        got = np.asarray(mine(*x_mlx), dtype=np.float64)
        want = np.asarray(theirs(*x_jax), dtype=np.float64)
        worst.append(float(np.max(np.abs(got - want) / (1.0 + np.abs(want)))))
    return tuple(worst)


# The two-operand operations whose kernels or derivatives are transcendental, each
# on a grid of both operands (points per side: the square root of --points): a
# positive base of power, within 100 to the third power.
BINARY_GRIDS = {"logaddexp": ((-100.0, 100.0), (-100.0, 100.0)),
                "arctan2": ((-100.0, 100.0), (-100.0, 100.0)),
                "power": ((POSITIVE_FLOOR, 4.6), (-3.0, 3.0))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--points", type=int, default=200001, help="grid points per operation")
    args = parser.parse_args()
    print(f"mlx {mx.__version__}, jax {jax.__version__}, {args.points} points per operation")
    print("| operation | value | grad | jvp | grad of grad |")
    print("|---|---:|---:|---:|---:|")
    for name, (low, high) in GRIDS.items():
        xs = np.linspace(low, high, args.points)
        if name == "tan":
            xs = xs[np.abs(np.cos(xs)) >= NONZERO_FLOOR]
        if name == "abs":  # off its kink, as opspec's domain keeps it
            xs = xs[np.abs(xs) >= KINK_MARGIN]
        errors = _errors(name, xs)
        print(f"| {name} | " + " | ".join(f"{e:.2g}" for e in errors) + " |")
    side = int(np.sqrt(args.points))
    for name, ranges in BINARY_GRIDS.items():
        xs, ys = (grid.ravel() for grid in np.meshgrid(*[np.linspace(low, high, side)
                                                         for low, high in ranges]))
        if name == "arctan2":  # arctan2(y, x) off the origin and the cut x < 0 (opspec)
            keep = (np.hypot(xs, ys) >= NONZERO_FLOOR) & ((ys > 0) | (np.abs(xs) >= NONZERO_FLOOR))
            xs, ys = xs[keep], ys[keep]
        errors = _errors(name, xs, ys)
        print(f"| {name} | " + " | ".join(f"{e:.2g}" for e in errors) + " |")


if __name__ == "__main__":
    main()
