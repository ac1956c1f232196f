"""Broken SUT: vmap declares that it stages its function, and a staged `if` takes
its `then` branch instead of raising.

It declares `vmap_stages_function` (docs/sut-api.md, "Conventions of the
transformations"): vmap traces its function once as a staged graph, as
TensorFlow's vectorized_map does, so a Python `if` on an argument, even
one in_axes leaves unbatched, must raise.  Here every argument is batched
inside the function (the unbatched ones broadcast along the batch, as
`vmap_batches_unmapped` does), and the truth of a batched value is True,
as that of a Python object with no truth of its own is: the `if` silently
takes its `then` branch whatever the argument says.  Built over refimpl,
so that shrinking takes seconds.

Family: batching.  Smallest input:
`vmap(lambda x, c: x if c > 0 else -x, in_axes=(0, None))(np.ones(2), -1.0)`.
"""

import contextlib

import refimpl
from refimpl import __sut_unsupported__ as refimpl_declares
from refimpl import grad, jit, jvp, lax, numpy, vjp  # noqa: F401
from refimpl.vmap import BatchTracer
from tests.broken import Witness
from tests.broken.vmap_batches_unmapped import vmap as batching_every_argument

FAMILY = "batching"
WITNESS = Witness(
    "vmap(lambda x, c: x if c > 0 else -x, in_axes=(0, None))(np.ones(2), -1.0)")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"
__sut_unsupported__ = refimpl_declares | {"vmap_stages_function"}


@contextlib.contextmanager
def batched_values_true():
    """While active, `bool()` of a batched value is True; refimpl's class is as it
    was afterwards (its own `__bool__` is inherited, so the override is deleted)."""
    BatchTracer.__bool__ = lambda self: True
    try:
        yield
    finally:
        del BatchTracer.__bool__


def vmap(fun, in_axes=0, out_axes=0):
    batched = batching_every_argument(fun, in_axes, out_axes)

    def run(*args):
        with batched_values_true():
            return batched(*args)

    return run
