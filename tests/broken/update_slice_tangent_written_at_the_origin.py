"""Broken SUT: `dynamic_update_slice` writes the update's tangent at the origin, not at its start.

The value is right; the derivative by `update` lands in the window at index 0
of every axis, where the update's values went to `start_indices`: a rule
that builds the tangent by padding the update's tangent after it only.  An
update written at the start, or as big as its operand, hides it; one written
past the start shows it.  Built over refimpl: the derivative is carried by a
function equal to the right one in value.

Family: jvp.  Smallest input:
`jvp(lambda u: lax.dynamic_update_slice(np.zeros(3), u, (1,)), (np.ones(2),),
(np.array([1.0, 2.0]),))`.
"""

from types import SimpleNamespace

import numpy as np

import refimpl
from refimpl import __sut_unsupported__, grad, jit, jvp, numpy, vjp, vmap  # noqa: F401
from refimpl import lax as refimpl_lax
from refimpl.core import aval_of
from refimpl.lax import stop_gradient
from tests.broken import Witness

FAMILY = "jvp"
WITNESS = Witness("jvp(lambda u: lax.dynamic_update_slice(np.zeros(3), u, (1,)), (np.ones(2),), "
                  "(np.array([1.0, 2.0]),))")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


def dynamic_update_slice(x, update, start_indices):
    shape, size = aval_of(x).shape, aval_of(update).shape
    right = refimpl_lax.dynamic_update_slice(x, update, start_indices)
    outside = np.ones(shape)
    outside[tuple(slice(s, s + n) for s, n in zip(start_indices, size))] = 0.0
    at_origin = numpy.pad(update, [(0, d - n) for d, n in zip(shape, size)])
    carrier = x * outside + at_origin  # correct: the update padded before by its start
    return stop_gradient(right) + (carrier - stop_gradient(carrier))


lax = SimpleNamespace(**({name: getattr(refimpl_lax, name) for name in refimpl_lax.__all__}
                         | {"dynamic_update_slice": dynamic_update_slice}))
