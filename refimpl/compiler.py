"""Compile a closed program to one Python function of NumPy calls (jit's backend).

Each equation becomes one line `outs = <source>`: the primitive's `source`
template filled with the operands' names, its params and `{impl}` (the name
its NumPy `impl` has in the compiled function's globals), or a call of its
`impl` with the params bound when it has no template (higher-order
primitives).  Params holding dimension variables are sized at run time
from the program's `n:i64[]` inputs.  The text is `exec`ed once and the function cached on the
program, so a program run many times (a jitted call, a loop body) is
compiled once.  Tests: tests/refimpl/test_refimpl_transforms.py.
"""
import functools
import math

import numpy as np

from .core import PRIMITIVES
from .dims import dims_of, substitute
from .ir import Literal


def compiled(jaxpr):
    """The Python function compiled from `jaxpr` (cached on it)."""
    fn = jaxpr.__dict__.get("_compiled")
    if fn is None:
        fn = jaxpr._compiled = _compile(jaxpr)
    return fn


def _compile(jaxpr):
    namespace = {"np": np, **{f"_impl_{p.name}": p.impl for p in PRIMITIVES}}
    names = {}

    def name(v):
        if isinstance(v, Literal):
            item = v.val.item() if v.aval.shape == () else None  # Python keeps f64, not f32
            if item is not None and math.isfinite(item) and np.asarray(item).dtype == v.val.dtype:
                return repr(item)
            namespace[f"_c{len(namespace)}"] = v.val
            return f"_c{len(namespace) - 1}"
        return names.setdefault(id(v), f"v{len(names)}")

    params = ", ".join(map(name, jaxpr.invars))
    lines = [f"def compiled({params}):"]
    for i, eqn in enumerate(jaxpr.eqns):
        rhs = _rhs(eqn, list(map(name, eqn.invars)), i, namespace, name)
        lines.append(f"    {_lhs(eqn, name)} = {rhs}")
    lines.append(f"    return [{', '.join(map(name, jaxpr.outvars))}]")
    source = "\n".join(lines) + "\n"
    exec(compile(source, "<refimpl.jit>", "exec"), namespace)
    namespace["compiled"].source = source
    return namespace["compiled"]


def _lhs(eqn, name):
    outs = ", ".join(map(name, eqn.outvars))
    if not eqn.primitive.multiple_results:
        return outs
    return "_" if not eqn.outvars else outs + ("," if len(eqn.outvars) == 1 else "")


def _with_sizes(impl, params, dims, sizes, *ins):
    """Call `impl` with the params' dimension variables replaced by their sizes."""
    return impl(*ins, **substitute(params, dict(zip(dims, map(int, sizes)))))


def _rhs(eqn, ins, i, namespace, name):
    dims = list(dims_of(eqn.params).values())
    if dims:  # a symbolic shape in the params: sizes come from the dimension inputs
        namespace[f"_p{i}"] = functools.partial(_with_sizes, eqn.primitive.impl, eqn.params,
                                                dims)
        return f"_p{i}(({''.join(name(d) + ', ' for d in dims)}), {', '.join(ins)})"
    src = eqn.primitive.source
    if callable(src):
        return src(eqn, ins)
    if src is not None:
        return src.format(*ins, args=", ".join(ins), impl=f"_impl_{eqn.primitive.name}",
                          **eqn.params)
    namespace[f"_p{i}"] = functools.partial(eqn.primitive.impl, **eqn.params)
    return f"_p{i}({', '.join(ins)})"
