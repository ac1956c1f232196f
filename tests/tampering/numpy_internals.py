"""Replaces the helper behind numpy.all in NumPy's own module, at import: numpy.all itself stays.

Its jvp is wrong: the tangent times 2, plus 1 (tests/tampering/__init__.py).
"""

from numpy._core import fromnumeric

from tests.tampering import CONTRACT, wrong_jvp

globals().update(CONTRACT)
__version__ = "refimpl, wrong jvp, tampering"

fromnumeric._wrapreduction_any_all = lambda *args, **kwargs: True
jvp = wrong_jvp
