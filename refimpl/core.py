"""The core: abstract values, primitives, tracers, interpreters and `bind`.

Dispatch is by *context*, as in Autodidax 2: a single global names the current
interpreter, `bind(prim, *args, **params)` hands every primitive application to
it, and a transformation installs its interpreter while the user's function
runs.  An interpreter's rules run under the interpreter that was current when
it was created (its `prev`), so interpreters nest and compose.  Values that
belong to a different interpreter are constants to this one; that identity
check is what prevents perturbation confusion.

When no transformation is active the current interpreter is `EVAL`, and `bind`
calls NumPy directly: eager code pays one global read and one call per op.

Errors raised at trace time carry the user's source line (`user_location`),
found by walking the stack past this package's frames.
"""
import inspect
import linecache
import os
import sys

import numpy as np

_PKG_DIR = os.path.dirname(os.path.abspath(__file__))
_SKIP_DIRS = (_PKG_DIR, os.path.dirname(os.__file__))


class ShapedArray:
    """The abstract value of an array: its shape and dtype (a type in the IR)."""

    __slots__ = ("shape", "dtype")

    def __init__(self, shape, dtype):
        self.shape = tuple(shape)
        self.dtype = np.dtype(dtype)

    ndim = property(lambda self: len(self.shape))
    size = property(lambda self: prod(self.shape))

    def __eq__(self, other):
        return (isinstance(other, ShapedArray) and self.shape == other.shape
                and self.dtype == other.dtype)

    def __hash__(self):
        return hash((self.shape, self.dtype))

    def __str__(self):
        dtype = _DTYPE_NAMES.get(self.dtype.name, self.dtype.name)
        return f"{dtype}[{','.join(map(str, self.shape))}]"

    __repr__ = __str__


def prod(dims):
    """The product of dimensions (ints, or symbolic ones: `dims.Dim`)."""
    out = 1
    for d in dims:
        out = d * out
    return out


class ShapeDtypeStruct:
    """A stand-in for an argument of a given shape and dtype, as `jax.ShapeDtypeStruct`;
    its shape may hold dimension variables (`dims.symbolic_shape`)."""

    def __init__(self, shape, dtype):
        self.shape, self.dtype = tuple(shape), np.dtype(dtype)


class Var:
    """A variable of the IR (`ir.py`), here so `dims.DimVar` can be one too."""

    __slots__ = ("aval",)

    def __init__(self, aval):
        self.aval = aval

    shape = property(lambda self: self.aval.shape)
    dtype = property(lambda self: self.aval.dtype)
    ndim = property(lambda self: self.aval.ndim)

    def __repr__(self):
        return f"Var<{self.aval}>"


_DTYPE_NAMES = {"float64": "f64", "int64": "i64", "bool": "bool", "float32": "f32",
                "int32": "i32"}
float64 = np.dtype("float64")


def aval_of(x):
    """The abstract value of any value refimpl accepts: tracers, arrays, scalars."""
    if isinstance(x, Tracer):
        return x.aval
    if isinstance(x, (np.ndarray, np.generic, ShapeDtypeStruct)):
        return ShapedArray(x.shape, x.dtype)
    if isinstance(x, bool):
        return ShapedArray((), np.bool_)
    if isinstance(x, int):
        return ShapedArray((), np.int64)
    if isinstance(x, float):
        return ShapedArray((), float64)
    raise TypeError(f"refimpl cannot handle a value of type {type(x).__name__}: {x!r}\n"
                    f"  at {user_location()}")


def is_float(x):
    return aval_of(x).dtype.kind == "f"


# ----------------------------------------------------------------------------- errors

def user_location():
    """`file:line: code` of the innermost frame outside refimpl (and the stdlib)."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith(_SKIP_DIRS):
        frame = frame.f_back
    if frame is None:
        return "<unknown location>"
    fname, line = frame.f_code.co_filename, frame.f_lineno
    code = linecache.getline(fname, line).strip()
    return f"{fname}:{line}: {code}"


class ShapeError(TypeError):
    """Operands whose shapes or dtypes an operation cannot accept."""

    def __init__(self, msg):
        super().__init__(f"{msg}\n  at {user_location()}")


class ConcretizationError(TypeError):
    """A traced value was used where Python needs a concrete one (`if`, `float`)."""

    def __init__(self, msg):
        super().__init__(f"{msg}\n  at {user_location()}")


class UnexpectedTracerError(ValueError):
    """A tracer escaped the transformation that created it and was used later."""

    def __init__(self, tracer):
        super().__init__(
            f"Encountered a leaked tracer {type(tracer).__name__} with type {tracer.aval}: it was "
            f"created inside a transformation that has already finished (was it stored in a "
            f"global or a closure?)\n  at {user_location()}")


# ----------------------------------------------------------------------------- primitives

class Primitive:
    """A primitive operation.  Its NumPy `impl`, `shape_rule`, `cost` and the
    `source` template that jit compiles it to live here; the rules of each
    transformation live in that transformation's own table.

    `transposable` is False for a primitive that never applies to a tangent,
    so reverse mode needs no transpose rule for it: a nonlinear one (its JVP
    rule builds the tangent from other primitives) or one reverse mode refuses.
    `elementwise` is True for one that acts element by element on operands of
    one shape: vmap batches all of those by one rule (`vmap.elementwise_batch`),
    so such a primitive has its batching rule from its definition.  `partials`,
    where its definition gives them, are its JVP rule in one line per operand
    (`jvp.defjvp` registers them).
    """

    def __init__(self, name, multiple_results=False, transposable=True, elementwise=False):
        self.name = name
        self.multiple_results = multiple_results
        self.transposable = transposable
        self.elementwise = elementwise
        self.impl = self.shape_rule = self.cost = self.source = None
        self.partials = ()

    def __repr__(self):
        return self.name

    __str__ = __repr__


PRIMITIVES = []  # the closed list of primitives, in definition order


def primitive(name, multiple_results=False, transposable=True, elementwise=False):
    prim = Primitive(name, multiple_results, transposable, elementwise)
    PRIMITIVES.append(prim)
    return prim


# ----------------------------------------------------------------------------- interpreters

class Interpreter:
    """Gives meaning to primitive applications; `alive` until its transformation ends."""

    alive = True

    def process(self, prim, args, params):
        raise NotImplementedError


class EvalInterpreter(Interpreter):
    """Ordinary evaluation on concrete NumPy values."""

    def process(self, prim, args, params):
        return prim.impl(*args, **params)


EVAL = EvalInterpreter()
current = EVAL


class using:
    """Context manager: make `interp` the current interpreter for a while."""

    __slots__ = ("interp", "saved")

    def __init__(self, interp):
        self.interp = interp

    def __enter__(self):
        global current
        self.saved, current = current, self.interp

    def __exit__(self, *exc):
        global current
        current = self.saved


def bind(prim, *args, **params):
    """Apply `prim` in the current context: the one entry point of every op.

    Evaluation is IEEE arithmetic without warnings, as in JAX: 1 / 0 is inf,
    and a branch that vmap computes for examples that do not take it (a
    batched predicate) may divide by zero there, its results then discarded.
    NumPy would warn at each, and under `-W error` raise from a correct program.
    """
    interp = current
    if interp is EVAL:
        try:
            with np.errstate(all="ignore"):
                return prim.impl(*args, **params)
        except Exception as exc:
            if prim.multiple_results:  # a failure inside a sub-program: keep it as it is
                raise
            explain_eval_error(prim.name, args, exc)
    return interp.process(prim, args, params)


def explain_eval_error(name, args, exc):
    """Re-raise a NumPy failure as an error that names the op and the user's line."""
    for x in args:
        if isinstance(x, Tracer):
            raise UnexpectedTracerError(x) from exc
    try:
        shapes = " and ".join(str(aval_of(x)) for x in args)
    except TypeError:
        raise exc from None
    raise ShapeError(f"{name} cannot be applied to operands {shapes}: {exc}") from exc


def check_alive(x):
    if not x.interp.alive:
        raise UnexpectedTracerError(x)


# ----------------------------------------------------------------------------- tracers

class Tracer:
    """A value owned by an interpreter.  Python operators dispatch through the
    `numpy` wrappers, so they are interpreted by whatever context is current."""

    __slots__ = ("interp",)
    __array_ufunc__ = None  # make NumPy defer to our reflected operators
    __array_priority__ = 1000

    shape = property(lambda self: self.aval.shape)
    dtype = property(lambda self: self.aval.dtype)
    ndim = property(lambda self: len(self.aval.shape))
    size = property(lambda self: self.aval.size)

    def concrete(self):
        """The concrete value behind this tracer, or a ConcretizationError."""
        raise NotImplementedError

    def __bool__(self):
        return bool(self.concrete())

    def __float__(self):
        return float(self.concrete())

    def __int__(self):
        return int(self.concrete())

    def __index__(self):
        return int(self.concrete())

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of a 0-d array")
        return self.shape[0]

    def __repr__(self):
        return f"{type(self).__name__}<{self.aval}>"

    __hash__ = object.__hash__


class PairInterpreter(Interpreter):
    """An interpreter whose tracers pair a value with one more part: JVP's
    tangent, vmap's batch axis.  A part of `None` (a symbolic zero tangent, an
    unbatched value) needs no tracer, and an operation none of whose operands
    has a part runs unchanged in `prev`; the others go to the rule in `rules`.
    Subclasses set `tracer` (built as `tracer(interp, value, part)`, with a
    `parts()` method), `rules`, `kind` (for the missing-rule error) and
    `apply_rule`.
    """

    tracer, rules, kind = None, None, None

    def __init__(self, prev):
        self.prev = prev

    def lift(self, x):
        """`(value, part)` of `x`; values of other interpreters are constants here."""
        if isinstance(x, self.tracer) and x.interp is self:
            return x.parts()
        if isinstance(x, Tracer):
            check_alive(x)
        return x, None

    def wrap(self, value, part):
        return value if part is None else self.tracer(self, value, part)

    def process(self, prim, args, params):
        values, parts = zip(*map(self.lift, args)) if args else ((), ())
        with using(self.prev):
            if all(p is None for p in parts):
                return bind(prim, *values, **params)
            rule = self.rules.get(prim)
            if rule is None:
                raise NotImplementedError(f"no {self.kind} rule for {prim.name}")
            out, out_part = self.apply_rule(rule, values, parts, params)
        if prim.multiple_results:
            return [self.wrap(v, p) for v, p in zip(out, out_part)]
        return self.wrap(out, out_part)

    def run(self, fun, values, parts):
        """Run a flat function on `values` paired with `parts`; returns the
        outputs and their parts.  The interpreter dies when `fun` returns."""
        try:
            with using(self):
                outs = fun(*map(self.wrap, values, parts))
            return tuple(zip(*map(self.lift, outs))) or ((), ())
        finally:
            self.alive = False


def concrete(x):
    """A concrete value for `x`, looking through tracers that carry one."""
    return x.concrete() if isinstance(x, Tracer) else x


def check_call(fun, args, what="the function"):
    """A clear error, naming the user's line, when `fun` cannot take `args`."""
    try:
        sig = inspect.signature(fun)
    except (TypeError, ValueError):
        return
    try:
        sig.bind(*args)
    except TypeError as exc:
        name = getattr(fun, "__name__", repr(fun))
        raise TypeError(f"{what} {name}{sig} cannot be called with {len(args)} positional "
                        f"argument(s): {exc}\n  at {user_location()}") from None
