"""A hash of every source the library renders for drawn cases: proof that a refactor
left the rendered programs and wrappers alone.

`draw_fingerprint.py` shows that the generator draws the same cases; this
shows that those cases are rendered to the same text, which is what the SUT
runs and the reproducers print.  For each kind of drawn case (programs,
reverse-mode programs, stacks, pytree cases, symbolic cases) it renders the
program and every wrapper, stack stage, refusal, pytree and export source
of `strategies/` for it, and the conventions' wrappers of
`oracles/conventions.py`, and prints one SHA-256 per kind and one over all.
It imports the checkout of the current directory, so one copy of the script
compares two checkouts (whose renderers keep these names):

    cd <checkout> && python <this file> 30
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys

from hypothesis import HealthCheck, Phase, given, seed, settings

sys.path.insert(0, os.getcwd())

import refimpl  # noqa: E402
from oracles import conventions as oconv  # noqa: E402
from strategies import (  # noqa: E402
    cases,
    error_cases,
    pytree_cases,
    pytree_wrappers,
    stacks,
    symbolic,
    symbolic_wrappers,
    wrappers,
)
from strategies.language import conventions as sconv  # noqa: E402
from strategies.language.render import render_function  # noqa: E402
from strategies.language.vocabulary import vocabulary_for  # noqa: E402

VOCABULARY = vocabulary_for(refimpl.__sut_unsupported__)
# Any fixed seed: the digests compare checkouts at one seed, and move with it.
SEED = 7


def digest(name: str, strategy, render, examples: int) -> str:
    """One SHA-256 over every source `render` gives for `examples` drawn cases."""
    hasher = hashlib.sha256()

    @settings(max_examples=examples, database=None, phases=[Phase.generate], deadline=None,
              suppress_health_check=list(HealthCheck))
    @seed(SEED)
    @given(strategy)
    def draw(case):
        for text in render(case):
            hasher.update(str(text).encode())

    draw()
    print(f"{name:20} {hasher.hexdigest()[:16]}", flush=True)
    return hasher.hexdigest()


def program_sources(case) -> list:
    """The program, every wrapper of `wrappers.py` and every refusal around it."""
    p, n = case.program, len(case.program.inputs)
    every = tuple(range(n))
    out = [render_function(p), wrappers.value(p), wrappers.jvp(p), wrappers.grad(p, 0),
           wrappers.grad(p, every), wrappers.grad_along(p, 0), wrappers.vjp(p),
           wrappers.vjp_along(p), wrappers.inner_product_sides(p), wrappers.vmap(p, 0, 0),
           wrappers.vmap(p, (0,) * n, 1), wrappers.jit(p), wrappers.jit_twice(p),
           wrappers.jit_static(p, (1.0, 2.0)), wrappers.eager_static(p, (1.0, 2.0)),
           wrappers.jvp_linearity_sides(p), wrappers.hessian_sides(p),
           wrappers.vmap_grad_sides(p, 0, 0, 0, 2),
           wrappers.vmap_grad_sides(p, (0,), (0,) * n, 1, 3),
           wrappers.grad_vjp_sides(p, 0), wrappers.grad_vjp_sides(p, every)]
    out += [wrappers.jit_commute_sides(p, t, argnums=0, in_axes=0, out_axes=0)
            for t in ("jvp", "grad", "vjp", "vmap")]
    params = [v.name for v in p.inputs]
    for t in ("eager", "jit", "grad", "vmap", "jvp", "vjp"):
        out += [error_cases.applied(t, params), error_cases.refusal_wrapper(t, params),
                error_cases.refusal_wrapper(t, params, "x0 + 1.0")]
    out += [error_cases.grad_of_non_scalar_source(p, 0, outer) for outer in ("eager", "jit")]
    return out


def stack_sources(stack) -> list:
    """Every stage of the stack, its probe, its title, and the loop of each vmap layer."""
    out = []
    for level in range(len(stack.layers) + 1):
        out += [stacks.source(stack, level), stacks.probe_source(stack, level),
                stacks.title(stack, level)]
        if level and stack.layers[level - 1].name == "vmap":
            out.append(stacks.loop_source(stack, level))
    return out


def packed_sources(packed) -> list:
    out = [pytree_wrappers.packed_wrapper(packed, t, argnums=0, in_axes=0, out_axes=0)
           for t in ("value", "jit", "jvp", "vjp", "grad", "vmap")]
    return out + [pytree_wrappers.unpacked_wrapper(packed.case.program, t, argnums=0)
                  for t in ("value", "jit", "jvp", "vjp", "grad")]


def symbolic_sources(case) -> list:
    out = []
    for t in symbolic_wrappers.TRANSFORMS:
        out += [symbolic_wrappers.staged(case, t, case.shapes_at),
                symbolic_wrappers.staged(case, t, case.shapes_at, report="types")]
    for how in ("mixed", "same", "int", "zero", "mismatch"):
        try:
            out.append(symbolic_wrappers.refused(case, how))
        except StopIteration:  # the case has no symbolic axis this refusal needs
            out.append("none")
    return out


def convention_digest() -> str:
    """The jvp and vjp wrappers of every convention, jitted or not."""
    hasher = hashlib.sha256()
    for row in sconv.CONVENTIONS.values():
        for mode in ("jvp", "vjp"):
            for jitted in (False, True):
                hasher.update(str(oconv._wrapper(row, mode, 2, jitted)).encode())
    print(f"{'conventions':20} {hasher.hexdigest()[:16]}")
    return hasher.hexdigest()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("examples", type=int, nargs="?", default=30, help="cases per kind")
    examples = parser.parse_args(argv).examples
    kinds = [
        ("programs", cases.program_cases(VOCABULARY), program_sources),
        ("programs(reverse)", cases.program_cases(VOCABULARY, reverse=True), program_sources),
        ("stacks", stacks.stack_cases(stacks.stack_programs(VOCABULARY), kinds=stacks.CORE,
                                      max_layers=3), stack_sources),
        ("packed", pytree_cases.packed_cases(VOCABULARY), packed_sources),
        ("symbolic", symbolic.symbolic_cases(VOCABULARY), symbolic_sources),
    ]
    overall = hashlib.sha256()
    for name, strategy, render in kinds:
        overall.update(digest(name, strategy, render, examples).encode())
    overall.update(convention_digest().encode())
    print(f"{'all':20} {overall.hexdigest()[:16]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
