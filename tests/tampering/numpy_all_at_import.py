"""Replaces numpy.all, at import, by a function that says every element is true.

Its jvp is wrong: the tangent times 2, plus 1 (tests/tampering/__init__.py).
"""

import numpy as np

from tests.tampering import CONTRACT, wrong_jvp

globals().update(CONTRACT)
__version__ = "refimpl, wrong jvp, tampering"

np.all = lambda *args, **kwargs: True
jvp = wrong_jvp
