"""refimpl's names, and a `__version__` that raises as it is read (a module-level property)."""

import sys
import types

import refimpl


class _Module(types.ModuleType):
    @property
    def __version__(self):
        raise RuntimeError("the version is computed lazily, and failed")


globals().update({name: getattr(refimpl, name) for name in refimpl.__all__})
sys.modules[__name__].__class__ = _Module
