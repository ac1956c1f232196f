"""The transformation table: one `Transformation` row per transformation of the contract.

A row says what jaxcheck needs to know about a transformation wherever it
applies one: its name in the contract (the SUT's `sut.<name>`), the source
that applies it to a function (`call`: every wrapper, stack layer and inner
transformation of a program renders it so), the coverage mode an example
under it counts as (`strategies/coverage.py` finds which ran by looking for
each row's `opening` in the rendered source), and whether it differentiates,
and in reverse mode.

Nothing else lists the transformations: the contract's top level
(`oracles.sut.CONTRACT[""]`), the layers of a stack (`stacks.LAYERS`), the
transformations a program applies inside itself (`constructs.CONSTRUCTS`)
and the coverage modes derive from these rows; a list that keeps an order of
its own or names only some of them (the ones a property checks) takes them
from here by a filter, or `tests/meta/test_tables.py` holds it to the rows.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Transformation:
    """One transformation of the contract.

    * ``name``: its name in the contract, `sut.<name>`.
    * ``mode``: the coverage mode an example under it counts as
      (`coverage.MODES`): vjp and grad both count as "reverse".
    * ``derivative``: it differentiates; ``reverse``: in reverse mode (a
      program under it must be one the SUT can differentiate so).
    """

    name: str
    mode: str
    derivative: bool = False
    reverse: bool = False

    @property
    def opening(self) -> str:
        """What every source that applies it contains, and only such a source."""
        return f"sut.{self.name}("

    def call(self, fn: str, *arguments: str) -> str:
        """The source that applies it to the function `fn`: `sut.<name>(fn, arguments..)`,
        each argument already source (`"(x0,)"`, `"argnums=0"`)."""
        return f"{self.opening}{', '.join((fn, *arguments))})"


JVP = Transformation("jvp", "jvp", derivative=True)
VJP = Transformation("vjp", "reverse", derivative=True, reverse=True)
GRAD = Transformation("grad", "reverse", derivative=True, reverse=True)
VMAP = Transformation("vmap", "vmap")
JIT = Transformation("jit", "jit")

# In the contract's order (docs/sut-api.md).
TRANSFORMATIONS: dict[str, Transformation] = {row.name: row for row in (JVP, VJP, GRAD, VMAP, JIT)}
