"""refimpl, but `numpy.sin` is `math.sin`: it raises on any array of more than one element.

The TypeError comes from C, so its innermost Python frame is the line of the
generated program that called `sin`, a place of its own in every program.
For the meta-test that one kind of error in one property is one bug to
Hypothesis (tests/meta/test_one_error_one_bug.py), not one per program.
"""

import math
from types import SimpleNamespace

import refimpl
from refimpl import *  # noqa: F403 (refimpl's API, but for numpy.sin)

__sut_unsupported__ = frozenset({"while_loop_reverse"})  # as refimpl declares
__version__ = "refimpl whose numpy.sin is math.sin"

numpy = SimpleNamespace(**{**vars(refimpl.numpy), "sin": math.sin})
