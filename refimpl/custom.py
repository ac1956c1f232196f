"""User-defined derivative rules and rematerialisation, as in JAX.

* `custom_jvp(f)`, with `f.defjvp(rule)`: f is staged and bound as
  `custom_jvp_call` with its program and the rule.  Evaluating runs the
  program; the JVP interpreter calls the rule instead of differentiating the
  program, so reverse mode (linearize, then transpose) transposes the rule's
  tangent computation; vmap batches the program and the rule alike.
* `custom_vjp(f)`, with `f.defvjp(fwd, bwd)`: its JVP runs `fwd` and makes
  the output tangent a `custom_lin` of the residuals, a linear primitive
  whose transpose is `bwd`.  `custom_lin` has no value of its own, so
  forward mode through a custom_vjp function is an error, as in JAX.
* `checkpoint(f)`: a call of f's program, like jit's, whose partial
  evaluation keeps the inputs as residuals instead of f's intermediate
  values; the backward pass computes those again (`backward_pass` evaluates
  the equations of known values it meets).
* `stop_gradient(x)`: x, with a zero derivative.

A rule sees only the function's explicit arguments: differentiating with
respect to a value the function closes over is an error naming it (JAX's).
Tests: tests/refimpl/test_refimpl_custom.py.
"""
import functools

from . import core, ops
from .core import aval_of, bind, primitive, using
from .dims import instantiate
from .ir import Jaxpr, eval_jaxpr, jaxpr_cost, memoized, simplify
from .jit import define_call, dim_operands
from .jvp import instantiate as zero_if_none
from .jvp import jvp_rules
from .linearize import merge, partial_eval_jaxpr, partial_eval_rules
from .pytree import tree_flatten, tree_unflatten
from .staging import stage_closed, stage_tree_fun
from .transpose import transpose_rules
from .vmap import defelementwise, size_inputs, to_front, vmap_flat, vmap_jaxpr, vmap_rules

stop_gradient_p = primitive("stop_gradient", elementwise=True)
stop_gradient_p.impl = lambda x: x
stop_gradient_p.shape_rule = lambda aval: aval
stop_gradient_p.cost = lambda eqn: 0
jvp_rules[stop_gradient_p] = lambda primals, tangents: (bind(stop_gradient_p, *primals), None)
# Its cotangent is zero, as its tangent is.  A tangent meets it where vmap runs a
# cond's branches for every example (control.py) inside a custom_jvp rule; JAX
# has no such rule and raises there (docs/findings/jax.md, J5).
transpose_rules[stop_gradient_p] = lambda ct, x: [None]
defelementwise(stop_gradient_p)


def stop_gradient(x):
    return bind(stop_gradient_p, x)


# ----------------------------------------------------------------------------- staging f

def _staged(fun, args, what):
    """`(program, captured values, flat arguments, their tree, output tree)` of `fun`
    on `args`; a captured dimension variable's value is its size (as for jit)."""
    core.check_call(fun, args)
    flat, tree = tree_flatten(args)
    avals = [aval_of(x) for x in flat]
    jaxpr, captured, out_tree = stage_tree_fun(fun, tree, avals, what)
    return jaxpr, list(dim_operands(captured, avals, flat)), flat, tree, out_tree


def _no_closure_tangents(tangents, num_consts, what, name):
    if any(t is not None for t in tangents[:num_consts]):
        raise TypeError(f"{what} {name}: differentiated with respect to a value it closes "
                        f"over, but its rule only differentiates its explicit arguments; "
                        f"pass that value as an argument\n  at {core.user_location()}")


def _checked(values, avals, what):
    """`values` (flat), with a clear error where their shapes are not those of `avals`."""
    got, want = [aval_of(v).shape for v in values], [a.shape for a in avals]
    if got != want:
        raise TypeError(f"{what} returned values of shapes {got}, where {want} are needed")
    return list(values)


def _shape(*avals, jaxpr, num_consts, name, **rules):
    return instantiate(jaxpr, avals, name)


def _batched(fun, size, count):
    """`fun` (flat values -> flat values) on batches of its `count` arguments, each
    batched on axis 0; its results batched on axis 0 too."""
    def batched(*values):
        outs, dims = vmap_flat(fun, size, values, [0] * count)
        return [to_front(o, d, size) for o, d in zip(outs, dims)]
    return batched


def _batched_bwd(bwd, size):
    """A custom_vjp's `bwd` on residuals and cotangents all batched on axis 0."""
    def batched(residuals, cts):
        k = len(residuals)
        return _batched(lambda *a: bwd(a[:k], a[k:]), size, k + len(cts))(*residuals, *cts)
    return batched


def _vmap_program(jaxpr, size, vals, dims, num_consts):
    """The operands with every argument batched on axis 0 (the rules batch all of
    them), the batched program, and its count of leading operands that are not
    arguments: captured values (a dimension's size among them, left unbatched)
    and the variables of a symbolic batch size (`size_inputs`)."""
    jaxpr, extra = size_inputs(jaxpr, size)
    consts = [v if d is None else ops.moveaxis(v, d, 0)
              for v, d in zip(vals[:num_consts], dims[:num_consts])]
    args = [to_front(v, d, size) for v, d in zip(vals[num_consts:], dims[num_consts:])]
    batched = ((False,) * len(extra) + tuple(d is not None for d in dims[:num_consts])
               + (True,) * len(args))
    new, _ = vmap_jaxpr(jaxpr, size, batched, (True,) * len(jaxpr.outvars))
    return [*extra, *consts, *args], new, len(extra) + num_consts


# ----------------------------------------------------------------------------- custom_jvp

custom_jvp_p = primitive("custom_jvp_call", multiple_results=True, transposable=False)
custom_jvp_p.shape_rule = _shape
custom_jvp_p.impl = lambda *args, jaxpr, rule, num_consts, name: eval_jaxpr(jaxpr, args)
custom_jvp_p.cost = lambda eqn: jaxpr_cost(eqn.params["jaxpr"])


class custom_jvp:
    """`f` with the derivative its rule gives: `rule(primals, tangents)` returns
    `(f(*primals), tangent of the output)`."""

    def __init__(self, fun):
        functools.update_wrapper(self, fun)
        self.fun, self.rule = fun, None

    def defjvp(self, rule):
        self.rule = rule
        return rule

    def __call__(self, *args):
        if self.rule is None:
            raise TypeError(f"custom_jvp {self.__name__} called before defjvp gave it a rule")
        jaxpr, captured, flat, tree, out_tree = _staged(self.fun, args, "custom_jvp")

        def flat_rule(primals, tangents):
            outs = self.rule(tree_unflatten(tree, primals), tree_unflatten(tree, tangents))
            if not (isinstance(outs, (tuple, list)) and len(outs) == 2):
                raise TypeError(f"the custom_jvp rule of {self.__name__} must return a pair "
                                f"(primal output, tangent output)")
            out, out_t = (tree_flatten(o)[0] for o in outs)
            what = f"the custom_jvp rule of {self.__name__}"
            return _checked(out, jaxpr.out_avals, what), _checked(out_t, jaxpr.out_avals, what)

        outs = bind(custom_jvp_p, *captured, *flat, jaxpr=jaxpr, rule=flat_rule,
                    num_consts=len(captured), name=self.__name__)
        return tree_unflatten(out_tree, outs)


def _custom_jvp_jvp(primals, tangents, *, jaxpr, rule, num_consts, name):
    _no_closure_tangents(tangents, num_consts, "custom_jvp", name)
    args = primals[num_consts:]
    return rule(args, [zero_if_none(t, p) for t, p in zip(tangents[num_consts:], args)])


def _custom_jvp_vmap(size, vals, dims, *, jaxpr, rule, num_consts, name):
    vals, new, num_consts = _vmap_program(jaxpr, size, vals, dims, num_consts)
    n = len(vals) - num_consts

    def flat_rule(*values):
        outs, outs_t = rule(values[:n], values[n:])
        return [*outs, *outs_t]

    def batched_rule(primals, tangents):
        both = _batched(flat_rule, size, 2 * n)(*primals, *tangents)
        return both[:len(both) // 2], both[len(both) // 2:]

    outs = bind(custom_jvp_p, *vals, jaxpr=new, rule=batched_rule, num_consts=num_consts,
                name=f"vmap({name})")
    return outs, [0] * len(outs)


jvp_rules[custom_jvp_p] = _custom_jvp_jvp
vmap_rules[custom_jvp_p] = _custom_jvp_vmap


# ----------------------------------------------------------------------------- custom_vjp

custom_vjp_p = primitive("custom_vjp_call", multiple_results=True, transposable=False)
custom_vjp_p.shape_rule = _shape
custom_vjp_p.impl = lambda *args, jaxpr, fwd, bwd, num_consts, name: eval_jaxpr(jaxpr, args)
custom_vjp_p.cost = lambda eqn: jaxpr_cost(eqn.params["jaxpr"])

custom_lin_p = primitive("custom_lin", multiple_results=True)
custom_lin_p.shape_rule = lambda *avals, num_res, bwd, out_avals, name: list(out_avals)
custom_lin_p.cost = lambda eqn: sum(a.size for a in eqn.params["out_avals"])


def _forward_mode_error(*args, name, **params):
    raise TypeError(f"can't apply forward-mode differentiation (jvp) to the custom_vjp "
                    f"function {name}: it defines only a reverse-mode rule")


custom_lin_p.impl = _forward_mode_error


class custom_vjp:
    """`f` with the reverse-mode derivative its rules give: `fwd(*primals)` returns
    `(f(*primals), residuals)` and `bwd(residuals, cotangent)` a tuple with one
    cotangent per argument."""

    def __init__(self, fun):
        functools.update_wrapper(self, fun)
        self.fun, self.fwd, self.bwd = fun, None, None

    def defvjp(self, fwd, bwd):
        self.fwd, self.bwd = fwd, bwd

    def __call__(self, *args):
        if self.fwd is None:
            raise TypeError(f"custom_vjp {self.__name__} called before defvjp gave it rules")
        jaxpr, captured, flat, tree, out_tree = _staged(self.fun, args, "custom_vjp")
        name, res_tree = self.__name__, []

        def flat_fwd(*primals):
            pair = self.fwd(*tree_unflatten(tree, primals))
            if not (isinstance(pair, (tuple, list)) and len(pair) == 2):
                raise TypeError(f"the custom_vjp fwd of {name} must return a pair "
                                f"(output, residuals)")
            residuals, res_def = tree_flatten(pair[1])
            res_tree[:] = [res_def]  # for bwd, which gets the residuals back flat
            out = _checked(tree_flatten(pair[0])[0], jaxpr.out_avals, f"the fwd of {name}")
            return out, residuals

        def flat_bwd(residuals, cts):
            cts_in = self.bwd(tree_unflatten(res_tree[0], residuals),
                              tree_unflatten(out_tree, cts))
            if not isinstance(cts_in, (tuple, list)) or len(cts_in) != len(args):
                raise TypeError(f"the custom_vjp bwd of {name} must return a tuple of "
                                f"{len(args)} cotangent(s), one per argument")
            return _checked(tree_flatten(tuple(cts_in))[0], list(map(aval_of, flat)),
                            f"the bwd of {name}")

        outs = bind(custom_vjp_p, *captured, *flat, jaxpr=jaxpr, fwd=flat_fwd,
                    bwd=flat_bwd, num_consts=len(captured), name=name)
        return tree_unflatten(out_tree, outs)


def _custom_vjp_jvp(primals, tangents, *, jaxpr, fwd, bwd, num_consts, name):
    _no_closure_tangents(tangents, num_consts, "custom_vjp", name)
    args = primals[num_consts:]
    outs, res = fwd(*args)
    ts = [zero_if_none(t, p) for t, p in zip(tangents[num_consts:], args)]
    outs_t = bind(custom_lin_p, *res, *ts, num_res=len(res), bwd=bwd,
                  out_avals=tuple(map(aval_of, outs)), name=name)
    return outs, outs_t


def _custom_vjp_vmap(size, vals, dims, *, jaxpr, fwd, bwd, num_consts, name):
    vals, new, num_consts = _vmap_program(jaxpr, size, vals, dims, num_consts)
    n = len(vals) - num_consts
    counts = []

    def flat_fwd(*a):
        outs, res = fwd(*a)
        counts[:] = [len(outs)]
        return [*outs, *res]

    def batched_fwd(*primals):
        both = _batched(flat_fwd, size, n)(*primals)
        return both[:counts[0]], both[counts[0]:]

    outs = bind(custom_vjp_p, *vals, jaxpr=new, fwd=batched_fwd, bwd=_batched_bwd(bwd, size),
                num_consts=num_consts, name=f"vmap({name})")
    return outs, [0] * len(outs)


def _custom_lin_transpose(cts, *args, num_res, bwd, out_avals, name):
    cts = [ops.zeros(a) if c is None else c for c, a in zip(cts, out_avals)]
    return [None] * num_res + list(bwd(list(args[:num_res]), cts))


def _custom_lin_vmap(size, vals, dims, *, num_res, bwd, out_avals, name):
    vals = [to_front(v, d, size) for v, d in zip(vals, dims)]
    avals = tuple(core.ShapedArray((size, *a.shape), a.dtype) for a in out_avals)
    outs = bind(custom_lin_p, *vals, num_res=num_res, bwd=_batched_bwd(bwd, size),
                out_avals=avals, name=name)
    return outs, [0] * len(outs)


def _custom_lin_jvp(primals, tangents, *, name, **params):
    _forward_mode_error(name=name)


jvp_rules[custom_vjp_p] = _custom_vjp_jvp
vmap_rules[custom_vjp_p] = _custom_vjp_vmap
jvp_rules[custom_lin_p] = _custom_lin_jvp
vmap_rules[custom_lin_p] = _custom_lin_vmap
transpose_rules[custom_lin_p] = _custom_lin_transpose


# ----------------------------------------------------------------------------- checkpoint

checkpoint_p = primitive("checkpoint", multiple_results=True)
define_call(checkpoint_p)


def checkpoint(fun):
    """`fun`, whose reverse mode saves its inputs and computes its intermediate
    values again in the backward pass, instead of saving them."""
    @functools.wraps(fun)
    def rematerialized(*args):
        jaxpr, captured, flat, _, out_tree = _staged(fun, args, "checkpoint")
        outs = bind(checkpoint_p, *captured, *flat, jaxpr=jaxpr, name=fun.__name__)
        return tree_unflatten(out_tree, outs)
    return rematerialized


@memoized
def _recomputing(known, unknown, num_res, num_known_outs):
    """The program `(known inputs, unknown inputs) -> unknown outputs` that computes
    the residuals from the known inputs first."""
    k = len(known.invars)

    def fun(*args):
        res = eval_jaxpr(known, args[:k])[num_known_outs:]
        return eval_jaxpr(unknown, [*res, *args[k:]])

    return stage_closed(fun, [*known.in_avals, *unknown.in_avals[num_res:]])


def _checkpoint_partial_eval(lin, args, *, jaxpr, name):
    unknowns = tuple(map(lin.owns, args))
    known, unknown, num_res, out_uk = partial_eval_jaxpr(jaxpr, unknowns,
                                                         (False,) * len(jaxpr.outvars))
    num_known_outs = len(known.outvars) - num_res
    known_args = [a for a, u in zip(args, unknowns) if not u]
    outputs_only = simplify(Jaxpr(known.invars, known.eqns, known.outvars[:num_known_outs]))
    with using(lin.prev):
        known_outs = bind(checkpoint_p, *known_args, jaxpr=outputs_only, name=name)
    atoms = [lin.atom(a) for a in known_args] + [lin.atom(a) for a, u in zip(args, unknowns) if u]
    unknown_outs = lin.emit(checkpoint_p, atoms, dict(
        jaxpr=_recomputing(known, unknown, num_res, num_known_outs), name=name))
    return merge(out_uk, known_outs, unknown_outs)


partial_eval_rules[checkpoint_p] = _checkpoint_partial_eval
