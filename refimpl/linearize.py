"""Linearization by online partial evaluation: the first half of reverse mode.

`linearize` runs the JVP interpreter on top of a *partial* staging
interpreter.  The primal inputs are known and the tangent inputs are unknown;
an operation whose operands are all known is forwarded to the enclosing
context (so primal values are computed concretely and Python control flow on
them works), and an operation with an unknown operand is staged into the
*linear program* (the tangent computation), with the known values it uses as
literals or captured inputs (the residuals).  The linear program has one
equation per tangent operation, so its transpose (`transpose.py`) costs the
same order of work as the forward pass.

Higher-order primitives with both known and unknown operands are split by
`partial_eval_rules` (here for `jit`; `control.py` adds `cond`, `scan`,
`while`): the known part runs now, the unknown part is staged.
`partial_eval_jaxpr` does the same split to a closed program.
Tests: tests/refimpl/test_refimpl_ops.py, test_refimpl_meta.py (cost).
"""
from . import core, ops
from .core import bind, using
from .ir import Jaxpr, eval_jaxpr, memoized, typecheck
from .jvp import JVPInterpreter
from .staging import StagedTracer, Staging, stage_closed

partial_eval_rules = {}


class PartialStaging(Staging):
    """Stages only operations on unknown values; known ones run in `prev`."""

    knows_dims = False  # its tracers are tangents; dimensions come from `prev`

    def __init__(self, prev, reverse=True):
        super().__init__(prev, "the linear (tangent) part of " + ("grad/vjp" if reverse
                                                                  else "linearize"))
        # Whether the linear program is for reverse mode: a rule may then refuse
        # at once what could only be evaluated (a while loop), while the user's
        # line is still on the stack.
        self.reverse = reverse

    def process(self, prim, args, params):
        if not any(self.owns(x) for x in args):
            with using(self.prev):
                return bind(prim, *args, **params)
        rule = partial_eval_rules.get(prim)
        if rule is not None:
            return rule(self, args, **params)
        return self.emit(prim, [self.atom(x) for x in args], params)

    def to_unknown(self, x):
        return x if self.owns(x) else StagedTracer(self, self.atom(x))


def linearize_flat(fun, primals, reverse=True):
    """`(primal outs, linear program, residuals)`; the program's inputs are
    the residuals then one tangent per primal, its outputs the out tangents.
    `reverse`: the program is for reverse mode (vjp), not only evaluated."""
    lin = PartialStaging(core.current, reverse)
    tangents = [lin.new_arg(core.aval_of(p)) for p in primals]
    try:
        outs, outs_t = JVPInterpreter(lin).run(fun, primals, tangents)
        with using(lin):
            outs_t = [lin.to_unknown(ops.zeros(core.aval_of(p)) if t is None else t)
                      for p, t in zip(outs, outs_t)]
        jaxpr, residuals = lin.build(tangents, outs_t)
    finally:
        lin.alive = False
    return list(outs), jaxpr, residuals


@memoized
def partial_eval_jaxpr(jaxpr, unknowns, instantiate):
    """Split a closed program by which inputs are unknown.

    Returns `(known, unknown, num_res, out_unknowns)`: `known` maps the known
    inputs to the known outputs followed by `num_res` residuals; `unknown` maps
    the residuals followed by the unknown inputs to the unknown outputs.
    Outputs flagged in `instantiate` are made unknown even if they are known.
    The output mask comes last, as from `jvp_jaxpr` and `vmap_jaxpr`, so loop
    and branch rules treat the three alike.
    """
    out = {}

    def known_fun(*known_in):
        # A split program may only be evaluated (linearize); reverse mode's
        # refusals in it come from transpose rules.
        lin = PartialStaging(core.current, reverse=False)
        it = iter(known_in)
        ins = [lin.new_arg(a) if uk else next(it) for a, uk in zip(jaxpr.in_avals, unknowns)]
        try:
            with using(lin):
                outs = eval_jaxpr(jaxpr, ins)
                outs = [lin.to_unknown(o) if inst else o for o, inst in zip(outs, instantiate)]
            out["uk"] = tuple(lin.owns(o) for o in outs)
            unknown_ins = [x for x in ins if lin.owns(x)]
            unknown, residuals = lin.build(unknown_ins, [o for o in outs if lin.owns(o)])
        finally:
            lin.alive = False
        out["unknown"], out["num_res"] = unknown, len(residuals)
        return [o for o in outs if not lin.owns(o)] + residuals

    known = stage_closed(known_fun, [a for a, uk in zip(jaxpr.in_avals, unknowns) if not uk])
    return known, out["unknown"], out["num_res"], out["uk"]


def reorder_invars(jaxpr, order):
    """The same program with its inputs permuted (`order` lists old positions)."""
    return typecheck(Jaxpr([jaxpr.invars[i] for i in order], jaxpr.eqns, jaxpr.outvars))


def merge(mask, if_false, if_true):
    """Interleave two lists according to a boolean mask."""
    a, b = iter(if_false), iter(if_true)
    return [next(b) if m else next(a) for m in mask]
