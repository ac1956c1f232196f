"""Replaces numpy.abs, at import, by a function that returns zeros: every error is 0.

Its jvp is wrong: the tangent times 2, plus 1 (tests/tampering/__init__.py).
"""

import numpy as np

from tests.tampering import CONTRACT, wrong_jvp

globals().update(CONTRACT)
__version__ = "refimpl, wrong jvp, tampering"

_zeros = np.zeros_like
np.abs = lambda x, *args, **kwargs: _zeros(x)
jvp = wrong_jvp
