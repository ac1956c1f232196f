"""Broken SUT: grad of a non-scalar output differentiates its mean, not its sum as declared.

It declares `grad_nonscalar_sum` (docs/sut-api.md, "Conventions of the
transformations"): grad of a function whose output is not a scalar
returns the gradient of the sum of its elements, as TensorFlow's
GradientTape does.  It returns the gradient of their mean instead, each
element's share divided by their count: a plausible slip for a
convention that seeds the output's cotangent, and wrong by that count.
For a scalar output it is refimpl's own grad.  Built over refimpl, so
that shrinking takes seconds.

Family: interface.  Smallest input: `grad(numpy.sin)(np.ones(2))`.
"""

import refimpl
from refimpl import __sut_unsupported__ as refimpl_declares
from refimpl import jit, jvp, lax, numpy, vjp, vmap  # noqa: F401
from tests.broken import Witness

FAMILY = "interface"
WITNESS = Witness("grad(numpy.sin)(np.ones(2))", shows="refusal")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"
__sut_unsupported__ = refimpl_declares | {"grad_nonscalar_sum"}


def grad(fun, argnums=0):
    def loss(*args):
        out = fun(*args)
        return numpy.mean(out) if getattr(out, "shape", ()) else out

    return refimpl.grad(loss, argnums=argnums)
