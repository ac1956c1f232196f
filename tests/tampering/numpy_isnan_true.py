"""Replaces numpy.isnan, at import, by a function that says every element is a NaN.

Its jvp is wrong: the tangent times 2, plus 1 (tests/tampering/__init__.py).
"""

import numpy as np

from tests.tampering import CONTRACT, wrong_jvp

globals().update(CONTRACT)
__version__ = "refimpl, wrong jvp, tampering"

_ones = np.ones
np.isnan = lambda x, *args, **kwargs: _ones(np.shape(x), bool)
jvp = wrong_jvp
