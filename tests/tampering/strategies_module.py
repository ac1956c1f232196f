"""Replaces strategies.evaluation.evaluate, NumPy's meaning of a program, during its first call.

Its jvp is wrong: the tangent times 2, plus 1 (tests/tampering/__init__.py).
"""

import strategies.evaluation
from tests.tampering import CONTRACT, on_first_call, wrong_jvp

globals().update(CONTRACT)
__version__ = "refimpl, wrong jvp, tampering"

_evaluate = strategies.evaluation.evaluate


def _change():
    strategies.evaluation.evaluate = lambda *args, **kwargs: _evaluate(*args, **kwargs)


jvp = on_first_call(wrong_jvp, _change)
