"""Broken SUT: a loop body keeps the sizes of its first run (its dimension input dropped).

refimpl whose `scan` and `while` run a body program with the values of its
implicit dimension inputs (`n:i64[]`, refimpl/dims.py) taken from the first
time that body ran, instead of from the operands the loop passes: a
shape-polymorphic program called at a second size builds the body's
constants (`c * 2.0` broadcasts 2.0 to `f64[n]`) at the first size.
Programs of concrete shapes, whose bodies take no dimension, are unchanged.

Family: construct.  Smallest input: `(lambda e: (e.call(np.ones(2)),
e.call(np.ones(1))))(export.export(lambda x: lax.fori_loop(0, 1, lambda i,
c: c * 2.0, x))(ShapeDtypeStruct(export.symbolic_shape("n"), np.float64)))`.
"""

import refimpl
from refimpl import (  # noqa: F401
    ShapeDtypeStruct,
    __sut_unsupported__,
    control,
    export,
    grad,
    jit,
    jvp,
    lax,
    numpy,
    vjp,
    vmap,
)
from refimpl.dims import DimVar
from tests.broken import Witness

FAMILY = "construct"
WITNESS = Witness("(lambda e: (e.call(np.ones(2)), e.call(np.ones(1))))"
                  "(export.export(lambda x: lax.fori_loop(0, 1, lambda i, c: c * 2.0, x))"
                  '(ShapeDtypeStruct(export.symbolic_shape("n"), np.float64)))')

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"

_FIRST = {}  # body program -> the operands its dimension inputs had on its first run


def _stale(body, operands, start):
    """`operands` with each of `body`'s dimension inputs (from position `start` of the
    body's inputs) replaced by its value on the body's first run."""
    operands = list(operands)
    positions = [i for i, v in enumerate(body.invars[start:]) if isinstance(v, DimVar)]
    first = _FIRST.setdefault(id(body), (body, {i: operands[i] for i in positions}))[1]
    return [first.get(i, x) for i, x in enumerate(operands)]


def _scan_impl(*args, jaxpr, length, num_consts, num_carry, reverse):
    consts = _stale(jaxpr, args[:num_consts], 0)
    return _correct_scan(*consts, *args[num_consts:], jaxpr=jaxpr, length=length,
                         num_consts=num_consts, num_carry=num_carry, reverse=reverse)


def _while_impl(*args, cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts):
    body_consts = _stale(body_jaxpr, args[cond_nconsts:cond_nconsts + body_nconsts], 0)
    return _correct_while(*args[:cond_nconsts], *body_consts, *args[cond_nconsts + body_nconsts:],
                          cond_jaxpr=cond_jaxpr, body_jaxpr=body_jaxpr,
                          cond_nconsts=cond_nconsts, body_nconsts=body_nconsts)


_correct_scan, _correct_while = control.scan_p.impl, control.while_p.impl
control.scan_p.impl, control.while_p.impl = _scan_impl, _while_impl
