"""What to generate for one SUT: the operations and constructs it supports.

An SUT declares what it lacks in `__sut_unsupported__` (docs/sut-api.md);
`vocabulary_for` turns that into a `Vocabulary`, which every case strategy
takes as its first argument (conftest.py's `vocabulary` fixture builds one
from the resolved SUT; bench scripts build refimpl's).  Passing it, rather
than setting a module global, keeps each strategy a function of its
arguments.
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis.errors import InvalidArgument

from strategies.language.opspec import OPS
from strategies.language.table import FEATURES, LANGUAGE, REVERSE_FEATURES


def supported_names(unsupported=frozenset(), *, only=None) -> tuple[str, ...]:
    """Names from `only` (default the whole language) whose features the SUT has."""
    names = tuple(LANGUAGE) if only is None else tuple(only)
    unknown = [name for name in names if name not in LANGUAGE]
    if unknown:
        raise InvalidArgument(f"ops={unknown!r} are not operations; choose from {list(LANGUAGE)}")
    return tuple(name for name in names if not FEATURES[name] & set(unsupported))


@dataclass(frozen=True)
class Vocabulary:
    """`ops`: what programs may use; `reverse_ops`: those the SUT can also differentiate
    in reverse mode (for grad and vjp properties).  Both in `LANGUAGE` order."""

    ops: tuple[str, ...]
    reverse_ops: tuple[str, ...]

    @property
    def operations(self) -> tuple[str, ...]:
        """The array operations of `ops`, without constructs: for properties whose
        subject (an error, Python control flow, a pytree) is in plain code."""
        return tuple(name for name in self.ops if name in OPS)

    @property
    def elementwise(self) -> tuple[str, ...]:
        """The operations of `ops` that accept inputs of any shape (`OpSpec.elementwise`)."""
        return tuple(name for name in self.operations if OPS[name].elementwise)


def vocabulary_for(unsupported=frozenset()) -> Vocabulary:
    """The `Vocabulary` of an SUT whose `__sut_unsupported__` is `unsupported`."""
    ops = supported_names(unsupported)
    lacking = set(unsupported)
    return Vocabulary(ops, tuple(name for name in ops
                                 if not REVERSE_FEATURES.get(name, frozenset()) & lacking))
