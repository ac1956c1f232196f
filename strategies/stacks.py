"""Transformations applied to a generated program, rendered as source.

Each function here returns the source of a small wrapper that applies one
SUT transformation to the generated `f` (or to `loss`, its scalarization),
together with the call that runs it.  Properties exec exactly this text, and
reproducers print exactly this text.  Names: inputs `x0..`, tangents `t0..`,
cotangents `u0..`, finite-difference directions `v0..`, loss weights `w0..`.
"""

from __future__ import annotations

from typing import NamedTuple

from strategies.ir import Program


class Wrapper(NamedTuple):
    source: str
    call: str


def names(prefix: str, count: int) -> list[str]:
    return [f"{prefix}{i}" for i in range(count)]


def _args(program: Program, prefix: str = "x") -> list[str]:
    return names(prefix, len(program.inputs))


def _tuple(items) -> str:
    return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"


def _cotangent(program: Program) -> str:
    """Cotangents have the structure of f's output: bare for one output."""
    us = names("u", len(program.outputs))
    return us[0] if len(us) == 1 else _tuple(us)


def _unpack(program: Program, xs: list[str]) -> str:
    """`y0 = f(x..)` for one output (f returns it bare), `y0, y1 = f(x..)` for two."""
    return f"{', '.join(names('y', len(program.outputs)))} = f({', '.join(xs)})"


def _def(name: str, params: list[str], body: list[str]) -> str:
    return f"def {name}({', '.join(params)}):\n" + "".join(f"    {line}\n" for line in body)


def value(program: Program) -> Wrapper:
    return Wrapper("", f"f({', '.join(_args(program))})")


def jvp(program: Program) -> Wrapper:
    xs, ts = _args(program), _args(program, "t")
    body = [f"return sut.jvp(f, {_tuple(xs)}, {_tuple(ts)})"]
    return Wrapper(_def("check", xs + ts, body), f"check({', '.join(xs + ts)})")


def loss(program: Program) -> str:
    """`loss = sum_k <w_k, f_k>`: the scalar function grad differentiates."""
    xs, ys, ws = _args(program), names("y", len(program.outputs)), names("w", len(program.outputs))
    terms = " + ".join(f"jnp.sum({y} * {w})" for y, w in zip(ys, ws))
    return _def("loss", xs, [_unpack(program, xs), f"return {terms}"])


def grad(program: Program, argnums) -> Wrapper:
    xs = _args(program)
    body = [f"return sut.grad(loss, argnums={argnums!r})({', '.join(xs)})"]
    return Wrapper(loss(program) + "\n\n" + _def("check", xs, body), f"check({', '.join(xs)})")


def grad_along(program: Program, argnums) -> Wrapper:
    """<grad loss, v> over the differentiated arguments (v0.. match argnums)."""
    xs = _args(program)
    nums = argnums if isinstance(argnums, tuple) else (argnums,)
    vs = names("v", len(nums))
    grads = f"sut.grad(loss, argnums={argnums!r})({', '.join(xs)})"
    body = [f"g = {grads}"]
    if not isinstance(argnums, tuple):
        body.append("g = (g,)")
    body.append(f"return sum(np.vdot(gi, vi) for gi, vi in zip(g, {_tuple(vs)}))")
    return Wrapper(loss(program) + "\n\n" + _def("along", xs + vs, body),
                   f"along({', '.join(xs + vs)})")


def vjp(program: Program) -> Wrapper:
    xs, us = _args(program), names("u", len(program.outputs))
    body = [f"out, pullback = sut.vjp(f, {', '.join(xs)})",
            f"return out, pullback({_cotangent(program)})"]
    return Wrapper(_def("check", xs + us, body), f"check({', '.join(xs + us)})")


def vjp_along(program: Program) -> Wrapper:
    """<pullback(u), v>, to compare with <u, J v> from finite differences."""
    xs, us, vs = _args(program), names("u", len(program.outputs)), _args(program, "v")
    body = [f"out, pullback = sut.vjp(f, {', '.join(xs)})",
            f"cotangents = pullback({_cotangent(program)})",
            f"return sum(np.vdot(c, v) for c, v in zip(cotangents, {_tuple(vs)}))"]
    return Wrapper(_def("along", xs + us + vs, body), f"along({', '.join(xs + us + vs)})")


def inner_product_sides(program: Program) -> tuple[Wrapper, Wrapper]:
    """<u, J t> through the SUT's jvp, and <J^T u, t> through its vjp."""
    xs, ts, us = _args(program), _args(program, "t"), names("u", len(program.outputs))
    params = xs + ts + us
    outs = "(tangent,)" if len(us) == 1 else "tangent"
    forward = _def("forward", params, [
        f"out, tangent = sut.jvp(f, {_tuple(xs)}, {_tuple(ts)})",
        f"return sum(np.vdot(u, jt) for u, jt in zip({_tuple(us)}, {outs}))",
    ])
    backward = _def("backward", params, [
        f"out, pullback = sut.vjp(f, {', '.join(xs)})",
        f"cotangents = pullback({_cotangent(program)})",
        f"return sum(np.vdot(c, t) for c, t in zip(cotangents, {_tuple(ts)}))",
    ])
    call = ", ".join(params)
    source = forward + "\n\n" + backward
    return Wrapper(source, f"forward({call})"), Wrapper(source, f"backward({call})")


def vmap(program: Program, in_axes, out_axes) -> Wrapper:
    xs = _args(program)
    body = [f"return sut.vmap(f, in_axes={in_axes!r}, out_axes={out_axes!r})({', '.join(xs)})"]
    return Wrapper(_def("check", xs, body), f"check({', '.join(xs)})")


def jit(program: Program) -> Wrapper:
    xs = _args(program)
    return Wrapper(_def("check", xs, [f"return sut.jit(f)({', '.join(xs)})"]),
                   f"check({', '.join(xs)})")


def jit_two_shapes(program: Program) -> Wrapper:
    """One jitted function called on inputs of two shapes (x.., then y..)."""
    xs, ys = _args(program), _args(program, "y")
    body = ["g = sut.jit(f)", f"return g({', '.join(xs)}), g({', '.join(ys)})"]
    return Wrapper(_def("check", xs + ys, body), f"check({', '.join(xs + ys)})")


def scaled(program: Program) -> str:
    """`scaled(x.., k)`: f's outputs times a Python float k (a static argument)."""
    xs, ys = _args(program), names("y", len(program.outputs))
    return _def("scaled", [*xs, "k"], [_unpack(program, xs),
                                       f"return {', '.join(f'{y} * k' for y in ys)}"])


def jit_static(program: Program, ks: tuple[float, float]) -> Wrapper:
    """One jitted `scaled` called with two values of its static argument."""
    xs = _args(program)
    static = len(xs)
    body = [f"g = sut.jit(scaled, static_argnums=({static},))",
            f"return g({', '.join(xs)}, {ks[0]!r}), g({', '.join(xs)}, {ks[1]!r})"]
    return Wrapper(scaled(program) + "\n\n" + _def("check", xs, body), f"check({', '.join(xs)})")


def eager_static(program: Program, ks: tuple[float, float]) -> Wrapper:
    xs = _args(program)
    body = [f"return scaled({', '.join(xs)}, {ks[0]!r}), scaled({', '.join(xs)}, {ks[1]!r})"]
    return Wrapper(scaled(program) + "\n\n" + _def("eager", xs, body), f"eager({', '.join(xs)})")
