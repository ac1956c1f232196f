"""SUTs that change what jaxcheck judges with: each has a wrong `jvp`, and none may pass.

Each module here is refimpl with `jvp` wrong by the tangent times 2, plus 1
(`wrong_jvp`), and one change to what the oracle judges with, made at import
or during the SUT's first call (`on_first_call`): a NumPy function the
comparison uses, the standard library, jaxcheck's own modules, the reference
SUT's module.  Without the frozen oracle (oracles/frozen.py) several of them
passed `test_jvp_matches_finite_differences_and_reference`.
`tests/meta/test_tampering.py` holds each to fail it, with the change named
where Python allows the change, and holds the correct SUTs beside them
(`correct_*`: refimpl that sets NumPy's print options and error handling, as
real libraries do) to pass.
"""

from __future__ import annotations

import functools

import refimpl
from refimpl.pytree import tree_flatten, tree_unflatten

# refimpl's contract names, and what it declares unsupported, for each SUT here to re-export.
CONTRACT = {name: getattr(refimpl, name) for name in [*refimpl.__all__, "__sut_unsupported__"]}


def wrong(jvp):
    """`jvp`, its tangents times 2, plus 1 (correct: the tangents as they are)."""

    def wrong_jvp(f, primals, tangents):
        out, tangent_out = jvp(f, primals, tangents)
        leaves, tree = tree_flatten(tangent_out)
        return out, tree_unflatten(tree, [t * 2 + 1 for t in leaves])

    return wrong_jvp


wrong_jvp = wrong(refimpl.jvp)


def on_first_call(jvp, change):
    """`jvp`, which runs `change()` as its first call starts."""
    done = []

    @functools.wraps(jvp)
    def first(*args, **kwargs):
        if not done:
            done.append(True)
            change()
        return jvp(*args, **kwargs)

    return first
