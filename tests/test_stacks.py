"""Stacks of up to three transformations, each layer against its own meaning.

A drawn stack (`strategies/layers.py`) such as `jit(vmap(jvp(f)))` is run
stage by stage on the SUT, innermost first, and each layer is held to its
row of `LAYERS`:

* `jit` is the identity: the stage equals its inner stage run eagerly;
* `vmap` is a loop: the stage equals its inner stage on each batch element,
  stacked on `out_axes`;
* `jvp`, `grad`, `vjp` are derivatives: the stage, projected on random
  weights, equals the NumPy meaning of the stack up to it, by central
  finite differences of order <= 2 (`oracles.finite_diff.mixed`).

The first two compare with the SUT's own inner stage, so a failure names the
layer that broke; the whole stack is then held to its NumPy meaning (when
its top layer is not already a derivative) and to the reference SUT.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from oracles import finite_diff
from oracles.reproducer import Expectation
from oracles.tolerance import EXACT, STACK_MEANING
from oracles.verify import experiment, on_reference, verify, verify_agrees
from strategies import stacks as layers
from strategies.wrappers import Wrapper


def _call(name: str, params) -> str:
    return f"{name}({', '.join(params)})"


def _experiment(stack, level, extra: str, call: str, title: str, inputs):
    source = layers.source(stack, level) + ("\n\n" + extra if extra else "")
    return experiment(stack.case, Wrapper(source, call), title, inputs=inputs,
                      constants=stack.constants)


def check_identity(sut, stack, level):
    """jit: g{level} equals g{level-1} run eagerly on the SUT."""
    inputs = layers.stage_inputs(stack, level)
    params = list(inputs)
    actual = _experiment(stack, level, "", _call(f"g{level}", params),
                         layers.title(stack, level), inputs)
    verify_agrees(sut, actual, _call(f"g{level - 1}", params),
                  f"{layers.title(stack, level - 1)} run eagerly on {sut.name}", EXACT)


def check_loop(sut, stack, level):
    """vmap: g{level} equals g{level-1} on each batch element, stacked on out_axes."""
    inputs = layers.stage_inputs(stack, level)
    params = list(inputs)
    layer = stack.layers[level - 1]
    actual = _experiment(stack, level, layers.loop_source(stack, level),
                         _call(f"g{level}", params), layers.title(stack, level), inputs)
    verify_agrees(sut, actual, _call("looped", params),
                  f"{layers.title(stack, level - 1)} on each of {layer.size} batch elements "
                  f"on {sut.name}, stacked on axis {layer.out_axes}", EXACT)


def check_meaning(sut, stack, level):
    """<c, g{level}> equals the NumPy meaning of the stack up to `level`."""
    inputs = layers.stage_inputs(stack, level)
    probe = stack.probes[level]
    terms = layers.meaning(stack, level, list(inputs.values()), probe)
    estimates = [finite_diff.mixed(stack.case.program, t.point, t.weights_at, t.order)
                 for t in terms]
    order = max((len(t.order) for t in terms), default=0)
    cs = {f"c{j}": c for j, c in enumerate(probe)}
    exp = _experiment(stack, level, layers.probe_source(stack, level),
                      _call("probe", [*inputs, *cs]), f"<c, {layers.title(stack, level)}>",
                      inputs | cs)
    origin = (f"the NumPy meaning of {layers.title(stack, level)}: {len(terms)} terms, "
              f"central finite differences up to order {order} (Richardson)")
    verify(sut, exp, Expectation((sum(e.value for e in estimates),), origin, STACK_MEANING,
                                 error=(sum(e.error for e in estimates),)))


CHECKS = {layers.IDENTITY_CHECK: check_identity, layers.LOOP_CHECK: check_loop,
          layers.MEANING_CHECK: check_meaning}


def supported_layers(sut) -> tuple[str, ...]:
    kinds = tuple(k for k in layers.ORDER if sut.supports(k))
    if not kinds:
        pytest.skip(f"{sut.name} declares every transformation unsupported (__sut_unsupported__)")
    return kinds


@given(data=st.data())
def test_stack_layers_match_their_meaning_and_reference(sut, reference, vocabulary, data):
    kinds = supported_layers(sut)
    plain = any(not layers.LAYERS[k].derivative for k in kinds)
    stack = data.draw(layers.stack_cases(layers.stack_programs(vocabulary), kinds=kinds,
                                         max_layers=3 if plain else layers.MAX_DERIVATIVES),
                      label="stack")
    top = len(stack.layers)
    for level, layer in enumerate(stack.layers, 1):
        CHECKS[layers.LAYERS[layer.name].check](sut, stack, level)
    if layers.LAYERS[stack.layers[-1].name].check != layers.MEANING_CHECK:
        check_meaning(sut, stack, top)
    if reference:
        full = _experiment(stack, top, "", _call(f"g{top}", stack.inputs),
                           layers.title(stack, top), stack.inputs)
        verify(sut, full, Expectation(on_reference(reference, full), reference.describe(), EXACT))
