"""A program and its rewrite into an equal one, judged against each other on the SUT.

The rewrite (`strategies/equivalences.py`) is rendered beside the original
as `f_rewritten`, and the drawn transformation stack as a factory
`stack(f)` that builds `g0 .. gk` around whichever function it is given:

    def stack(f):
        def g1(x0, t1_0):
            out, tangent = sut.jvp(g0, (x0,), (t1_0,))
            ...
        return g2

so one module holds both programs and one stack, and the reproducer of a
failure recomputes both sides on the SUT (`verify_agrees`).  The SUT must
give the two programs the same value, and the same result under the stack;
the reference must agree with the SUT on both (and, where the two programs
differ on the SUT, it tells which is wrong, as NumPy does for the value).  No finite difference is
involved, so the rewrites may sit on ties and kinks.  The property:
`tests/test_equivalences.py`.
"""

from __future__ import annotations

import textwrap
from dataclasses import replace

from oracles.experiment import case_experiment
from oracles.identities import value_judge
from oracles.reference import referee, verify_matches_reference
from oracles.sut import Sut
from oracles.tolerance import EQUIVALENT
from oracles.verify import verify_agrees
from strategies import stacks
from strategies.language.render import render_function
from strategies.wrappers import Wrapper

REWRITTEN = "f_rewritten"


def both_functions(original, rewritten) -> str:
    """`f` and `f_rewritten`, with each block they share defined once."""
    chunks: list[str] = []
    for text in (render_function(original), render_function(rewritten, REWRITTEN)):
        chunks += [c.strip("\n") for c in text.split("\n\n") if c.strip() and
                   c.strip("\n") not in chunks]
    return "\n\n".join(chunks) + "\n"


def stack_factory(stack) -> str:
    """`def stack(f): ...; return g<top>`: the drawn stack around any `f`."""
    top = len(stack.layers)
    body = textwrap.indent(stacks.source(stack, top), "    ")
    return f"def stack(f):\n{body}\n    return g{top}\n"


def _call(function: str, names) -> str:
    return f"{function}({', '.join(names)})"


def check_equivalent(sut: Sut, reference: Sut | None, stack, rewritten, applied) -> None:
    """The rewrite equals the original on the SUT, as a value and under `stack`, and
    the reference agrees with the SUT on both programs under `stack`."""
    __tracebackhide__ = True
    function = both_functions(stack.case.program, rewritten)
    how = f"f rewritten by {', '.join(applied)}"
    plain = stacks.stage_inputs(stack, 0)
    value = case_experiment(stack.case, Wrapper("", _call(REWRITTEN, plain)), how,
                            inputs=plain, function=function)
    verify_agrees(sut, value, _call("f", plain), f"f on {sut.name}", EQUIVALENT,
                  [*referee(reference, value, EQUIVALENT),
                   value_judge(stack.case.program, list(plain.values()))])
    top = len(stack.layers)
    title = stacks.title(stack, top)
    names = list(stack.inputs)
    transformed = case_experiment(
        stack.case, Wrapper(stack_factory(stack), _call(f"stack({REWRITTEN})", names)),
        f"{title} with {how}", inputs=stack.inputs, constants=stack.constants,
        function=function)
    verify_agrees(sut, transformed, _call("stack(f)", names), f"{title} on {sut.name}",
                  EQUIVALENT, referee(reference, transformed, EQUIVALENT))
    verify_matches_reference(sut, reference, transformed)
    verify_matches_reference(sut, reference, replace(transformed, title=title,
                                                     call=_call("stack(f)", names)))
