"""Broken SUT: einsum leaves its output's axes in the order the letters first appear in
the operands, not the order the subscripts' output names them.

`einsum("ab->ba", x)` is x's transpose; this one returns x.  The final
transpose that orders the output is the step left out, so every result
whose output letters are already in order (a sum, a contraction `ab,bc->ac`)
is right, and only a reordering output shows it.  Derivatives follow the
wrong value consistently, so only the value shows it.

Family: semantics.  Smallest input: `numpy.einsum("ab->ba", np.array([[1.0, 2.0], [3.0, 4.0]]))`.
"""

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, lax, vjp, vmap  # noqa: F401
from refimpl import numpy as refimpl_numpy
from tests.broken import Witness, refimpl_numpy_with

FAMILY = "semantics"
WITNESS = Witness('numpy.einsum("ab->ba", np.array([[1.0, 2.0], [3.0, 4.0]]))')

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def einsum(subscripts, *operands):
    inputs, output = subscripts.split("->")
    appearing = "".join(dict.fromkeys(c for c in inputs if c in output))
    return refimpl_numpy.einsum(f"{inputs}->{appearing}", *operands)  # correct: ->{output}


numpy = refimpl_numpy_with(einsum=einsum)
