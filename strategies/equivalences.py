"""Rewrites that turn a program into a mathematically equal one (`tests/test_equivalences.py`).

Two programs that are equal as functions have equal values and, wherever
they are differentiable, equal derivatives of every order, under every
transformation.  So an SUT must give a drawn program and its rewrite the
same results under jvp, grad, vjp, vmap, jit and stacks of them, and this
judges it where finite differences cannot: several rewrites put the program
*at* a tie or a kink on purpose (`maximum(x, x)` ties everywhere,
`where(x > x, x, x)` and a `cond` whose threshold is its predicate's value
sit on the switch), where only the derivative the contract prescribes
(docs/sut-api.md, "Conventions at kinks and domain edges") keeps the two
programs equal.  The Equivalence Modulo Inputs idea of compiler testing (Le
et al., PLDI 2014), turned on derivatives.

`REWRITES` has one row per rewrite: which program sites it applies at (top-level
variables or equations of `f`), the operations it introduces (left out when
the SUT declares one unsupported) and how it rewrites.  `rewritten` draws one
to three in turn, each at a drawn site, and checks in NumPy that the result
still equals the original at every input set (a rewrite that is not an
identity is jaxcheck's bug, and fails as such).

Reach, measured over 1,000 programs as `tests/test_equivalences.py` draws
them (`stacks.stack_programs`, up to 10 equations): the variable rewrites
apply to every program (`sum_unit_axis` to 85%: ranks below 3), a `cond`
with equal branches to 92%, operands swapped to 50%, a double transpose to
56%, a loop split or unrolled to 11%, `x ** n` as a product to 7%,
`x * x` as `x ** 2` to 3%, `dot` as `matmul` to 2%, and a `matmul`
reassociated to 0.1%: it needs two matmuls in a chain, which programs this
small rarely hold, so it is in the table but seldom drawn; a scalar factor
moved across a matmul, `(a * 2.0) @ (b * 0.5)`, is the reassociation that
every matmul allows.

Left out, and why:

* splitting or unrolling `scan`, and unrolling `inner_vmap`: the language
  has no indexing or slicing to take `xs[k]` or `xs[:k]`;
* rewrites inside blocks (a cond branch, a loop body, the function of an
  inner jvp or grad): sites are the top level of `f`; blocks are rewritten
  whole (a loop split or unrolled, a branch duplicated);
* `minimum`, `exp(log(x))`, `sqrt(x) ** 2`: `minimum` is not in the
  contract, and the other two equal `x` only on part of the line;
* `where(p, x, y)` as `where(not p, y, x)`: the language has no logical
  negation (mirroring the comparison, `where(y < x, ..)`, is in);
* a `cond` predicate mirrored: it renders as `sum(p) > t` with a literal `t`;
* `maximum(x, y)` and `where(x > y, x, y)` at a tie of two *different*
  values: there the two differ by convention (JAX splits maximum's tangent
  in halves, where takes y's), and the generator keeps maximum's operands
  apart; the rewrite is in, and is exact wherever a tie is of a value with
  itself (after `maximum_self`).  The split itself is checked by
  `tests/test_conventions.py` against the value the contract states.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np
from hypothesis import event
from hypothesis import strategies as st

from strategies.language.constructs import CONSTRUCTS, THRESHOLDS
from strategies.language.domains import MAX_RANK
from strategies.language.ir import Block, Eqn, Run, Var, free_names, prune, rename, run
from strategies.language.operands import choose, index, matmul_shape
from strategies.language.opspec import CALL
from strategies.language.table import LANGUAGE
from strategies.program import Program

# Rewrites drawn in turn on one program (1 to this; shrinks to 1).
MAX_REWRITES = 3

# The rewritten program equals the original in NumPy within this: reassociating
# a matmul or splitting a division changes rounding (1e-13 relative on values
# <= 100), and a rewrite that is not an identity moves values by O(1).
SELF_CHECK = dict(rtol=1e-9, atol=1e-9)


class NotAnIdentity(AssertionError):
    """A rewrite changed the program's values: a jaxcheck bug, not a verdict on the SUT."""


# ----------------------------------------------------------------------------- helpers

class Names:
    """Fresh names in a program: variables `r0, r1, ..`, blocks `<kind><n>`."""

    def __init__(self, program: Program):
        taken = {v.name for v in program.inputs}
        blocks = set()
        for eqn in _deep(program.eqns):
            taken |= {v.name for v in eqn.outs}
            blocks |= {b.name for b in eqn.blocks}
        self.taken = taken | blocks

    def _new(self, prefix: str) -> str:
        name = next(f"{prefix}{n}" for n in itertools.count() if f"{prefix}{n}" not in self.taken)
        self.taken.add(name)
        return name

    def var(self, shape) -> Var:
        return Var(self._new("r"), tuple(shape))

    def block(self, kind: str) -> str:
        return self._new(kind)


def _deep(eqns):
    for eqn in eqns:
        yield eqn
        for block in eqn.blocks:
            yield from _deep(block.eqns)


def values_at(program: Program, args) -> dict:
    """Every top-level variable's NumPy value at the inputs `args`."""
    env = {v.name: np.asarray(x) for v, x in zip(program.inputs, args)}
    with np.errstate(all="ignore"):
        run(program.eqns, program.outputs, env, Run(LANGUAGE))
    return env


def _used(program: Program) -> set[str]:
    """Names read by some equation (its operands list its blocks' captures) or returned."""
    read = {a.name for eqn in program.eqns for a in eqn.args if isinstance(a, Var)}
    return read | {v.name for v in program.outputs}


def _substitute(program: Program, start: int, old: Var, new) -> Program:
    """Equations from `start` on, and the outputs, read `new` where they read `old`."""
    later = tuple(rename(e, {old.name: new}) for e in program.eqns[start:])
    outputs = tuple(new if o.name == old.name else o for o in program.outputs)
    return Program(program.inputs, program.eqns[:start] + later, outputs)


def _defined_at(program: Program, v: Var) -> int:
    """The index just after the equation that defines `v` (0 for an input)."""
    for k, eqn in enumerate(program.eqns):
        if v in eqn.outs:
            return k + 1
    return 0


def _wrap(program: Program, v: Var, new: list[Eqn]) -> Program:
    """`new` inserted right after `v` is defined; later uses of `v` read its last result."""
    at = _defined_at(program, v)
    inserted = Program(program.inputs, program.eqns[:at] + tuple(new) + program.eqns[at:],
                       program.outputs)
    return _substitute(inserted, at + len(new), v, new[-1].out)


def _replace(program: Program, k: int, new: list[Eqn]) -> Program:
    """Equation `k` replaced by `new`, whose last result is renamed to equation k's."""
    *front, last = new
    new = [*front, replace(last, out=program.eqns[k].out)]
    return Program(program.inputs, program.eqns[:k] + tuple(new) + program.eqns[k + 1:],
                   program.outputs)


def _eqn(op, args, out, syntax=CALL, **params) -> Eqn:
    return Eqn(op, tuple(args), tuple(params.items()), out, syntax)


def _syntax(draw, op: str) -> str:
    return choose(draw, LANGUAGE[op].syntaxes, label="rewrite syntax")


# ----------------------------------------------------------------------------- sites

def live_variables(program: Program, _values=None) -> list[Var]:
    """Top-level variables (inputs, equation results) something reads or returns."""
    used = _used(program)
    candidates = [*program.inputs, *(v for e in program.eqns for v in e.outs)]
    return [v for v in candidates if v.name in used]


def _eqns_where(test: Callable[[Eqn, Program], bool]):
    def sites(program: Program, _values=None) -> list[int]:
        return [k for k, e in enumerate(program.eqns) if test(e, program)]
    return sites


def _variables_where(test: Callable[[Var], bool]):
    def sites(program: Program, _values=None) -> list[Var]:
        return [v for v in live_variables(program) if test(v)]
    return sites


def _producer(program: Program, v) -> Eqn | None:
    return next((e for e in program.eqns if isinstance(v, Var) and e.out == v), None)


# ----------------------------------------------------------------------------- variable rewrites

def maximum_self(draw, program, v, values, names):
    """`x` -> `maximum(x, x)`: a tie at every element."""
    return _wrap(program, v, [_eqn("maximum", (v, v), names.var(v.shape))])


def where_same(draw, program, v, values, names):
    """`x` -> `where(x cmp b, x, x)`, b = x itself (the predicate on its switch) or 0.0."""
    other = choose(draw, (v, 0.0), label="where: compared with")
    cmp = choose(draw, ("greater", "less"), label="where: comparison")
    return _wrap(program, v, [_eqn("where", (v, other, v, v), names.var(v.shape),
                                   _syntax(draw, "where"), cmp=cmp)])


def times_one(draw, program, v, values, names):
    args = choose(draw, ((v, 1.0), (1.0, v)), label="x * 1: order")
    return _wrap(program, v, [_eqn("multiply", args, names.var(v.shape),
                                   _syntax(draw, "multiply"))])


def plus_zero(draw, program, v, values, names):
    op, args = choose(draw, (("add", (v, 0.0)), ("add", (0.0, v)), ("subtract", (v, 0.0))),
                      label="x + 0: form")
    return _wrap(program, v, [_eqn(op, args, names.var(v.shape), _syntax(draw, op))])


def double_negative(draw, program, v, values, names):
    first = _eqn("negative", (v,), names.var(v.shape), _syntax(draw, "negative"))
    return _wrap(program, v, [first, _eqn("negative", (first.out,), names.var(v.shape),
                                          _syntax(draw, "negative"))])


def power_one(draw, program, v, values, names):
    return _wrap(program, v, [_eqn("integer_pow", (v,), names.var(v.shape),
                                   _syntax(draw, "integer_pow"), n=1)])


def double_transpose(draw, program, v, values, names):
    perms = [p for p in itertools.permutations(range(len(v.shape)))
             if p != tuple(range(len(v.shape)))]
    perm = choose(draw, perms, label="transpose: axes")
    there = names.var(tuple(v.shape[a] for a in perm))
    back = tuple(int(a) for a in np.argsort(perm))
    return _wrap(program, v, [_eqn("transpose", (v,), there, axes=perm),
                              _eqn("transpose", (there,), names.var(v.shape), axes=back)])


def _reshapes(shape) -> list[tuple[int, ...]]:
    size = int(np.prod(shape, dtype=int))
    options = [(size,), (*shape, 1), (1, *shape), tuple(reversed(shape))]
    return [s for s in dict.fromkeys(options) if s != tuple(shape) and len(s) <= MAX_RANK]


def reshape_round_trip(draw, program, v, values, names):
    target = choose(draw, _reshapes(v.shape), label="reshape: via")
    there = names.var(target)
    return _wrap(program, v, [_eqn("reshape", (v,), there, shape=target),
                              _eqn("reshape", (there,), names.var(v.shape), shape=v.shape)])


def sum_unit_axis(draw, program, v, values, names):
    """`x` -> `sum(expand_dims(x, a), axis=a)`: a sum over an axis of size 1."""
    rank = len(v.shape)
    axis = choose(draw, list(range(-rank - 1, rank + 1)), label="unit axis")
    there = names.var(np.expand_dims(np.zeros(v.shape), axis).shape)
    return _wrap(program, v, [_eqn("expand_dims", (v,), there, axis=axis),
                              _eqn("sum", (there,), names.var(v.shape), axis=axis)])


# ----------------------------------------------------------------------------- equation rewrites

def _swappable(eqn, program) -> bool:
    return eqn.op in ("add", "multiply", "maximum") and len(eqn.args) == 2


def swap_operands(draw, program, k, values, names):
    """Operands of a commutative operation swapped."""
    eqn = program.eqns[k]
    return _replace(program, k, [replace(eqn, args=eqn.args[::-1])])


def mirror_comparison(draw, program, k, values, names):
    """`where(a > b, x, y)` -> `where(b < a, x, y)`."""
    eqn = program.eqns[k]
    a, b, x, y = eqn.args
    cmp = {"greater": "less", "less": "greater"}[eqn.kwargs["cmp"]]
    return _replace(program, k, [replace(eqn, args=(b, a, x, y), params=(("cmp", cmp),))])


def maximum_as_where(draw, program, k, values, names):
    """`maximum(a, b)` -> `where(a > b, a, b)`."""
    a, b = program.eqns[k].args
    return _replace(program, k, [_eqn("where", (a, b, a, b), None, _syntax(draw, "where"),
                                      cmp="greater")])


def subtract_as_add(draw, program, k, values, names):
    """`a - b` -> `a + (-b)`."""
    a, b = program.eqns[k].args
    if isinstance(b, float):
        return _replace(program, k, [_eqn("add", (a, -b), None, _syntax(draw, "add"))])
    negated = _eqn("negative", (b,), names.var(b.shape), _syntax(draw, "negative"))
    return _replace(program, k, [negated, _eqn("add", (a, negated.out), None,
                                               _syntax(draw, "add"))])


def divide_as_reciprocal(draw, program, k, values, names):
    """`a / b` -> `a * (1.0 / b)`."""
    a, b = program.eqns[k].args
    if isinstance(b, float):
        return _replace(program, k, [_eqn("multiply", (a, 1.0 / b), None)])
    inverse = _eqn("divide", (1.0, b), names.var(b.shape), _syntax(draw, "divide"))
    return _replace(program, k, [inverse, _eqn("multiply", (a, inverse.out), None,
                                               _syntax(draw, "multiply"))])


def _power(eqn, program) -> bool:
    return eqn.op == "integer_pow" and (eqn.kwargs["n"] >= 2 or eqn.kwargs["n"] == -1)


def power_as_product(draw, program, k, values, names):
    """`x ** 2` -> `x * x`; `x ** n` -> `x * x ** (n - 1)`; `x ** -1` -> `1.0 / x`."""
    eqn = program.eqns[k]
    (x,), n = eqn.args, eqn.kwargs["n"]
    if n == -1:
        return _replace(program, k, [_eqn("divide", (1.0, x), None, _syntax(draw, "divide"))])
    if n == 2:
        return _replace(program, k, [_eqn("multiply", (x, x), None, _syntax(draw, "multiply"))])
    lower = _eqn("integer_pow", (x,), names.var(x.shape), eqn.syntax, n=n - 1)
    return _replace(program, k, [lower, _eqn("multiply", (x, lower.out), None,
                                             _syntax(draw, "multiply"))])


def _square(eqn, program) -> bool:
    return eqn.op == "multiply" and isinstance(eqn.args[0], Var) and eqn.args[0] == eqn.args[1]


def product_as_power(draw, program, k, values, names):
    """`x * x` -> `x ** 2`."""
    (x, _) = program.eqns[k].args
    return _replace(program, k, [_eqn("integer_pow", (x,), None,
                                      _syntax(draw, "integer_pow"), n=2)])


def _chain(program: Program, eqn: Eqn):
    """For `w = matmul(u, c)` with `u = matmul(a, b)`: (a, (b, c), True), to compute
    `a @ (b @ c)`; for `w = matmul(a, u)` with `u = matmul(b, c)`: (c, (a, b), False),
    to compute `(a @ b) @ c`; None where neither holds or the shapes do not contract."""
    if eqn.op != "matmul":
        return None
    left, right = eqn.args
    inner = _producer(program, left)
    if inner is not None and inner.op == "matmul":
        (a, b), c = inner.args, right
        outer, first, right_first = a, (b, c), True
    else:
        inner = _producer(program, right)
        if inner is None or inner.op != "matmul":
            return None
        a, (b, c) = left, inner.args
        outer, first, right_first = c, (a, b), False
    shape = matmul_shape(first[0].shape, first[1].shape)
    if shape is None:
        return None
    pair = (outer.shape, shape) if right_first else (shape, outer.shape)
    if matmul_shape(*pair) != eqn.out.shape:
        return None
    return outer, first, right_first


def matmul_reassociate(draw, program, k, values, names):
    """`(a @ b) @ c` -> `a @ (b @ c)`, and the other way round."""
    eqn = program.eqns[k]
    outer, first, right_first = _chain(program, eqn)
    inner = _eqn("matmul", first, names.var(matmul_shape(first[0].shape, first[1].shape)),
                 _syntax(draw, "matmul"))
    pair = (outer, inner.out) if right_first else (inner.out, outer)
    return _replace(program, k, [inner, _eqn("matmul", pair, None, eqn.syntax)])


def matmul_moved_factor(draw, program, k, values, names):
    """`a @ b` -> `(a * 2.0) @ (b * 0.5)`: a scalar factor reassociated across the
    product, exact in binary floating point (a power of two)."""
    eqn = program.eqns[k]
    a, b = eqn.args
    scaled = [_eqn("multiply", (x, f), names.var(x.shape), _syntax(draw, "multiply"))
              for x, f in ((a, 2.0), (b, 0.5))]
    return _replace(program, k, [*scaled, _eqn("matmul", (scaled[0].out, scaled[1].out), None,
                                               eqn.syntax)])


def _dot_2d(eqn, program) -> bool:
    return eqn.op == "dot" and all(isinstance(a, Var) and 1 <= len(a.shape) <= 2
                                   for a in eqn.args)


def dot_as_matmul(draw, program, k, values, names):
    """`dot(a, b)` -> `a @ b` for operands of rank 1 or 2, where NumPy defines them alike."""
    return _replace(program, k, [replace(program.eqns[k], op="matmul",
                                         syntax=_syntax(draw, "matmul"))])


def _jit_swappable(eqn, program) -> bool:
    return eqn.op in ("closure", "jit_closure")


def toggle_jit(draw, program, k, values, names):
    """An inner function called as it is <-> called through `jit`."""
    eqn = program.eqns[k]
    return _replace(program, k, [replace(eqn, op={"closure": "jit_closure",
                                                  "jit_closure": "closure"}[eqn.op])])


def _plain_with_operand(eqn, program) -> bool:
    return eqn.op not in CONSTRUCTS and isinstance(eqn.args[0], Var)


def cond_equal_branches(draw, program, k, values, names):
    """`y = op(u, ..)` -> `y = cond(sum(p) cmp t, g, h, u)` with g and h both `op(., ..)`.

    The threshold is drawn from the generator's thresholds or is `sum(p)`
    itself at the inputs: the predicate sits on its switch."""
    eqn = program.eqns[k]
    u = eqn.args[0]
    before = [*program.inputs, *(v for e in program.eqns[:k] for v in e.outs)]
    p = choose(draw, before, label="cond: predicate operand")
    tie = float(np.sum(np.real(values[p.name])))
    threshold = choose(draw, (tie, *THRESHOLDS), label="cond: threshold")
    param, result = Var("a0", u.shape), Var("c0", eqn.out.shape)
    body = rename(eqn, {u.name: param, eqn.out.name: result})
    blocks = [Block(names.block(kind), (param,), (body,), (result,)) for kind in ("same", "same")]
    outer = {a.name: a for a in eqn.args if isinstance(a, Var)}
    captures = [outer[n] for n in sorted(free_names(blocks[0])) if n in outer]
    cmp = choose(draw, ("greater", "less"), label="cond: comparison")
    return _replace(program, k, [_eqn("cond", (p, u, *captures), None, cmp=cmp,
                                      threshold=threshold, true=blocks[0], false=blocks[1])])


def _loop(eqn, program) -> bool:
    return eqn.op in ("fori_loop", "while_loop") and eqn.kwargs["trips"] >= 1


def loop_split(draw, program, k, values, names):
    """A loop of n trips -> a loop of j trips, then one of n - j (0 <= j <= n)."""
    eqn = program.eqns[k]
    trips, body = eqn.kwargs["trips"], eqn.kwargs["body"]
    j = draw(st.integers(0, trips), label="loop: split after")
    first = replace(eqn, params=(("trips", j), ("body", body)), out=names.var(eqn.out.shape))
    again = replace(body, name=names.block("again"))
    second = replace(eqn, args=(first.out, *eqn.args[1:]),
                     params=(("trips", trips - j), ("body", again)))
    return _replace(program, k, [first, second])


def loop_unroll(draw, program, k, values, names):
    """A loop of n trips -> its body inlined n times (its counter a literal)."""
    eqn = program.eqns[k]
    trips, body = eqn.kwargs["trips"], eqn.kwargs["body"]
    counter, param = body.params
    carry, inlined = eqn.args[0], []
    for trip in range(trips):
        mapping = {counter.name: float(trip), param.name: carry}
        for inner in body.eqns:
            mapping |= {v.name: names.var(v.shape) for v in inner.outs}
            inlined.append(rename(inner, mapping))
        carry = mapping.get(body.outputs[-1].name, body.outputs[-1])
    rest = Program(program.inputs, program.eqns[:k] + tuple(inlined) + program.eqns[k + 1:],
                   program.outputs)
    return _substitute(rest, k + len(inlined), eqn.out, carry)


# ----------------------------------------------------------------------------- the table

@dataclass(frozen=True)
class Rewrite:
    """One rewrite: `sites(program)` lists where it applies (variables or equation
    indices at the top level of `f`); `apply(draw, program, site, values, names)`
    returns the equal program; `needs` are the language names it introduces."""

    name: str
    sites: Callable
    apply: Callable
    needs: frozenset[str] = frozenset()


def _row(name, sites, apply, *needs) -> Rewrite:
    return Rewrite(name, sites, apply, frozenset(needs))


REWRITES: dict[str, Rewrite] = {row.name: row for row in [
    _row("maximum_self", live_variables, maximum_self, "maximum"),
    _row("where_same", live_variables, where_same, "where"),
    _row("times_one", live_variables, times_one, "multiply"),
    _row("plus_zero", live_variables, plus_zero, "add", "subtract"),
    _row("double_negative", live_variables, double_negative, "negative"),
    _row("power_one", live_variables, power_one, "integer_pow"),
    _row("double_transpose", _variables_where(lambda v: len(v.shape) >= 2), double_transpose,
         "transpose"),
    _row("reshape_round_trip", _variables_where(lambda v: bool(_reshapes(v.shape))),
         reshape_round_trip, "reshape"),
    _row("sum_unit_axis", _variables_where(lambda v: len(v.shape) < MAX_RANK), sum_unit_axis,
         "expand_dims", "sum"),
    _row("swap_operands", _eqns_where(_swappable), swap_operands),
    _row("mirror_comparison", _eqns_where(lambda e, p: e.op == "where"), mirror_comparison),
    _row("maximum_as_where", _eqns_where(lambda e, p: e.op == "maximum"), maximum_as_where,
         "where"),
    _row("subtract_as_add", _eqns_where(lambda e, p: e.op == "subtract"), subtract_as_add,
         "add", "negative"),
    _row("divide_as_reciprocal", _eqns_where(lambda e, p: e.op == "divide"),
         divide_as_reciprocal, "multiply"),
    _row("power_as_product", _eqns_where(_power), power_as_product, "multiply", "divide"),
    _row("product_as_power", _eqns_where(_square), product_as_power, "integer_pow"),
    _row("matmul_reassociate", _eqns_where(lambda e, p: _chain(p, e) is not None),
         matmul_reassociate),
    _row("matmul_moved_factor", _eqns_where(lambda e, p: e.op == "matmul"), matmul_moved_factor,
         "multiply"),
    _row("dot_as_matmul", _eqns_where(_dot_2d), dot_as_matmul, "matmul"),
    _row("toggle_jit", _eqns_where(_jit_swappable), toggle_jit, "closure", "jit_closure"),
    _row("cond_equal_branches", _eqns_where(_plain_with_operand), cond_equal_branches, "cond"),
    _row("loop_split", _eqns_where(_loop), loop_split),
    _row("loop_unroll", _eqns_where(_loop), loop_unroll),
]}


@st.composite
def rewritten(draw, case, ops: tuple[str, ...]) -> tuple[Program, tuple[str, ...]]:
    """(the program of `case` rewritten 1 to `MAX_REWRITES` times, the rewrites' names).

    Each rewrite is drawn among the rows that apply somewhere and introduce
    only names in `ops` (the SUT's vocabulary), at a drawn site.  The result
    equals the original in NumPy at every input set of `case` (`NotAnIdentity`
    otherwise).  Shrinks towards one rewrite, the first row that applies.
    """
    program, applied = case.program, []
    for _ in range(draw(st.integers(1, MAX_REWRITES), label="rewrites")):
        values = values_at(program, case.args)
        rows = [(row, sites) for row in REWRITES.values() if row.needs <= set(ops)
                for sites in [row.sites(program, values)] if sites]
        # Half the time, an equation rewrite where one applies: variable rewrites
        # apply everywhere and would otherwise crowd out the rarer ones.
        of_eqns = [(row, sites) for row, sites in rows if isinstance(sites[0], int)]
        if of_eqns and draw(st.booleans(), label="rewrite an equation"):
            rows = of_eqns
        if not rows:
            break
        row, sites = rows[index(draw, len(rows), label="rewrite")]
        site = sites[index(draw, len(sites), label=f"{row.name}: site")]
        program = prune(row.apply(draw, program, site, values, Names(program)))
        applied.append(row.name)
        event(f"rewrite: {row.name}")
    check_identity(case, program, applied)
    return program, tuple(applied)


def check_identity(case, program: Program, applied) -> None:
    """`program` equals `case.program` in NumPy at every input set of `case`
    (`NotAnIdentity` otherwise)."""
    for args in case.variants:
        before = values_at(case.program, args)
        after = values_at(program, args)
        for old, new in zip(case.program.outputs, program.outputs):
            if not np.allclose(before[old.name], after[new.name], **SELF_CHECK):
                raise NotAnIdentity(f"rewrites {applied} changed output {old.name}: "
                                    f"{before[old.name]} became {after[new.name]}\n{program}")
