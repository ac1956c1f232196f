"""A toy SUT: forward-mode differentiation with dual numbers over NumPy.

The running example of docs/writing-a-shim.md (which quotes this file whole;
tests/meta/test_writing_a_shim.py checks that it does, and that it passes).
`jvp` wraps each input as a `Dual`, a primal and a tangent; every operation
pushes the tangent forward by its derivative rule.  Each `jvp` call has its
own `tag`, so a jvp inside a jvp keeps its tangents apart from the outer one's,
and a Dual used after its `jvp` returned raises (a leaked tracer).
"""

import itertools
from types import SimpleNamespace

import numpy as np

__version__ = "0.2"
__sut_unsupported__ = frozenset({
    "vjp", "grad",  # forward mode only
    "vmap", "jit",  # not offered: only jvp is
    "cond", "fori_loop", "scan", "while_loop",  # no lax namespace
    "concatenate",  # takes a list of Duals: left out to keep the toy short
})

_tags, _live = itertools.count(), set()


class Dual:
    __array_ufunc__ = None  # NumPy defers `array + dual` to Dual.__radd__

    def __init__(self, primal, tangent, tag):
        self.primal, self.tangent, self.tag = primal, tangent, tag

    shape = property(lambda self: np.shape(self.primal))
    __add__, __sub__, __mul__ = (lambda a, b: add(a, b)), (lambda a, b: subtract(a, b)), (
        lambda a, b: multiply(a, b))
    __radd__, __rsub__, __rmul__ = (lambda a, b: add(b, a)), (lambda a, b: subtract(b, a)), (
        lambda a, b: multiply(b, a))
    __truediv__, __rtruediv__ = (lambda a, b: divide(a, b)), (lambda a, b: divide(b, a))
    __matmul__, __rmatmul__ = (lambda a, b: matmul(a, b)), (lambda a, b: matmul(b, a))
    __neg__ = lambda a: negative(a)  # noqa: E731
    __lt__, __gt__ = (lambda a, b: less(a, b)), (lambda a, b: greater(a, b))

    def __pow__(self, n):  # n an int; for n = 0, n * x ** (n - 1) would be 0 * inf at x = 0
        return _op(lambda x: x ** n, lambda t, p: multiply(n * p[0] ** (n - 1), t[0]) if n
                   else multiply(t[0], 0.0))(self)


def _parts(x, tag):
    """(primal, tangent) of x in the jvp `tag`; a value that jvp did not touch has tangent 0."""
    if isinstance(x, Dual) and x.tag == tag:
        return x.primal, x.tangent
    return x, x * 0.0 if isinstance(x, (int, float)) else multiply(x, 0.0)  # stays weak


def _op(f, rule):
    """f on Duals: the primal by f, the tangent by rule(tangents, primals)."""
    def op(*args, **kwargs):
        tags = [a.tag for a in args if isinstance(a, Dual)]
        if not tags:
            return f(*args, **kwargs)
        tag = max(tags)  # the innermost jvp: it was called last
        if tag not in _live:
            raise ValueError(f"a Dual of jvp call {tag} used after that call returned")
        primals, tangents = zip(*(_parts(a, tag) for a in args))
        return Dual(op(*primals, **kwargs), rule(tangents, primals, **kwargs), tag)
    return op


def _linear(f):
    """f, linear in its first argument (the others are axes or shapes): f of the tangent."""
    op = _op(f, lambda t, p, **kwargs: op(t[0], *p[1:], **kwargs))
    return op


def _value(x):
    return _value(x.primal) if isinstance(x, Dual) else x


add = _op(np.add, lambda t, p: add(t[0], t[1]))
subtract = _op(np.subtract, lambda t, p: subtract(t[0], t[1]))
multiply = _op(np.multiply, lambda t, p: add(multiply(t[0], p[1]), multiply(p[0], t[1])))
divide = _op(np.divide, lambda t, p: divide(subtract(t[0], multiply(t[1], p[0] / p[1])), p[1]))
negative = _op(np.negative, lambda t, p: negative(t[0]))
sin = _op(np.sin, lambda t, p: multiply(cos(p[0]), t[0]))
cos = _op(np.cos, lambda t, p: negative(multiply(sin(p[0]), t[0])))
tanh = _op(np.tanh, lambda t, p: multiply(1.0 - tanh(p[0]) ** 2, t[0]))
exp = _op(np.exp, lambda t, p: multiply(exp(p[0]), t[0]))
log = _op(np.log, lambda t, p: divide(t[0], p[0]))
sqrt = _op(np.sqrt, lambda t, p: divide(t[0], 2.0 * sqrt(p[0])))
matmul = _op(np.matmul, lambda t, p: add(matmul(t[0], p[1]), matmul(p[0], t[1])))
dot = _op(np.dot, lambda t, p: add(dot(t[0], p[1]), dot(p[0], t[1])))
where = _op(np.where, lambda t, p: where(_value(p[0]), t[1], t[2]))
maximum = _op(np.maximum, lambda t, p: where(  # at a tie, half of each: the contract's rule
    _value(p[0]) > _value(p[1]), t[0],
    where(_value(p[0]) < _value(p[1]), t[1], multiply(0.5, add(t[0], t[1])))))
greater = lambda x, y: np.greater(_value(x), _value(y))  # noqa: E731
less = lambda x, y: np.less(_value(x), _value(y))  # noqa: E731
sum, transpose, reshape, broadcast_to, expand_dims = map(
    _linear, (np.sum, np.transpose, np.reshape, np.broadcast_to, np.expand_dims))
numpy = SimpleNamespace(**{name: globals()[name] for name in (
    "add subtract multiply divide negative sin cos tanh exp log sqrt matmul dot where "
    "maximum greater less sum transpose reshape broadcast_to expand_dims").split()})


def _tree_map(f, tree, *others):
    """f over the leaves of tree (tuples, lists, dicts) and the matching leaves of others."""
    if isinstance(tree, (tuple, list)):
        return type(tree)(_tree_map(f, *parts) for parts in zip(tree, *others))
    if isinstance(tree, dict):
        return {k: _tree_map(f, tree[k], *(o[k] for o in others)) for k in tree}
    return f(tree, *others)


def jvp(fun, primals, tangents):
    tag = next(_tags)
    _live.add(tag)
    try:
        out = fun(*_tree_map(lambda p, t: Dual(p, t, tag), tuple(primals), tuple(tangents)))
        return (_tree_map(lambda o: _parts(o, tag)[0], out),
                _tree_map(lambda o: _parts(o, tag)[1], out))
    finally:
        _live.discard(tag)
