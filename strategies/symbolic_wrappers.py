"""Shape-polymorphic staging of a generated program, rendered as source.

Each function returns the source of a wrapper that stages `f` (or a
transformation of it) once through the contract's optional part
(docs/sut-api.md, "Shape-polymorphic staging": `sut.export.export` on
`sut.ShapeDtypeStruct`s of `sut.export.symbolic_shape` dimensions) and calls
the staged program at every size assignment of a `symbolic.SymbolicCase`,
beside `concrete(...)`, the same transformation staged by `sut.jit` at each
size.  Names: inputs `x<i>_<a>` (input i at assignment a), tangents
`t<i>_<a>`, loss weights `w<k>_<a>`.
"""

from __future__ import annotations

from strategies.language.transformations import GRAD, JIT, JVP, VMAP
from strategies.symbolic import SymbolicCase
from strategies.wrappers import Wrapper, define, names, tuple_of

# What `staged` can stage: f itself, or its jvp, grad (of a weighted loss) or vmap
# (tests/meta/test_tables.py holds it to strategies/language/transformations.py).
TRANSFORMS = ("value", "jvp", "grad", "vmap")


def _shape(axes, shape, batch=None) -> str:
    dims = [name or str(size) for name, size in zip(axes, shape)]
    return tuple_of(([str(batch)] if batch else []) + dims) if dims or batch else "()"


def _specs(case: SymbolicCase, shapes, axes, batch=None) -> list[str]:
    return [f"sut.ShapeDtypeStruct({_shape(ax, s, batch)}, np.float64)"
            for ax, s in zip(axes, shapes)]


def _variables(case: SymbolicCase, extra=()) -> str:
    """`n, m = sut.export.symbolic_shape("n, m")`: one scope for every variable."""
    names_ = [*case.variables, *extra]
    return f"{', '.join(names_)}, = sut.export.symbolic_shape({', '.join(names_)!r})"


def _function(case: SymbolicCase, transform: str, f: str = "f"):
    """(lines defining `fun` from the function called `f`, its params' prefixes,
    and their symbolic axes)."""
    k, xs = len(case.program.inputs), names("x", len(case.program.inputs))
    outs = case.out_axes()
    if transform == "jvp":
        ts = names("t", k)
        return ([f"def fun({', '.join(xs + ts)}):",
                 f"    return {JVP.call(f, tuple_of(xs), tuple_of(ts))}"], ["x", "t"],
                [case.axes, case.axes])
    if transform == "grad":
        ws = names("w", len(outs))
        ys = names("y", len(outs))
        terms = " + ".join(f"jnp.sum(jnp.multiply({y}, {w}))" for y, w in zip(ys, ws))
        return ([f"def loss({', '.join(xs + ws)}):",
                 f"    {', '.join(ys)}, = _tupled({f}({', '.join(xs)}))",
                 f"    return {terms}",
                 f"fun = {GRAD.call('loss', f'argnums={tuple(range(k))!r}')}"], ["x", "w"],
                [case.axes, [tuple(a if isinstance(a, str) else None for a in o) for o in outs]])
    if transform == "vmap":
        return ([f"fun = {VMAP.call(f)}"], ["x"], [case.axes])
    return ([f"fun = {f}"], ["x"], [case.axes])


def arguments(case: SymbolicCase, transform: str, a: int) -> list[str]:
    """The argument names of `fun` at assignment `a`."""
    _, prefixes, axes = _function(case, transform)
    return [f"{p}{i}_{a}" for p, ax in zip(prefixes, axes) for i in range(len(ax))]


def staged(case: SymbolicCase, transform: str, shapes_at, report="values") -> Wrapper:
    """`check(...)`: `fun` exported once and called at every assignment, returning
    the values (`report="values"`) or the count of `f`'s Python runs and the
    staged types, a symbolic dimension as -1 (`"types"`); `concrete(...)`:
    `sut.jit(fun)` at every assignment.  `shapes_at(a)` gives the unbatched
    argument shapes of `fun` at assignment a (the drawing one first)."""
    lines, prefixes, axes = _function(case, transform, "counted")
    batch = 2 if transform == "vmap" else None
    flat_axes = [ax for group in axes for ax in group]
    specs = _specs(case, shapes_at(0), flat_axes, batch)
    params = [x for a in range(len(case.sizes)) for x in arguments(case, transform, a)]
    calls = [f"exported.call({', '.join(arguments(case, transform, a))})"
             for a in range(len(case.sizes))]
    jitted = [f"{JIT.call('fun')}({', '.join(arguments(case, transform, a))})"
              for a in range(len(case.sizes))]
    k = len(case.program.inputs)
    body = ["runs = []",
            f"def counted({', '.join(names('x', k))}):",
            "    runs.append(None)  # one Python run of f per staging",
            f"    return f({', '.join(names('x', k))})",
            *lines, _variables(case),
            f"exported = sut.export.export({JIT.call('fun')})({', '.join(specs)})",
            f"values = {tuple_of(calls)}",
            "return values" if report == "values" else
            "return len(runs), _dims(exported.in_avals), _dims(exported.out_avals)"]
    helpers = ("def _tupled(y):\n    return y if isinstance(y, tuple) else (y,)\n\n\n"
               "def _dims(avals):\n"
               "    return [[d if isinstance(d, int) else -1 for d in a.shape] for a in avals]\n")
    source = "\n\n".join([helpers, define("check", params, body),
                          define("concrete", params, [*_function(case, transform)[0],
                                                      f"return {tuple_of(jitted)}"])])
    return Wrapper(source, f"check({', '.join(params)})")


def refused(case: SymbolicCase, how: str) -> Wrapper:
    """A call a correct SUT refuses: `mixed` stages f on two copies of its inputs whose
    variables differ (n and n2) and adds the copies' first output with a
    symbolic axis (or input, if none has); `same` is its control, one set of
    variables, which a correct SUT stages; `int` stages f after a Python loop
    bounded by a symbolic size; `zero` and `mismatch` call the staged f with
    a variable at size 0, or with an extra argument `y: f64[n]` one longer
    than n."""
    k, xs = len(case.program.inputs), names("x", len(case.program.inputs))
    shapes = case.shapes_at(0)
    specs = _specs(case, shapes, case.axes)
    if how in ("mixed", "same"):
        suffix = "2" if how == "mixed" else ""
        renamed = [tuple(v and f"{v}{suffix}" for v in ax) for ax in case.axes]
        ys = names("y", k)
        outs = case.out_axes()
        out = next((i for i, o in enumerate(outs) if any(isinstance(d, str) for d in o)), None)
        sym = next(i for i, ax in enumerate(case.axes) if any(ax))
        pick = (lambda args: f"_tupled(f({', '.join(args)}))[{out}]") if out is not None else (
            lambda args: args[sym])
        body = [_variables(case, [f"{v}2" for v in case.variables] if suffix else ()),
                f"def both({', '.join(xs + ys)}):",
                f"    return jnp.add({pick(xs)}, {pick(ys)})",
                f"exported = sut.export.export({JIT.call('both')})"
                f"({', '.join(specs + _specs(case, shapes, renamed))})",
                "return len(exported.out_avals)"]
        helper = "def _tupled(y):\n    return y if isinstance(y, tuple) else (y,)\n"
        return Wrapper(helper + "\n\n" + define("check", [], body), "check()")
    first = case.used
    extra = ([f"sut.ShapeDtypeStruct(({first},), np.float64)"] if how == "mismatch" else [])
    i, k = next((i, k) for i, ax in enumerate(case.axes) for k, v in enumerate(ax) if v)
    loop = [f"    for _ in range(x{i}.shape[{k}]):  # a size as a Python loop bound",
            "        pass"] if how == "int" else []
    body = [_variables(case),
            f"def g({', '.join(xs + ['*rest'])}):", *loop,
            f"    return f({', '.join(xs)})",
            f"exported = sut.export.export({JIT.call('g')})({', '.join(specs + extra)})",
            f"return exported.call({', '.join(xs + ['y'] * (how == 'mismatch'))})"]
    return Wrapper(define("check", xs + ["y"] * (how == "mismatch"), body),
                   f"check({', '.join(xs + ['y'] * (how == 'mismatch'))})")
