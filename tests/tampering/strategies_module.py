"""Replaces strategies.language.evaluation.evaluate, NumPy's meaning of a program, during
its first call.

Its jvp is wrong: the tangent times 2, plus 1 (tests/tampering/__init__.py).
"""

import strategies.language.evaluation
from tests.tampering import CONTRACT, on_first_call, wrong_jvp

globals().update(CONTRACT)
__version__ = "refimpl, wrong jvp, tampering"

_evaluate = strategies.language.evaluation.evaluate


def _change():
    strategies.language.evaluation.evaluate = lambda *args, **kwargs: _evaluate(*args, **kwargs)


jvp = on_first_call(wrong_jvp, _change)
