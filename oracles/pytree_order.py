"""Pytrees judged leaf for leaf: a transformation of the packed `g` against the unpacked `f`.

`g` reads `f`'s inputs out of drawn containers and returns its outputs in
another (`strategies/pytrees.py`).  The same transformation of `f` on the
SUT, its flat results put in the order `g`'s results flatten to (JAX's: a
dict's entries by sorted key), is what `g` must return; and the reference
too.  The properties: `tests/test_pytrees.py`.
"""

from __future__ import annotations

from oracles.experiment import Experiment
from oracles.reference import from_reference
from oracles.reproducer import Expectation
from oracles.sut import Sut
from oracles.tolerance import EXACT
from oracles.verify import verify, verify_returns
from strategies.pytrees import order


def _input_order(packed) -> list[int]:
    return [label for tree in packed.arguments for label in order(tree)]


def in_jax_order(packed, transform: str, flat) -> tuple:
    """The unpacked f's flat results, in the order the packed g's results flatten to."""
    outs = order(packed.output)
    n = len(packed.case.program.outputs)
    if transform == "grad":
        return tuple(flat)
    if transform == "jvp":
        return tuple(flat[j] for j in outs) + tuple(flat[n + j] for j in outs)
    if transform == "vjp":
        return tuple(flat[j] for j in outs) + tuple(flat[n + i] for i in _input_order(packed))
    return tuple(flat[j] for j in outs)


def verify_matches_unpacked(sut: Sut, reference: Sut | None, packed, transform: str,
                            exp: Experiment, unpacked: Experiment) -> None:
    """`exp` (the transformed g) equals `unpacked` (the same of f) on the SUT, in JAX's
    pytree order, and `exp` on the reference.

    `packed` is the drawn `PackedCase`: the program and the argument and output trees.
    """
    __tracebackhide__ = True
    flat = verify_returns(sut, unpacked, "f is the same program, unpacked")
    expected = Expectation(in_jax_order(packed, transform, flat),
                           f"{sut.name} on the unpacked f, in JAX's pytree order", EXACT)
    verify(sut, exp, expected, *from_reference(reference, exp))
