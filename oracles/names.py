"""The module an SUT's name means, in a clone and installed alike.

A clone imports jaxcheck's library by its top-level names (`refimpl`,
`suts.torch_func`); the wheel puts the same packages inside `jaxcheck`
(backend/jaxcheck_build.py), so that installing jaxcheck adds no name a
user's project may have.  An SUT is named the same way in both, so that a
record, a findings file's `Signature (suts.torch_func)` and a command in the
README mean one thing wherever jaxcheck runs: names are kept in the clone's
form, and only the module imported for one is found here.
"""

from __future__ import annotations

# "" in a clone, "jaxcheck." installed: the prefix this very module was imported under.
LIBRARY = __name__.removesuffix("oracles.names")

# The library's packages an SUT's name may start with: the reference
# implementation and the shims of other systems.
SHIPPED = ("refimpl", "suts")


def _shipped(name: str) -> bool:
    return name.partition(":")[0].split(".", 1)[0] in SHIPPED


def canonical(name: str) -> str:
    """`name` in a clone's form: `jaxcheck.suts.mlx` is `suts.mlx` where jaxcheck is
    installed (and `suts.mlx` either way); any other name as given."""
    if LIBRARY and name.startswith(LIBRARY) and _shipped(name.removeprefix(LIBRARY)):
        return name.removeprefix(LIBRARY)
    return name


def module_path(name: str) -> str:
    """What to import for the SUT `name` (`module` or `module:attribute`, returned in
    that form): refimpl and the shipped shims where this library stands, any other
    module (`jax`, the user's own) as named."""
    name = canonical(name)
    return LIBRARY + name if _shipped(name) else name
