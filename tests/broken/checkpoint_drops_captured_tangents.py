"""Broken SUT: `checkpoint` treats the values its function captures as constants.

refimpl's `checkpoint` with the captured values (closure-converted into
leading operands) passed through `stop_gradient`: the function's values are
right, and so are its derivatives by its arguments, but a derivative by a
value it reads from an enclosing scope is lost.  JAX and refimpl
differentiate through captured values as through arguments.

Family: custom_rule.  Smallest input: `grad(lambda y: checkpoint(lambda x: x * y)(2.0))(3.0)`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, numpy, vjp, vmap  # noqa: F401
from refimpl.core import aval_of, bind
from refimpl.custom import checkpoint_p, stop_gradient
from refimpl.pytree import tree_flatten, tree_unflatten
from refimpl.staging import stage_tree_fun
from tests.broken import Witness

FAMILY = "custom_rule"
WITNESS = Witness("grad(lambda y: checkpoint(lambda x: x * y)(2.0))(3.0)")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def checkpoint(fun):
    def rematerialized(*args):
        flat, tree = tree_flatten(args)
        jaxpr, captured, out_tree = stage_tree_fun(fun, tree, [aval_of(x) for x in flat],
                                                   "checkpoint")
        outs = bind(checkpoint_p, *map(stop_gradient, captured), *flat, jaxpr=jaxpr,
                    name=fun.__name__)
        return tree_unflatten(out_tree, outs)
    return rematerialized
