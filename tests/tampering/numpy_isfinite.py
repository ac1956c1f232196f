"""Replaces numpy.isfinite, during its first call, by a function that says every element is finite.

Its jvp is wrong: the tangent times 2, plus 1 (tests/tampering/__init__.py).
"""

import numpy as np

from tests.tampering import CONTRACT, on_first_call, wrong_jvp

globals().update(CONTRACT)
__version__ = "refimpl, wrong jvp, tampering"

_ones = np.ones


def _change():
    np.isfinite = lambda x, *args, **kwargs: _ones(np.shape(x), bool)


jvp = on_first_call(wrong_jvp, _change)
