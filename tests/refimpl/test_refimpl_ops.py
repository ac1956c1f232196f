"""Every `numpy` op and Python operator, under eval/jvp/vjp/grad/vmap/jit, against JAX."""
import numpy as np
import pytest
from helpers_refimpl import check_transforms, rng_args

import refimpl
from oracles.sut import CONTRACT
from strategies.language import operands
from strategies.language.opspec import OPS as TABLE

# name: (program over a namespace `n`, argument shapes, positive inputs?)
OPS = {
    "add": (lambda n: n.add, [(3,), (3,)], False),
    "add_broadcast": (lambda n: n.add, [(2, 3), (3,)], False),
    "add_broadcast_both": (lambda n: n.add, [(2, 1), (1, 3)], False),
    "subtract": (lambda n: n.subtract, [(2, 3), (2, 1)], False),
    "multiply": (lambda n: n.multiply, [(4,), ()], False),
    "divide": (lambda n: n.divide, [(2, 3), (3,)], True),
    "negative": (lambda n: n.negative, [(2, 3)], False),
    "sin": (lambda n: n.sin, [(2, 3)], False),
    "cos": (lambda n: n.cos, [(3,)], False),
    "tanh": (lambda n: n.tanh, [(3, 2)], False),
    "exp": (lambda n: n.exp, [(3,)], False),
    "log": (lambda n: n.log, [(3,)], True),
    "sqrt": (lambda n: n.sqrt, [(2, 2)], True),
    "sum_all": (lambda n: n.sum, [(2, 3)], False),
    "sum_axis": (lambda n: lambda x: n.sum(x, axis=1), [(2, 3, 4)], False),
    "sum_neg_axis": (lambda n: lambda x: n.sum(x, axis=-1), [(2, 3)], False),
    "sum_tuple": (lambda n: lambda x: n.sum(x, axis=(0, 2)), [(2, 3, 4)], False),
    "transpose": (lambda n: n.transpose, [(2, 3, 4)], False),
    "transpose_axes": (lambda n: lambda x: n.transpose(x, (1, 2, 0)), [(2, 3, 4)], False),
    "reshape": (lambda n: lambda x: n.reshape(x, (3, 2)), [(2, 3)], False),
    "reshape_minus1": (lambda n: lambda x: n.reshape(x, (-1,)), [(2, 3)], False),
    "broadcast_to": (lambda n: lambda x: n.broadcast_to(x, (2, 3, 4)), [(3, 1)], False),
    "expand_dims": (lambda n: lambda x: n.expand_dims(x, 1), [(2, 3)], False),
    "expand_dims_neg": (lambda n: lambda x: n.expand_dims(x, -1), [(2, 3)], False),
    "matmul_22": (lambda n: n.matmul, [(2, 3), (3, 4)], False),
    "matmul_12": (lambda n: n.matmul, [(3,), (3, 4)], False),
    "matmul_21": (lambda n: n.matmul, [(2, 3), (3,)], False),
    "matmul_11": (lambda n: n.matmul, [(3,), (3,)], False),
    "matmul_33": (lambda n: n.matmul, [(2, 3, 4), (2, 4, 5)], False),
    "matmul_32": (lambda n: n.matmul, [(2, 3, 4), (4, 5)], False),
    "matmul_23": (lambda n: n.matmul, [(3, 4), (2, 4, 5)], False),
    "matmul_13": (lambda n: n.matmul, [(4,), (2, 4, 5)], False),
    "matmul_31": (lambda n: n.matmul, [(2, 3, 4), (4,)], False),
    "matmul_broadcast_batch": (lambda n: n.matmul, [(1, 3, 4), (2, 4, 2)], False),
    "dot_11": (lambda n: n.dot, [(3,), (3,)], False),
    "dot_22": (lambda n: n.dot, [(2, 3), (3, 4)], False),
    "dot_21": (lambda n: n.dot, [(2, 3), (3,)], False),
    "dot_12": (lambda n: n.dot, [(3,), (3, 2)], False),
    "dot_32": (lambda n: n.dot, [(2, 3, 4), (4, 2)], False),
    "dot_33": (lambda n: n.dot, [(2, 3, 4), (5, 4, 2)], False),
    "dot_scalar": (lambda n: n.dot, [(), (3,)], False),
    "where": (lambda n: lambda c, x, y: n.where(n.greater(c, 0.0), x, y),
              [(2, 3), (2, 3), (3,)], False),
    "greater_where": (lambda n: lambda x, y: n.where(n.greater(x, y), x * y, x - y),
                      [(3,), (3,)], False),
    "less_where": (lambda n: lambda x, y: n.where(n.less(x, y), x, y), [(3,), ()], False),
    "maximum": (lambda n: n.maximum, [(2, 3), (2, 3)], False),
    "maximum_broadcast": (lambda n: n.maximum, [(2, 3), ()], False),
    "concatenate": (lambda n: lambda x, y: n.concatenate([x, y]), [(2, 3), (1, 3)], False),
    "concatenate_axis": (lambda n: lambda x, y: n.concatenate((x, y), axis=-1),
                         [(2, 3), (2, 2)], False),
    "op_add": (lambda n: lambda x, y: x + y + 1.0 + (2.0 + x), [(3,), (3,)], False),
    "op_sub": (lambda n: lambda x, y: x - y - 1.0 - (2.0 - x), [(3,), (2, 3)], False),
    "op_mul": (lambda n: lambda x, y: x * y * 3.0 * (2.0 * x), [(3,), (3,)], False),
    "op_div": (lambda n: lambda x, y: x / y / 2.0 + 1.0 / y, [(3,), (3,)], True),
    "op_neg": (lambda n: lambda x: -x, [(3,)], False),
    "op_pow": (lambda n: lambda x: x ** 3 + x ** 2 + x ** 1 + x ** 0 + x ** -2, [(3,)], True),
    "op_cmp": (lambda n: lambda x, y: n.where(x < y, x, y) + n.where(x > 0.5, y, x),
               [(3,), (3,)], False),
    "op_numpy_left": (lambda n: lambda x: np.arange(3.0) * x + np.ones(3) - x,
                      [(3,)], False),
    "op_shape": (lambda n: lambda x: n.reshape(x, (x.shape[1], x.shape[0])) * x.ndim,
                 [(2, 3)], False),
    "op_T": (lambda n: lambda x: x.T @ x, [(2, 3)], False),
    "tuple_out": (lambda n: lambda x, y: (n.sin(x), {"a": x * y, "b": [y]}), [(3,), (3,)],
                  False),
    "minimum": (lambda n: n.minimum, [(2, 3), (2, 3)], False),
    "minimum_broadcast": (lambda n: n.minimum, [(2, 3), ()], False),
    "arctan2": (lambda n: n.arctan2, [(2, 3), (3,)], True),
    "arctan2_left_half": (lambda n: lambda y, x: n.arctan2(y, -x), [(3,), (3,)], True),
    "logaddexp": (lambda n: n.logaddexp, [(2, 3), (3,)], False),
    "power": (lambda n: n.power, [(2, 3), (3,)], True),
    "power_operators": (lambda n: lambda x: x ** 2.5 + 2.0 ** x + n.power(x, 0.5), [(3,)], True),
    "clip": (lambda n: lambda x: n.clip(x, -0.5, 0.7), [(2, 3)], False),
    "abs_both_signs": (lambda n: lambda x: n.abs(x - 1.2) * n.sign(1.1 - x), [(2, 3)], True),
    "mean": (lambda n: lambda x: n.mean(x, axis=(0, 2), keepdims=True) + n.mean(x),
             [(2, 3, 4)], False),
    "nanmean": (lambda n: lambda x: n.nanmean(x, axis=(0, 2), keepdims=True) + n.nanmean(x),
                [(2, 3, 4)], False),
    "max": (lambda n: lambda x: n.max(x, axis=1) + n.max(x), [(2, 3, 4)], False),
    "min": (lambda n: lambda x: n.min(x, axis=-1, keepdims=True) * n.min(x), [(2, 3)], False),
    "cumsum": (lambda n: lambda x: n.cumsum(x, axis=1) * n.cumsum(x, axis=-1), [(2, 3, 4)],
               False),
    "cumsum_flattened": (lambda n: n.cumsum, [(2, 3)], False),
    "prod": (lambda n: lambda x: n.prod(x, axis=(0, 2), keepdims=True) + n.prod(x, axis=1)[0],
             [(2, 3, 4)], False),
    "prod_at_zeros": (lambda n: lambda x: n.prod(x * np.array([0.0, 1.0, 1.0]), axis=-1)
                      + n.prod(x * np.array([0.0, 0.0, 1.0])), [(2, 3)], False),
    "flip": (lambda n: lambda x: n.flip(x, 1) * n.flip(x, -1) + n.flip(x), [(2, 3, 4)], False),
    "swapaxes": (lambda n: lambda x: n.swapaxes(x, 0, 2) * n.swapaxes(x, -1, 0), [(2, 3, 2)],
                 False),
    "arccosh": (lambda n: lambda x: n.arccosh(1.5 + x), [(2, 3)], True),
    "hypot": (lambda n: n.hypot, [(2, 3), (3,)], False),
    "logaddexp2": (lambda n: n.logaddexp2, [(2, 3), (3,)], False),
    "trunc_below_zero": (lambda n: lambda x: n.trunc(-2.0 * x - 0.1), [(2, 3)], True),
    "moveaxis": (lambda n: lambda x: n.moveaxis(x, 0, -1), [(2, 3, 4)], False),
    "squeeze": (lambda n: lambda x: n.squeeze(x, 0) * n.squeeze(x[:, :1]), [(1, 3)], False),
    "ravel": (lambda n: n.ravel, [(2, 3, 4)], False),
    "stack": (lambda n: lambda x, y: n.stack([x, y, x], -1), [(2, 3), (2, 3)], False),
    "outer": (lambda n: n.outer, [(3,), (2,)], False),
    "pad": (lambda n: lambda x: n.pad(x, ((1, 0), (0, 2), (2, 1))) + n.pad(x, 1).sum(), [(2, 3, 2)],
            False),
    "roll": (lambda n: lambda x: n.roll(x, 2, 2) * n.roll(x, -1), [(2, 3, 4)], False),
    "tile": (lambda n: lambda x: n.tile(x, (2, 1)) + n.tile(x, 2).sum(), [(2, 3)], False),
    "repeat": (lambda n: lambda x: n.repeat(x, 2, 1) + n.repeat(x, 3).sum(), [(2, 3)], False),
    "diff": (lambda n: lambda x: n.diff(x, axis=1), [(2, 3, 4)], False),
    "tril": (lambda n: lambda x: n.tril(x, -1) * n.triu(x, 1), [(2, 3, 4)], False),
    "triu": (lambda n: lambda x: n.triu(x), [(3, 4)], False),
    "diagonal": (lambda n: lambda x: n.diagonal(x, 1)[:, :2] * n.diagonal(x, -1), [(3, 4, 2)],
                 False),
    "trace": (lambda n: lambda x: n.trace(x, 1) + n.trace(x[0]), [(3, 4, 4)], False),
    "var": (lambda n: lambda x: n.var(x, (0, 2), keepdims=True), [(2, 3, 4)], False),
    "std": (lambda n: lambda x: n.std(x, 1), [(2, 3, 4)], False),
    "remainder": (lambda n: lambda x, y: n.remainder(3.0 * x, y + 0.5) + (x % 0.3),
                  [(2, 3), (3,)], True),
    "fmod": (lambda n: lambda x, y: n.fmod(-3.0 * x, y + 0.5), [(2, 3), (3,)], True),
    "copysign": (lambda n: lambda x, y: n.copysign(x, y - 0.6), [(2, 3), (3,)], True),
    "cumprod": (lambda n: lambda x: n.cumprod(x, 1) + n.cumprod(x * np.array([1.0, 0.0, 1.0]), 0),
                [(2, 3)], False),
    "ptp": (lambda n: lambda x: n.ptp(x, (0, 2), keepdims=True), [(2, 3, 4)], False),
    "inner": (lambda n: n.inner, [(2, 3, 4), (3, 4)], False),
    "vdot": (lambda n: n.vdot, [(2, 3), (2, 3)], False),
    "kron": (lambda n: n.kron, [(2, 3), (3,)], False),
    "tensordot": (lambda n: lambda x, y: n.tensordot(x, y, 2), [(2, 3, 4), (3, 4, 2)], False),
    "tensordot_one_axis": (lambda n: lambda x, y: n.tensordot(x, y, 1), [(2, 3), (3, 4)], False),
    "einsum_batch_and_contract": (lambda n: lambda x, y: n.einsum("abc,cbd->dba", x, y),
                                  [(2, 3, 4), (4, 3, 2)], False),
    "einsum_alone_and_outer": (lambda n: lambda x, y: n.einsum("ab,c->ca", x, y),
                               [(2, 3), (4,)], False),
    "sort": (lambda n: lambda x: n.sort(x, axis=0) * n.reshape(n.sort(x, axis=None)[:4], (1, 4)),
             [(3, 4)], False),
    "argmax": (lambda n: lambda x, y: n.take_along_axis(x, n.argmax(y, axis=1, keepdims=True), 1)
               * n.argmax(y) + n.argmax(y, axis=0), [(2, 3), (2, 3)], False),
    "take_along_axis": (lambda n: lambda x: n.take_along_axis(x, np.array([[2, 0], [1, 1]]), 1),
                        [(2, 3)], False),
    "take": (lambda n: lambda x: n.take(x, np.array([2, 0, 2]), axis=1)
             + n.reshape(n.take(x, np.array([5, 1, 1])), (1, 3)), [(3, 4)], False),
    "median": (lambda n: lambda x: n.median(x, axis=0) + n.median(x, keepdims=True),
               [(4, 3)], False),
    "quantile": (lambda n: lambda x: n.quantile(x, 0.9, axis=1, keepdims=True)
                 * n.quantile(x, 0.25), [(4, 3)], False),
    "convolve": (lambda n: lambda x, y: n.convolve(x, y) + n.sum(n.convolve(y, x, "same"))
                 * n.convolve(x, y[:2], "valid")[0], [(5,), (3,)], False),
    "correlate": (lambda n: lambda x, y: n.correlate(x, y, "full") + n.sum(n.correlate(y, x))
                  * n.correlate(y, x, "same")[0], [(5,), (3,)], False),
    "linalg.solve": (lambda n: lambda a, b: n.linalg.solve(a + 3.0 * np.eye(3), b)
                     + n.sum(n.linalg.solve(a[0] + 3.0 * np.eye(3), b[0, :, 0])),
                     [(2, 3, 3), (2, 3, 2)], False),
    "linalg.inv": (lambda n: lambda a: n.linalg.inv(a + 3.0 * np.eye(3)), [(2, 3, 3)], False),
    "linalg.det": (lambda n: lambda a: n.linalg.det(a + 3.0 * np.eye(3)), [(2, 3, 3)], False),
    "linalg.cholesky": (lambda n: lambda a: n.linalg.cholesky(
        n.matmul(a, n.swapaxes(a, -1, -2)) + 3.0 * np.eye(3)), [(2, 3, 3)], False),
    "einsum_one_operand": (lambda n: lambda x: n.einsum("abc->ca", x), [(2, 3, 4)], False),
    "rot90": (lambda n: lambda x: n.rot90(x, 1) + n.rot90(x, -1) * n.rot90(x, 2),
              [(3, 3, 2)], False),
    "average": (lambda n: lambda x, w: n.average(x, axis=1, weights=w), [(2, 3), (2, 3)], True),
    "trapezoid": (lambda n: lambda y: n.trapezoid(y, axis=1), [(2, 3, 4)], False),
}

# The operation table's optional one-operand rows, each a row here by itself: on
# inputs in (0.25, 1), inside every such row's domain (log1p's x > -0.75, tan's
# |cos x| >= 0.25).
OPS.update({spec.name: (lambda n, name=spec.name: lambda x: getattr(n, name)(0.5 * x),
                        [(2, 3)], True)
            for spec in TABLE.values()
            if spec.optional and spec.build is operands.any_operand and spec.name not in OPS})


def test_every_numpy_function_of_the_contract_has_a_row():
    """A row is named after the function it tests (or starts with its name and `_`),
    so an operation added to the language (strategies/language/opspec.py) lacks one here."""
    missing = [function for function in CONTRACT["numpy"]
               if not any(name == function or name.startswith(f"{function}_") for name in OPS)]
    assert not missing, f"no row of OPS tests {missing}"


@pytest.mark.parametrize("name", list(OPS))
def test_op_against_jax(name):
    program, shapes, positive = OPS[name]
    args = rng_args(shapes, seed=len(name), positive=positive)
    check_transforms(lambda impl: program(impl.np), args)


def test_eager_results_are_numpy():
    x = np.ones(3)
    out = refimpl.numpy.sin(x) * 2.0 + refimpl.numpy.sum(x)
    assert type(out) is np.ndarray


def test_python_float_inputs():
    assert np.isclose(refimpl.grad(lambda x: x * x * 3.0)(2.0), 12.0)
    assert np.isclose(refimpl.jvp(lambda x: refimpl.numpy.sin(x), (1.0,), (1.0,))[1],
                      np.cos(1.0))
