"""Transformation: forward-mode differentiation (JVP).

A `JVPTracer` pairs a primal with a tangent; the interpreter's rules compute
both with ordinary `bind`s run under the interpreter that was current when this
one started, so the primal is concrete whenever the caller's values are
(Python `if` on values works) and nested JVPs compose.  A tangent of `None` is
a *symbolic zero*: values that do not depend on the inputs (constants, integer
and boolean results, tracers of other interpreters) carry no tangent work.
Values of other interpreters are constants here: that check, `x.interp is
self`, is what keeps nested derivatives free of perturbation confusion.

`jvp_jaxpr` transforms a closed program (for jit, cond and loop bodies).
Tests: tests/refimpl/test_refimpl_ops.py, test_refimpl_transforms.py (nesting).
"""
from functools import partial

import numpy as np

from . import core, ops
from . import primitives as P
from .core import PRIMITIVES, PairInterpreter, Tracer, aval_of, bind, check_call, concrete
from .ir import eval_jaxpr, memoized
from .pytree import flatten_fun, tree_flatten, tree_unflatten
from .staging import stage_closed

jvp_rules = {}


class JVPTracer(Tracer):
    __slots__ = ("primal", "tangent")

    def __init__(self, interp, primal, tangent):
        self.interp, self.primal, self.tangent = interp, primal, tangent

    aval = property(lambda self: aval_of(self.primal))

    def concrete(self):
        return concrete(self.primal)

    def parts(self):
        return self.primal, self.tangent


class JVPInterpreter(PairInterpreter):
    tracer, rules, kind = JVPTracer, jvp_rules, "jvp"

    def apply_rule(self, rule, primals, tangents, params):
        return rule(primals, tangents, **params)


def jvp_flat(fun, primals, tangents):
    """JVP of a flat function; output tangents of None are symbolic zeros."""
    return JVPInterpreter(core.current).run(fun, primals, tangents)


def jvp(fun, primals, tangents):
    """`(fun(*primals), J(primals) @ tangents)` for pytrees of arrays."""
    primals, tangents = tuple(primals), tuple(tangents)
    flat_p, tree = tree_flatten(primals)
    flat_t, tree_t = tree_flatten(tangents)
    if tree != tree_t:
        raise core.ShapeError(f"jvp: primals and tangents have different structures: "
                              f"{len(primals)} primals, {len(tangents)} tangents")
    for p, t in zip(flat_p, flat_t):
        if aval_of(p).shape != aval_of(t).shape:
            raise core.ShapeError(f"jvp: a primal of type {aval_of(p)} got a tangent of type "
                                  f"{aval_of(t)}")
    check_call(fun, primals)
    flat_fun, out_tree = flatten_fun(fun, tree)
    outs, outs_t = jvp_flat(flat_fun, flat_p, flat_t)
    outs_t = [instantiate(t, p) for p, t in zip(outs, outs_t)]
    return tree_unflatten(out_tree(), outs), tree_unflatten(out_tree(), outs_t)


def instantiate(t, like):
    """Make a symbolic zero tangent a real array of zeros."""
    return ops.zeros(aval_of(like)) if t is None else t


@memoized
def jvp_jaxpr(jaxpr, nonzeros, instantiate_out):
    """The program `(primals, nonzero tangents) -> (outs, nonzero out tangents)`.

    Returns it with the mask of output tangents that are nonzero; an output is
    forced nonzero where `instantiate_out` says so (and it is a float).
    """
    n, out_nz = len(jaxpr.invars), []

    def fun(*args):
        it = iter(args[n:])
        tangents = [next(it) if nz else None for nz in nonzeros]
        outs, outs_t = jvp_flat(lambda *a: eval_jaxpr(jaxpr, a), args[:n], tangents)
        outs_t = [instantiate(t, p) if inst and t is None and aval_of(p).dtype.kind == "f"
                  else t for p, t, inst in zip(outs, outs_t, instantiate_out)]
        out_nz[:] = [t is not None for t in outs_t]
        return list(outs) + [t for t in outs_t if t is not None]

    avals = jaxpr.in_avals + [a for a, nz in zip(jaxpr.in_avals, nonzeros) if nz]
    return stage_closed(fun, avals), tuple(out_nz)


# ----------------------------------------------------------------------------- rules

def _add_tangents(a, b):
    return b if a is None else a if b is None else ops.add(a, b)


def _linear_jvp(prim, primals, tangents, **params):
    """Linear primitives: the tangent is the same op applied to the tangents."""
    tangents = [instantiate(t, p) for p, t in zip(primals, tangents)]
    return bind(prim, *primals, **params), bind(prim, *tangents, **params)


def defjvp(prim, *partials):
    """Register a JVP rule from one `(tangent, out, *primals) -> contribution` per operand."""
    def rule(primals, tangents, **params):
        out = bind(prim, *primals, **params)
        total = None
        for d, t in zip(partials, tangents):
            if t is not None and d is not None:
                total = _add_tangents(total, d(t, out, *primals, **params))
        return out, total
    jvp_rules[prim] = rule


def deflinear(prim):
    """Register the JVP rule of a linear primitive: the same primitive on the tangents."""
    jvp_rules[prim] = partial(_linear_jvp, prim)


for _p in (P.neg_p, P.reduce_sum_p, P.transpose_p, P.reshape_p,
           P.broadcast_in_dim_p, P.concatenate_p, P.slice_p, P.cumsum_p, P.rev_p):
    deflinear(_p)


def _add_jvp(primals, tangents):
    """Shapes are equal (broadcasts are explicit), so a zero tangent simply drops out."""
    return ops.add(*primals), _add_tangents(*tangents)


jvp_rules[P.add_p] = _add_jvp


def _sub_jvp(primals, tangents):
    tx, ty = tangents
    return ops.sub(*primals), _add_tangents(tx, None if ty is None else ops.neg(ty))


jvp_rules[P.sub_p] = _sub_jvp

# The elementwise primitives whose rule is one line per operand (mul, div, sin,
# cos, tanh, exp, log, sqrt) give it where they are defined (`primitives.py`).
for _p in PRIMITIVES:
    if _p.partials:
        defjvp(_p, *_p.partials)


def _integer_pow_partial(t, out, x, *, y):
    if y == 0:
        return None
    if y == 1:
        return t
    if y == 2:
        return ops.mul(t, ops.add(x, x))
    return ops.mul(t, ops.mul(ops.full_like(x, float(y)), ops.integer_pow(x, y - 1)))


defjvp(P.integer_pow_p, _integer_pow_partial)


def _extremum_jvp(prim, wins, primals, tangents):
    """The tangent of the operand that wins (the larger for max, the smaller for
    min): one comparison and one select per element.

    At x == y neither has a derivative; this rule takes y's tangent there (JAX
    averages the two, at twice the comparisons and four selects).  jaxcheck's
    generated programs keep the operands of `maximum` and `minimum` apart.
    """
    x, y = primals
    if all(t is None for t in tangents):
        return bind(prim, x, y), None
    tx, ty = (instantiate(t, p) for t, p in zip(tangents, primals))
    return bind(prim, x, y), ops.select_n(bind(wins, x, y), ty, tx)


jvp_rules[P.max_p] = partial(_extremum_jvp, P.max_p, P.gt_p)
jvp_rules[P.min_p] = partial(_extremum_jvp, P.min_p, P.lt_p)


def _chooser_jvp(prim, loses, primals, tangents, *, axes):
    """reduce_max's (or reduce_min's) tangent: the mean of the tangents of the
    elements it chose, so a tie shares it equally, as JAX's rule does.  `loses`
    tells an element that was not chosen (below the max, above the min)."""
    (x,), (t,) = primals, tangents
    out = bind(prim, x, axes=axes)
    if t is None:
        return out, None
    shape = aval_of(x).shape
    kept = [i for i in range(len(shape)) if i not in axes]
    chosen = ops.select_n(bind(loses, x, ops.broadcast_in_dim(out, shape, kept)),
                          ops.full_like(x, 1.0), ops.full_like(x, 0.0))
    return out, ops.div(ops.reduce_sum(ops.mul(t, chosen), axes), ops.reduce_sum(chosen, axes))


jvp_rules[P.reduce_max_p] = partial(_chooser_jvp, P.reduce_max_p, P.lt_p)
jvp_rules[P.reduce_min_p] = partial(_chooser_jvp, P.reduce_min_p, P.gt_p)

# abs's slope is +1 at 0, as JAX's: the tangent, negated where x < 0.
defjvp(P.abs_p, lambda t, out, x: ops.select_n(ops.lt(x, ops.full_like(x, 0.0)), t, ops.neg(t)))
defjvp(P.dot_general_p, lambda t, out, x, y, **p: ops.dot_general(t, y, **p),
        lambda t, out, x, y, **p: ops.dot_general(x, t, **p))


def _select_n_jvp(primals, tangents):
    which, *cases = primals
    out = ops.select_n(which, *cases)
    if all(t is None for t in tangents[1:]):
        return out, None
    return out, ops.select_n(which, *[instantiate(t, c) for c, t in zip(cases, tangents[1:])])


jvp_rules[P.select_n_p] = _select_n_jvp


def _no_tangent_jvp(prim, primals, tangents, **params):
    """Boolean and integer results carry no tangent."""
    return bind(prim, *primals, **params), None


jvp_rules[P.gt_p] = partial(_no_tangent_jvp, P.gt_p)
jvp_rules[P.lt_p] = partial(_no_tangent_jvp, P.lt_p)
jvp_rules[P.argsort_p] = partial(_no_tangent_jvp, P.argsort_p)


def gather_jvp(prim, primals, tangents, **params):
    """Linear in the operand; the integer indices carry no tangent."""
    (x, indices), (t, _) = primals, tangents
    return bind(prim, x, indices, **params), None if t is None else bind(prim, t, indices,
                                                                           **params)


jvp_rules[P.take_along_axis_p] = partial(gather_jvp, P.take_along_axis_p)
jvp_rules[P.scatter_add_p] = partial(gather_jvp, P.scatter_add_p)


def _convert_jvp(primals, tangents, *, new_dtype):
    (x,), (t,) = primals, tangents
    out = ops.convert_element_type(x, new_dtype)
    float_to_float = np.dtype(new_dtype).kind == "f" and aval_of(x).dtype.kind == "f"
    return out, ops.convert_element_type(t, new_dtype) if float_to_float else None


jvp_rules[P.convert_element_type_p] = _convert_jvp


def _solve_jvp(primals, tangents):
    """x = a^-1 b; its tangent a^-1 (tb - ta x): one more solve and a product."""
    (a, b), (ta, tb) = primals, tangents
    x = ops.solve(a, b)
    if ta is None and tb is None:
        return x, None
    rhs = instantiate(tb, b) if ta is None else ops.sub(instantiate(tb, b), ops.matmul(ta, x))
    return x, ops.solve(a, rhs)


jvp_rules[P.solve_p] = _solve_jvp
# Jacobi's formula: d det(a) = det(a) trace(a^-1 da).
defjvp(P.det_p, lambda t, out, a: ops.mul(out, ops.trace(ops.solve(a, t))))


def _cholesky_jvp(t, l, a):
    """dl = l phi(l^-1 da l^-T), phi keeping the strict lower triangle and half the
    diagonal: two solves and a product, for a symmetric da."""
    inner = ops.matrix_transpose(ops.solve(l, ops.matrix_transpose(ops.solve(l, t))))
    phi = np.tri(np.shape(l)[-1], k=-1) + np.eye(np.shape(l)[-1]) / 2
    return ops.matmul(l, ops.mul(inner, np.broadcast_to(phi.astype(aval_of(l).dtype), np.shape(l))))


defjvp(P.cholesky_p, _cholesky_jvp)


def _pad_jvp(primals, tangents, *, padding_config):
    (x, v), (tx, tv) = primals, tangents
    t = ops.pad(instantiate(tx, x), instantiate(tv, v), padding_config)
    return ops.pad(x, v, padding_config), t


jvp_rules[P.pad_p] = _pad_jvp
