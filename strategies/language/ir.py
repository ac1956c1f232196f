"""The program IR: typed programs as plain data, with nested functions for control flow.

A program (`program.Program`: inputs, equations, outputs) is what the
generator grows, what `render` turns into source, and what the NumPy
evaluator and the finite-difference oracle run.  It is deliberately tiny:
named variables with shapes, equations in A-normal form (every operand a
variable or a float literal), and the outputs.  This module knows neither
the operation table nor the renderer: evaluation is handed the table
(`Run.language`), and a program prints itself through `render`.

Control flow, closures and nested transformations are equations too (see
`constructs.py`): their parameters hold `Block`s, the nested Python
functions they call.  A block may read variables of the scopes around it;
those captured variables are also listed among the equation's operands, so
liveness, renaming and evaluation treat a construct like any operation.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

import numpy as np


@dataclass(frozen=True)
class Var:
    name: str
    shape: tuple[int, ...]


@dataclass(frozen=True)
class Eqn:
    """`out, *extra = op(*args, **params)`, rendered in `syntax` ("call" or "operator")."""

    op: str
    args: tuple  # of Var | float
    params: tuple[tuple[str, object], ...]
    out: Var
    syntax: str
    extra: tuple[Var, ...] = ()

    @property
    def kwargs(self) -> dict:
        return dict(self.params)

    @property
    def outs(self) -> tuple[Var, ...]:
        return (self.out, *self.extra)

    @property
    def blocks(self) -> tuple[Block, ...]:
        return tuple(v for _, v in self.params if isinstance(v, Block))


@dataclass(frozen=True)
class Block:
    """A nested function `def name(*params): ...; return outputs` inside a program.

    A `packed` block takes its parameters as one tuple (a while_loop carry).
    """

    name: str
    params: tuple[Var, ...]
    eqns: tuple[Eqn, ...]
    outputs: tuple[Var, ...]
    packed: bool = False


def all_eqns(eqns):
    """Every equation, depth first, including those inside blocks."""
    for eqn in eqns:
        yield eqn
        for block in eqn.blocks:
            yield from all_eqns(block.eqns)


class OutOfDomain(Exception):
    """A checked evaluation met an operand outside its operation's domain margin."""


@dataclass(frozen=True)
class Run:
    """One evaluation: the table its equations are looked up in (`table.LANGUAGE`), and
    what it records (`switches`) and checks (`checked`).

    The table is an argument, not an import: the constructs in it evaluate
    their blocks through `call`, so the IR cannot import the table.
    """

    language: Mapping
    switches: list | None = None
    checked: bool = False


def operand_value(env: dict, operand):
    return np.float64(operand) if isinstance(operand, float) else env[operand.name]


def run(eqns, outputs, env: dict, how: Run) -> tuple:
    """Evaluate equations in `env` (updated in place); return the outputs' values."""
    for eqn in eqns:
        args = [operand_value(env, a) for a in eqn.args]
        results = how.language[eqn.op].run(args, eqn.kwargs, env, how)
        env.update(zip((v.name for v in eqn.outs), results))
    return tuple(env[out.name] for out in outputs)


def call(block: Block, args, env: dict, how: Run) -> tuple:
    """Call a block: its parameters bound to `args`, the enclosing `env` visible."""
    inner = dict(env)
    inner.update(zip((p.name for p in block.params), args))
    return run(block.eqns, block.outputs, inner, how)


def free_names(block: Block) -> set[str]:
    """Names a block reads from the scopes around it (its captures)."""
    defined = {p.name for p in block.params}
    free = set()
    for eqn in block.eqns:
        free |= {a.name for a in eqn.args if isinstance(a, Var)} - defined
        defined |= {v.name for v in eqn.outs}
    free |= {v.name for v in block.outputs} - defined
    return free


def rename(eqn: Eqn, names: dict[str, Var]) -> Eqn:
    """`eqn` with every variable in `names` replaced, inside its blocks too, but where a
    block binds the name itself: every loop body calls its counter `i` or `count`, so
    a loop inside a loop body shadows the outer counter, which must stay its own."""

    def sub(operand, table=names):
        return table.get(operand.name, operand) if isinstance(operand, Var) else operand

    def block(b: Block) -> Block:
        bound = {p.name for p in b.params} | {v.name for e in b.eqns for v in e.outs}
        free = {name: new for name, new in names.items() if name not in bound}
        return replace(b, eqns=tuple(rename(e, free) for e in b.eqns),
                       outputs=tuple(sub(o, free) for o in b.outputs))

    params = tuple((k, block(v) if isinstance(v, Block) else v) for k, v in eqn.params)
    return replace(eqn, args=tuple(map(sub, eqn.args)), params=params, out=sub(eqn.out),
                   extra=tuple(map(sub, eqn.extra)))


def prune(unit, prefix: str = "v"):
    """`unit` (a Program or Block) without equations no output depends on.

    The remaining results are numbered `prefix`0, 1, ... again, so a shrunk
    program reads as if it had been written that way.
    """
    live = {out.name for out in unit.outputs}
    kept = []
    for eqn in reversed(unit.eqns):
        if any(v.name in live for v in eqn.outs):
            kept.append(eqn)
            live.update(a.name for a in eqn.args if isinstance(a, Var))
    kept.reverse()
    names: dict[str, Var] = {}
    for v in (v for eqn in kept for v in eqn.outs):
        names[v.name] = Var(f"{prefix}{len(names)}", v.shape)
    return replace(unit, eqns=tuple(rename(e, names) for e in kept),
                   outputs=tuple(names.get(o.name, o) for o in unit.outputs))
