"""refimpl, but `jvp` returns twice the tangent: wrong on nearly every example.

For the meta-tests of `jaxcheck hunt` and of the example database, which
need a failure found within seconds on any draw, not a bug that hides in
one program in a hundred.
"""

from refimpl import *  # noqa: F403 (refimpl's API, but for jvp)
from refimpl import jvp as _jvp

__sut_unsupported__ = frozenset({"while_loop_reverse"})  # as refimpl declares
__version__ = "refimpl whose jvp doubles the tangent"


def jvp(fun, primals, tangents):
    out, tangent = _jvp(fun, primals, tangents)
    return out, 2 * tangent
