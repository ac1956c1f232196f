"""Hooks around every example a property runs: the body Hypothesis calls, wrapped.

Hypothesis lets a plugin replace a property's body (`test.hypothesis.inner_test`,
public API, as pytest-trio does); `wrapped` does that for one pytest item
while it runs.  Two users: the `jaxcheck` child plugin counts examples and
ends a hunt's time slice (jaxcheck/child.py), and every run keeps JAX's
memory bounded (`MemoryBound`, registered by conftest.py).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable

# JAX keeps the executable of every distinct computation it compiled, in
# caches that only grow: each generated program brings new computations,
# about 6 MiB an example on the grad property (1.4 GiB after 200).  Clearing
# them every 50 examples holds a worker at about 640 MiB and costs 7% of the
# time (every 100: 960 MiB, 2%); figures in docs/benchmarks.md, "Memory".
EXAMPLES_BETWEEN_CLEARS = 50


@contextlib.contextmanager
def wrapped(item, wrap: Callable):
    """While the block runs, `item`'s property calls `wrap(body)` instead of its body
    (nothing changes for a test that is not a Hypothesis property)."""
    hypothesis = getattr(item.obj, "hypothesis", None)
    if hypothesis is None:
        yield
        return
    inner = hypothesis.inner_test
    hypothesis.inner_test = wrap(inner)
    try:
        yield
    finally:
        hypothesis.inner_test = inner


class MemoryBound:
    """Clears JAX's caches (when JAX is loaded at all) after every
    `EXAMPLES_BETWEEN_CLEARS` examples of the process, between two examples,
    so no example sees its own computations dropped."""

    def __init__(self, every: int = EXAMPLES_BETWEEN_CLEARS):
        self.every = every
        self.examples = 0

    def wrap(self, inner: Callable) -> Callable:
        def body(*args, **kwargs):
            self.examples += 1
            if self.examples % self.every == 0 and "jax" in sys.modules:
                sys.modules["jax"].clear_caches()
            return inner(*args, **kwargs)

        return body
