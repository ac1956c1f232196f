"""Hooks around every example a property runs: the body Hypothesis calls, wrapped.

Hypothesis lets a plugin replace a property's body (`test.hypothesis.inner_test`,
public API, as pytest-trio does); `wrapped` does that for one pytest item
while it runs.  Three users: the `jaxcheck` child plugin counts examples and
ends a hunt's time slice (jaxcheck/child.py); every run keeps JAX's memory
bounded (`MemoryBound`, registered by jaxcheck/plugin.py); every run amplifies
a value mismatch once Hypothesis has shrunk it (`amplifying`, registered by
the plugin innermost, so its extra runs of the body are not examples); and
a run with a shrink goal stops shrinking once a failure is small enough
(`shrinking_until`).
"""

from __future__ import annotations

import contextlib
import functools
import sys
from collections.abc import Callable

from hypothesis.control import current_build_context
from hypothesis.errors import InvalidArgument
from hypothesis.internal.conjecture import engine

from oracles import reproducer
from oracles.amplify import search
from oracles.errors import Mismatch
from strategies.moves import movable

# JAX keeps the executable of every distinct computation it compiled, in
# caches that only grow: each generated program brings new computations,
# about 6 MiB an example on the grad property (1.4 GiB after 200).  Clearing
# them every 50 examples holds a worker at about 640 MiB and costs 7% of the
# time (every 100: 960 MiB, 2%); figures in docs/performance.md, "Memory".
EXAMPLES_BETWEEN_CLEARS = 50


@contextlib.contextmanager
def wrapped(item, wrap: Callable):
    """While the block runs, `item`'s property calls `wrap(body)` instead of its body
    (nothing changes for a test that is not a Hypothesis property).

    The wrapper takes the body's name, signature and attributes
    (`functools.update_wrapper`): a derandomized profile seeds each property
    with a digest of its body's source, signature and parameters, and without
    them every wrapped property (and every row of a parametrized one) would
    share one seed, the wrapper's, and draw other examples under `jaxcheck`
    than under plain pytest."""
    hypothesis = getattr(item.obj, "hypothesis", None)
    if hypothesis is None:
        yield
        return
    inner = hypothesis.inner_test
    hypothesis.inner_test = functools.update_wrapper(wrap(inner), inner)
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


def shrinking_until(equations: int) -> Callable[[Callable], Callable]:
    """A wrapper of a property's body that ends shrinking as soon as a failing
    example's reproducer has a program of at most `equations` equations.

    The kill matrix (tests/meta/test_broken_suts.py) asks only that each
    failure shrink within its limit; the shrinking after that (smaller
    values, fewer inputs) was most of its time.  Hypothesis ends shrinking
    once its count of successful shrinks reaches `engine.MAX_SHRINKS`, which
    it checks after every failing example: lowering it to 0 stops there, and
    Hypothesis reports the smallest failure so far by its own order (this
    one, or a shorter one, which the kill matrix holds to its limit too).
    The caller restores the constant (jaxcheck/plugin.py)."""

    def wrap(inner: Callable) -> Callable:
        def body(*args, **kwargs):
            try:
                return inner(*args, **kwargs)
            except Exception as failure:
                script = reproducer.find(failure)
                count = reproducer.equations(script) if script else None
                if count is not None and count <= equations:
                    engine.MAX_SHRINKS = 0
                raise

        return body

    return wrap


def amplifying(inner: Callable) -> Callable:
    """`inner`, a property's body, with a value mismatch in Hypothesis's final run
    (the shrunk example, replayed to report it) amplified: the same draws at
    the inputs where the error is largest (oracles/amplify.py)."""

    def body(*args, **kwargs):
        data = kwargs.get("data")
        if data is None or not _final_run():
            return inner(*args, **kwargs)
        recording = Recording(data)
        try:
            return inner(*args, **{**kwargs, "data": recording})
        except Mismatch as shrunk:
            failure = _amplified(
                lambda drawn: inner(*args, **{**kwargs, "data": Replaying(drawn)}),
                recording.drawn, shrunk)
            if failure is shrunk:
                raise
            raise failure from None

    return body


def _final_run() -> bool:
    try:
        return current_build_context().is_final
    except InvalidArgument:  # not inside a Hypothesis test
        return False


def _amplified(run: Callable[[list], None], drawn: list, shrunk: Mismatch) -> Mismatch:
    """The failure at the amplified inputs, with the shrunk example's reproducer
    kept beside its own; `shrunk` itself, with a note, where none is better."""
    if not all(map(movable, drawn)):
        return shrunk

    def trial(candidate: list) -> Mismatch | None:
        try:
            run(candidate)
        except Mismatch as failure:
            return failure
        return None

    outcome = search(trial, drawn, shrunk)
    failure = trial(outcome.drawn) if outcome.drawn is not None else None
    if failure is None:  # nothing better, or an SUT that no longer fails there
        _note_first(shrunk, outcome.note())
        return shrunk
    _note_first(failure, outcome.note())
    script = reproducer.find(shrunk)
    if script:
        failure.add_note(reproducer.as_shrunk(script))
    return failure


def _note_first(exc: BaseException, note: str) -> None:
    """`note` before the exception's other notes (the reproducers, which are long)."""
    exc.add_note(note)
    exc.__notes__.insert(0, exc.__notes__.pop())


class Recording:
    """The property's `data`, keeping what each draw returned."""

    def __init__(self, data):
        self.data, self.drawn = data, []

    def draw(self, strategy, label=None):
        value = self.data.draw(strategy, label=label)
        self.drawn.append(value)
        return value


class Replaying:
    """Stands in for the property's `data`: each draw returns the next of `drawn`."""

    def __init__(self, drawn: list):
        self.drawn = iter(drawn)

    def draw(self, strategy, label=None):
        return next(self.drawn)
