"""Broken SUT: arithmetic returns its first operand's dtype: float32 plus float64 is float32.

float32 with float64 promotes to float64, in JAX as in NumPy
(docs/sut-api.md, "Dtypes"); here `add`, `subtract`, `multiply`, `divide`,
`maximum` and `minimum` narrow their result to their first operand's
dtype, as a promotion that looks at one operand would.  Built over refimpl:
each of those `numpy` functions converts refimpl's result.

Family: dtype.  Smallest input: `numpy.add(np.ones(2, np.float32), np.ones(2))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, ops, vjp, vmap  # noqa: F401
from refimpl.core import aval_of
from tests.broken import Witness, refimpl_numpy_with

FAMILY = "dtype"
WITNESS = Witness("numpy.add(np.ones(2, np.float32), np.ones(2))", shows="dtype")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def _first_dtype(name):
    correct = getattr(refimpl.numpy, name)

    def function(x, y):
        out = correct(x, y)
        if isinstance(x, float) or aval_of(x).dtype == aval_of(out).dtype:
            return out
        return ops.convert_element_type(out, aval_of(x).dtype)  # correct: out

    return function


numpy = refimpl_numpy_with(**{name: _first_dtype(name) for name in (
    "add", "subtract", "multiply", "divide", "maximum", "minimum")})
