"""Control flow, closures and nested transformations as equations of generated programs.

Each row of `CONSTRUCTS` is an equation kind whose parameters hold `Block`s,
nested Python functions grown by the same generator as the program around
them.  A block sees every variable in scope (a closure: it may capture outer
values) and its own parameters.  The rules that keep programs valid by
construction carry over:

* a block is grown in one environment per situation it runs in: every batch
  element of the program, and for `scan` every slice of `xs`, for nested
  `vmap` every row; so both branches of a `cond` are valid everywhere, as
  `vmap` of a batched predicate (which runs both) needs;
* a loop's trip count is drawn, then cut to the iterations that stay inside
  every domain margin (a checked evaluation finds them), so loops never
  leave the domain however their body behaves; a `scan` whose carry would
  leave it keeps its carry unchanged instead;
* a `cond` predicate `sum(p) > t` stays `KINK_MARGIN` away from its
  threshold, and is recorded as a switch for the finite-difference oracle.

Nested derivatives (`jvp`, `grad` inside the program) are evaluated in NumPy
by the complex step, `f'(x) t = Im f(x + i h t) / h`, exact to rounding
because nothing is subtracted; comparisons look at real parts.  Blocks inside
a nested derivative hold no nested derivative (that would need multicomplex
numbers), and blocks nest at most `MAX_DEPTH` deep.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import ClassVar

import numpy as np
from hypothesis import strategies as st

from strategies.language.domains import KINK_MARGIN, MAX_RANK, VALUE_CAP
from strategies.language.ir import (
    Block,
    Eqn,
    OutOfDomain,
    Run,
    Var,
    call,
    free_names,
    prune,
    rename,
)
from strategies.language.operands import choose, pick
from strategies.language.opspec import SYMBOL, compare
from strategies.language.transformations import GRAD, JIT, JVP, VJP, VMAP, Transformation

# Equations in a block (drawn 0..this; shrinks to 0, a block returning its parameter).
MAX_BLOCK_EQNS = 4
# Blocks nest at most this deep (a cond inside a loop body, not deeper).
MAX_DEPTH = 2
# Loop trip counts are drawn from 0..this (static, as fori_loop needs them).
MAX_TRIPS = 5
# Inputs of a nested grad have at most this many elements (see build_grad).
MAX_GRAD_SIZE = 27
# Thresholds a cond predicate `sum(p) > t` compares against.
THRESHOLDS = (0.0, 1.0, -1.0)
# The complex step: small enough that h^2 terms vanish below float64 rounding.
COMPLEX_STEP = 1e-30


@dataclass(frozen=True)
class Construct:
    """One equation kind with nested blocks.

    * ``arity``: how many leading arguments are operands; the rest are the
      captured variables its blocks read (listed so liveness sees them).
      None: all are operands (a block that takes what it captures as
      arguments, `_as_arguments`).
    * ``build(draw, scope)`` -> (args, params) or None where nothing fits.
    * ``evaluate(operands, params, env, how)`` -> tuple of results (NumPy).
    * ``expression(names, params)`` -> the source of the call, given the
      rendered operands; the blocks in ``params`` are defined just before it,
      then the lines ``define(params)`` gives, if any (a custom rule).
    * ``derivative``: evaluated by the complex step, so not nestable in itself.
    * ``transformation``: the row of `transformations.py` it applies inside the
      program, if any (its feature, and what coverage counts it as).
    * ``reverse_only``: forward mode through it is an error (a custom_vjp
      function's), so it is drawn only where the nearest derivative around is
      reverse mode alone (`Scope.in_grad_only`): in a nested `grad`'s block,
      or in a program drawn for reverse mode alone (`programs(grad_only=True)`),
      and never in a custom function's block; in a nested `grad`'s block it is
      called on a value carrying that grad's tangent (`Scope.carrying`).  Any
      transformation may apply to that `grad`: forward over reverse, and
      reverse over reverse, differentiate its backward pass, not the function.
    * ``reverse_feature``: the SUT feature reverse mode through it needs, where
      an SUT may refuse it (JAX does for while_loop).  Such a construct is never
      put inside a nested `grad`, and reverse-mode properties leave it out for
      an SUT that declares the feature unsupported (`table.REVERSE_FEATURES`);
      `tests/test_grad.py::test_grad_through_while_loop_matches_finite_differences`
      holds an SUT that offers it to account.
    """

    name: str
    arity: int | None
    build: Callable
    evaluate: Callable
    expression: Callable[[list[str], dict], str]
    features: frozenset[str]
    why: str
    derivative: bool = False
    reverse_feature: str | None = None
    reverse_only: bool = False
    transformation: Transformation | None = None
    define: Callable[[dict], list[str]] | None = None
    syntaxes = ("call",)
    construct: ClassVar[bool] = True  # its equations hold blocks (`equations._draw_eqn`)
    # A shape-polymorphic program may use it (`OpSpec.polymorphic`): its blocks are drawn
    # from the same rows, each polymorphic only where it says so.
    polymorphic: ClassVar[bool] = True

    def make(self, draw, scope):
        """Operands (with captures) and parameters, or None (the generator checks
        that the results fit, as for any value)."""
        return self.build(draw, scope)

    def run(self, args, params, env, how: Run) -> tuple:
        return self.evaluate(args[: self.arity], params, env, how)

    def allowed(self, scope) -> bool:
        return (scope.depth < MAX_DEPTH and not (self.derivative and scope.in_derivative)
                and not (self.reverse_feature and scope.in_reverse)
                and (scope.in_grad_only or not self.reverse_only))


# -- growing blocks ----------------------------------------------------------

def _grow(draw, scope, kind: str, params: list[Var], envs: list[dict], *, hidden=(),
          derivative=False, reverse=False, forward=False, meet=None):
    """A block's equations, grown in a child scope where `params` hold the values in `envs`.

    `hidden` parameters are in the signature but not offered as operands
    (a fori_loop index, a while_loop counter).  `meet`, two sets of names:
    the first equation reads a variable of each where any operation can
    (`Scope.meets`).  Returns the child scope.
    """
    child = scope.child(kind, params, envs, hidden=hidden, derivative=derivative,
                        reverse=reverse, forward=forward)
    length = draw(st.integers(0, MAX_BLOCK_EQNS), label=f"{kind} equations")
    if meet is not None and length:
        child.meets = meet
        child.grow(draw, 1)
        child.meets = None
        length -= len(child.eqns)
    child.grow(draw, length)
    return child


def _own(child) -> list[Var]:
    """The block's own variables, latest first (its parameters last)."""
    return [v for v in reversed(child.vars) if v not in child.outer]


def _latest(child, shape) -> Var:
    """The latest own variable of `shape`: a result if one fits, else the parameter."""
    return next(v for v in _own(child) if v.shape == shape)


def _close(child, outputs, *, packed=False) -> tuple[Block, list[Var]]:
    """The finished block (dead equations pruned) and the outer variables it captures."""
    block = prune(Block(child.block_name, tuple(child.block_params), tuple(child.eqns),
                        tuple(outputs), packed), prefix=child.prefix)
    outer = {v.name: v for v in child.outer}
    return block, [outer[name] for name in sorted(free_names(block)) if name in outer]


def _param_vars(scope, shapes) -> list[Var]:
    letter = "ab"[scope.depth]
    return [Var(f"{letter}{i}", shape) for i, shape in enumerate(shapes)]


def _with(envs, params, values_per_env):
    """Child environments: each outer env extended with its parameter values."""
    return [{**env, **{p.name: v for p, v in zip(params, values)}}
            for env, values in zip(envs, values_per_env)]


def _rows(xs: np.ndarray):
    """The slices a loop body or vmapped function sees.  With none (a zero-size
    leading axis) it never runs, but it is still traced: one zero slice stands
    in, so that its equations have shapes."""
    return list(xs) if len(xs) else [np.zeros(xs.shape[1:])]


def _captures_of(*blocks_and_captures):
    seen = {}
    for captured in blocks_and_captures:
        seen.update({v.name: v for v in captured})
    return list(seen.values())


# -- cond --------------------------------------------------------------------

def _predicate(draw, scope):
    """(p, cmp, t): `sum(p) cmp t`, with sum(p) at least KINK_MARGIN from t everywhere."""
    cmp = choose(draw, ("greater", "less"), label="cond comparison")
    options = [(p, t) for p in scope.firsts for t in THRESHOLDS]

    def stable(option):
        p, t = option
        return scope.holds(lambda v: abs(float(np.sum(v)) - t) >= KINK_MARGIN, p)

    option = pick(draw, options, stable)
    return None if option is None else (option[0], cmp, option[1])


def build_cond(draw, scope):
    predicate = _predicate(draw, scope)
    if predicate is None:
        return None
    p, cmp, threshold = predicate
    x = choose(draw, scope.vars, label="cond operand")
    (param,) = _param_vars(scope, [x.shape])
    branches = []
    for kind in ("true", "false"):
        child = _grow(draw, scope, kind, [param], _with(scope.envs, [param],
                                                        [[env[x.name]] for env in scope.envs]))
        branches.append(_close(child, [_latest(child, x.shape)]))
    (true, t_captured), (false, f_captured) = branches
    return (p, x, *_captures_of(t_captured, f_captured)), {
        "cmp": cmp, "threshold": threshold, "true": true, "false": false}


def evaluate_cond(operands, params, env, how: Run):
    p, x = operands
    total = np.sum(p)
    if how.checked and abs(float(np.real(total)) - params["threshold"]) < KINK_MARGIN:
        raise OutOfDomain("cond predicate within KINK_MARGIN of its threshold")
    taken = bool(compare(total, params["threshold"], params["cmp"]))
    if how.switches is not None:
        how.switches.append(np.array(taken))
    return call(params["true"] if taken else params["false"], [x], env, how)


def cond_source(names, params):
    p, x = names
    return (f"sut.lax.cond(jnp.sum({p}) {SYMBOL[params['cmp']]} {params['threshold']!r}, "
            f"{params['true'].name}, {params['false'].name}, {x})")


# -- loops -------------------------------------------------------------------

def _valid_trips(block: Block, scope, carry_name: str, trips: int) -> int:
    """How many of `trips` iterations stay inside every domain, in every environment."""
    valid = trips
    for env in scope.envs:
        carry = env[carry_name]
        for k in range(valid):
            try:
                with np.errstate(all="ignore"):
                    (carry,) = call(block, [np.float64(k), carry], env,
                                     Run(scope.language, checked=True))[-1:]
            except OutOfDomain:
                valid = k
                break
    return valid


def _loop(draw, scope, kind: str, hidden: str):
    """(init, trips, body, captures) for fori_loop and while_loop: body maps the carry."""
    x = pick(draw, scope.firsts)
    trips = draw(st.integers(0, MAX_TRIPS), label=f"{kind} trips")
    (param,) = _param_vars(scope, [x.shape])
    child = _grow(draw, scope, "body", [param],
                  _with(scope.envs, [param], [[env[x.name]] for env in scope.envs]),
                  hidden=(Var(hidden, ()),))
    result = _latest(child, x.shape)
    if kind == "while_loop":  # the counter goes up by one; the carry is (counter, value)
        step = Eqn("add", (child.block_params[0], 1.0), (), Var(child.fresh(), ()), "operator")
        child.append(step)
        block, captured = _close(child, [step.out, result], packed=True)
    else:
        block, captured = _close(child, [result])
    return x, _valid_trips(block, scope, x.name, trips), block, captured


def build_fori_loop(draw, scope):
    x, trips, body, captured = _loop(draw, scope, "fori_loop", "i")
    return (x, *captured), {"trips": trips, "body": body}


def evaluate_fori_loop(operands, params, env, how):
    (carry,) = operands
    for k in range(params["trips"]):
        (carry,) = call(params["body"], [np.float64(k), carry], env, how)
    return (carry,)


def fori_source(names, params):
    return f"sut.lax.fori_loop(0, {params['trips']}, {params['body'].name}, {names[0]})"


def build_while_loop(draw, scope):
    x, trips, body, captured = _loop(draw, scope, "while_loop", "count")
    return (x, *captured), {"trips": trips, "body": body}


def evaluate_while_loop(operands, params, env, how):
    """The body adds 1 to its counter, so the loop ends after `trips` steps.  A body
    that does not count is a bug of the generator (a rename once turned the counter
    into a constant): it raises after one step too many, rather than hang the run."""
    (carry,) = operands
    count = np.float64(0.0)
    for _ in range(params["trips"] + 1):
        if not count < params["trips"] - 0.5:
            return (carry,)
        count, carry = call(params["body"], [count, carry], env, how)
    raise RuntimeError(f"while_loop of {params['trips']} trips: its counter is {count} after "
                       f"{params['trips'] + 1} steps.  The generator built a body that does not "
                       "count; this is a bug in jaxcheck, not in the SUT.")


def while_source(names, params):
    """A float counter in the carry guarantees termination; `trips - 0.5` keeps the
    comparison half a step away from the counter's values."""
    return (f"sut.lax.while_loop(lambda carry: carry[0] < {params['trips'] - 0.5!r}, "
            f"{params['body'].name}, (0.0, {names[0]}))[1]")


def build_scan(draw, scope):
    """scan(step, init, xs): step(carry, x) -> (carry, y) over the leading axis of xs."""
    xs = pick(draw, scope.vars, lambda v: len(v.shape) >= 1)
    if xs is None:
        return None
    init = choose(draw, scope.vars, label="scan init")
    carry, x = _param_vars(scope, [init.shape, xs.shape[1:]])
    envs = [{**env, carry.name: env[init.name], x.name: row}
            for env in scope.envs for row in _rows(env[xs.name])]
    # A step whose carry never meets its row is a map beside a fold: every rule
    # about step order then holds vacuously (12 of 139 drawn scans before).
    child = _grow(draw, scope, "step", [carry, x], envs,
                  meet=(frozenset({carry.name}), frozenset({x.name})))
    own = _own(child)
    y = pick(draw, own, lambda v: len(v.shape) < MAX_RANK)
    new_carry = _latest(child, init.shape)
    block, captured = _close(child, [new_carry, y])
    if not _scan_valid(block, scope, init, xs):  # keep the carry; every step is then valid
        block, captured = _close(child, [carry, y])
    return (init, xs, *captured), {"step": block}


def _scan_valid(block, scope, init, xs) -> bool:
    try:
        with np.errstate(all="ignore"):
            for env in scope.envs:
                evaluate_scan([env[init.name], env[xs.name]], {"step": block}, env,
                              Run(scope.language, checked=True))
    except OutOfDomain:
        return False
    return True


def evaluate_scan(operands, params, env, how):
    carry, xs = operands
    ys = []
    for x in xs:
        carry, y = call(params["step"], [carry, x], env, how)
        ys.append(y)
    return carry, _stacked(ys, params["step"].outputs[1])


def _stacked(values, var: Var) -> np.ndarray:
    """The per-step results stacked; for zero steps, an empty array of the right shape."""
    return np.stack(values) if values else np.zeros((0, *var.shape))


def scan_source(names, params):
    return f"sut.lax.scan({params['step'].name}, {names[0]}, {names[1]})"


# -- closures and nested transformations --------------------------------------

def _inner(draw, scope, x, *, rows=False, derivative=False, reverse=False, kind="inner",
           forward=False):
    """A one-parameter inner function `inner<n>(a0)` (or `<kind><n>`) over `x` (over each
    row of `x` if `rows`); not `g<n>`, the name of a transformation stack's layers
    (strategies/stacks.py), since a block that captures nothing is defined beside them
    (strategies/language/render.py).  `forward`: forward mode differentiates it (`Scope.child`)."""
    (param,) = _param_vars(scope, [x.shape[1:] if rows else x.shape])
    envs = [{**env, param.name: row} for env in scope.envs
            for row in (_rows(env[x.name]) if rows else [env[x.name]])]
    return _grow(draw, scope, kind, [param], envs, derivative=derivative, reverse=reverse,
                 forward=forward)


def build_closure(draw, scope):
    x = pick(draw, scope.firsts)
    child = _inner(draw, scope, x)
    block, captured = _close(child, [_own(child)[0]])
    return (x, *captured), {"fn": block}


def evaluate_closure(operands, params, env, how):
    return call(params["fn"], operands, env, how)


def build_vmap(draw, scope):
    xs = pick(draw, scope.firsts, lambda v: len(v.shape) >= 1)
    if xs is None:
        return None
    child = _inner(draw, scope, xs, rows=True)
    block, captured = _close(child, [pick(draw, _own(child), lambda v: len(v.shape) < MAX_RANK)])
    return (xs, *captured), {"fn": block}


def evaluate_vmap(operands, params, env, how):
    (xs,) = operands
    return (_stacked([call(params["fn"], [x], env, how)[0] for x in xs], params["fn"].outputs[0]),)


def build_jvp(draw, scope):
    x = pick(draw, scope.firsts)
    t = pick(draw, scope.vars, lambda v: v.shape == x.shape)
    child = _inner(draw, scope, x, derivative=True)
    block, captured = _close(child, [choose(draw, _own(child), label="jvp output")])
    return (x, t, *captured), {"fn": block}


def evaluate_jvp(operands, params, env, how):
    """The tangent output, by the complex step."""
    x, t = operands
    (out,) = call(params["fn"], [x + 1j * COMPLEX_STEP * t], env, how)
    return (np.imag(out) / COMPLEX_STEP,)


def build_grad(draw, scope):
    """grad of `g(a0) = sum(result)`: the sum is the block's last equation.

    Its NumPy value takes one complex step per input element, so inputs are
    kept to `MAX_GRAD_SIZE` elements."""
    x = pick(draw, scope.firsts, lambda v: int(np.prod(v.shape)) <= MAX_GRAD_SIZE)
    if x is None:
        return None
    child = _inner(draw, scope, x, derivative=True, reverse=True)
    result = pick(draw, _own(child), lambda v: child.holds(
        lambda value: abs(np.sum(value)) <= VALUE_CAP, v))
    if result is None:
        return None
    if result.shape:
        total = Eqn("sum", (result,), (("axis", None),), Var(child.fresh(), ()), "call")
        child.append(total)
        result = total.out
    block, captured = _close(child, [result])
    return (x, *captured), {"fn": block}


def _applying(transformation: Transformation, name, arity, build, evaluate, expression, why):
    """A construct that applies `transformation` inside the program: the SUT feature
    it needs is the transformation's, and a derivative is evaluated by the complex step."""
    return Construct(name, arity, build, evaluate, expression, frozenset({transformation.name}),
                     why, transformation.derivative, transformation=transformation)


def evaluate_grad(operands, params, env, how):
    """The gradient, one complex step per element of the input."""
    (x,) = operands
    gradient = np.zeros(x.shape)
    for position in np.ndindex(x.shape):
        basis = np.zeros(x.shape)
        basis[position] = 1.0
        (out,) = call(params["fn"], [x + 1j * COMPLEX_STEP * basis], env, how)
        gradient[position] = np.imag(out) / COMPLEX_STEP
    return (gradient,)


# -- user-defined derivative rules and rematerialisation ----------------------
#
# A function with a custom rule is drawn as a block `custom<n>`, and the rule is
# correct by construction: it is the SUT's own derivative of that block.  The
# function the program calls, `custom<n>_ruled`, is the block with a stopped
# gradient on every argument: the same values, and a derivative of zero unless
# the SUT uses the rule.  So finite differences judge it as any program, and an
# SUT that differentiates the function instead of using its rule (under some
# transformation) gives a zero derivative there, which they catch.

def _as_arguments(scope, child, outputs) -> tuple[Block, list[Var]]:
    """The finished block, with the values it captures made parameters after its own
    (`a1, a2, ...`), and those values: a rule differentiates a function by its
    arguments only (JAX refuses a derivative by a value the function closes over),
    so the program passes them explicitly."""
    block, captured = _close(child, outputs)
    params = _param_vars(scope, [block.params[0].shape, *(v.shape for v in captured)])[1:]
    names = {v.name: p for v, p in zip(captured, params)}
    return replace(block, params=(*block.params, *params),
                   eqns=tuple(rename(e, names) for e in block.eqns),
                   outputs=tuple(names.get(o.name, o) for o in block.outputs)), captured


def build_custom(draw, scope, valid=lambda x: True):
    """The block of a function with custom rules, taking a first operand that is
    `valid`: forward mode differentiates the block (a custom_jvp's rule is its
    jvp, and forward mode around a custom_vjp differentiates its `fwd`, which
    runs it), so no custom_vjp is called in it."""
    x = pick(draw, scope.firsts, valid)
    if x is None:
        return None
    child = _inner(draw, scope, x, kind="custom", forward=True)
    block, captured = _as_arguments(scope, child, [_own(child)[0]])
    return (x, *captured), {"fn": block}


def build_custom_vjp(draw, scope):
    """A custom_vjp function's block, called first on a value that carries the
    tangent of the nested grad around it, if any (`Scope.carrying`)."""
    carrying = scope.carrying
    return build_custom(draw, scope, lambda x: carrying is None or x.name in carrying)


def _stopped(fn: Block) -> list[str]:
    """`def <fn>_ruled(...)`: `fn` of its arguments with their gradients stopped."""
    params = [p.name for p in fn.params]
    stopped = ", ".join(f"sut.lax.stop_gradient({p})" for p in params)
    return [f"def {fn.name}_ruled({', '.join(params)}):", f"    return {fn.name}({stopped})"]


def custom_jvp_definitions(params) -> list[str]:
    fn = params["fn"]
    return ["@sut.custom_jvp", *_stopped(fn), "",
            f"@{fn.name}_ruled.defjvp", f"def {fn.name}_rule(primals, tangents):",
            f"    return {JVP.call(fn.name, 'primals', 'tangents')}"]


def custom_vjp_definitions(params) -> list[str]:
    fn = params["fn"]
    args = ", ".join(p.name for p in fn.params)
    return ["@sut.custom_vjp", *_stopped(fn), "",
            f"def {fn.name}_forward({args}):", f"    return {fn.name}({args}), ({args},)", "",
            f"def {fn.name}_backward(residuals, cotangent):",
            f"    return {VJP.call(fn.name, '*residuals')}[1](cotangent)", "",
            f"{fn.name}_ruled.defvjp({fn.name}_forward, {fn.name}_backward)"]


def _ruled_call(names, params):
    return f"{params['fn'].name}_ruled({', '.join(names)})"


CONSTRUCTS: dict[str, Construct] = {
    row.name: row
    for row in [
        Construct("cond", 2, build_cond, evaluate_cond, cond_source, frozenset({"cond"}),
                  "branches that capture; vmap of a batched predicate runs both"),
        Construct("fori_loop", 1, build_fori_loop, evaluate_fori_loop, fori_source,
                  frozenset({"fori_loop"}), "static trip count 0-5: reverse mode through it"),
        Construct("while_loop", 1, build_while_loop, evaluate_while_loop, while_source,
                  frozenset({"while_loop"}), "terminates by a counter in a pytree carry",
                  reverse_feature="while_loop_reverse"),
        Construct("scan", 2, build_scan, evaluate_scan, scan_source, frozenset({"scan"}),
                  "carry plus stacked per-step outputs; reverse pass runs backwards"),
        Construct("closure", 1, build_closure, evaluate_closure, lambda n, p: f"{p['fn'].name}"
                  f"({n[0]})", frozenset(), "an inner Python function capturing outer values"),
        _applying(JIT, "jit_closure", 1, build_closure, evaluate_closure,
                  lambda n, p: f"{JIT.call(p['fn'].name)}({n[0]})",
                  "a jitted inner function that captures traced outer values"),
        _applying(VMAP, "inner_vmap", 1, build_vmap, evaluate_vmap,
                  lambda n, p: f"{VMAP.call(p['fn'].name)}({n[0]})",
                  "vmap inside a program: batching under outer transformations"),
        _applying(JVP, "inner_jvp", 2, build_jvp, evaluate_jvp,
                  lambda n, p: f"{JVP.call(p['fn'].name, f'({n[0]},)', f'({n[1]},)')}[1]",
                  "nested jvp: perturbation confusion probe"),
        _applying(GRAD, "inner_grad", 1, build_grad, evaluate_grad,
                  lambda n, p: f"{GRAD.call(p['fn'].name)}({n[0]})",
                  "nested grad: higher-order derivatives"),
        Construct("custom_jvp", None, build_custom, evaluate_closure,
                  _ruled_call, frozenset({"custom_jvp", "stop_gradient", JVP.name}),
                  "a function whose derivative only its rule gives, under every transformation",
                  define=custom_jvp_definitions),
        Construct("custom_vjp", None, build_custom_vjp, evaluate_closure,
                  _ruled_call, frozenset({"custom_vjp", "stop_gradient", VJP.name}),
                  "a function whose reverse-mode derivative only its rules give",
                  reverse_only=True, define=custom_vjp_definitions),
        Construct("checkpoint", 1, build_closure, evaluate_closure,
                  lambda n, p: f"sut.checkpoint({p['fn'].name})({n[0]})", frozenset({"checkpoint"}),
                  "rematerialisation: reverse mode computes the values again, captures too"),
    ]
}
