"""The transformation table: one `Transformation` row per transformation of the contract.

A row says what jaxcheck needs to know about a transformation wherever it
applies one: its name in the contract (the SUT's `sut.<name>`), the source
that applies it to a function (`call`: every wrapper, stack layer and inner
transformation of a program renders it so), the coverage mode an example
under it counts as (`strategies/coverage.py` finds which ran by looking for
each row's `opening` in the rendered source), and whether it differentiates,
and in reverse mode.

The four *derived* rows (`linearize`, `jacfwd`, `jacrev`, `hessian`) are
the ones JAX builds from `jvp`, `vjp` and `vmap`.  They joined the contract
later, so an SUT may lack them (`oracles.sut.OPTIONAL_NAMES`), and a
Jacobian's meaning sums one derivative per element of an input, so they are
drawn over small programs by a property of their own
(`tests/test_jacobians.py`) rather than by the stack property's.

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
    * ``order``: how many times it differentiates (0, 1, or 2 for a
      Hessian): a stack holds at most two orders of derivatives in all;
      ``reverse``: in reverse mode (a program under it must be one the SUT
      can differentiate so).
    * ``derived``: JAX builds it from jvp, vjp and vmap (see above).
    """

    name: str
    mode: str
    order: int = 0
    reverse: bool = False
    derived: bool = False

    @property
    def derivative(self) -> bool:
        return self.order > 0

    @property
    def opening(self) -> str:
        """What every source that applies it contains, and only such a source."""
        return f"sut.{self.name}("

    def call(self, fn: str, *arguments: str) -> str:
        """The source that applies it to the function `fn`: `sut.<name>(fn, arguments..)`,
        each argument already source (`"(x0,)"`, `"argnums=0"`)."""
        return f"{self.opening}{', '.join((fn, *arguments))})"


JVP = Transformation("jvp", "jvp", order=1)
VJP = Transformation("vjp", "reverse", order=1, reverse=True)
GRAD = Transformation("grad", "reverse", order=1, reverse=True)
VMAP = Transformation("vmap", "vmap")
JIT = Transformation("jit", "jit")
# linearize is forward mode staged once; jacfwd pushes one tangent per input
# element forward, jacrev pulls one cotangent per output element back, and
# hessian is jacfwd of jacrev (forward over reverse), as in JAX.
LINEARIZE = Transformation("linearize", "jvp", order=1, derived=True)
JACFWD = Transformation("jacfwd", "jvp", order=1, derived=True)
JACREV = Transformation("jacrev", "reverse", order=1, reverse=True, derived=True)
HESSIAN = Transformation("hessian", "reverse", order=2, reverse=True, derived=True)

# In the contract's order (docs/sut-api.md).
TRANSFORMATIONS: dict[str, Transformation] = {
    row.name: row for row in (JVP, VJP, GRAD, VMAP, JIT, LINEARIZE, JACFWD, JACREV, HESSIAN)}

# The ones an SUT may lack (`oracles.sut.OPTIONAL_NAMES`).
DERIVED = tuple(name for name, row in TRANSFORMATIONS.items() if row.derived)
# The ones in reverse mode: a program under one must be one the SUT can differentiate
# so (`Vocabulary.reverse_ops`, the feature `while_loop_reverse`).
REVERSE = frozenset(name for name, row in TRANSFORMATIONS.items() if row.reverse)
