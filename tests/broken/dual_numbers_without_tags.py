"""Broken SUT: the dual-number toy without its tags, so nested jvp confuses perturbations.

`suts.dual_numbers` gives each jvp call a tag and takes a Dual's tangent
only in its own call; here a Dual of any call counts as the current
call's.  A jvp nested inside another and closing over the outer variable
then adds the outer tangent to its own and returns no outer derivative.
Un-nested jvp is unaffected.  A self-contained forward mode: a fresh copy
of the toy (the original stays intact), with its `_parts` replaced.

Family: nesting.  Smallest input:
`jvp(lambda x: jvp(lambda y: x * y, (1.0,), (1.0,))[1], (1.0,), (1.0,))`.
"""

import importlib.util

from suts import dual_numbers
from tests.broken import Witness

FAMILY = "nesting"
WITNESS = Witness("jvp(lambda x: jvp(lambda y: x * y, (1.0,), (1.0,))[1], (1.0,), (1.0,))")

_spec = importlib.util.spec_from_file_location(f"{__name__}.toy", dual_numbers.__file__)
toy = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(toy)


def _untagged_parts(x, tag):
    if isinstance(x, toy.Dual):  # correct: and x.tag == tag
        return x.primal, x.tangent
    return x, toy.multiply(x, 0.0)


toy._parts = _untagged_parts
jvp, numpy, __sut_unsupported__ = toy.jvp, toy.numpy, toy.__sut_unsupported__
__version__ = f"dual numbers {toy.__version__}, deliberately broken"
