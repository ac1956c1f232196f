"""refimpl's names, and a module `__getattr__` that raises for any other (not AttributeError)."""

import refimpl

globals().update({name: getattr(refimpl, name) for name in refimpl.__all__})


def __getattr__(name):
    raise RuntimeError(f"no {name} here")
