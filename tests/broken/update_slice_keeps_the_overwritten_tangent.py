"""Broken SUT: `dynamic_update_slice` passes x's tangent through the window it overwrites.

refimpl's `lax.dynamic_update_slice` computed as `x + pad(update -
stop_gradient(slice of x))`: the value is right (inside the window x's
values cancel), but the derivative by x is 1 everywhere, where it must be 0
inside the window, which `update` overwrites.  JAX and refimpl select the
update inside the window.

Family: jvp.  Smallest input: `jvp(lambda x: lax.dynamic_update_slice(x, np.zeros(1), (0,)),
(np.ones(2),), (np.ones(2),))`.
"""

from types import SimpleNamespace

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, numpy, ops, vjp, vmap  # noqa: F401
from refimpl import lax as refimpl_lax
from refimpl.core import aval_of
from refimpl.lax import stop_gradient
from tests.broken import Witness

FAMILY = "jvp"
WITNESS = Witness("jvp(lambda x: lax.dynamic_update_slice(x, np.zeros(1), (0,)), "
                  "(np.ones(2),), (np.ones(2),))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def dynamic_update_slice(x, update, start_indices):
    """The update's difference from x's window, added (correct: select the update)."""
    shape, size = aval_of(x).shape, aval_of(update).shape
    window = ops.dynamic_slice(x, start_indices, size)
    config = [(s, d - s - n, 0) for s, d, n in zip(start_indices, shape, size)]
    return numpy.add(x, ops.pad(numpy.subtract(update, stop_gradient(window)), 0.0, config))


lax = SimpleNamespace(**({name: getattr(refimpl_lax, name) for name in refimpl_lax.__all__}
                         | {"dynamic_update_slice": dynamic_update_slice}))
