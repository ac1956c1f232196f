"""A transformation stack judged layer by layer, each layer against its own meaning.

A drawn stack (`strategies/stacks.py`) such as `jit(vmap(jvp(f)))` is run
stage by stage on the SUT, innermost first, and each layer is held to the
check its row of `LAYERS` names (`CHECKS`):

* identity (`jit`): the stage equals its inner stage run eagerly on the SUT;
* loop (`vmap`): the stage equals its inner stage on each batch element,
  stacked on `out_axes`;
* meaning (`jvp`, `grad`, `vjp`): the stage, projected on random weights,
  equals the NumPy meaning of the stack up to it, by central finite
  differences of order <= 2 (`oracles.finite_diff.mixed`).

The first two compare with the SUT's own inner stage, so a failure names the
layer that broke; `check_stack` then holds the whole stack to its NumPy
meaning (when its top layer is not already a derivative) and to the
reference.  A stack drawn with a second point (`stack_cases(again=True)`) is
then called again there (`check_reuse`): one function object at two points,
the second call against the same stack built afresh, as `oracles.values.
check_jit` holds one jitted function.  The properties: `tests/test_stacks.py`,
`tests/test_jacobians.py`.
"""

from __future__ import annotations

from oracles import finite_diff
from oracles.experiment import Experiment, case_experiment
from oracles.reference import from_reference, referee, verify_matches_reference
from oracles.reproducer import Expectation
from oracles.sut import Sut
from oracles.tolerance import EXACT, STACK_MEANING
from oracles.verify import verify, verify_agrees, verify_returns
from strategies import stacks
from strategies.wrappers import Wrapper


def _call(name: str, params) -> str:
    return f"{name}({', '.join(params)})"


def stage_experiment(stack, level, extra: str, call: str, title: str, inputs) -> Experiment:
    """The stack's stages up to `level` (and `extra` source) as one module, calling `call`."""
    source = stacks.source(stack, level) + ("\n\n" + extra if extra else "")
    return case_experiment(stack.case, Wrapper(source, call), title, inputs=inputs,
                           constants=stack.constants)


def check_identity(sut: Sut, reference: Sut | None, stack, level: int) -> None:
    """jit: g{level} equals g{level-1} run eagerly on the SUT (the reference says which
    is wrong where they differ)."""
    inputs = stacks.stage_inputs(stack, level)
    params = list(inputs)
    actual = stage_experiment(stack, level, "", _call(f"g{level}", params),
                              stacks.title(stack, level), inputs)
    verify_agrees(sut, actual, _call(f"g{level - 1}", params),
                  f"{stacks.title(stack, level - 1)} run eagerly on {sut.name}", EXACT,
                  referee(reference, actual, EXACT))


def check_loop(sut: Sut, reference: Sut | None, stack, level: int) -> None:
    """vmap: g{level} equals g{level-1} on each batch element, stacked on out_axes (the
    reference says which is wrong where they differ)."""
    inputs = stacks.stage_inputs(stack, level)
    params = list(inputs)
    layer = stack.layers[level - 1]
    actual = stage_experiment(stack, level, stacks.loop_source(stack, level),
                              _call(f"g{level}", params), stacks.title(stack, level), inputs)
    verify_agrees(sut, actual, _call("looped", params),
                  f"{stacks.title(stack, level - 1)} on each of {layer.size} batch elements "
                  f"on {sut.name}, stacked on axis {layer.out_axes}", EXACT,
                  referee(reference, actual, EXACT))


def check_meaning(sut: Sut, reference: Sut | None, stack, level: int) -> None:
    """<c, g{level}> equals the NumPy meaning of the stack up to `level` (`reference`
    unused: NumPy's meaning is the oracle; the signature is that of every check)."""
    inputs = stacks.stage_inputs(stack, level)
    probe = stack.probes[level]
    terms = stacks.meaning(stack, level, list(inputs.values()), probe)
    estimates = [finite_diff.mixed(stack.case.program, t.point, t.weights_at, t.order)
                 for t in terms]
    order = max((len(t.order) for t in terms), default=0)
    cs = {f"c{j}": c for j, c in enumerate(probe)}
    exp = stage_experiment(stack, level, stacks.probe_source(stack, level),
                           _call("probe", [*inputs, *cs]), f"<c, {stacks.title(stack, level)}>",
                           inputs | cs)
    origin = (f"the NumPy meaning of {stacks.title(stack, level)}: {len(terms)} terms, "
              f"central finite differences up to order {order} (Richardson)")
    verify(sut, exp, Expectation((sum(e.value for e in estimates),), origin, STACK_MEANING,
                                 error=(sum(e.error for e in estimates),)))


def check_reuse(sut: Sut, reference: Sut | None, stack) -> None:
    """One g{top} called at the stack's inputs, then at its second point (`stacks.
    reuse_source`): the second call equals the reference's run of both calls,
    or without a reference, the stack built afresh and called at that point
    alone on the SUT.

    The first call is the one the layer checks judge; what a system keeps from
    it (a primal or a residual cached by function object, a trace of the
    first point's values) shows in the second.  The afresh side runs in a
    module of its own, so it keeps nothing of the first call, and its values
    are literals in the reproducer (a second SUT run only where no reference
    judges: the reference's run of both calls is the cheaper oracle).
    """
    __tracebackhide__ = True
    top = len(stack.layers)
    inputs = stack.inputs | {f"{name}{stacks.AGAIN}": x for name, x in stack.again.items()}
    source, fresh = stacks.reuse_source(stack)
    title = stacks.title(stack, top)
    exp = stage_experiment(stack, top, source, _call("reused", inputs),
                           f"one {title} at its first point, then at its second", inputs)
    expectations = from_reference(reference, exp)
    if not expectations:
        alone = verify_returns(sut, stage_experiment(
            stack, top, "", fresh, f"{title} at its second point, built afresh", inputs),
            f"{title} built afresh, which one called before must equal")
        expectations = [Expectation(alone, f"{title} built afresh at the second point on "
                                           f"{sut.name}", EXACT)]
    verify(sut, exp, *expectations)


# Which oracle judges a layer, by the check its row of `stacks.LAYERS` names.
CHECKS = {stacks.IDENTITY_CHECK: check_identity, stacks.LOOP_CHECK: check_loop,
          stacks.MEANING_CHECK: check_meaning}


def check_stack(sut: Sut, reference: Sut | None, stack) -> None:
    """Every layer against its check, the whole stack against its meaning and the reference."""
    __tracebackhide__ = True
    top = len(stack.layers)
    for level, layer in enumerate(stack.layers, 1):
        CHECKS[stacks.LAYERS[layer.name].check](sut, reference, stack, level)
    if stacks.LAYERS[stack.layers[-1].name].check != stacks.MEANING_CHECK:
        check_meaning(sut, reference, stack, top)
    if stack.again is not None:
        check_reuse(sut, reference, stack)  # the reference judges both calls there
        return
    verify_matches_reference(sut, reference, stage_experiment(
        stack, top, "", _call(f"g{top}", stack.inputs), stacks.title(stack, top), stack.inputs))
