"""How far a correct SUT's float32 results lie from its float64 ones, against float32's tolerance.

For stacks of up to three core transformations drawn as the stack property
draws them (tests/test_stacks.py), the top stage runs on the SUT twice on
the same inputs: in float32, and in float64 (the float32 inputs, exactly).
Each element's error |r32 - r64| / (1 + |r64|) is what `in_float32`
(oracles/tolerance.py) allows DECLARED_ERROR_GROWTH * 2**-24 = 6e-3 for,
besides the comparison's own tolerance.  Prints the distribution of the
worst error per example, in units of that allowance, and the worst programs.

    python bench/float32_error.py --sut jax --examples 500 [--seed 0]
"""

from __future__ import annotations

import argparse

import numpy as np
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from oracles.stack_layers import stage_experiment
from oracles.sut import resolve
from oracles.tolerance import DECLARED_ERROR_GROWTH, FLOAT32_ROUNDING
from strategies import stacks
from strategies.dtypes import FLOAT32, FLOAT64, stack_in_dtypes
from strategies.language.vocabulary import vocabulary_for

ALLOWANCE = DECLARED_ERROR_GROWTH * FLOAT32_ROUNDING


def _result(sut, stack, dtype):
    stack, _ = stack_in_dtypes(stack, [dtype] * len(stack.case.args))
    top = len(stack.layers)
    exp = stage_experiment(stack, top, "", f"g{top}({', '.join(stack.inputs)})",
                           stacks.title(stack, top), stack.inputs)
    return exp.result_on(sut)


def measure(sut, examples: int, at_seed: int) -> list[tuple[float, str]]:
    """(worst error / ALLOWANCE, the stack's title and program) per example."""
    vocabulary = vocabulary_for(sut.unsupported)
    kinds = tuple(k for k in stacks.CORE if sut.supports(k))
    found = []

    @seed(at_seed)
    @settings(max_examples=examples, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(st.data())
    def run(data):
        stack = data.draw(stacks.stack_cases(stacks.stack_programs(vocabulary), kinds=kinds))
        r32, r64 = _result(sut, stack, FLOAT32), _result(sut, stack, FLOAT64)
        worst = max((float(np.max(np.abs(a - b) / (1 + np.abs(b)), initial=0.0))
                     for a, b in zip(r32, r64)), default=0.0)
        top = len(stack.layers)
        found.append((worst / ALLOWANCE, f"{stacks.title(stack, top)}\n{stack.case.program}"))

    run()
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sut", default="jax")
    parser.add_argument("--examples", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--worst", type=int, default=3, help="programs to print")
    args = parser.parse_args()
    found = measure(resolve(args.sut), args.examples, args.seed)
    ratios = np.array([r for r, _ in found])
    print(f"{args.sut}: {len(found)} examples (seed {args.seed}); worst float32 error per "
          f"example in units of {ALLOWANCE:.3g} (1 + |value|):")
    for q in (50, 90, 99, 100):
        print(f"  {q:>3}th percentile  {np.percentile(ratios, q):.3g}")
    print(f"  above 0.1: {int(np.sum(ratios > 0.1))}, above 1: {int(np.sum(ratios > 1))}")
    for ratio, text in sorted(found, key=lambda f: -f[0])[:args.worst]:
        print(f"\n{ratio:.3g} x the allowance: {text}")


if __name__ == "__main__":
    main()
