"""Broken SUT: `export` stages the function at the first sizes it is called with.

refimpl whose `export.export(f)(*specs)` accepts symbolic specs but stages
nothing until the first `call`, then stages `f` at that call's concrete
shapes and runs that one program at every later call: the sizes of the
first call are baked in.  Its staged types are those of the first call (no
dimension variables; none at all before a call), so it also lets two
different dimension variables meet, and never refuses a size.

Family: jit.  Smallest input: `(lambda e: (e.call(np.ones(1)),
e.call(np.ones(2))))(export.export(numpy.sin)(ShapeDtypeStruct(export.symbolic_shape("n"),
np.float64)))`.
"""

from types import SimpleNamespace

import refimpl
from refimpl import (  # noqa: F401
    ShapeDtypeStruct,
    __sut_unsupported__,
    grad,
    jit,
    jvp,
    lax,
    numpy,
    vjp,
    vmap,
)
from tests.broken import Witness

FAMILY = "jit"
WITNESS = Witness('(lambda e: (e.call(np.ones(1)), e.call(np.ones(2))))'
                  '(export.export(numpy.sin)(ShapeDtypeStruct(export.symbolic_shape("n"), '
                  'np.float64)))', shows="error")

__version__ = f"refimpl {refimpl.__version__}, deliberately broken"


class _FirstSizes:
    """An `Exported` that stages at its first call's shapes and keeps that program."""

    def __init__(self, fun, specs):
        self.fun, self.in_avals, self.first = fun, tuple(specs), None

    out_avals = property(lambda self: self.first.out_avals if self.first else ())

    def call(self, *args):
        if self.first is None:
            self.first = refimpl.export.export(self.fun)(*args)
            self.in_avals = self.first.in_avals
        return self.first.call(*args)


export = SimpleNamespace(export=lambda fun: lambda *specs: _FirstSizes(fun, specs),
                         symbolic_shape=refimpl.export.symbolic_shape)
