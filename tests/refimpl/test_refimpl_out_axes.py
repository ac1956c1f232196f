"""Negative out_axes count from the end of the *batched* output (regression).

jaxcheck's vmap property found refimpl placing the batch axis of
`vmap(f, out_axes=-2)` one position off when the output was batched.
"""

import jax
import numpy as np
import pytest

import refimpl


@pytest.mark.parametrize("out_axes", [0, 1, -1, -2])
@pytest.mark.parametrize("in_axes", [(0, 0), (0, None)])
def test_out_axes_match_jax(in_axes, out_axes):
    x0, x1 = np.arange(2.0), np.ones((2, 5)) if in_axes[1] == 0 else np.ones(5)
    expected = jax.vmap(lambda a, b: a + b, in_axes, out_axes)(x0, x1)
    got = refimpl.vmap(lambda a, b: a + b, in_axes, out_axes)(x0, x1)
    np.testing.assert_array_equal(got, expected)
