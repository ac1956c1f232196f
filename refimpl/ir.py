"""The typed IR: A-normal-form programs ("jaxprs") of named, typed variables.

A `Jaxpr` has `invars`, a list of `Eqn`s (`outvars = primitive[params] invars`)
and `outvars`; atoms are `Var`s or `Literal`s, all carrying an `.aval`.
Sub-programs (branches, loop bodies, jitted functions) sit in params and are
closed: whatever they capture is an explicit input.  `typecheck` re-derives
every equation's output types with the primitive's shape rule; it runs on every
program built or transformed.  `eval_jaxpr` re-binds each equation in the
current context, so any program can be interpreted again by any interpreter
(Autodidax 2's round trip).  Printing follows JAX's jaxpr text.
"""
import numpy as np

from .core import Var, aval_of, bind
from .dims import DimVar, dims_of, substitute


class Literal:
    """A constant operand; scalars print inline, arrays print as `const[f64[3]]`."""

    __slots__ = ("val", "aval")

    def __init__(self, val):
        self.val = val if isinstance(val, np.ndarray) else np.asarray(val, aval_of(val).dtype)
        self.aval = aval_of(self.val)

    shape = property(lambda self: self.aval.shape)
    dtype = property(lambda self: self.aval.dtype)

    def __repr__(self):
        if self.aval.shape:
            return f"const[{self.aval}]"
        return f"{self.val.item()!r}:{self.aval}"


class Eqn:
    __slots__ = ("primitive", "invars", "outvars", "params")

    def __init__(self, primitive, invars, outvars, params):
        self.primitive, self.invars, self.outvars, self.params = (
            primitive, invars, outvars, params)

    def __repr__(self):
        return pp_eqn(self, _Namer(), "")


class Jaxpr:
    """A closed program; `constvars`/`consts` only at the top of `make_jaxpr`."""

    def __init__(self, invars, eqns, outvars, constvars=(), consts=()):
        self.invars, self.eqns, self.outvars = list(invars), list(eqns), list(outvars)
        self.constvars, self.consts = list(constvars), list(consts)

    in_avals = property(lambda self: [v.aval for v in self.invars])
    out_avals = property(lambda self: [v.aval for v in self.outvars])
    jaxpr = property(lambda self: self)  # so `make_jaxpr(f)(x).jaxpr.eqns` works as in JAX

    def __str__(self):
        return pp_jaxpr(self, _Namer(self), "")

    __repr__ = __str__


class IRTypeError(TypeError):
    """An equation whose declared types disagree with its primitive's shape rule."""


def typecheck(jaxpr):
    """Check that every variable is defined before use and every equation's
    output types are what its primitive's shape rule derives."""
    defined = set(map(id, jaxpr.constvars + jaxpr.invars))
    for eqn in jaxpr.eqns:
        for v in eqn.invars:
            if isinstance(v, Var) and id(v) not in defined:
                raise IRTypeError(f"{eqn.primitive} uses an undefined variable:\n  {eqn}")
        expected = eqn.primitive.shape_rule(*[v.aval for v in eqn.invars], **eqn.params)
        expected = expected if eqn.primitive.multiple_results else [expected]
        actual = [v.aval for v in eqn.outvars]
        if list(expected) != actual:
            raise IRTypeError(f"equation `{eqn}` declares output types {actual}, but "
                              f"{eqn.primitive} gives {list(expected)}")
        defined.update(map(id, eqn.outvars))
    for v in jaxpr.outvars:
        if isinstance(v, Var) and id(v) not in defined:
            raise IRTypeError(f"program returns an undefined variable {v}")
    free = [v for k, v in program_dims(jaxpr).items() if k not in defined]
    if free:
        raise IRTypeError(f"the program's types use dimension variables {free} it does not "
                          f"take as inputs:\n{jaxpr}")
    return jaxpr


def program_dims(jaxpr):
    """The dimension variables a program's types and params mention (not its sub-programs')."""
    out = dims_of([v.aval for v in jaxpr.constvars + jaxpr.invars])
    for eqn in jaxpr.eqns:
        dims_of([[v.aval for v in eqn.outvars], eqn.params], out)
    return out


def simplify(jaxpr):
    """Common-subexpression elimination, then dead-code elimination.  Both are
    sound because every primitive is pure; they keep transformed programs (where
    rules recompute e.g. `cos x` or a broadcast of 1.0) within the cost bounds."""
    rename, seen, eqns = {}, {}, []
    for eqn in jaxpr.eqns:
        invars = [rename.get(id(v), v) for v in eqn.invars]
        key = (eqn.primitive, tuple(map(_atom_key, invars)), _param_key(eqn.params))
        if key in seen:
            rename.update(zip(map(id, eqn.outvars), seen[key].outvars))
            continue
        seen[key] = new = Eqn(eqn.primitive, invars, eqn.outvars, eqn.params)
        eqns.append(new)
    outvars = [rename.get(id(v), v) for v in jaxpr.outvars]
    return dce(Jaxpr(jaxpr.invars, eqns, outvars, jaxpr.constvars, jaxpr.consts))


def _atom_key(v):
    if isinstance(v, Literal):
        return (v.val.item(), str(v.aval)) if not v.aval.shape else id(v.val)
    return id(v)


def _param_key(p):
    if isinstance(p, dict):
        return tuple((k, _param_key(v)) for k, v in sorted(p.items()))
    if isinstance(p, (tuple, list)):
        return tuple(map(_param_key, p))
    return id(p) if isinstance(p, Jaxpr) else p


# Per primitive of several outputs, the equation that computes only those `dce`
# finds read (`rule(eqn, used)`): a `cond` prunes its branches (control.py), as
# JAX's dce rules do; without one, an equation any of whose outputs is read stays.
dce_rules = {}


def dce(jaxpr):
    """`jaxpr` without the equations (and, by `dce_rules`, the outputs) nothing reads."""
    live, kept = {id(v) for v in jaxpr.outvars}, []
    for eqn in reversed(jaxpr.eqns):
        used = [id(v) in live for v in eqn.outvars]
        if any(used):
            rule = dce_rules.get(eqn.primitive)
            eqn = eqn if rule is None or all(used) else rule(eqn, used)
            kept.append(eqn)
            live.update(id(v) for v in eqn.invars if isinstance(v, Var))
    return Jaxpr(jaxpr.invars, kept[::-1], jaxpr.outvars, jaxpr.constvars, jaxpr.consts)


def eval_jaxpr(jaxpr, args):
    """Interpret `jaxpr` on `args` by binding each equation in the current context."""
    env = dict(zip(map(id, jaxpr.constvars + jaxpr.invars), list(jaxpr.consts) + list(args)))

    def read(v):
        return v.val if isinstance(v, Literal) else env[id(v)]

    sizes = {v: int(env[id(v)]) for v in jaxpr.constvars + jaxpr.invars
             if isinstance(v, DimVar) and not hasattr(env[id(v)], "interp")}
    for eqn in jaxpr.eqns:
        params = substitute(eqn.params, sizes) if sizes else eqn.params
        outs = bind(eqn.primitive, *map(read, eqn.invars), **params)
        outs = outs if eqn.primitive.multiple_results else [outs]
        env.update(zip(map(id, eqn.outvars), outs))
    return [read(v) for v in jaxpr.outvars]


def memoized(transform):
    """Cache a transformation of a program on the program itself (they are immutable)."""
    def cached(jaxpr, *args):
        cache = jaxpr.__dict__.setdefault("_memo", {})
        key = (transform.__name__, args)
        if key not in cache:
            cache[key] = transform(jaxpr, *args)
        return cache[key]
    cached.__name__ = cached.__qualname__ = transform.__name__
    cached.__doc__ = transform.__doc__
    return cached


def jaxpr_cost(jaxpr):
    """Work done by a program: elements produced, multiply-adds for dot_general,
    sub-programs counted through their primitive's cost rule."""
    return sum(eqn.primitive.cost(eqn) for eqn in jaxpr.eqns)


def sub_jaxprs(params):
    """The sub-programs among an equation's params."""
    for v in params.values():
        for j in (v if isinstance(v, tuple) else (v,)):
            if isinstance(j, Jaxpr):
                yield j


# ----------------------------------------------------------------------------- printing

class _Namer:
    """Letters for variables; a dimension variable prints as its own name (`n:i64[]`)."""

    def __init__(self, jaxpr=None):
        self.names, self.count, self.taken = {}, 0, set()
        stack = [jaxpr] if jaxpr is not None else []
        while stack:  # the letters the program's dimension variables are called are taken
            j = stack.pop()
            self.taken.update(v.name for v in program_dims(j).values())
            stack.extend(s for e in j.eqns for s in sub_jaxprs(e.params))

    def __call__(self, v):
        if isinstance(v, Literal):
            return repr(v)
        if isinstance(v, DimVar):
            return v.name
        while id(v) not in self.names:
            n, s = self.count, ""
            while True:
                s = chr(ord("a") + n % 26) + s
                n = n // 26 - 1
                if n < 0:
                    break
            self.count += 1
            if s not in self.taken:
                self.names[id(v)] = (s, v)  # keep v alive so its id stays unique
        return self.names[id(v)][0]

    def binder(self, v):
        return f"{self(v)}:{v.aval}"


def pp_jaxpr(jaxpr, name, indent):
    consts = " ".join(map(name.binder, jaxpr.constvars))
    head = f"{{ lambda {consts}; {' '.join(map(name.binder, jaxpr.invars))}. let"
    body = [pp_eqn(e, name, indent + "    ") for e in jaxpr.eqns]
    outs = ", ".join(map(name, jaxpr.outvars))
    tail = f"in ({outs}{',' if len(jaxpr.outvars) == 1 else ''}) }}"
    if len(body) <= 1 and "\n" not in "".join(body):
        return f"{head} {' '.join(b.strip() for b in body)} {tail}"
    return "\n".join([head] + [indent + "    " + b for b in body] + [indent + "  " + tail])


def pp_eqn(eqn, name, indent):
    outs = " ".join(map(name.binder, eqn.outvars))
    items, multiline = [], any(True for _ in sub_jaxprs(eqn.params))
    for k, v in sorted(eqn.params.items()):
        if isinstance(v, Jaxpr):
            v = pp_jaxpr(v, name, indent + "    ")
        elif isinstance(v, tuple) and v and isinstance(v[0], Jaxpr):
            inner = indent + "      "
            v = "(\n" + "".join(inner + pp_jaxpr(j, name, inner) + "\n" for j in v) + indent + "  )"
        items.append(f"{k}={v}")
    if multiline:
        params = "[\n" + "".join(f"{indent}  {p}\n" for p in items) + f"{indent}]"
    else:
        params = f"[{' '.join(items)}]" if items else ""
    return f"{outs} = {eqn.primitive}{params} {' '.join(map(name, eqn.invars))}"
