"""The program IR: straight-line typed programs as plain data.

A `Program` is what the generator grows, what `render` turns into source,
and what the NumPy evaluator and the finite-difference oracle run.  It is
deliberately tiny: named variables with shapes, equations in A-normal form
(every operand a variable or a float literal), and the outputs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from strategies.opspec import OPS


@dataclass(frozen=True)
class Var:
    name: str
    shape: tuple[int, ...]


@dataclass(frozen=True)
class Eqn:
    """`out = op(*args, **params)`, rendered in `syntax` ("call" or "operator")."""

    op: str
    args: tuple  # of Var | float
    params: tuple[tuple[str, object], ...]
    out: Var
    syntax: str

    @property
    def kwargs(self) -> dict:
        return dict(self.params)


@dataclass(frozen=True)
class Program:
    inputs: tuple[Var, ...]
    eqns: tuple[Eqn, ...]
    outputs: tuple[Var, ...]

    def __repr__(self) -> str:
        from strategies.render import render_function  # render imports this module

        return "Program:\n" + render_function(self)


# Operations whose result switches between two smooth pieces; the
# finite-difference oracle checks that no perturbed evaluation switches.
KINKED = {
    "where": lambda a, b, c, d, cmp: np.greater(a, b) if cmp == "greater" else np.less(a, b),
    "maximum": lambda x, y: np.greater(x, y),
}


def evaluate(program: Program, inputs, *, switches: list | None = None) -> tuple:
    """Run `program` in NumPy float64; return its outputs as a tuple of arrays.

    When `switches` is a list, the boolean pattern of every kinked operation
    is appended to it, so a caller can tell whether two evaluations took the
    same smooth piece.
    """
    env = {var.name: np.asarray(x, dtype=np.float64) for var, x in zip(program.inputs, inputs)}

    def value(operand):
        return np.float64(operand) if isinstance(operand, float) else env[operand.name]

    for eqn in program.eqns:
        args = [value(a) for a in eqn.args]
        env[eqn.out.name] = OPS[eqn.op].evaluate(args, eqn.kwargs)
        if switches is not None and eqn.op in KINKED:
            switches.append(KINKED[eqn.op](*args, **eqn.kwargs))
    return tuple(env[out.name] for out in program.outputs)
