"""Transformation stacks as drawn values: up to three layers around a generated program.

A stack is a tuple of `Applied` layers, innermost first.  Stage 0, `g0`, is
the generated `f` returning a tuple; stage k applies layer k to stage k-1
through the SUT's own API, so `jit(vmap(jvp(f)))` renders as

    def g1(x0, t1_0):                      # jvp: inputs, then tangents
        out, tangent = sut.jvp(g0, (x0,), (t1_0,))
        return (*out, *tangent)

    g2 = sut.vmap(g1, in_axes=(0, None), out_axes=0)
    g3 = sut.jit(g2)

Every stage takes flat positional arrays and returns a flat tuple, so any
layer can sit on any other.  Layers only append inputs (tangents `t{k}_i`,
cotangents `u{k}_j`), so input i of every stage is the program's `x{i}`.

`LAYERS` has one row per transformation (`transformations.py`): how it
changes the signature, how it renders around the inner stage, what its
per-layer check compares, and its NumPy meaning.  The meaning of a stage,
projected on weights `c` over its outputs, is a sum of `Term`s: derivatives
of order <= 2 of `<w(eps), f(x(eps))>` for NumPy-evaluated `f` at inputs
that move multilinearly with small parameters `eps` (one per derivative
layer):

    jit      <c, g(z)>                                   (the inner meaning)
    vmap     sum_i <c_i, g(z_i)>                          (a loop over the batch)
    jvp      <c1, g(z)> + d/de <c2, g(z + e t)>           (linearize: the same)
    vjp      <c1, g(z)> + d/de <u, g(z + e c2)>           (<c2, J^T u> = <u, J c2>)
    grad     d/de <w, g(z + e c)>                         (c on the differentiated inputs)
    jacfwd   sum_b d/de <c[.., b], g(z + e unit_b)>       (b over the elements of the
                                                           differentiated inputs; jacrev too)
    hessian  jacfwd of jacrev, with two parameters

`oracles.finite_diff.mixed` evaluates each term with central differences,
so stacks hold at most `MAX_DERIVATIVES` = 2 orders of derivatives (a
hessian layer takes both).  A Jacobian's meaning has a term per element of
the input it differentiates, so the derived transformations (`linearize`,
`jacfwd`, `jacrev`, `hessian`) are drawn by `tests/test_jacobians.py` over
programs with small inputs (`JACOBIAN_PROGRAMS`), each stack featuring one
of them; `tests/test_stacks.py` draws the others over any program.

Examples shrink towards one `jit` layer over the simplest program: fewer
layers, then earlier rows of `ORDER`, then the first option of every axis.
The property is `tests/test_stacks.py`; `tests/meta/test_broken_suts.py`
shows broken SUTs it catches.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import permutations
from math import prod
from typing import NamedTuple

import numpy as np
from hypothesis import event
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from strategies.cases import program_cases
from strategies.language.inputs import directions
from strategies.language.operands import choose, index, pick
from strategies.language.shapes import batch_axes
from strategies.language.shapes import input_shapes as shapes_of_inputs
from strategies.language.transformations import (
    GRAD,
    HESSIAN,
    JACFWD,
    JACREV,
    JIT,
    JVP,
    LINEARIZE,
    TRANSFORMATIONS,
    VJP,
    VMAP,
    Transformation,
)
from strategies.language.vocabulary import Vocabulary
from strategies.program import ProgramCase
from strategies.wrappers import argnums_tuple, define, names, tuple_of

# Layer names, simplest first: shrinking moves a layer towards `jit`.  Every
# transformation of `transformations.py`, in this order of their own
# (tests/meta/test_tables.py holds it to the table).
ORDER = ("jit", "vmap", "jvp", "grad", "vjp", "linearize", "jacfwd", "jacrev", "hessian")

# The layers tests/test_stacks.py draws over programs of any size: those whose
# meaning is one derivative per derivative layer.
CORE = tuple(name for name in ORDER if not TRANSFORMATIONS[name].derived)

# Finite differences of order 1 and 2 are trustworthy (`oracles/tolerance.py`);
# a third derivative layer would need third differences, so none is drawn.
MAX_DERIVATIVES = 2

# Programs under a stack have at most this many equations: three layers
# multiply their cost.
STACK_PROGRAMS = dict(max_eqns=10)

# Programs under a derived transformation: two inputs, each of rank 1 or 2 and
# sides 2 or 3, so a Jacobian's meaning has at most 9 terms per input (27 under
# a vmap of size 3).  Two inputs, so that a tuple `argnums` has two to nest;
# no scalar input and no side of 1, on which a Jacobian read in the wrong
# layout is still right (a scalar's Jacobian is a jvp, which other properties
# check).  Under a hessian, whose meaning has a second difference per pair of
# input elements, inputs have rank 1: at most 36 pairs where rank 2 had 324,
# and a hessian bug's shrink takes seconds where it took 13 minutes
# (docs/performance.md, "Jacobians and linearize").
JACOBIAN_PROGRAMS = dict(max_eqns=8)
JACOBIAN_INPUTS = dict(count=2, min_rank=1, max_rank=2, min_dim=2, max_dim=3)
HESSIAN_INPUTS = JACOBIAN_INPUTS | dict(max_rank=1)

# Programs valid at more input sets cost more to grow; batch positions beyond
# this many reuse input sets (`_variant`), each of which is valid.
MAX_VARIANTS = 8

IDENTITY_CHECK = "identity"  # the stage equals its inner stage on the SUT, eagerly
LOOP_CHECK = "loop"          # the stage equals a loop over its inner stage on the SUT
MEANING_CHECK = "meaning"    # <c, stage> equals the NumPy meaning, by finite differences


class Signature(NamedTuple):
    """A stage's parameter names, their shapes, and the shapes of the tuple it returns."""

    names: tuple[str, ...]
    inputs: tuple[tuple[int, ...], ...]
    outputs: tuple[tuple[int, ...], ...]


class Applied(NamedTuple):
    """One drawn layer: a row of `LAYERS` and its parameters (vmap and grad have some)."""

    name: str
    in_axes: tuple = ()        # vmap: None or an axis, per input of the inner stage
    as_int: bool = False       # vmap: in_axes rendered as one int (all entries equal)
    out_axes: int = 0          # vmap
    size: int = 0              # vmap: batch size
    argnums: int | tuple = 0   # grad, jacfwd, jacrev, hessian


class StackCase(NamedTuple):
    """A program, a stack over it, and every value the stack and its checks take.

    `inputs` are the outermost stage's arguments by name; `constants` the
    loss weights `w{k}_j` of grad layers; `probes[k]` the weights `c0..` on
    stage k's outputs for its meaning check; `again`, if drawn, the outermost
    stage's arguments at a second point (`stack_cases(again=True)`).
    """

    case: ProgramCase
    layers: tuple[Applied, ...]
    inputs: dict[str, np.ndarray]
    constants: dict[str, np.ndarray]
    probes: dict[int, tuple[np.ndarray, ...]]
    again: dict[str, np.ndarray] | None = None

    @property
    def signatures(self) -> tuple[Signature, ...]:
        return signatures(self.case, self.layers)


# ----------------------------------------------------------------------------- meaning

@dataclass(frozen=True)
class Moving:
    """An array that moves with small parameters: sum of coefficient * prod(eps[e] for e in m)."""

    parts: tuple[tuple[frozenset, np.ndarray], ...]

    @classmethod
    def fixed(cls, value) -> Moving:
        return cls(((frozenset(), np.asarray(value, dtype=np.float64)),))

    def plus(self, eps: int, direction: Moving) -> Moving:
        """self + eps * direction."""
        return Moving(self.parts + tuple((m | {eps}, c) for m, c in direction.parts))

    def take(self, i: int, axis: int) -> Moving:
        return Moving(tuple((m, np.take(c, i, axis=axis)) for m, c in self.parts))

    def element(self, b: int, trailing: tuple[int, ...]) -> Moving:
        """Each coefficient at flat position `b` of its last `len(trailing)` axes,
        which have the shape `trailing`."""
        n = len(trailing)
        return Moving(tuple((m, c.reshape(*c.shape[:c.ndim - n], -1)[..., b])
                            for m, c in self.parts))

    def at(self, eps: dict) -> np.ndarray:
        return sum(c * prod(eps.get(e, 0.0) for e in m) for m, c in self.parts)

    @property
    def eps(self) -> frozenset:
        return frozenset().union(*(m for m, _ in self.parts))


class Term(NamedTuple):
    """d^k / d eps[order] of <weights(eps), f(inputs(eps))> at eps = 0, k = len(order)."""

    order: tuple[int, ...]
    inputs: tuple[Moving, ...]
    weights: tuple[Moving, ...]

    def point(self, eps: dict) -> list[np.ndarray]:
        return [x.at(eps) for x in self.inputs]

    def weights_at(self, eps: dict) -> list[np.ndarray]:
        return [w.at(eps) for w in self.weights]


def _derived(eps: int, terms: list[Term]) -> list[Term]:
    """The terms differentiated in `eps`; a term that does not move with it is exactly 0."""
    moving = [t for t in terms if any(eps in m.eps for m in t.inputs + t.weights)]
    return [t._replace(order=(*t.order, eps)) for t in moving]


def _jit_meaning(layer, level, sig, inner, inputs, weights, constants):
    return inner(inputs, weights)


def _vmap_meaning(layer, level, sig, inner, inputs, weights, constants):
    terms = []
    for i in range(layer.size):
        sliced = [x if a is None else x.take(i, a) for x, a in zip(inputs, layer.in_axes)]
        terms += inner(sliced, [w.take(i, layer.out_axes) for w in weights])
    return terms


def _jvp_meaning(layer, level, sig, inner, inputs, weights, constants):
    n, m = len(sig.inputs), len(sig.outputs)
    z, t = inputs[:n], inputs[n:]
    moved = [x.plus(level, d) for x, d in zip(z, t)]
    return inner(z, weights[:m]) + _derived(level, inner(moved, weights[m:]))


def _vjp_meaning(layer, level, sig, inner, inputs, weights, constants):
    n, m = len(sig.inputs), len(sig.outputs)
    z, u = inputs[:n], inputs[n:]
    moved = [x.plus(level, d) for x, d in zip(z, weights[m:])]
    return inner(z, weights[:m]) + _derived(level, inner(moved, u))


def _grad_meaning(layer, level, sig, inner, inputs, weights, constants):
    chosen = argnums_tuple(layer.argnums)
    moved = [x.plus(level, weights[chosen.index(i)]) if i in chosen else x
             for i, x in enumerate(inputs)]
    loss = [Moving.fixed(constants[f"w{level}_{j}"]) for j in range(len(sig.outputs))]
    return _derived(level, inner(moved, loss))


def _unit(shape, b: int) -> Moving:
    unit = np.zeros(prod(shape))
    unit[b] = 1.0
    return Moving.fixed(unit.reshape(shape))


def _jacobian_terms(eps, argnums, sig, inner, inputs, weights) -> list[Term]:
    """<weights, the Jacobians of the stage `inner` by the `argnums` inputs>: for each
    element b of each differentiated input, the derivative along its unit
    vector, weighted by the weights' slice at b."""
    chosen = argnums_tuple(argnums)
    terms = []
    for position, i in enumerate(chosen):
        shape = sig.inputs[i]
        for b in range(prod(shape)):
            moved = [x.plus(eps, _unit(shape, b)) if k == i else x for k, x in enumerate(inputs)]
            sliced = [weights[j * len(chosen) + position].element(b, shape)
                      for j in range(len(sig.outputs))]
            terms += _derived(eps, inner(moved, sliced))
    return terms


def _jacobian_meaning(layer, level, sig, inner, inputs, weights, constants):
    return _jacobian_terms(level, layer.argnums, sig, inner, inputs, weights)


def _hessian_meaning(layer, level, sig, inner, inputs, weights, constants):
    # jacfwd of jacrev: the inner Jacobian moves the parameter `level`, the
    # outer one a second parameter of this layer, `(level, 2)`.
    def jacobians(ys, vs):
        return _jacobian_terms(level, layer.argnums, sig, inner, ys, vs)

    return _jacobian_terms((level, 2), layer.argnums, _jacobian_signature(layer, level, sig),
                           jacobians, inputs, weights)


def meaning(stack: StackCase, level: int, inputs, weights) -> list[Term]:
    """The terms whose sum is `<weights, stage level (inputs)>` in NumPy."""
    sigs = stack.signatures

    def stage(k, xs, ws):
        if k == 0:
            return [Term((), tuple(xs), tuple(ws))]
        layer = stack.layers[k - 1]
        inner = lambda ys, vs: stage(k - 1, ys, vs)  # noqa: E731
        return LAYERS[layer.name].meaning(layer, k, sigs[k - 1], inner, xs, ws, stack.constants)

    return stage(level, [Moving.fixed(x) for x in inputs], [Moving.fixed(c) for c in weights])


# ----------------------------------------------------------------------------- signatures

def _insert(shape, axis: int, size: int) -> tuple[int, ...]:
    position = axis if axis >= 0 else len(shape) + 1 + axis
    return (*shape[:position], size, *shape[position:])


def _same_signature(layer, level, sig):
    return sig


def _vmap_signature(layer, level, sig):
    ins = tuple(s if a is None else _insert(s, a, layer.size)
                for s, a in zip(sig.inputs, layer.in_axes))
    return Signature(sig.names, ins, tuple(_insert(s, layer.out_axes, layer.size)
                                           for s in sig.outputs))


def _jvp_signature(layer, level, sig):
    tangents = tuple(f"t{level}_{i}" for i in range(len(sig.names)))
    return Signature(sig.names + tangents, sig.inputs * 2, sig.outputs * 2)


def _vjp_signature(layer, level, sig):
    cotangents = tuple(f"u{level}_{j}" for j in range(len(sig.outputs)))
    return Signature(sig.names + cotangents, sig.inputs + sig.outputs, sig.outputs + sig.inputs)


def _grad_signature(layer, level, sig):
    return sig._replace(outputs=tuple(sig.inputs[i] for i in argnums_tuple(layer.argnums)))


def _jacobian_signature(layer, level, sig):
    chosen = argnums_tuple(layer.argnums)
    return sig._replace(outputs=tuple((*out, *sig.inputs[i])
                                      for out in sig.outputs for i in chosen))


def _hessian_signature(layer, level, sig):
    return _jacobian_signature(layer, level, _jacobian_signature(layer, level, sig))


def signatures(case: ProgramCase, layers) -> tuple[Signature, ...]:
    """The signature of every stage, g0 first."""
    program = case.program
    sigs = [Signature(tuple(v.name for v in program.inputs), tuple(v.shape for v in program.inputs),
                      tuple(v.shape for v in program.outputs))]
    for level, layer in enumerate(layers, 1):
        sigs.append(LAYERS[layer.name].signature(layer, level, sigs[-1]))
    return tuple(sigs)


# ----------------------------------------------------------------------------- rendering

def _params(sig: Signature) -> str:
    return ", ".join(sig.names)


def _render_jit(layer, level, sig, inner_sig):
    return f"g{level} = {JIT.call(f'g{level - 1}')}\n"


def _render_vmap(layer, level, sig, inner_sig):
    axes = layer.in_axes[0] if layer.as_int else tuple(layer.in_axes)
    applied = VMAP.call(f"g{level - 1}", f"in_axes={axes!r}", f"out_axes={layer.out_axes!r}")
    return f"g{level} = {applied}\n"


def _render_jvp(layer, level, sig, inner_sig):
    n = len(inner_sig.names)
    primals, tangents = tuple_of(sig.names[:n]), tuple_of(sig.names[n:])
    return define(f"g{level}", sig.names, [
        f"out, tangent = {JVP.call(f'g{level - 1}', primals, tangents)}",
        "return (*out, *tangent)",
    ])


def _render_vjp(layer, level, sig, inner_sig):
    n = len(inner_sig.names)
    return define(f"g{level}", sig.names, [
        f"out, pullback = {VJP.call(f'g{level - 1}', *sig.names[:n])}",
        f"return (*out, *pullback({tuple_of(sig.names[n:])}))",
    ])


def _render_grad(layer, level, sig, inner_sig):
    # grad{level} is made once, beside the stage: one function object that every
    # call of the stage calls (at two points, `reuse_source`).
    terms = " + ".join(f"jnp.sum(jnp.multiply(out[{j}], w{level}_{j}))"  # as wrappers.loss
                       for j in range(len(inner_sig.outputs)))
    loss = define(f"loss{level}", sig.names, [f"out = g{level - 1}({_params(sig)})",
                                              f"return {terms}"])
    made = f"grad{level} = {GRAD.call(f'loss{level}', f'argnums={layer.argnums!r}')}\n"
    call = f"grad{level}({_params(sig)})"
    result = call if isinstance(layer.argnums, tuple) else f"({call},)"
    return "\n\n".join([loss, made, define(f"g{level}", sig.names, [f"return {result}"])])


def _render_linearize(layer, level, sig, inner_sig):
    n = len(inner_sig.names)
    return define(f"g{level}", sig.names, [
        f"out, f_jvp = {LINEARIZE.call(f'g{level - 1}', *sig.names[:n])}",
        f"return (*out, *f_jvp({', '.join(sig.names[n:])}))",
    ])


def _flat_jacobians(layer, depth: int) -> str:
    """The Jacobians as one flat tuple: JAX nests them output, then argnum (a tuple
    argnums), `depth` times (2 for a Hessian's argnum pairs)."""
    if isinstance(layer.argnums, int):
        return "tuple(jacobians)"
    loops = " for ".join(["per_output in jacobians",
                          *(f"a{k} in {'per_output' if k == 0 else f'a{k - 1}'}"
                            for k in range(depth))])
    return f"tuple(a{depth - 1} for {loops})"


def _jacobian_renderer(transformation: Transformation, depth: int) -> Callable:
    def render(layer, level, sig, inner_sig):
        # made once, as grad{level} is (`_render_grad`)
        made = f"{transformation.name}{level}"
        applied = transformation.call(f"g{level - 1}", f"argnums={layer.argnums!r}")
        return f"{made} = {applied}\n\n" + define(
            f"g{level}", sig.names, [f"jacobians = {made}({_params(sig)})",
                                     f"return {_flat_jacobians(layer, depth)}"])
    return render


# The suffix of a second point's argument names (`reuse_source`).
AGAIN = "_again"


def _again(names) -> list[str]:
    return [f"{name}{AGAIN}" for name in names]


def _again_stage(layer, level, sig, inner_sig) -> tuple[list[str], str]:
    """The second call of stage `level`, at the second point: its lines in `reused`,
    and the call of a stage built afresh that it must equal."""
    call = f"g{level}({', '.join(_again(sig.names))})"
    return [f"return {call}"], call


def _again_returned(transformation: Transformation, call: Callable[[str, list[str]], str]):
    """The second call of a vjp or linearize stage: `transformation` of the inner
    stage at the second point's primals, and the function it returns called at
    the first point's cotangents (tangents), then at the second's.  `call(fn,
    names)` is how the stage calls the returned function `fn`."""
    def again(layer, level, sig, inner_sig):
        n = len(inner_sig.names)
        second, first_free = _again(sig.names), list(sig.names[n:])
        lines = [f"out, returned = {transformation.call(f'g{level - 1}', *second[:n])}",
                 f"return (*out, *{call('returned', first_free)}, "
                 f"*out, *{call('returned', second[n:])})"]
        fresh = (f"(*g{level}({', '.join([*second[:n], *first_free])}), "
                 f"*g{level}({', '.join(second)}))")
        return lines, fresh
    return again


def reuse_source(stack: StackCase) -> tuple[str, str]:
    """`reused(<arguments>, <arguments>_again)`, and the call that must equal it.

    `reused` calls the top stage at the stack's inputs, then at its second
    point (`StackCase.again`): one function object called twice, each layer's
    transformation applied again to the one inner stage (and a grad's or a
    Jacobian's function, made once, called again).  Where the top layer
    returns a function (vjp's pullback, linearize's), the second point's is
    called at both points' cotangents (tangents).  The other call builds each
    result afresh, in a module of its own: what a system that keeps nothing
    between calls gives.
    """
    top = len(stack.layers)
    sig, inner = stack.signatures[top], stack.signatures[top - 1]
    layer = stack.layers[-1]
    lines, fresh = LAYERS[layer.name].again(layer, top, sig, inner)
    params = [*sig.names, *_again(sig.names)]
    return define("reused", params, [f"g{top}({_params(sig)})", *lines]), fresh


def _render_stage0(case: ProgramCase, sig: Signature) -> str:
    if len(case.program.outputs) > 1:
        return "g0 = f\n"
    return define("g0", sig.names, [f"return (f({_params(sig)}),)"])


def source(stack: StackCase, level: int) -> str:
    """Definitions of g0 .. g{level}: the stack up to `level`, as the SUT runs it."""
    sigs = stack.signatures
    parts = [_render_stage0(stack.case, sigs[0])]
    for k, layer in enumerate(stack.layers[:level], 1):
        parts.append(LAYERS[layer.name].render(layer, k, sigs[k], sigs[k - 1]))
    return "\n\n".join(parts)


def probe_source(stack: StackCase, level: int) -> str:
    """`probe(<stage inputs>, c0, ..)`: <c, g{level}(..)> summed over its outputs."""
    sig = stack.signatures[level]
    cs = names("c", len(sig.outputs))
    return define("probe", [*sig.names, *cs], [
        f"return sum(np.vdot(c, y) for c, y in zip({tuple_of(cs)}, g{level}({_params(sig)})))",
    ])


def loop_source(stack: StackCase, level: int) -> str:
    """`looped(..)`: the inner stage on each batch element of a vmap layer, stacked."""
    layer, sig = stack.layers[level - 1], stack.signatures[level]
    args = ", ".join(n if a is None else f"np.take({n}, i, {a})"
                     for n, a in zip(sig.names, layer.in_axes))
    return define("looped", sig.names, [
        f"outs = [g{level - 1}({args}) for i in range({layer.size})]",
        f"return tuple(np.stack(ys, axis={layer.out_axes}) for ys in zip(*outs))",
    ])


def title(stack: StackCase, level: int) -> str:
    """`jit(vmap(jvp(f)))` for the stage at `level`."""
    text = "f"
    for layer in stack.layers[:level]:
        text = f"{layer.name}({text})"
    return text


# ----------------------------------------------------------------------------- values

def stage_inputs(stack: StackCase, level: int) -> dict[str, np.ndarray]:
    """Stage `level`'s arguments: the outermost ones at batch element 0 of every vmap above."""
    sigs = stack.signatures
    values = [stack.inputs[n] for n in sigs[-1].names]
    for k in range(len(stack.layers), level, -1):
        layer = stack.layers[k - 1]
        if layer.name == "vmap":
            values = [v if a is None else np.take(v, 0, axis=a)
                      for v, a in zip(values, layer.in_axes)]
        values = values[:len(sigs[k - 1].names)]
    return dict(zip(sigs[level].names, values))


def _variant(case: ProgramCase, layers, position: dict, shift: int) -> tuple[np.ndarray, ...]:
    """The input set at a batch position (vmap level -> element), by mixed radix,
    `shift` sets on."""
    flat, stride = 0, 1
    for level, layer in enumerate(layers, 1):
        if layer.name == "vmap":
            flat += position.get(level, 0) * stride
            stride *= layer.size
    return case.variants[(flat + shift) % len(case.variants)]


def batched_input(case: ProgramCase, layers, i: int, shift: int = 0) -> np.ndarray:
    """x{i} batched through every vmap layer: element b of level k stacked on its axis.

    The outermost vmap stacks last.  Where x{i} is not mapped (axis None) its
    value must not vary along that level, so the position there stays 0.
    With `shift` 1, every batch position takes the input set after its own: the
    second point of `stack_cases(again=True)`, whose program is valid at one
    set more than its batch positions, so each position differs from its first.
    """
    vmaps = [(level, layer) for level, layer in enumerate(layers, 1) if layer.name == "vmap"]

    def build(position, remaining):
        if not remaining:
            return _variant(case, layers, position, shift)[i]
        *rest, (level, layer) = remaining
        axis = layer.in_axes[i]
        if axis is None:
            return build(position, rest)
        return np.stack([build(position | {level: b}, rest) for b in range(layer.size)],
                        axis=axis)

    return build({}, vmaps)


# ----------------------------------------------------------------------------- drawing

def _draw_vmap(draw, level: int, sig: Signature, size: int) -> Applied:
    count = len(sig.inputs)
    mapped = index(draw, count, label=f"layer {level}: surely mapped input")
    axes = []
    for i, shape in enumerate(sig.inputs):
        options = batch_axes(len(shape))
        if i != mapped:
            options = [options[0], None, *options[1:]]
        axes.append(choose(draw, options, label=f"layer {level}: in_axes[{i}]"))
    as_int = len(set(axes)) == 1 and draw(st.booleans(), label=f"layer {level}: in_axes as int")
    out_rank = min(len(s) for s in sig.outputs)
    out_axes = choose(draw, batch_axes(out_rank), label=f"layer {level}: out_axes")
    return Applied("vmap", tuple(axes), as_int, out_axes, size)


def _draw_argnums(draw, level: int, count: int) -> int | tuple[int, ...]:
    """An int, or a sorted tuple of distinct positions; shrinks towards 0.

    The same choices as `cases.argnums`, drawn inline under labels that name
    the layer.  Drawing `cases.argnums` here instead (a composite: one more
    span, other labels) changes what Hypothesis generates: the stack_cases
    fingerprint moves at 300 examples (`bench/draw_fingerprint.py`).
    """
    if not draw(st.booleans(), label=f"layer {level}: argnums as a tuple"):
        return index(draw, count, label=f"layer {level}: argnum")
    chosen = tuple(i for i in range(count) if draw(st.booleans(), label=f"layer {level}: has {i}"))
    return chosen or (index(draw, count, label=f"layer {level}: argnum"),)


def _draw_jacobian_argnums(draw, level: int, count: int) -> int | tuple[int, ...]:
    """An int, a pair of distinct positions in either order, or one position in a
    tuple: a pair is where a Jacobian's nesting (and its order) can go wrong, so
    it is drawn a third of the time with two inputs, where `_draw_argnums`
    draws both of them one time in eight.  Shrinks towards 0."""
    options = [*range(count), *permutations(range(count), 2), *((i,) for i in range(count))]
    return choose(draw, options, label=f"layer {level}: argnums")


def _draw_names(draw, count: int, kinds: tuple[str, ...],
                featuring: tuple[str, ...] = ()) -> list[str]:
    """`count` layer names from `kinds`, at most `MAX_DERIVATIVES` orders of
    derivatives in all; with `featuring`, one drawn position holds one of those."""
    featured = position = None
    if featuring:
        featured = choose(draw, featuring, label="featured layer")
        position = index(draw, count, label="featured layer: position")
    chosen = []
    for k in range(count):
        if k == position:
            chosen.append(featured)
            continue
        orders = sum(LAYERS[n].order for n in chosen)
        orders += LAYERS[featured].order if featured and k < position else 0
        chosen.append(pick(draw, kinds, lambda n, d=orders: LAYERS[n].order + d <= MAX_DERIVATIVES))
    return chosen


def _check(min_layers, max_layers, kinds, featuring):
    if not 1 <= min_layers <= max_layers <= 3:
        raise InvalidArgument(f"min_layers={min_layers}, max_layers={max_layers} must satisfy "
                              "1 <= min_layers <= max_layers <= 3")
    unknown = [k for k in kinds if k not in LAYERS]
    if unknown or not kinds:
        raise InvalidArgument(f"kinds={kinds!r} must be a non-empty subset of {ORDER}")
    if not set(featuring) <= set(kinds):
        raise InvalidArgument(f"featuring={featuring!r} must be a subset of kinds={kinds!r}")
    if all(LAYERS[k].derivative for k in kinds) and max_layers > MAX_DERIVATIVES:
        raise InvalidArgument(f"kinds={kinds!r} has only derivative layers, and at most "
                              f"{MAX_DERIVATIVES} may stack: use max_layers<={MAX_DERIVATIVES}")


def stack_programs(vocabulary: Vocabulary) -> Callable[[int, bool, bool], st.SearchStrategy]:
    """`programs(variants, reverse, second, **options)` for `stack_cases`: the SUT's
    programs, valid at `variants` input sets, differentiable in reverse mode if
    `reverse`, up to 10 equations (`second`, a layer that differentiates twice,
    is the concern of `jacobian_programs`); `options` go to `programs`
    (`apart`, `sharing`)."""
    def programs(variants: int, reverse: bool, second: bool, **options):
        return program_cases(vocabulary, variants=variants, reverse=reverse,
                             **STACK_PROGRAMS | options)

    return programs


def jacobian_programs(vocabulary: Vocabulary) -> Callable[[int, bool, bool], st.SearchStrategy]:
    """`stack_programs` for stacks that feature a derived transformation: up to 8
    equations over two inputs of `JACOBIAN_INPUTS`' small shapes
    (`HESSIAN_INPUTS`' under a layer that differentiates twice)."""
    shapes = {second: shapes_of_inputs(**(HESSIAN_INPUTS if second else JACOBIAN_INPUTS)).map(
        lambda drawn: drawn.shapes) for second in (False, True)}

    def programs(variants: int, reverse: bool, second: bool, **options):
        return program_cases(vocabulary, variants=variants, reverse=reverse,
                             input_shapes=shapes[second], **JACOBIAN_PROGRAMS | options)

    return programs


def _forward(name: str) -> bool:
    """The layer differentiates in forward mode (jvp, linearize, jacfwd)."""
    return LAYERS[name].derivative and not LAYERS[name].reverse


@st.composite
def stack_cases(draw, programs: Callable[..., st.SearchStrategy[ProgramCase]], *,
                kinds: tuple[str, ...] = CORE, min_layers: int = 1,
                max_layers: int = 3, featuring: tuple[str, ...] = (),
                again: bool = False, fan_out: bool = False) -> StackCase:
    """A `StackCase`: `min_layers..max_layers` layers (default 1-3) over a drawn program.

    * `programs(variants, reverse, second)` is the strategy for programs
      valid at `variants` input sets (one per batch position of the vmap
      layers, up to 8), differentiable in reverse mode if `reverse` (the
      stack has a grad or vjp layer), under a layer that differentiates
      twice if `second` (a hessian);
    * layers come from `kinds` (default `CORE`), with at most
      `MAX_DERIVATIVES` orders of derivatives in one stack; with `featuring`
      (some of `kinds`), one layer is one of those;
    * vmap layers have batch size 2-3, each input mapped on a valid axis or
      not (one at least is mapped), and an out_axes valid for every output;
    * grad layers differentiate a drawn `argnums` of `sum_j <w_j, out_j>`,
      and jacfwd, jacrev and hessian layers by a drawn `argnums`;
    * with `again`, a second point (`StackCase.again`): the program is valid
      at one input set more, drawn apart (`programs(apart=True)`), each batch
      position of the second point takes the set after its first's
      (`batched_input(shift=1)`), and its tangents and cotangents are drawn
      as a ramp down from -1 (the first's shrink to ones): one stack called
      at two points differs there even in the simplest example; and where
      the innermost derivative layer is in reverse mode, the program is one
      for reverse mode alone (`programs(grad_only=True)`), so that a
      function with custom_vjp rules, which keeps residuals between its
      rules, may be among what the stack calls twice;
    * with `fan_out`, a stack with two forward-mode layers (jvp of jvp,
      jacfwd of jacfwd, ...) is drawn over a program whose first result
      about half of its later binary operations take again
      (`programs(sharing=True)`: `a = sin(x); (a * a) * a`), where nested
      forward mode must keep each level's perturbation apart.

    Examples shrink towards one `jit` layer over the simplest program.
    """
    kinds = tuple(k for k in ORDER if k in kinds)
    _check(min_layers, max_layers, kinds, featuring)
    count = draw(st.integers(min_layers, max_layers), label="layers")
    chosen = _draw_names(draw, count, kinds, tuple(k for k in ORDER if k in featuring))
    sizes = [draw(st.integers(2, 3), label=f"layer {k}: batch size") if n == "vmap" else 0
             for k, n in enumerate(chosen, 1)]
    variants = min(MAX_VARIANTS, prod(s for s in sizes if s) + again)
    reverse = any(LAYERS[n].reverse for n in chosen)
    second = any(LAYERS[n].order > 1 for n in chosen)
    options = dict(apart=True) if again else {}
    derivatives = [n for n in chosen if LAYERS[n].derivative]
    if again and derivatives and LAYERS[derivatives[0]].reverse:
        options["grad_only"] = True
    if fan_out and sum(map(_forward, chosen)) >= 2:
        options["sharing"] = True
    case = draw(programs(variants, reverse, second, **options), label="program")
    layers, sig = [], signatures(case, ())[0]
    for level, (name, size) in enumerate(zip(chosen, sizes), 1):
        layers.append(_draw_layer(draw, name, level, sig, size))
        sig = LAYERS[name].signature(layers[-1], level, sig)
    event(f"stack: {title(StackCase(case, tuple(layers), {}, {}, {}), count)}")
    return _draw_values(draw, case, tuple(layers), again)


@st.composite
def layered_cases(draw, programs: Callable[..., st.SearchStrategy[ProgramCase]],
                  names: tuple[str, ...], size: int = 2, every_input: bool = False,
                  **options) -> StackCase:
    """A `StackCase` whose layers are `names`, innermost first, each vmap of batch
    size `size`: what `stack_cases` draws once it has chosen its layers, for a
    caller that enumerates them (`strategies/pairs.py`).  With `every_input`, a
    grad or Jacobian layer differentiates by every input (`argnums` all of them).
    `programs` and `options` as in `stack_cases`."""
    kinds = tuple(dict.fromkeys(names))
    _check(len(names), len(names), kinds, ())
    if sum(LAYERS[n].order for n in names) > MAX_DERIVATIVES:
        raise InvalidArgument(f"names={names!r} hold more than {MAX_DERIVATIVES} orders of "
                              "derivatives")
    sizes = [size if n == "vmap" else 0 for n in names]
    variants = min(MAX_VARIANTS, prod(s for s in sizes if s))
    reverse = any(LAYERS[n].reverse for n in names)
    second = any(LAYERS[n].order > 1 for n in names)
    case = draw(programs(variants, reverse, second, **options), label="program")
    layers, sig = [], signatures(case, ())[0]
    for level, (name, batch) in enumerate(zip(names, sizes), 1):
        layer = _draw_layer(draw, name, level, sig, batch)
        if every_input and name in ARGNUMS:
            layer = layer._replace(argnums=tuple(range(len(sig.inputs))))
        layers.append(layer)
        sig = LAYERS[name].signature(layers[-1], level, sig)
    return _draw_values(draw, case, tuple(layers), False)


# The layers that differentiate by a drawn `argnums` (`_draw_layer`).
ARGNUMS = ("grad", "jacfwd", "jacrev", "hessian")


def _draw_layer(draw, name: str, level: int, sig: Signature, size: int) -> Applied:
    if name == "vmap":
        return _draw_vmap(draw, level, sig, size)
    if name == "grad":
        return Applied("grad", argnums=_draw_argnums(draw, level, len(sig.inputs)))
    if name in ARGNUMS:
        return Applied(name, argnums=_draw_jacobian_argnums(draw, level, len(sig.inputs)))
    return Applied(name)


def _draw_values(draw, case: ProgramCase, layers: tuple[Applied, ...], again: bool) -> StackCase:
    bare = StackCase(case, layers, {}, {}, {})
    sigs = bare.signatures
    top = sigs[-1]
    n = len(case.args)
    inputs = {top.names[i]: batched_input(case, layers, i) for i in range(n)}
    free = top.names[n:]
    drawn = draw(directions([top.inputs[n + j] for j in range(len(free))]),
                 label="tangents and cotangents")
    inputs |= dict(zip(free, drawn))
    constants = {}
    for level, layer in enumerate(layers, 1):
        if layer.name == "grad":
            weights = draw(directions(sigs[level - 1].outputs),
                           label=f"layer {level}: loss weights")
            constants |= {f"w{level}_{j}": w for j, w in enumerate(weights)}
    checked = [k for k, layer in enumerate(layers, 1) if LAYERS[layer.name].derivative]
    probes = {k: draw(directions(sigs[k].outputs), label=f"stage {k}: probe")
              for k in sorted({*checked, len(layers)})}
    second = None
    if again:
        second = {top.names[i]: batched_input(case, layers, i, shift=1) for i in range(n)}
        moved = draw(directions([top.inputs[n + j] for j in range(len(free))], ramp=True),
                     label="tangents and cotangents at the second point")
        second |= {name: -d for name, d in zip(free, moved)}  # from -1 where the first's are 1
    return StackCase(case, layers, inputs, constants, probes, second)


# ----------------------------------------------------------------------------- the table

@dataclass(frozen=True)
class Layer:
    """One transformation: its signature, its source, its per-layer check, its meaning.

    * ``transformation``: its row of `transformations.py`, whose ``order``
      (at most `MAX_DERIVATIVES` orders of derivatives stack), ``reverse`` (the
      program must allow reverse mode) and ``derived`` the layer has too;
    * ``signature(applied, level, inner)`` is the stage's `Signature`;
    * ``render(applied, level, sig, inner)`` defines `g{level}` from `g{level-1}`;
    * ``check`` is what the layer is held to on its own: `IDENTITY_CHECK`,
      `LOOP_CHECK` (both against the SUT's inner stage, exactly) or
      `MEANING_CHECK` (the NumPy meaning of the stack up to it);
    * ``meaning(applied, level, inner_sig, inner, inputs, weights, constants)``
      is its NumPy meaning as `Term`s, from `inner(inputs, weights)`;
    * ``again(applied, level, sig, inner_sig)`` renders the stage's second call
      in `reuse_source`: the stage again, or (vjp, linearize) the function
      the transformation returns called at two points.
    """

    transformation: Transformation
    signature: Callable
    render: Callable
    check: str
    meaning: Callable
    again: Callable = _again_stage

    name = property(lambda self: self.transformation.name)
    order = property(lambda self: self.transformation.order)
    derivative = property(lambda self: self.transformation.derivative)
    reverse = property(lambda self: self.transformation.reverse)
    derived = property(lambda self: self.transformation.derived)


LAYERS = {layer.name: layer for layer in [
    Layer(JIT, _same_signature, _render_jit, IDENTITY_CHECK, _jit_meaning),
    Layer(VMAP, _vmap_signature, _render_vmap, LOOP_CHECK, _vmap_meaning),
    Layer(JVP, _jvp_signature, _render_jvp, MEANING_CHECK, _jvp_meaning),
    Layer(GRAD, _grad_signature, _render_grad, MEANING_CHECK, _grad_meaning),
    Layer(VJP, _vjp_signature, _render_vjp, MEANING_CHECK, _vjp_meaning,
          _again_returned(VJP, lambda fn, names: f"{fn}({tuple_of(names)})")),
    Layer(LINEARIZE, _jvp_signature, _render_linearize, MEANING_CHECK, _jvp_meaning,
          _again_returned(LINEARIZE, lambda fn, names: f"{fn}({', '.join(names)})")),
    Layer(JACFWD, _jacobian_signature, _jacobian_renderer(JACFWD, 1), MEANING_CHECK,
          _jacobian_meaning),
    Layer(JACREV, _jacobian_signature, _jacobian_renderer(JACREV, 1), MEANING_CHECK,
          _jacobian_meaning),
    Layer(HESSIAN, _hessian_signature, _jacobian_renderer(HESSIAN, 2), MEANING_CHECK,
          _hessian_meaning),
]}
