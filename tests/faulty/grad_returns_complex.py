"""refimpl, but `grad` returns complex arrays: the real parts right, the imaginary parts
the gradient again (where it returns concrete arrays: a grad inside another
transformation is left alone, so that its tracers stay refimpl's).

Converted to float64, the imaginary parts were dropped and every value
compared equal.
"""

import numpy as np

from refimpl import *  # noqa: F403 (refimpl's API, but for grad)
from refimpl import __sut_unsupported__  # noqa: F401 (what refimpl declares)
from refimpl import grad as _grad

__version__ = "refimpl whose grad returns complex values"


def _complex(x):
    return x + 1j * x if isinstance(x, np.ndarray | np.floating | float) else x


def grad(fun, argnums=0):
    gradient = _grad(fun, argnums)

    def complex_gradient(*args):
        g = gradient(*args)
        return tuple(map(_complex, g)) if isinstance(g, tuple) else _complex(g)

    return complex_gradient
