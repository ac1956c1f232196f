"""`Program`, and `programs`: grow random typed programs concretely, one valid equation
at a time.

The generator draws the inputs first, then adds equations in a `Scope`
(`equations.py`): each step picks an operation or construct of the language
and asks its operand builder for operands whose current NumPy values keep it
inside its domain (`operands.py`).  The program's values are therefore known
at every step, which is what makes validity hold by construction: no
`assume`, no filtering, and a shrunk choice sequence still builds a valid
(smaller) program.

Examples are in `tests/meta/test_strategies.py`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from hypothesis import event
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from strategies.language import inputs, shapes
from strategies.language.equations import Scope
from strategies.language.ir import Var, all_eqns, prune
from strategies.language.operands import choose, index
from strategies.language.render import render_function
from strategies.language.table import LANGUAGE
from strategies.language.vocabulary import supported_names


@dataclass(frozen=True)
class Program:
    """A generated function: its inputs, its equations (`ir.Eqn`), its outputs.

    It prints as the source it renders to (`render.render_function`), so a
    failing example shows the program as the SUT ran it.
    """

    inputs: tuple[Var, ...]
    eqns: tuple
    outputs: tuple[Var, ...]

    def __repr__(self) -> str:
        return "Program:\n" + render_function(self)


class ProgramCase(NamedTuple):
    """A program with the inputs it was grown at: it is valid at all of them.

    `args` is the first input set; `variants` holds every input set (args
    first); an input marked in `shared` is the same array in every variant.
    """

    program: Program
    args: tuple[np.ndarray, ...]
    variants: tuple[tuple[np.ndarray, ...], ...]
    shared: tuple[bool, ...]


def _check(min_inputs, max_inputs, min_eqns, max_eqns, max_outputs, ops, variants):
    shapes.check_range("inputs", min_inputs, max_inputs, floor=1, ceiling=3)
    shapes.check_range("eqns", min_eqns, max_eqns, floor=0, ceiling=200)
    shapes.check_type("max_outputs", max_outputs, int)
    if not 1 <= max_outputs <= 3:
        raise InvalidArgument(f"max_outputs={max_outputs} must be between 1 and 3")
    if not ops:
        raise InvalidArgument("ops=() leaves no operation to generate programs from")
    shapes.check_type("variants", variants, int)
    if not 1 <= variants <= 8:
        raise InvalidArgument(f"variants={variants} must be between 1 and 8")


@st.composite
def programs(
    draw,
    *,
    min_inputs=1,
    max_inputs=3,
    min_eqns=1,
    max_eqns=30,
    max_outputs=2,
    ops=tuple(LANGUAGE),
    input_shapes=None,
    variants=1,
    chain=False,
    sharing=False,
    allow_empty=True,
    first=None,
    grad_only=False,
    apart=False,
) -> ProgramCase:
    """A `ProgramCase`: a straight-line program over `ops` and inputs it is valid at.

    * `min_inputs..max_inputs` inputs (default 1-3), shapes of rank 0-3 and
      dims 1-5 from one pool of sizes (with `allow_empty`, sometimes 0 too:
      `shapes.EMPTY_ODDS`), unless `input_shapes` (a strategy of tuples of
      shapes) says otherwise;
    * `min_eqns..max_eqns` equations (default 1-30) over `ops` (default the
      whole language: operations and constructs), each in call or operator
      syntax; a construct's blocks hold up to a few equations more;
    * 1-`max_outputs` outputs (default 1-2); the first is the last equation;
    * `variants` input sets (default 1) at which the program is valid; with
      more than one, each input is drawn shared or varying (one at least
      varies), as `vmap` with `in_axes=None` or a batch axis needs;
    * with `chain`, each equation takes the one before it as first operand:
      a long chain that stays live end to end (otherwise a program is a
      forest, and pruning keeps only the tree of its outputs: 100-200 drawn
      equations leave a median of about 10 live ones);
    * with `sharing`, heavy fan-out: the first equation's result is a hub
      that about half of the later binary operations take as second operand
      (the first still consumes what came before), so reverse mode must add
      up many cotangents into one value;
    * with `first` (a name in `ops`), the first equation is that operation or
      construct wherever the inputs let it be built, its blocks drawn from
      all of `ops` (`tests/test_cells.py` puts each construct under every
      mode this way);
    * with `grad_only`, the program is for reverse mode alone (forward mode
      applies to it only over a reverse one), so a function with a
      custom_vjp rule may be called in its body, not only in a nested grad's
      (`constructs.Construct.reverse_only`);
    * with `apart`, input set k is drawn `k * inputs.APART` steps on from the
      first (each of its shrinks towards `k / 4`, not 0.0), so a function
      called at two sets meets other values even in the simplest example.

    Examples shrink towards one rank-0 input of value 0.0 and a single
    equation using the first operation of `ops` on it.
    """
    _check(min_inputs, max_inputs, min_eqns, max_eqns, max_outputs, ops, variants)
    if first is not None and first not in ops:
        raise InvalidArgument(f"first={first!r} must be one of ops={ops!r}")
    for name, flag in (("chain", chain), ("sharing", sharing), ("allow_empty", allow_empty),
                       ("grad_only", grad_only), ("apart", apart)):
        if not isinstance(flag, bool):
            raise InvalidArgument(f"{name}={flag!r} must be True or False")
    specs = [LANGUAGE[name] for name in supported_names(only=ops)]
    count = draw(st.integers(min_inputs, max_inputs), label="inputs")
    if input_shapes is None:
        drawn = draw(shapes.input_shapes(count, allow_empty=allow_empty), label="input shapes")
        arg_shapes = drawn.shapes
    else:
        arg_shapes = draw(input_shapes, label="input shapes")
    shared = draw_shared(draw, len(arg_shapes), variants)
    sets = _draw_variants(draw, arg_shapes, shared, variants, apart)
    names = [f"x{i}" for i in range(len(arg_shapes))]
    scope = Scope([Var(n, s) for n, s in zip(names, arg_shapes)],
                  [dict(zip(names, args)) for args in sets], specs=specs, language=LANGUAGE,
                  chain=chain, grad_only=grad_only)
    length = draw(st.integers(min_eqns, max_eqns), label="equations")
    scope.only = first
    scope.grow(draw, min(length, 1))
    scope.only = None
    if scope.eqns:
        if sharing:
            scope.share(scope.eqns[0].outs[0])
        scope.grow(draw, length - 1)
    eqns = scope.eqns
    outputs = _draw_outputs(draw, scope, eqns, max_outputs)
    program = prune(Program(tuple(scope.vars[: len(names)]), tuple(eqns), outputs))
    event(f"equations: {_bucket(len(program.eqns))}")
    for eqn in all_eqns(program.eqns):
        event(f"op: {eqn.op}")
    for edge in shapes.edges(arg_shapes):
        event(f"shape: {edge}")
    return ProgramCase(program, sets[0], sets, shared)


def draw_shared(draw, count: int, variants: int) -> tuple[bool, ...]:
    """Per input, whether every variant shares it (one varies at least): vmap's
    `in_axes=None` inputs."""
    if variants == 1:
        return (False,) * count
    flags = [draw(st.booleans(), label=f"x{i} shared") for i in range(count)]
    varying = index(draw, count, label="varying input")
    flags[varying] = False
    return tuple(flags)


def _draw_variants(draw, arg_shapes, shared, variants, apart=False):
    first = tuple(draw(inputs.arrays(s), label=f"x{i}") for i, s in enumerate(arg_shapes))
    rest = [
        tuple(x if shared[i] else draw(inputs.arrays(x.shape, shift=k * inputs.APART * apart),
                                       label=f"x{i}[{k}]")
              for i, x in enumerate(first))
        for k in range(1, variants)
    ]
    return (first, *rest)


def _draw_outputs(draw, scope: Scope, eqns, max_outputs: int) -> tuple[Var, ...]:
    """The last result, then other results, unused ones (sinks) first."""
    results = [v for eqn in eqns for v in eqn.outs] or scope.vars
    count = draw(st.integers(1, max_outputs), label="outputs")
    sinks = [v for v in scope.sinks() if v in results and v != results[-1]]
    others = sinks + [v for v in results[::-1] if v not in sinks]
    return (results[-1], *(choose(draw, others, label="output") for _ in range(count - 1)))


def _bucket(n: int) -> str:
    return next(label for limit, label in [(0, "0"), (1, "1"), (3, "2-3"), (10, "4-10"),
                                           (30, "11-30"), (100, "31-100")]
                if n <= limit) if n <= 100 else ">100"
