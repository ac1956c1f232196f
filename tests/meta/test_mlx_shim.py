"""The MLX shim's own choices, where a mistake of the shim would read as MLX's.

Skipped without MLX (`tox -e mlx` and `tox -e conformance` install it; the
suite's environment does not, as it carries no SUT library).
"""

import numpy as np
import pytest

pytest.importorskip("mlx.core", reason="MLX is not installed: pip install 'mlx[cpu]==0.32.4'")

import suts.mlx as sut  # noqa: E402

pytestmark = pytest.mark.meta


def test_cond_selects_where_mlx_refuses_to_read_a_predicate_from_an_inner_transformation():
    """Under vmap, a predicate computed by an inner jvp is refused with a RuntimeError
    ("eval an array without a primitive"), not the usual ValueError; cond must select
    with where for both, or the failure is the shim's."""
    def f(x):
        v = sut.jvp(lambda a: sut.numpy.add(a, x), (x,), (x,))[1]
        return sut.lax.cond(sut.numpy.sum(v) > 1.0, lambda a: a, sut.numpy.negative, x)

    per_example = sut.vmap(sut.grad(lambda x: sut.numpy.sum(f(x))))(np.array([0.0, 2.0]))
    np.testing.assert_array_equal(np.asarray(per_example), [-1.0, 1.0])


def test_cond_raises_what_is_not_a_refused_read():
    """A predicate of two elements cannot be read either, but that is the caller's
    error: cond must raise it, not select between the branches element by element."""
    x = sut.numpy.add(np.array([-1.0, 1.0]), 0.0)
    with pytest.raises(ValueError, match="length-1"):
        sut.lax.cond(sut.numpy.greater(x, 0.0), lambda a: a, sut.numpy.negative, x)
