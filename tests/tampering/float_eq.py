"""Tries to make float.__eq__ and numpy.float64.__eq__ always true, at import; Python refuses both.

Its jvp is wrong: the tangent times 2, plus 1 (tests/tampering/__init__.py).
"""

import numpy as np

from tests.tampering import CONTRACT, wrong_jvp

globals().update(CONTRACT)
__version__ = "refimpl, wrong jvp, tampering"

for _type in (float, np.float64):
    try:
        _type.__eq__ = lambda a, b: True
    except TypeError:  # "cannot set '__eq__' attribute of immutable type"
        pass
jvp = wrong_jvp
