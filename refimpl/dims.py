"""Symbolic dimensions: shapes whose sizes are dimension variables (`f64[n,3]`).

Modelled on JAX's shape polymorphism (`jax.export.symbolic_shape`), JAX's
stable form of dynamic shapes, so a test written against refimpl runs on JAX
unchanged.  A dimension is an `int` or a `Dim`: a polynomial with integer
coefficients in dimension variables (`n`, `n + m`, `3*n`), closed under the
arithmetic shape rules need (`concatenate` adds, `reshape` multiplies and
divides exactly).  Equality is structural: `n == n`, `n != m` and `n != 3`,
so the shape rules written for ints compare symbolic types unchanged and
refuse to mix two different variables.  Every variable is assumed to be at
least 1, as in JAX, so `n >= 1` and `n + 1 > n` are decided; a comparison
that depends on the sizes (`n > 3`) or a variable used as a Python int
(`range(n)`) raises `InconclusiveDimensionError`, since the one program
must be right for every size.

A dimension variable is also an IR variable, `n:i64[]` (`DimVar`): its
value is the size.  It has one identity everywhere (a *global symbol*, as in
JAX export's symbolic scopes), so a sub-program needs no renaming of its
types; every program whose types or params mention `n` takes `n` as an
implicit input, and the equation that calls it passes `n` as an operand
(`staging.py`).  `DimType` is the type of such a value: `i64[]` that
remembers which dimension it is, so restaging a program binds its own `n`.
Tests: tests/refimpl/test_refimpl_dynamic_shapes.py.
"""
import re

import numpy as np

from .core import ShapedArray, ShapeError, Var


class InconclusiveDimensionError(ShapeError):
    """A construct whose meaning depends on the sizes, in a program for every size."""


class DimVar(Var):
    """A dimension variable: a symbol in shapes and the i64[] variable bound to its size."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name
        super().__init__(DimType(Dim({(self,): 1})))

    def __repr__(self):
        return self.name


def _order(monomial):
    return tuple((v.name, id(v)) for v in monomial)


def _poly(x):
    if isinstance(x, Dim):
        return dict(x.terms)
    if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
        return {(): int(x)}
    return None


def _make(terms):
    """The canonical dimension of `terms` (monomial -> coefficient): an int if constant."""
    terms = {m: c for m, c in terms.items() if c}
    return terms.get((), 0) if set(terms) <= {()} else Dim(terms)


def _nonneg(p, text):
    """Decide `p >= 0` for every size >= 1, or raise: the one program must hold for all."""
    if not isinstance(p, Dim):
        return p >= 0
    coeffs, at_one = [c for m, c in p.terms if m], sum(c for _, c in p.terms)
    if all(c >= 0 for c in coeffs) and at_one >= 0:
        return True
    if all(c <= 0 for c in coeffs) and at_one < 0:
        return False
    raise InconclusiveDimensionError(
        f"the symbolic comparison {text} is inconclusive: it depends on the sizes, and a "
        f"shape-polymorphic program must not (dimension variables are only known to be >= 1)")


class Dim:
    """A symbolic dimension: `terms` pairs each monomial (a tuple of `DimVar`s) with
    its coefficient.  Immutable and hashable, so it sits in types and jit's keys."""

    __slots__ = ("terms",)

    def __init__(self, terms):
        self.terms = tuple(sorted(terms.items(), key=lambda t: _order(t[0])))

    var = property(lambda self: self.terms[0][0][0] if len(self.terms) == 1 and self.terms[0][1]
                   == 1 and len(self.terms[0][0]) == 1 else None)

    def __add__(self, other):
        o = _poly(other)
        if o is None:
            return NotImplemented
        t = dict(self.terms)
        for m, c in o.items():
            t[m] = t.get(m, 0) + c
        return _make(t)

    def __mul__(self, other):
        o, t = _poly(other), {}
        if o is None:
            return NotImplemented
        for m1, c1 in self.terms:
            for m2, c2 in o.items():
                m = tuple(sorted(m1 + m2, key=lambda v: (v.name, id(v))))
                t[m] = t.get(m, 0) + c1 * c2
        return _make(t)

    __radd__, __rmul__ = __add__, __mul__

    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + -other

    def __rsub__(self, other):
        return -self + other

    def __floordiv__(self, k):
        if not isinstance(k, (int, np.integer)) or k == 0 or any(c % k for _, c in self.terms):
            raise InconclusiveDimensionError(f"cannot divide the dimension {self} by {k} "
                                             f"exactly for every size")
        return _make({m: c // k for m, c in self.terms})

    def __eq__(self, other):
        return isinstance(other, Dim) and self.terms == other.terms

    def __hash__(self):
        return hash(self.terms)

    def __ge__(self, other):
        return _nonneg(self - other, f"'{self}' >= '{other}'")

    def __gt__(self, other):
        return _nonneg(self - other - 1, f"'{self}' > '{other}'")

    def __le__(self, other):
        return _nonneg(other - self, f"'{self}' <= '{other}'")

    def __lt__(self, other):
        return _nonneg(other - self - 1, f"'{self}' < '{other}'")

    def __index__(self):
        raise InconclusiveDimensionError(
            f"the dimension {self} is used where a concrete integer is needed (a Python loop "
            f"bound, range(), int(), an index): its value is known only when the program runs. "
            f"Use lax.fori_loop or lax.scan, or stage this argument with a concrete size")

    __int__ = __index__

    def __str__(self):
        out = ""
        for m, c in self.terms:
            mono = "*".join([str(abs(c))] * (abs(c) != 1 or not m) + [v.name for v in m])
            out += (" - " if c < 0 else " + ") + mono if out else ("-" if c < 0 else "") + mono
        return out

    __repr__ = __str__


class DimType(ShapedArray):
    """`i64[]`, the type of a dimension's value, knowing which dimension (`dim`) it is."""

    __slots__ = ("dim",)

    def __init__(self, dim):
        super().__init__((), np.int64)
        self.dim = dim


class SymbolicScope:
    """Names to dimension variables: one name, one variable, within a scope (as in JAX)."""

    def __init__(self):
        self.vars = {}

    def var(self, name):
        return self.vars.setdefault(name, DimVar(name))


_TERM = re.compile(r"^\s*(?:(\d+)\s*\*\s*)?([A-Za-z_]\w*|\d+)\s*$")


def symbolic_shape(spec, scope=None):
    """`symbolic_shape("n, 3")` -> `(n, 3)`: a shape of ints and dimension
    variables, for `ShapeDtypeStruct`; a term is `k`, `name` or `k*name`, and
    terms join with `+` (`"n, 2*n + 1"`).  Variables of one `scope` are one
    variable per name; each call without a scope makes a new one, as in JAX."""
    scope = scope or SymbolicScope()
    dims = []
    for item in spec.split(","):
        total = 0
        for term in item.split("+"):
            match = _TERM.match(term)
            if not match:
                raise ValueError(f"symbolic_shape: cannot parse {item.strip()!r} in {spec!r}: "
                                 f"write terms k, name or k*name joined by +")
            k, atom = int(match.group(1) or 1), match.group(2)
            total = total + k * (int(atom) if atom.isdigit() else Dim({(scope.var(atom),): 1}))
        dims.append(total)
    return tuple(dims)


# ----------------------------------------------------------------------------- types

def dims_of(x, out=None):
    """The dimension variables in a dimension, type, shape or params (not sub-programs)."""
    out = {} if out is None else out
    if isinstance(x, Dim):
        out.update((id(v), v) for m, _ in x.terms for v in m)
    elif isinstance(x, ShapedArray):
        dims_of(x.shape + ((x.dim,) if isinstance(x, DimType) else ()), out)
    elif isinstance(x, (tuple, list)):
        for y in x:
            dims_of(y, out)
    elif isinstance(x, dict):
        dims_of(list(x.values()), out)
    return out


def substitute(x, env):
    """`x` (as in `dims_of`) with the variables in `env` replaced by ints or dimensions."""
    if isinstance(x, Dim):
        total = 0
        for m, c in x.terms:
            for v in m:
                c = c * env.get(v, Dim({(v,): 1}))
            total = total + c
        return total
    if isinstance(x, DimType):
        d = substitute(x.dim, env)
        return DimType(d) if isinstance(d, Dim) else ShapedArray((), np.int64)
    if isinstance(x, ShapedArray):
        return ShapedArray(substitute(x.shape, env), x.dtype)
    if isinstance(x, (tuple, list)):
        return type(x)(substitute(y, env) for y in x)
    if isinstance(x, dict):
        return {k: substitute(v, env) for k, v in x.items()}
    return x


def solve(formal, actual, env=None):
    """Bind the variables of the `formal` types from the `actual` ones, shape by
    shape; returns `env` (variable -> int or dimension).  Only a dimension that
    is one variable is solved; the caller checks the rest by substitution."""
    env = {} if env is None else env
    for f, a in zip(formal, actual):
        pairs = [(f.dim, a.dim)] if isinstance(f, DimType) and isinstance(a, DimType) else []
        for fd, ad in pairs + list(zip(f.shape, a.shape)) * (len(f.shape) == len(a.shape)):
            v = fd.var if isinstance(fd, Dim) else None
            if v is not None:
                env.setdefault(v, ad)
    return env


def instantiate(jaxpr, avals, what):
    """The input and output types of `jaxpr` called on operands typed `avals`: its
    dimension variables bound to the operands' dimensions (jit's shape rule)."""
    env = solve(jaxpr.in_avals, avals)
    ins = substitute(jaxpr.in_avals, env)
    if ins != list(avals):
        raise ShapeError(f"{what}: operands {list(avals)} do not match the program's inputs "
                         f"{jaxpr.in_avals}")
    return substitute(jaxpr.out_avals, env)


def bind_sizes(avals, actual):
    """The size of each dimension variable in `avals`, from the concrete types
    `actual` at call time; a ValueError says which size breaks which dimension
    (as JAX's does)."""
    env = solve(avals, actual)
    for v, size in env.items():
        if isinstance(size, (int, np.integer)) and size < 1:
            raise ValueError(f"dimension variable {v} got size {size}, but every dimension "
                             f"variable is assumed >= 1 (as in JAX); stage with a concrete "
                             f"shape for empty arrays")
    for i, (f, a) in enumerate(zip(avals, actual)):
        if f.ndim != a.ndim or f.dtype != a.dtype or substitute(f, env) != a:
            sizes = ", ".join(f"{v} = {s}" for v, s in env.items())
            raise ValueError(f"argument {i} of type {a} does not fit the symbolic type {f} "
                             f"(with {sizes or 'no dimension variables'})")
    return env
