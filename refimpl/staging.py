"""Staging: trace a Python function into a typed IR program, closure-converted.

The staging interpreter gives each primitive application a fresh typed
variable and records an equation; its tracers are abstract (shape and dtype
only), so Python control flow on them raises a `ConcretizationError` naming the
user's line.  Values the function uses but does not receive are handled by
*closure conversion*: a tracer of an enclosing interpreter becomes a new input
variable (returned as `captured`, to be passed explicitly by the caller, e.g.
as operands of `jit`, `cond` or `scan`), and a concrete array becomes a
`Literal`.  So every staged program is closed.  Tests:
tests/refimpl/test_refimpl_transforms.py, test_refimpl_errors.py.
"""
from . import core
from .core import ConcretizationError, Interpreter, Tracer, check_alive, using
from .ir import Eqn, Jaxpr, Literal, Var, simplify, typecheck
from .pytree import argnums_tuple, dynamic_positions, flatten_fun, partial_args, tree_flatten


class StagedTracer(Tracer):
    __slots__ = ("var",)

    def __init__(self, interp, var):
        self.interp, self.var = interp, var

    aval = property(lambda self: self.var.aval)

    def concrete(self):
        raise ConcretizationError(
            f"A traced value of type {self.aval} was used where Python needs a concrete value "
            f"(an `if`, `while`, bool(), float(), ...) inside {self.interp.what}, where values "
            f"are abstract. Use lax.cond / lax.while_loop / lax.fori_loop, or make the "
            f"argument static (jit's static_argnums).")


class Staging(Interpreter):
    """Records every primitive application as an equation."""

    def __init__(self, prev, what="jit"):
        self.prev, self.what = prev, what
        self.eqns, self.captures = [], {}

    def owns(self, x):
        return isinstance(x, StagedTracer) and x.interp is self

    def new_arg(self, aval):
        return StagedTracer(self, Var(aval))

    def atom(self, x):
        """The IR operand for `x`, capturing foreign tracers as new inputs."""
        if isinstance(x, StagedTracer) and x.interp is self:
            return x.var
        if isinstance(x, Tracer):
            check_alive(x)
            hit = self.captures.get(id(x))
            if hit is None:
                hit = self.captures[id(x)] = (x, Var(x.aval))
            return hit[1]
        return Literal(x)

    def process(self, prim, args, params):
        return self.emit(prim, [self.atom(x) for x in args], params)

    def emit(self, prim, atoms, params):
        """Append `prim` applied to IR atoms; its shape rule types the outputs."""
        out = prim.shape_rule(*[a.aval for a in atoms], **params)
        outvars = [Var(a) for a in (out if prim.multiple_results else [out])]
        self.eqns.append(Eqn(prim, atoms, outvars, params))
        outs = [StagedTracer(self, v) for v in outvars]
        return outs if prim.multiple_results else outs[0]

    def build(self, arg_tracers, outs):
        """The closed program: inputs are the captured values, then the arguments."""
        outvars = [self.atom(x) for x in outs]
        captured = list(self.captures.values())
        invars = [v for _, v in captured] + [t.var for t in arg_tracers]
        return typecheck(simplify(Jaxpr(invars, self.eqns, outvars))), [t for t, _ in captured]


def stage(fun, in_avals, what="jit"):
    """Trace `fun` (flat list of arguments -> flat list of results) to a program.

    Returns `(jaxpr, captured)`: the program's first inputs stand for the
    `captured` tracers of enclosing interpreters, the rest for `fun`'s arguments.
    """
    interp = Staging(core.current, what)
    args = [interp.new_arg(a) for a in in_avals]
    try:
        with using(interp):
            outs = fun(*args)
        return interp.build(args, outs)
    finally:
        interp.alive = False


def stage_tree_fun(fun, in_tree, in_avals, what):
    """Stage a function of pytrees (leaves typed `in_avals`); returns
    `(jaxpr, captured, out_tree)`."""
    flat_fun, out_tree = flatten_fun(fun, in_tree)
    jaxpr, captured = stage(flat_fun, in_avals, what)
    return jaxpr, captured, out_tree()


def stage_closed(fun, in_avals):
    """Stage a function known to capture nothing (it only interprets closed programs)."""
    jaxpr, captured = stage(fun, in_avals, "a transformed program")
    assert not captured, captured
    return jaxpr


def make_jaxpr(fun, static_argnums=()):
    """`make_jaxpr(f)(*args)`: the typed program `f` stages to on `args`' types."""
    static = argnums_tuple(static_argnums)

    def traced(*args):
        dynamic = dynamic_positions(args, static)
        flat, tree = tree_flatten(tuple(args[i] for i in dynamic))
        jaxpr, captured, _ = stage_tree_fun(partial_args(fun, args, dynamic), tree,
                                            [core.aval_of(x) for x in flat], "make_jaxpr")
        k = len(captured)
        return Jaxpr(jaxpr.invars[k:], jaxpr.eqns, jaxpr.outvars, jaxpr.invars[:k], captured)

    return traced
