"""Replaces numpy.all, during its first call, by a function that says every element is true.

Its jvp is wrong: the tangent times 2, plus 1 (tests/tampering/__init__.py).
"""

import numpy as np

from tests.tampering import CONTRACT, on_first_call, wrong_jvp

globals().update(CONTRACT)
__version__ = "refimpl, wrong jvp, tampering"


def _change():
    np.all = lambda *args, **kwargs: True


jvp = on_first_call(wrong_jvp, _change)
