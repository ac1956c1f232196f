"""A packed case rendered as source: `g` on packed arguments, and transformations of it.

`packing` writes `f`, then `g(a0, ...)`, which reads f's inputs out of the
drawn trees and returns f's outputs in another, and `pack`, which builds g's
arguments from x0..; `packed_wrapper` applies a transformation to `g`, and
`unpacked_wrapper` the same transformation to `f` itself, which is what the
packed result must equal leaf for leaf (`oracles/pytree_order.py`).
"""

from __future__ import annotations

from strategies import wrappers
from strategies.language.render import render_function
from strategies.language.transformations import GRAD, JIT, JVP, VJP, VMAP
from strategies.pytree_cases import PackedCase
from strategies.pytrees import build, reads


def unpacking(packed: PackedCase) -> tuple[str, str]:
    """g's parameters `a0, ...`, and the expressions reading f's inputs out of them."""
    params = wrappers.names("a", len(packed.arguments))
    read = {}
    for param, tree in zip(params, packed.arguments):
        read |= reads(tree, param)
    return ", ".join(params), ", ".join(read[i] for i in range(len(read)))


def packing(packed: PackedCase) -> str:
    """`f`, then `g` (packed arguments in, packed outputs out) and `pack` (x.. -> g's args)."""
    program = packed.case.program
    params, read = unpacking(packed)
    xs, ys = wrappers.names("x", len(program.inputs)), wrappers.names("y", len(program.outputs))
    args = [build(tree, lambda i: f"x{i}") for tree in packed.arguments]
    return "\n\n".join([
        render_function(program),
        f"def g({params}):\n    {', '.join(ys)} = f({read})\n"
        f"    return {build(packed.output, lambda j: f'y{j}')}\n",
        f"def pack({', '.join(xs)}):\n    return ({', '.join(args)},)\n",
    ])


def packed_wrapper(packed: PackedCase, transform: str, *, argnums=None, in_axes=None,
                   out_axes=None) -> wrappers.Wrapper:
    """`packed(x.., t.., u..)`: `transform` applied to g at the packed inputs."""
    program = packed.case.program
    xs = wrappers.names("x", len(program.inputs))
    ts = wrappers.names("t", len(program.inputs)) if transform == "jvp" else []
    us = wrappers.names("u", len(program.outputs)) if transform == "vjp" else []
    primals, tangents = f"pack({', '.join(xs)})", f"pack({', '.join(ts)})"
    body = {
        "value": [f"return g(*{primals})"],
        "jit": [f"return {JIT.call('g')}(*{primals})"],
        "jvp": [f"return {JVP.call('g', primals, tangents)}"],
        "vjp": [f"out, pullback = {VJP.call('g', f'*{primals}')}",
                f"return out, pullback({build(packed.output, lambda j: f'u{j}')})"],
        "grad": [f"return {GRAD.call('gloss', f'argnums={argnums!r}')}(*{primals})"],
        "vmap": [f"return {VMAP.call('g', f'in_axes={in_axes}', f'out_axes={out_axes!r}')}"
                 f"(*{primals})"],
    }[transform]
    source = "def packed(" + ", ".join(xs + ts + us) + "):\n" + "".join(
        f"    {line}\n" for line in body)
    if transform == "grad":
        params, read = unpacking(packed)
        gloss = f"def gloss({params}):\n    return loss({read})\n"
        source = wrappers.loss(program) + "\n\n" + gloss + "\n\n" + source
    return wrappers.Wrapper(source, f"packed({', '.join(xs + ts + us)})")


def unpacked_wrapper(program, transform: str, argnums=None) -> wrappers.Wrapper:
    """The same transformation of f itself (`strategies/wrappers.py`)."""
    if transform == "grad":
        return wrappers.grad(program, argnums)
    return {"value": wrappers.value, "jit": wrappers.jit, "jvp": wrappers.jvp,
            "vjp": wrappers.vjp}[transform](program)
