"""Render a `Program` to Python source that calls `sut.numpy` and Python operators.

The source is the single representation that runs: the properties `exec` it
with `sut` bound to the system under test, and the reproducer shows the user
the very same text.  Nothing is run that the user cannot read.
"""

from __future__ import annotations

import math
import struct

import numpy as np

from strategies.language.constructs import CONSTRUCTS
from strategies.language.ir import Block, Eqn, Var
from strategies.language.table import LANGUAGE

PRELUDE = "import numpy as np\n\njnp = sut.numpy\n"


def operand_source(operand) -> str:
    if isinstance(operand, Var):
        return operand.name
    return float_literal(operand) if isinstance(operand, float) else repr(operand)


def render_function(program, name: str = "f", *, hoist: bool = True) -> str:
    """`def f(x0, ...): ...` for a `program.Program`, one line per equation; one output
    is returned bare.

    With `hoist`, a construct's block that reads nothing of the scopes around
    it is defined once, before `f`, instead of inside it: `f` then passes the
    same function object to `sut.lax.cond` (say) on every call, and an SUT
    that caches traces by function, as JAX does, traces it once per shape, not
    once per call of `f`.  A block that captures outer values (a closure)
    stays where it is.  Block names (true0, body1, inner2, ...) are unique in
    a program and differ from the wrappers' names (f, g0.., check, loss, ...).
    """
    hoisted: list[list[str]] = []
    lines = _function(name, [v.name for v in program.inputs], program.eqns, program.outputs,
                      "", hoisted if hoist else None)
    return "\n\n".join("\n".join(block) for block in [*hoisted, lines]) + "\n"


def _function(name: str, params: list[str], eqns, outputs, indent: str,
              hoisted: list | None) -> list[str]:
    lines = [f"{indent}def {name}({', '.join(params)}):"]
    for eqn in eqns:
        lines += _equation(eqn, indent + "    ", hoisted)
    lines.append(f"{indent}    return {', '.join(out.name for out in outputs)}")
    return lines


def _block(block: Block, indent: str, hoisted: list | None) -> list[str]:
    """A def; a packed block takes its parameters as one tuple, `carry`."""
    params = [p.name for p in block.params]
    if block.packed:
        lines = _function(block.name, ["carry"], block.eqns, block.outputs, indent, hoisted)
        return [lines[0], f"{indent}    {', '.join(params)} = carry", *lines[1:]]
    return _function(block.name, params, block.eqns, block.outputs, indent, hoisted)


def free_names(block: Block) -> set[str]:
    """The variables `block` reads from the scopes around it."""
    bound = {p.name for p in block.params}
    read = {v.name for v in block.outputs}
    for eqn in block.eqns:
        read |= {a.name for a in eqn.args if isinstance(a, Var)}
        for inner in eqn.blocks:
            read |= free_names(inner)
        bound |= {v.name for v in eqn.outs}
    return read - bound


def _equation(eqn: Eqn, indent: str, hoisted: list | None) -> list[str]:
    """The lines of one equation: a construct's blocks, then the assignment."""
    spec = LANGUAGE[eqn.op]
    args = [operand_source(a) for a in eqn.args]
    targets = ", ".join(v.name for v in eqn.outs)
    if eqn.op in CONSTRUCTS:
        lines = []
        closed = hoisted is not None and not any(map(free_names, eqn.blocks))
        for block in eqn.blocks:
            if hoisted is not None and not free_names(block):
                hoisted.append(_block(block, "", hoisted))
            else:
                lines += _block(block, indent, hoisted)
        if spec.define:  # after the blocks it names, and hoisted with them
            definitions = spec.define(eqn.kwargs)
            if closed:
                hoisted.append(definitions)
            else:
                lines += [f"{indent}{line}" if line else "" for line in definitions]
        return [*lines, f"{indent}{targets} = {spec.expression(args[: spec.arity], eqn.kwargs)}"]
    return [f"{indent}{targets} = {spec.render(args, eqn.kwargs, eqn.syntax)}"]


# The bits of the NaN that `np.nan` and `-np.nan` write (the quiet NaN, either sign).
_NAMED_NANS = {struct.pack("<d", math.nan), struct.pack("<d", -math.nan)}


def float_literal(x: float) -> str:
    """Python source for the double `x`, bit for bit.

    `repr` round-trips every finite double, -0.0 and subnormals included,
    but writes `nan` and `inf`, which no script defines: those are written
    through NumPy's names, a NaN with its sign, and a NaN of any other
    payload from its eight bytes.
    """
    x = float(x)
    if math.isinf(x):
        return "np.inf" if x > 0 else "-np.inf"
    if not math.isnan(x):
        return repr(x)
    bits = struct.pack("<d", x)
    if bits in _NAMED_NANS:
        return "-np.nan" if math.copysign(1.0, x) < 0 else "np.nan"
    return f"np.frombuffer(bytes.fromhex({bits.hex()!r}))[0]"


def _nested(values) -> str:
    """`tolist()`'s nested lists of floats as source, each float by `float_literal`."""
    if isinstance(values, list):
        return "[" + ", ".join(map(_nested, values)) + "]"
    return float_literal(values)


def array_literal(value) -> str:
    """An exact float64 literal (`float_literal` for each element), float32's or int64's.

    A float32 array is written as its elements' float64 values, which float32
    holds exactly, with `dtype=np.float32`; an integer array (an integer
    argument) as its ints.  An empty array's nested list loses its shape
    (`[]` for (0, 2) and (2, 0) alike), so it is written as `np.zeros(shape)`.
    """
    array = np.asarray(value)
    if array.dtype.kind in "iu" and array.size:
        return f"np.array({array.astype(np.int64).tolist()!r})"
    dtype = ", dtype=np.float32" if array.dtype == np.float32 else ""
    array = array.astype(np.float64)
    if array.size == 0:
        return f"np.zeros({array.shape!r}{dtype})"
    return f"np.array({_nested(array.tolist())}{dtype})"


def render_module(*functions: str, constants: dict | None = None) -> str:
    """The source that is exec'ed: the prelude, exact constant literals, the functions."""
    literals = "".join(f"{k} = {array_literal(v)}\n" for k, v in (constants or {}).items())
    return "\n".join([PRELUDE, literals, *functions]).replace("\n\n\n", "\n\n")


def load(source: str, sut, name: str = "f"):
    """Exec `source` with `sut` bound; return the function called `name`."""
    namespace = {"sut": sut}
    exec(compile(source, "<jaxcheck program>", "exec"), namespace)
    return namespace[name]
