"""Replaces numpy.abs, at import, by a function that returns its input: a negative error passes.

Its jvp is wrong: the tangent times 2, plus 1 (tests/tampering/__init__.py).
"""

import numpy as np

from tests.tampering import CONTRACT, wrong_jvp

globals().update(CONTRACT)
__version__ = "refimpl, wrong jvp, tampering"

np.abs = lambda x, *args, **kwargs: x
jvp = wrong_jvp
