"""Transformations built from the others, as JAX builds them: `linearize`,
`jacfwd`, `jacrev`, `hessian`.

`linearize` stages the tangent program once (`linearize.py`, the first half
of reverse mode) and returns it as a function, so each later tangent costs
one evaluation of the linear program, not a new trace.  `jacfwd` pushes one
basis tangent per element of each differentiated input forward and
`jacrev` pulls one basis cotangent per element of each output back, each
family of them batched by one `vmap`: a Jacobian is one batched pass, not a
Python loop of passes.  `hessian` is `jacfwd` of `jacrev`: forward over
reverse, the cheaper order for the scalar losses a Hessian is mostly taken of.

A Jacobian of an output of shape `o` with respect to an input of shape `s`
has shape `o + s`.  For several outputs or differentiated inputs the result
nests as JAX's does: the output's structure outside, the inputs' inside.
Tests: tests/refimpl/test_refimpl_jacobians.py.
"""
from math import prod

import numpy as np

from . import numpy as rnp
from . import ops
from .core import ShapeError, aval_of, check_call
from .ir import eval_jaxpr
from .jvp import jvp
from .linearize import linearize_flat
from .pytree import flatten_fun, partial_args, tree_flatten, tree_unflatten
from .transpose import differentiated, vjp
from .vmap import vmap


def linearize(fun, *primals):
    """`(fun(*primals), f_jvp)`, where `f_jvp(*tangents)` is the tangent of the
    output along `tangents` (one per primal, as `jvp`'s): the linear program
    is staged here, once, and each call of `f_jvp` only evaluates it."""
    check_call(fun, primals)
    flat, in_tree = tree_flatten(primals)
    flat_fun, out_tree = flatten_fun(fun, in_tree)
    outs, jaxpr, residuals = linearize_flat(flat_fun, flat, reverse=False)

    def f_jvp(*tangents):
        flat_t, tree = tree_flatten(tangents)
        if tree != in_tree or any(aval_of(t).shape != aval_of(p).shape
                                  for t, p in zip(flat_t, flat)):
            raise ShapeError(f"linearize: f_jvp takes one tangent per primal, of the primal's "
                             f"shape ({[str(aval_of(p)) for p in flat]})")
        return tree_unflatten(out_tree(), eval_jaxpr(jaxpr, [*residuals, *flat_t]))

    return tree_unflatten(out_tree(), outs), f_jvp


def _basis(x):
    """The unit arrays of `x`'s shape, one per element, stacked on a leading axis."""
    shape = aval_of(x).shape
    return np.eye(prod(shape)).reshape(prod(shape), *shape)


def _nest(out_tree, per_output, in_tree, argnums):
    """`per_output[j][k]`, the Jacobian of output leaf j by input leaf k, nested
    as JAX nests it: the inputs' structure inside each output leaf."""
    inner = [tree_unflatten(in_tree, row) for row in per_output]
    if isinstance(argnums, int):
        inner = [row[0] for row in inner]
    return tree_unflatten(out_tree, inner)


def jacfwd(fun, argnums=0):
    """The Jacobian of `fun` by forward mode: `vmap` of `jvp` over basis tangents."""
    def jacobian(*args):
        nums = differentiated(argnums, args, "jacfwd")
        flat, in_tree = tree_flatten(tuple(args[i] for i in nums))
        flat_fun, out_tree = flatten_fun(partial_args(fun, args, nums), in_tree)
        columns = []
        for k, x in enumerate(flat):
            def pushforward(t, k=k):
                tangents = [t if i == k else ops.zeros(aval_of(p)) for i, p in enumerate(flat)]
                return jvp(flat_fun, flat, tangents)[1]
            outs = vmap(pushforward, out_axes=-1)(_basis(x))
            columns.append([rnp.reshape(y, (*aval_of(y).shape[:-1], *aval_of(x).shape))
                            for y in outs])
        return _nest(out_tree(), list(zip(*columns)), in_tree, argnums)

    return jacobian


def jacrev(fun, argnums=0):
    """The Jacobian of `fun` by reverse mode: `vmap` of the pullback over basis
    cotangents."""
    def jacobian(*args):
        nums = differentiated(argnums, args, "jacrev")
        chosen = tuple(args[i] for i in nums)
        in_tree = tree_flatten(chosen)[1]
        out, pullback = vjp(partial_args(fun, args, nums), *chosen)
        flat_out, out_tree = tree_flatten(out)
        rows = []
        for j, y in enumerate(flat_out):
            def pullback_one(u, j=j):
                cts = [u if i == j else ops.zeros(aval_of(o)) for i, o in enumerate(flat_out)]
                return tree_flatten(pullback(tree_unflatten(out_tree, cts)))[0]
            shape = aval_of(y).shape
            rows.append([rnp.reshape(g, (*shape, *aval_of(g).shape[1:]))
                         for g in vmap(pullback_one)(_basis(y))])
        return _nest(out_tree, rows, in_tree, argnums)

    return jacobian


def hessian(fun, argnums=0):
    """`jacfwd(jacrev(fun))`: each output's second derivatives, of shape `o + s + s`."""
    return jacfwd(jacrev(fun, argnums), argnums)
