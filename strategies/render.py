"""Render a `Program` to Python source that calls `sut.numpy` and Python operators.

The source is the single representation that runs: the properties `exec` it
with `sut` bound to the system under test, and the reproducer shows the user
the very same text.  Nothing is run that the user cannot read.
"""

from __future__ import annotations

import numpy as np

from strategies.ir import Program, Var
from strategies.opspec import OPS

PRELUDE = "import numpy as np\n\njnp = sut.numpy\n"


def operand_source(operand) -> str:
    return operand.name if isinstance(operand, Var) else repr(operand)


def render_function(program: Program, name: str = "f") -> str:
    """`def f(x0, ...): ...` with one line per equation; one output is returned bare."""
    params = ", ".join(var.name for var in program.inputs)
    lines = [f"def {name}({params}):"]
    for eqn in program.eqns:
        args = [operand_source(a) for a in eqn.args]
        lines.append(f"    {eqn.out.name} = {OPS[eqn.op].render(args, eqn.kwargs, eqn.syntax)}")
    lines.append(f"    return {', '.join(out.name for out in program.outputs)}")
    return "\n".join(lines) + "\n"


def array_literal(value) -> str:
    """An exact float64 literal: Python's float repr round-trips every double."""
    return f"np.array({np.asarray(value, dtype=np.float64).tolist()!r})"


def render_module(*functions: str, constants: dict | None = None) -> str:
    """The source that is exec'ed: the prelude, exact constant literals, the functions."""
    literals = "".join(f"{k} = {array_literal(v)}\n" for k, v in (constants or {}).items())
    return "\n".join([PRELUDE, literals, *functions]).replace("\n\n\n", "\n\n")


def load(source: str, sut, name: str = "f"):
    """Exec `source` with `sut` bound; return the function called `name`."""
    namespace = {"sut": sut}
    exec(compile(source, "<jaxcheck program>", "exec"), namespace)
    return namespace[name]
