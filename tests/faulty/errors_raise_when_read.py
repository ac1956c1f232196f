"""refimpl, but a `numpy` operation that fails returns a result that raises when it is read.

An SUT that computes lazily (MLX does) finds an error, a leaked tracer
say, only when the result is read (`numpy.asarray`): it still refuses the
program, and jaxcheck must count that as the SUT raising.
"""

from types import SimpleNamespace

from refimpl import *  # noqa: F403 (refimpl's API, but for numpy)
from refimpl import __sut_unsupported__  # noqa: F401 (what refimpl declares)
from refimpl import numpy as _numpy

__version__ = "refimpl whose failing numpy operations raise when their result is read"


class Deferred:
    """A result whose computation failed: reading it raises the failure."""

    def __init__(self, error: Exception):
        self.error = error

    def __array__(self, dtype=None, copy=None):
        raise self.error


def _deferring(operation):
    def deferred(*args, **kwargs):
        try:
            return operation(*args, **kwargs)
        except Exception as exc:
            return Deferred(exc)

    return deferred


numpy = SimpleNamespace(**{name: _deferring(getattr(_numpy, name)) for name in dir(_numpy)
                           if not name.startswith("_") and callable(getattr(_numpy, name))})
