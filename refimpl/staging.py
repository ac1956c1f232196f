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
from .dims import DimVar, InconclusiveDimensionError
from .ir import Eqn, Jaxpr, Literal, Var, program_dims, simplify, typecheck
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

    knows_dims = True  # its values of dimension variables are known ones (not tangents)

    def __init__(self, prev, what="jit"):
        self.prev, self.what = prev, what
        self.eqns, self.captures, self.bound = [], {}, set()

    def owns(self, x):
        return isinstance(x, StagedTracer) and x.interp is self

    def new_arg(self, aval):
        """An input typed `aval`; the input of type `DimType(n)` is `n` itself."""
        var = getattr(getattr(aval, "dim", None), "var", None)
        var = var if var is not None and id(var) not in self.bound else Var(aval)
        self.bound.add(id(var))
        return StagedTracer(self, var)

    def atom(self, x):
        """The IR operand for `x`, capturing foreign tracers as new inputs (a
        dimension variable as itself: one symbol in every program)."""
        if isinstance(x, StagedTracer) and x.interp is self:
            return x.var
        if isinstance(x, (Tracer, DimVar)):
            if isinstance(x, Tracer):
                check_alive(x)
            key = capture_key(x)
            hit = self.captures.get(key)
            if hit is None:
                dim = x if isinstance(x, DimVar) else x.var if key != id(x) else None
                hit = self.captures[key] = (x, dim or Var(x.aval))
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
        """The closed program: inputs are the captured values, then the arguments.
        A dimension variable its types mention but no input binds is captured
        too, from the nearest enclosing staging: the implicit argument."""
        outvars = [self.atom(x) for x in outs]
        draft = Jaxpr([v for _, v in self.captures.values()] + [t.var for t in arg_tracers],
                      self.eqns, outvars)
        for key, var in program_dims(draft).items():
            if key not in self.bound and key not in self.captures:
                self.atom(dim_tracer(self.prev, var))
        captured = list(self.captures.values())
        invars = [v for _, v in captured] + [t.var for t in arg_tracers]
        return typecheck(simplify(Jaxpr(invars, self.eqns, outvars))), [t for t, _ in captured]


def capture_key(x):
    """Captures are one per tracer, and one per dimension variable however reached."""
    var = x if isinstance(x, DimVar) else getattr(x, "var", None)
    return id(var) if isinstance(var, DimVar) else id(x)


def dim_tracer(interp, var):
    """The value of dimension variable `var` in context `interp`: the tracer of the
    nearest staging that knows it, or `var` itself at the top (whose caller
    solves it from the arguments' shapes, as `jit` and `export` do)."""
    while interp is not None and not getattr(interp, "knows_dims", False):
        interp = getattr(interp, "prev", None)
    return var if interp is None else StagedTracer(interp, var)


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
    if captured:
        raise InconclusiveDimensionError(
            f"a transformed sub-program needs the dimensions {[str(c) for c in captured]} "
            f"as extra inputs (a symbolic batch size of vmap over a loop or branch?); use a "
            f"concrete size there")
    return jaxpr


def make_jaxpr(fun, static_argnums=()):
    """`make_jaxpr(f)(*args)`: the typed program `f` stages to on `args`' types.

    An argument may be a `ShapeDtypeStruct` whose shape holds dimension
    variables (`dims.symbolic_shape`), as in JAX: the program is then one for
    every size, and takes each variable as a leading `n:i64[]` input.  That
    spec, rather than `make_jaxpr(f, abstracted_axes=...)`, because it is
    JAX's stable API (`jax.export`'s), so the same test runs on both."""
    static = argnums_tuple(static_argnums)

    def traced(*args):
        dynamic = dynamic_positions(args, static)
        flat, tree = tree_flatten(tuple(args[i] for i in dynamic))
        jaxpr, captured, _ = stage_tree_fun(partial_args(fun, args, dynamic), tree,
                                            [core.aval_of(x) for x in flat], "make_jaxpr")
        consts = [i for i, c in enumerate(captured) if not isinstance(c, DimVar)]
        dims = [v for v, c in zip(jaxpr.invars, captured) if isinstance(c, DimVar)]
        return Jaxpr(dims + jaxpr.invars[len(captured):], jaxpr.eqns, jaxpr.outvars,
                     [jaxpr.invars[i] for i in consts], [captured[i] for i in consts])

    return traced
