"""Transformations applied to a generated program, rendered as source.

Each function here returns the source of a small wrapper that applies one
SUT transformation to the generated `f` (or to `loss`, its scalarization),
together with the call that runs it; each transformation renders as its row
of `transformations.py` says.  Properties exec exactly this text, and
reproducers print exactly this text.  Names: inputs `x0..`, tangents `t0..`,
cotangents `u0..`, finite-difference directions `v0..`, loss weights `w0..`.
"""

from __future__ import annotations

from typing import NamedTuple

from strategies.language.transformations import GRAD, JIT, JVP, VJP, VMAP
from strategies.program import Program


class Wrapper(NamedTuple):
    source: str
    call: str


def names(prefix: str, count: int) -> list[str]:
    return [f"{prefix}{i}" for i in range(count)]


def named(prefix: str, arrays) -> dict:
    """`arrays` under the names the wrappers give them: {prefix0: a0, prefix1: a1, ..}."""
    return dict(zip(names(prefix, len(arrays)), arrays))


def argnums_tuple(argnums) -> tuple[int, ...]:
    """`argnums` as a tuple of positions: grad takes an int or a tuple."""
    return argnums if isinstance(argnums, tuple) else (argnums,)


def _args(program: Program, prefix: str = "x") -> list[str]:
    return names(prefix, len(program.inputs))


def tuple_of(items) -> str:
    """Source of a tuple of the expressions `items` (a 1-tuple keeps its comma)."""
    return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"


def _cotangent(program: Program) -> str:
    """Cotangents have the structure of f's output: bare for one output."""
    us = names("u", len(program.outputs))
    return us[0] if len(us) == 1 else tuple_of(us)


def _unpack(program: Program, xs: list[str]) -> str:
    """`y0 = f(x..)` for one output (f returns it bare), `y0, y1 = f(x..)` for two."""
    return f"{', '.join(names('y', len(program.outputs)))} = f({', '.join(xs)})"


def define(name: str, params: list[str], body: list[str]) -> str:
    """Source of `def name(params):` with `body` one statement per line."""
    return f"def {name}({', '.join(params)}):\n" + "".join(f"    {line}\n" for line in body)


def value(program: Program) -> Wrapper:
    return Wrapper("", f"f({', '.join(_args(program))})")


def jvp(program: Program) -> Wrapper:
    xs, ts = _args(program), _args(program, "t")
    body = [f"return {JVP.call('f', tuple_of(xs), tuple_of(ts))}"]
    return Wrapper(define("check", xs + ts, body), f"check({', '.join(xs + ts)})")


def loss(program: Program) -> str:
    """`loss = sum_k <w_k, f_k>`: the scalar function grad differentiates."""
    xs, ys, ws = _args(program), names("y", len(program.outputs)), names("w", len(program.outputs))
    # jnp.multiply, not `*`: a NumPy array (the weight) may meet an SUT value only
    # as an argument of the SUT's own functions (torch refuses tensor * ndarray
    # under grad: docs/findings/torch_func.md)
    terms = " + ".join(f"jnp.sum(jnp.multiply({y}, {w}))" for y, w in zip(ys, ws))
    return define("loss", xs, [_unpack(program, xs), f"return {terms}"])


def grad(program: Program, argnums) -> Wrapper:
    xs = _args(program)
    body = [f"return {GRAD.call('loss', f'argnums={argnums!r}')}({', '.join(xs)})"]
    return Wrapper(loss(program) + "\n\n" + define("check", xs, body), f"check({', '.join(xs)})")


def grad_twice(program: Program) -> Wrapper:
    """One grad of the loss by every input, made once and called at two input sets
    (x.., then y..): each call's gradients, flat."""
    xs, ys = _args(program), _args(program, "y")
    every = tuple(range(len(xs)))
    body = [f"g = {GRAD.call('loss', f'argnums={every!r}')}",
            f"return (*g({', '.join(xs)}), *g({', '.join(ys)}))"]
    return Wrapper(loss(program) + "\n\n" + define("check", xs + ys, body),
                   f"check({', '.join(xs + ys)})")


def grad_along(program: Program, argnums) -> Wrapper:
    """<grad loss, v> over the differentiated arguments (v0.. match argnums), then
    grad loss itself: one SUT call carries what finite differences judge (the
    first) and what the reference judges (all of it)."""
    xs = _args(program)
    vs = names("v", len(argnums_tuple(argnums)))
    grads = f"{GRAD.call('loss', f'argnums={argnums!r}')}({', '.join(xs)})"
    body = [f"g = {grads}"]
    if not isinstance(argnums, tuple):
        body.append("g = (g,)")
    body.append(f"return sum(np.vdot(gi, vi) for gi, vi in zip(g, {tuple_of(vs)})), *g")
    return Wrapper(loss(program) + "\n\n" + define("along", xs + vs, body),
                   f"along({', '.join(xs + vs)})")


def vjp(program: Program) -> Wrapper:
    xs, us = _args(program), names("u", len(program.outputs))
    body = [f"out, pullback = {VJP.call('f', *xs)}",
            f"return out, pullback({_cotangent(program)})"]
    return Wrapper(define("check", xs + us, body), f"check({', '.join(xs + us)})")


def vjp_along(program: Program) -> Wrapper:
    """<pullback(u), v>, to compare with <u, J v> from finite differences, then the
    primal output and the cotangents themselves, for the reference: one SUT call."""
    xs, us, vs = _args(program), names("u", len(program.outputs)), _args(program, "v")
    body = [f"out, pullback = {VJP.call('f', *xs)}",
            f"cotangents = pullback({_cotangent(program)})",
            f"return sum(np.vdot(c, v) for c, v in zip(cotangents, {tuple_of(vs)})), out, "
            "cotangents"]
    return Wrapper(define("along", xs + us + vs, body), f"along({', '.join(xs + us + vs)})")


def inner_product_sides(program: Program) -> tuple[Wrapper, Wrapper]:
    """<u, J t> through the SUT's jvp, and <J^T u, t> through its vjp."""
    xs, ts, us = _args(program), _args(program, "t"), names("u", len(program.outputs))
    params = xs + ts + us
    outs = "(tangent,)" if len(us) == 1 else "tangent"
    forward = define("forward", params, [
        f"out, tangent = {JVP.call('f', tuple_of(xs), tuple_of(ts))}",
        f"return sum(np.vdot(u, jt) for u, jt in zip({tuple_of(us)}, {outs}))",
    ])
    backward = define("backward", params, [
        f"out, pullback = {VJP.call('f', *xs)}",
        f"cotangents = pullback({_cotangent(program)})",
        f"return sum(np.vdot(c, t) for c, t in zip(cotangents, {tuple_of(ts)}))",
    ])
    call = ", ".join(params)
    source = forward + "\n\n" + backward
    return Wrapper(source, f"forward({call})"), Wrapper(source, f"backward({call})")


def vmap(program: Program, in_axes, out_axes) -> Wrapper:
    xs = _args(program)
    batched = VMAP.call("f", f"in_axes={in_axes!r}", f"out_axes={out_axes!r}")
    body = [f"return {batched}({', '.join(xs)})"]
    return Wrapper(define("check", xs, body), f"check({', '.join(xs)})")


def jit(program: Program) -> Wrapper:
    xs = _args(program)
    return Wrapper(define("check", xs, [f"return {JIT.call('f')}({', '.join(xs)})"]),
                   f"check({', '.join(xs)})")


def jit_twice(program: Program) -> Wrapper:
    """One jitted function called on two sets of inputs (x.., then y..): of two
    shapes, or of two dtypes, where it must compile again."""
    xs, ys = _args(program), _args(program, "y")
    body = [f"g = {JIT.call('f')}", f"return g({', '.join(xs)}), g({', '.join(ys)})"]
    return Wrapper(define("check", xs + ys, body), f"check({', '.join(xs + ys)})")


def scaled(program: Program) -> str:
    """`scaled(x.., k)`: f's outputs times a Python float k (a static argument)."""
    xs, ys = _args(program), names("y", len(program.outputs))
    return define("scaled", [*xs, "k"], [_unpack(program, xs),
                                         f"return {', '.join(f'{y} * k' for y in ys)}"])


def jit_static(program: Program, ks: tuple[float, float]) -> Wrapper:
    """One jitted `scaled` called with two values of its static argument."""
    xs = _args(program)
    static = len(xs)
    body = [f"g = {JIT.call('scaled', f'static_argnums=({static},)')}",
            f"return g({', '.join(xs)}, {ks[0]!r}), g({', '.join(xs)}, {ks[1]!r})"]
    return Wrapper(scaled(program) + "\n\n" + define("check", xs, body), f"check({', '.join(xs)})")


def eager_static(program: Program, ks: tuple[float, float]) -> Wrapper:
    xs = _args(program)
    body = [f"return scaled({', '.join(xs)}, {ks[0]!r}), scaled({', '.join(xs)}, {ks[1]!r})"]
    return Wrapper(scaled(program) + "\n\n" + define("eager", xs, body), f"eager({', '.join(xs)})")


# ----------------------------------------------------------------------------- identities
# Pairs of wrappers that compute one quantity two ways on the SUT
# (`tests/test_identities.py`).  Tangents t0.. and s0.., Hessian
# directions p0.. and q0.., scalars `a`, `b` and loss weights w0.. are inputs
# or module constants, as the names say.

def _leaves(program: Program, value: str) -> str:
    """`value` (f's output structure) as a tuple: wrapped when f has one output."""
    return f"({value},)" if len(program.outputs) == 1 else value


def jvp_linearity_sides(program: Program) -> tuple[Wrapper, Wrapper]:
    """jvp(f, x, a t + b s)[1], and a jvp(f, x, t)[1] + b jvp(f, x, s)[1]."""
    xs, ts, ss = _args(program), _args(program, "t"), _args(program, "s")
    params = ", ".join(xs + ts + ss)
    mixed = tuple_of([f"a * {t} + b * {s}" for t, s in zip(ts, ss)])
    combined = define("combined", xs + ts + ss, [
        f"return {JVP.call('f', tuple_of(xs), mixed)}[1]"])
    separately = define("separately", xs + ts + ss, [
        f"along_t = {_leaves(program, JVP.call('f', tuple_of(xs), tuple_of(ts)) + '[1]')}",
        f"along_s = {_leaves(program, JVP.call('f', tuple_of(xs), tuple_of(ss)) + '[1]')}",
        # in NumPy: the contract promises outputs that np.asarray converts, not
        # arithmetic between them and NumPy arrays (torch refuses ndarray * tensor)
        "return tuple(a * np.asarray(jt) + b * np.asarray(js) for jt, js in zip(along_t, along_s))",
    ])
    source = combined + "\n\n" + separately
    return Wrapper(source, f"combined({params})"), Wrapper(source, f"separately({params})")


def hessian_sides(program: Program) -> tuple[Wrapper, Wrapper]:
    """<p, H q> and <q, H p> for the Hessian H of loss, each by jvp of grad."""
    xs, ps, qs = _args(program), _args(program, "p"), _args(program, "q")
    everything = tuple(range(len(xs)))
    hvp = define("hvp", xs + names("d", len(xs)), [
        f"grad_loss = {GRAD.call('loss', f'argnums={everything!r}')}",
        f"return {JVP.call('grad_loss', tuple_of(xs), tuple_of(names('d', len(xs))))}[1]",
    ])

    def side(name, left, right):
        return define(name, xs + ps + qs, [
            f"return sum(np.vdot(v, hv) for v, hv in zip({tuple_of(left)}, "
            f"hvp({', '.join(xs + right)})))"])

    source = "\n\n".join([loss(program), hvp, side("p_h_q", ps, qs), side("q_h_p", qs, ps)])
    call = ", ".join(xs + ps + qs)
    return Wrapper(source, f"p_h_q({call})"), Wrapper(source, f"q_h_p({call})")


def _stacked(value: str, tupled: bool, axis: int) -> str:
    """Stack a list of per-example results on `axis` (per leaf when they are tuples)."""
    if tupled:
        return f"tuple(np.stack(leaf, axis={axis}) for leaf in zip(*{value}))"
    return f"np.stack({value}, axis={axis})"


def vmap_grad_sides(program: Program, argnums, in_axes, out_axes, size: int):
    """vmap(grad(loss)) on batched inputs, and grad(loss) on each example, stacked."""
    xs = _args(program)
    axes = in_axes if isinstance(in_axes, tuple) else (in_axes,) * len(xs)
    grad_loss = GRAD.call("loss", f"argnums={argnums!r}")
    batched = define("batched", xs, [
        f"return {VMAP.call(grad_loss, f'in_axes={in_axes!r}', f'out_axes={out_axes!r}')}"
        f"({', '.join(xs)})"])
    sliced = ", ".join(x if a is None else f"np.take({x}, i, {a})" for x, a in zip(xs, axes))
    looped = define("looped", xs, [
        f"grads = [{grad_loss}({sliced}) for i in range({size})]",
        f"return {_stacked('grads', isinstance(argnums, tuple), out_axes)}",
    ])
    source = "\n\n".join([loss(program), batched, looped])
    call = ", ".join(xs)
    return Wrapper(source, f"batched({call})"), Wrapper(source, f"looped({call})")


def integer_argument_sides(program: Program) -> tuple[Wrapper, Wrapper]:
    """vmap over an integer argument `n` of jit(grad) of `n * loss`, its argnums every
    float input but not `n`; and n times grad(loss) for each n, stacked."""
    xs = _args(program)
    floats = tuple(range(len(xs)))
    scaled = define("scaled_loss", [*xs, "n"], [f"return jnp.multiply(loss({', '.join(xs)}), n)"])
    grad_scaled = JIT.call(GRAD.call("scaled_loss", f"argnums={floats!r}"))
    in_axes = (None,) * len(xs) + (0,)
    batched = define("batched", [*xs, "ns"], [
        f"return {VMAP.call(grad_scaled, f'in_axes={in_axes!r}')}({', '.join(xs)}, ns)"])
    looped = define("looped", [*xs, "ns"], [
        f"g = {GRAD.call('loss', f'argnums={floats!r}')}({', '.join(xs)})",
        "grads = [tuple(jnp.multiply(gi, n) for gi in g) for n in ns]",
        f"return {_stacked('grads', True, 0)}",
    ])
    source = "\n\n".join([loss(program), scaled, batched, looped])
    call = ", ".join([*xs, "ns"])
    return Wrapper(source, f"batched({call})"), Wrapper(source, f"looped({call})")


def grad_vjp_sides(program: Program, argnums) -> tuple[Wrapper, Wrapper]:
    """grad(loss, argnums)(x), and the vjp of loss at x pulled back from 1.0."""
    xs = _args(program)
    picked = (tuple_of([f"cotangents[{i}]" for i in argnums]) if isinstance(argnums, tuple)
              else f"cotangents[{argnums}]")
    by_grad = define("by_grad", xs,
                     [f"return {GRAD.call('loss', f'argnums={argnums!r}')}({', '.join(xs)})"])
    by_vjp = define("by_vjp", xs, [f"out, pullback = {VJP.call('loss', *xs)}",
                                   "cotangents = pullback(1.0)",
                                   f"return {picked}"])
    source = "\n\n".join([loss(program), by_grad, by_vjp])
    call = ", ".join(xs)
    return Wrapper(source, f"by_grad({call})"), Wrapper(source, f"by_vjp({call})")


def _transformed(program: Program, transform: str, fn: str, options: dict) -> tuple[list, list]:
    """The parameters and body lines of `transform` applied to the function `fn`."""
    xs = _args(program)
    if transform == "jvp":
        ts = _args(program, "t")
        return xs + ts, [f"return {JVP.call(fn, tuple_of(xs), tuple_of(ts))}"]
    if transform == "grad":
        applied = GRAD.call(fn, f"argnums={options['argnums']!r}")
        return xs, [f"return {applied}({', '.join(xs)})"]
    if transform == "vjp":
        us = names("u", len(program.outputs))
        return xs + us, [f"out, pullback = {VJP.call(fn, *xs)}",
                         f"return out, pullback({_cotangent(program)})"]
    applied = VMAP.call(fn, f"in_axes={options['in_axes']!r}", f"out_axes={options['out_axes']!r}")
    return xs, [f"return {applied}({', '.join(xs)})"]


def jit_commute_sides(program: Program, transform: str, **options) -> tuple[Wrapper, Wrapper]:
    """jit(T(f)) and T(jit(f)) for T one of jvp, grad (of loss), vjp, vmap."""
    fn = "loss" if transform == "grad" else "f"
    params, body = _transformed(program, transform, fn, options)
    _, jitted_body = _transformed(program, transform, JIT.call(fn), options)
    parts = [loss(program)] if transform == "grad" else []
    parts += [define("transformed", params, body),
              define("transformed_of_jit", params, jitted_body)]
    source = "\n\n".join(parts)
    call = ", ".join(params)
    return (Wrapper(source, f"{JIT.call('transformed')}({call})"),
            Wrapper(source, f"transformed_of_jit({call})"))
