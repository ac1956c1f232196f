"""A hash of what each case strategy draws from fixed seeds: proof that a refactor
left the generator alone.

Every strategy the properties draw from is listed in `STRATEGIES`; each is
drawn `--examples` times under `@seed(SEED)` (generate phase only, no
database), and the text of every drawn example (NumPy arrays printed in full)
goes into one SHA-256 per strategy and one over all of them.  Two checkouts
that print the same digests draw the same examples.

What Hypothesis draws depends on more than the strategies: it also offers,
now and then, the constants (integers, floats, strings) written in every
loaded module of this checkout that is not a test file
(`hypothesis.internal.conjecture.providers._get_local_constants`).  Moving
`st.integers(0, 999)` from tests/ to strategies/ put 999 in that pool and
changed every digest.  So a refactor that adds a literal to a library
module can change the draws; this script is how to see it.

    python bench/draw_fingerprint.py --examples 300
"""

from __future__ import annotations

import argparse
import hashlib
import pathlib
import sys
import time

import numpy as np
from hypothesis import HealthCheck, Phase, given, seed, settings

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

import refimpl  # noqa: E402
from strategies import cases, stacks  # noqa: E402
from strategies import control_cases as control  # noqa: E402
from strategies import error_cases as errors  # noqa: E402
from strategies import identity_cases as identities  # noqa: E402
from strategies import pytree_cases as pytrees  # noqa: E402
from strategies.language.vocabulary import vocabulary_for  # noqa: E402

SEED = 20261125

# The SUT whose vocabulary is drawn from: refimpl, the default.
VOCABULARY = vocabulary_for(refimpl.__sut_unsupported__)

STRATEGIES = {
    "program_cases": lambda: cases.program_cases(VOCABULARY),
    "program_cases(reverse)": lambda: cases.program_cases(VOCABULARY, reverse=True),
    "jvp_cases": lambda: cases.jvp_cases(VOCABULARY),
    "jvp_cases(long)": lambda: cases.jvp_cases(VOCABULARY, min_eqns=100, max_eqns=200,
                                               chain=True),
    "grad_cases": lambda: cases.grad_cases(VOCABULARY),
    "grad_cases(all)": lambda: cases.grad_cases(VOCABULARY, reverse=False),
    "vjp_cases": lambda: cases.vjp_cases(VOCABULARY),
    "vmap_cases": lambda: cases.vmap_cases(VOCABULARY),
    "two_shape_cases": lambda: cases.two_shape_cases(VOCABULARY),
    "adjoint_cases": lambda: identities.adjoint_cases(VOCABULARY),
    "linearity_cases": lambda: identities.linearity_cases(VOCABULARY),
    "hessian_cases": lambda: identities.hessian_cases(VOCABULARY),
    "vmap_grad_cases": lambda: identities.vmap_grad_cases(VOCABULARY),
    "grad_vjp_cases": lambda: identities.grad_vjp_cases(VOCABULARY),
    **{f"commute_cases({t})": (lambda t=t: identities.commute_cases(VOCABULARY, t))
       for t in ("jvp", "grad", "vjp", "vmap")},
    "mismatch_cases": lambda: errors.mismatch_cases(VOCABULARY),
    "non_scalar_cases": lambda: errors.non_scalar_cases(VOCABULARY),
    "leak_cases": lambda: errors.leak_cases(VOCABULARY),
    "jvp_control_cases": lambda: control.jvp_control_cases(VOCABULARY),
    "grad_control_cases": lambda: control.grad_control_cases(VOCABULARY),
    "vjp_control_cases": lambda: control.vjp_control_cases(VOCABULARY),
    "vmap_control_cases": lambda: control.vmap_control_cases(VOCABULARY),
    "control_cases(threshold)": lambda: control.control_cases(VOCABULARY,
                                                              threshold_parameter=True),
    "packed_cases": lambda: pytrees.packed_cases(VOCABULARY),
    "vmap_packed_cases": lambda: pytrees.vmap_packed_cases(VOCABULARY),
    "stack_cases": lambda: stacks.stack_cases(stacks.stack_programs(VOCABULARY),
                                              kinds=stacks.CORE, max_layers=3),
}


def digest(strategy, examples: int) -> str:
    hasher = hashlib.sha256()

    @settings(max_examples=examples, database=None, phases=[Phase.generate], deadline=None,
              suppress_health_check=list(HealthCheck))
    @seed(SEED)
    @given(strategy)
    def draw(example):
        hasher.update(repr(example).encode())

    with np.printoptions(threshold=sys.maxsize, precision=17):
        draw()
    return hasher.hexdigest()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=100, help="draws per strategy")
    parser.add_argument("--only", nargs="*", help="names from STRATEGIES (default: all)")
    args = parser.parse_args(argv)
    overall = hashlib.sha256()
    for name, make in STRATEGIES.items():
        if args.only and name not in args.only:
            continue
        start = time.perf_counter()
        value = digest(make(), args.examples)
        overall.update(f"{name}={value}".encode())
        print(f"{name:28} {value[:16]}  ({time.perf_counter() - start:.1f} s)", flush=True)
    print(f"{'all':28} {overall.hexdigest()[:16]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
