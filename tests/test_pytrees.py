"""Pytrees: a program taking its inputs packed in containers and returning its outputs in one.

`g(a0, ...)` reads the inputs of a generated `f` out of drawn tuples, lists
and dicts (nested one level; dict keys written out of sorted order), calls
`f`, and returns its outputs in another drawn container
(`strategies/pytrees.py`).  Every transformation of `g` must equal the same
transformation of the unpacked `f` on the SUT itself, leaf for leaf in JAX's
flattening order (a dict's entries by sorted key), and the reference:
value, jit, jvp (tangents packed like the inputs), vjp (the cotangent packed
like the output), grad (argnums over packed arguments) and vmap (in_axes as
prefix trees of the arguments).
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from oracles.experiment import case_experiment
from oracles.pytree_order import verify_matches_unpacked
from strategies import wrappers
from strategies.pytree_cases import transformed_packed_cases, vmap_packed_cases
from strategies.pytree_wrappers import packed_wrapper, packing, unpacked_wrapper

# The order is what a case draws from; every transformation but vmap, whose
# property is below (tests/meta/test_tables.py holds it to the table).
TRANSFORMS = ("value", "jit", "jvp", "vjp", "grad")


@given(data=st.data())
def test_pytree_arguments_and_results_match_the_unpacked_program(sut, reference, vocabulary,
                                                                  data):
    """Each transformation of f on tuples, lists and dicts equals that of f unpacked."""
    supported = tuple(t for t in TRANSFORMS if t == "value" or sut.supports(t))
    drawn = data.draw(transformed_packed_cases(vocabulary, supported), label="drawn")
    packed, transform, inputs, constants, argnums, flat_argnums = drawn
    case, program = packed.case, packed.case.program
    unpacked = case_experiment(case, unpacked_wrapper(program, transform, flat_argnums),
                               f"{transform} of f", inputs=inputs, constants=constants)
    exp = case_experiment(case, packed_wrapper(packed, transform, argnums=argnums),
                          f"{transform} of g (f on packed arguments)", inputs=inputs,
                          constants=constants, function=packing(packed))
    verify_matches_unpacked(sut, reference, packed, transform, exp, unpacked)


@pytest.mark.needs("vmap")
@given(data=st.data())
def test_vmap_over_pytrees_with_prefix_in_axes(sut, reference, vocabulary, data):
    """vmap over packed arguments, in_axes a prefix tree of them, equals vmap of f unpacked."""
    drawn = data.draw(vmap_packed_cases(vocabulary), label="drawn")
    packed, axes, in_axes, out_axes, batched = drawn
    case = packed.case
    inputs = wrappers.named("x", batched)
    unpacked = case_experiment(case, wrappers.vmap(case.program, axes, out_axes),
                               f"vmap(f, in_axes={axes!r}, out_axes={out_axes!r})",
                               inputs=inputs)
    exp = case_experiment(case, packed_wrapper(packed, "vmap", in_axes=in_axes,
                                               out_axes=out_axes),
                          f"vmap(g, in_axes={in_axes}, out_axes={out_axes!r})", inputs=inputs,
                          function=packing(packed))
    verify_matches_unpacked(sut, reference, packed, "vmap", exp, unpacked)
