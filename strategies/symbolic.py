"""Shape-polymorphic programs: which input dimensions are symbolic is drawn, and the
program is valid at every size it is run at.

A case draws one to three *dimension slots*, each with the size the program
is drawn at and whether it is symbolic (a dimension variable, `n` or `m`) or
fixed; the inputs' axes are slots.  The program is then grown, as every
program is (`equations.Scope`), in one scope whose environments hold the
inputs at every *size assignment* the property runs (the drawing sizes
first, then all variables at 1, then a drawn one), two input sets each (the
examples a batch of `vmap` needs): every domain margin, cond predicate and
loop trip count is checked at each, so the program is valid at every size
by construction, as a `vmap` program is at every batch element.

Two rules keep the one program meaningful for every size, as the SUT's
symbolic staging must read it:

* slots have distinct drawing sizes, and a symbolic one is never 1: the
  generator picks operands by shape, so two axes of equal drawn size are
  one slot (the same variable, which a correct SUT lets meet), and a
  broadcast against a size-1 axis is one against a fixed 1, never against
  a variable that happens to be 1 where the program was drawn;
* only the operations whose row says so are drawn (`OpSpec.polymorphic`:
  the elementwise ones, the reductions `sum`, `max` and `min`, the
  transposes, `expand_dims`, `flip` and the contractions), and every
  construct (its blocks are drawn from the same rows): every axis of every
  value is a slot or 1.  A new operation is left out until its row says
  otherwise.  The rest are left out for reasons of a few kinds.  An output
  size that is a number the program writes (`reshape`, `broadcast_to`) or
  a sum of sizes (`concatenate`, whose `2*n` could equal a fixed size by
  chance): refimpl's own tests (tests/refimpl/test_refimpl_dynamic_shapes.py)
  hold dimension arithmetic to `jax.export`.  A flattening (`cumsum`'s
  `axis=None`, a size `n*m`), or a count used as a value (`mean` divides
  by it) or a loop bound (`prod`'s tree of halves): JAX can
  (`dimension_as_value`), refimpl's symbolic staging cannot yet, and
  refimpl is the reference.  The shape and indexing family: each writes
  a size (`pad`, `tile`, `repeat`, `stack`'s new axis), flattens (`ravel`,
  `outer`), reads one (`squeeze`, `diff`, `roll`, the diagonal's length,
  `tril`'s mask) or reduces through `mean` (`var`, `std`), and with it the
  operations composed of slices and flattening (`cumprod`, `vdot`, `kron`,
  `rot90`'s flips, `average`, `trapezoid`, `ptp`).  `einsum`, whose letters
  pair axes by their sizes where the program was drawn, which no property
  has yet shown to hold at the others; `sort`, `take`, `median` and
  `quantile`, whose `axis=None` flattens (and `take`'s indices and a
  quantile's position are numbers the program writes); `convolve` and
  `correlate`, which loop over a vector's length; and `solve`, `inv` and
  `det`, whose identity matrices and broadcasts need the sizes.

JAX assumes every dimension variable is at least 1 (docs/sut-api.md), so
sizes are drawn from 1 up.  The generator self-test reports, per construct,
the share of programs that use it on a value with a symbolic axis
(`event("symbolic: <name>")`, tests/meta/test_symbolic_strategies.py).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from hypothesis import event
from hypothesis import strategies as st

from strategies.language import inputs
from strategies.language.equations import Scope
from strategies.language.evaluation import evaluate
from strategies.language.ir import Var, all_eqns, prune
from strategies.language.operands import choose
from strategies.language.table import LANGUAGE
from strategies.language.vocabulary import Vocabulary
from strategies.program import Program

NAMES = ("n", "m")
BATCH = 2  # input sets per size assignment: a vmap property's batch


class Slot(NamedTuple):
    size: int  # the size the program is drawn at
    name: str | None  # its dimension variable, or None for a fixed size


class SymbolicCase(NamedTuple):
    """A program with symbolic input axes, and its inputs at each size assignment.

    `axes[i][k]` is the variable of input i's axis k, or None where fixed;
    `sizes[a]` maps each variable to its size in assignment a (the first is
    the drawing one); `args[a][b]` is batch element b of the inputs at
    assignment a."""

    program: Program
    variables: tuple[str, ...]
    axes: tuple[tuple[str | None, ...], ...]
    sizes: tuple[dict, ...]
    args: tuple[tuple[tuple[np.ndarray, ...], ...], ...]

    @property
    def used(self) -> str:
        """The first variable an input's axis is (a case always has one)."""
        return next(v for ax in self.axes for v in ax if v)

    def shapes_at(self, a: int) -> list[tuple[int, ...]]:
        return [x.shape for x in self.args[a][0]]

    def outputs_at(self, a: int, b: int = 0) -> tuple[np.ndarray, ...]:
        return evaluate(self.program, self.args[a][b])

    def out_axes(self) -> list[tuple[str | int, ...]]:
        """Each output axis as a variable's name or a fixed size, from the sizes it
        takes across assignments (every axis is a slot or 1: `OpSpec.polymorphic`)."""
        by_sizes = {tuple(s[v] for s in self.sizes): v for v in self.variables}
        shapes = [[np.shape(y) for y in self.outputs_at(a)] for a in range(len(self.sizes))]
        return [tuple(by_sizes.get(tuple(s[i][k] for s in shapes), shapes[0][i][k])
                      for k in range(len(shapes[0][i]))) for i in range(len(shapes[0]))]


def polymorphic_ops(vocabulary: Vocabulary, reverse=False) -> tuple[str, ...]:
    """The vocabulary's operations and constructs whose rows say they are polymorphic."""
    ops = vocabulary.reverse_ops if reverse else vocabulary.ops
    return tuple(name for name in ops if LANGUAGE[name].polymorphic)


@st.composite
def slots(draw) -> tuple[Slot, ...]:
    """Distinct drawing sizes, one or two of them symbolic (never a size 1)."""
    count = draw(st.integers(1, 3), label="slots")
    sizes = draw(st.lists(st.integers(1, 4), min_size=count, max_size=count, unique=True),
                 label="slot sizes")
    symbolic = [size > 1 and (i == 0 or draw(st.booleans(), label=f"slot {i} symbolic"))
                for i, size in enumerate(sizes)]
    symbolic = [sym and sum(symbolic[:i]) < len(NAMES) for i, sym in enumerate(symbolic)]
    if not any(symbolic):  # the first slot was drawn as 1: make a symbolic one of size 2..4
        sizes[0] = draw(st.sampled_from([s for s in (2, 3, 4) if s not in sizes]))
        symbolic[0] = True
    names = iter(NAMES)
    return tuple(Slot(s, next(names) if sym else None) for s, sym in zip(sizes, symbolic))


@st.composite
def symbolic_cases(draw, vocabulary: Vocabulary, *, reverse=False, grad_only=False,
                   max_eqns=8):
    """A `SymbolicCase` over the SUT's vocabulary, its polymorphic ops only
    (`grad_only`: for reverse mode alone, as `program.programs` has it)."""
    drawn = draw(slots(), label="dimension slots")
    variables = tuple(s.name for s in drawn if s.name)
    count = draw(st.integers(1, 3), label="inputs")
    axes = tuple(tuple(choose(draw, drawn, label=f"axis {k} x{i}")
                       for k in range(draw(st.integers(0, 2), label=f"rank x{i}")))
                 for i in range(count))
    if not any(s.name for ax in axes for s in ax):  # a case has a symbolic axis
        axes = ((next(s for s in drawn if s.name),),) + axes[1:]
    other = {v: draw(st.integers(1, 4), label=f"size {v}") for v in variables}
    sizes = ({s.name: s.size for s in drawn if s.name}, dict.fromkeys(variables, 1), other)
    args = tuple(tuple(tuple(draw(inputs.arrays(tuple(size.get(s.name, s.size) for s in ax)),
                                  label=f"x{i}") for i, ax in enumerate(axes))
                       for _ in range(BATCH)) for size in sizes)
    names = [f"x{i}" for i in range(count)]
    envs = [dict(zip(names, one)) for sets in args for one in sets]
    ops = polymorphic_ops(vocabulary, reverse)
    scope = Scope([Var(n, np.shape(x)) for n, x in zip(names, args[0][0])], envs,
                  specs=[LANGUAGE[name] for name in ops], language=LANGUAGE, grad_only=grad_only)
    scope.grow(draw, draw(st.integers(1, max_eqns), label="equations"))
    results = [v for eqn in scope.eqns for v in eqn.outs] or scope.vars
    outputs = (results[-1],) + ((choose(draw, results, label="output"),)
                                if draw(st.booleans(), label="two outputs") else ())
    program = prune(Program(tuple(scope.vars[:count]), tuple(scope.eqns), outputs))
    case = SymbolicCase(program, variables, tuple(tuple(s.name for s in ax) for ax in axes),
                        sizes, args)
    _report(case)
    return case


def symbolic_uses(case: SymbolicCase) -> set[str]:
    """The operations and constructs a program applies to a value with a symbolic axis."""
    varying = _varying_names(case)
    return {eqn.op for eqn in all_eqns(case.program.eqns)
            if any(getattr(a, "name", None) in varying for a in eqn.args)}


def _report(case: SymbolicCase) -> None:
    for name in sorted(symbolic_uses(case)):
        event(f"symbolic: {name}")
    event(f"symbolic variables: {len(case.variables)}")


def _varying_names(case: SymbolicCase) -> set[str]:
    """Top-level values (and block parameters) whose shape differs between assignments."""
    first, second = case.args[0][0], case.args[1][0]
    names = {v.name for v, x, y in zip(case.program.inputs, first, second) if x.shape != y.shape}
    for eqn in all_eqns(case.program.eqns):
        if names & {getattr(a, "name", None) for a in eqn.args}:
            names |= {v.name for v in eqn.outs}
            names |= {p.name for block in eqn.blocks for p in block.params}
    return names
