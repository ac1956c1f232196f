"""Self-tests of the strategies: argument validation, and what the generator produces."""

import os
from collections import Counter

import numpy as np
import pytest
from hypothesis import find, given, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

import refimpl
from strategies import stacks
from strategies.language import inputs, shapes
from strategies.language.evaluation import evaluate
from strategies.language.ir import all_eqns
from strategies.language.render import load, render_function, render_module
from strategies.language.table import LANGUAGE
from strategies.language.vocabulary import supported_names, vocabulary_for
from strategies.program import programs

# One xdist group: `test_every_operation_appeared` reads what the generator
# property saw, so both must run in one worker (tox runs `--dist loadgroup`).
pytestmark = [pytest.mark.meta, pytest.mark.xdist_group("generator")]


def e(strategy, match=None, **kwargs):
    """A bad call, as a parametrize row whose id is the call itself.

    The error must quote `match`: by default the (first) bad argument as `name=value`.
    """
    args = ", ".join(f"{k}={v!r}" for k, v in kwargs.items())
    name, value = next(iter(kwargs.items()))
    match = match or f"{name}={value!r}"
    return pytest.param(strategy, kwargs, match, id=f"{strategy.__name__}({args})")


BAD_CALLS = [
    e(shapes.array_shapes, min_rank=2, max_rank=1),
    e(shapes.array_shapes, min_rank=-1),
    e(shapes.array_shapes, max_rank=4),
    e(shapes.array_shapes, min_dim=0),
    e(shapes.array_shapes, max_dim=9),
    e(shapes.array_shapes, min_rank=1.5),
    e(shapes.input_shapes, count=-1),
    e(shapes.input_shapes, count=2, pool_size=0),
    e(inputs.values, bound=0),
    e(inputs.values, bound="2"),
    e(inputs.arrays, shape=[2, 3]),
    e(inputs.arrays, shape=(-1,)),
    e(programs, min_inputs=0),
    e(programs, min_inputs=3, max_inputs=2),
    e(programs, max_eqns=201),
    e(programs, max_outputs=0),
    e(programs, ops=()),
    e(programs, "'nosuchop'", ops=("sin", "nosuchop")),
    e(programs, variants=0),
    e(programs, min_eqns=True),
    e(programs, sharing=1),
    e(programs, chain="yes"),
    e(programs, allow_empty=None),
    e(programs, "first='scan'", first="scan", ops=("sin",)),
]


@pytest.mark.parametrize("strategy, kwargs, match", BAD_CALLS)
def test_bad_arguments_raise_invalid_argument(strategy, kwargs, match):
    # Some strategies check their arguments when built, composites when drawn.
    with pytest.raises(InvalidArgument) as info:

        @settings(max_examples=1, database=None)
        @given(strategy(**kwargs))
        def draw_one(_):
            pass

        draw_one()
    assert match in str(info.value)


def test_a_ramped_direction_shrinks_to_a_ramp_and_a_plain_one_to_ones():
    """The first of a property's examples is Hypothesis's simplest draw, and
    tests/test_cells.py has 3 in `ci`: its tangents and cotangents must not all be
    equal there, or a transpose that moves elements goes unseen."""
    no_database = settings(database=None)
    (plain,) = find(inputs.directions([(2, 3)]), lambda _: True, settings=no_database)
    (ramped,) = find(inputs.directions([(2, 3)], ramp=True), lambda _: True, settings=no_database)
    assert np.all(plain == 1.0), plain
    assert ramped.flat[0] == 1.0 and len(np.unique(ramped)) == ramped.size, ramped


def test_a_second_point_differs_from_the_first_in_the_simplest_example():
    """A function called at two points shows what it keeps of the first call only
    where the points differ, and a property's first example is the simplest draw:
    input sets drawn apart, and a stack's second point, differ there."""
    no_database = settings(database=None)
    case = find(programs(variants=3, apart=True, max_inputs=1), lambda _: True,
                settings=no_database)
    assert [float(args[0]) for args in case.variants] == [0.0, 0.25, 0.5], case.variants
    stack = find(stacks.stack_cases(stacks.stack_programs(vocabulary_for()), again=True),
                 lambda drawn: drawn.layers[-1].name == "vjp", settings=no_database)
    same = [name for name, x in stack.inputs.items() if np.array_equal(x, stack.again[name])]
    assert not same, (stack.inputs, stack.again)


@pytest.mark.parametrize("rank", range(4))
def test_last_first_batch_axes_lead_with_the_last_axis_and_keep_the_others(rank):
    """tests/test_cells.py's vmap mode draws its axes this way, so that its simplest draw
    batches along the last axis, where a rule that takes the batch axis to lead is wrong."""
    axes = shapes.batch_axes(rank, last_first=True)
    assert axes[0] == -1 and sorted(axes) == sorted(shapes.batch_axes(rank))


def test_vocabulary_leaves_out_unsupported_operations():
    assert "concatenate" not in supported_names({"concatenate"})
    assert "where" not in supported_names({"greater"})
    assert "while_loop" not in supported_names({"while_loop"})
    assert supported_names() == tuple(LANGUAGE)


def test_reverse_vocabulary_leaves_out_what_reverse_mode_cannot_pass():
    vocabulary = vocabulary_for({"while_loop_reverse"})
    assert "while_loop" in vocabulary.ops
    assert "while_loop" not in vocabulary.reverse_ops
    assert vocabulary_for().reverse_ops == tuple(LANGUAGE)


def test_operations_and_elementwise_leave_out_constructs_and_reshaping():
    vocabulary = vocabulary_for({"sin"})
    assert "cond" in vocabulary.ops and "cond" not in vocabulary.operations
    assert "sin" not in vocabulary.operations
    assert "add" in vocabulary.elementwise and "reshape" not in vocabulary.elementwise


SEEN: set[str] = set()

# Programs the generator self-test draws: twenty per operation and construct, so each
# appears as the language grows.  The rarest are the ones on well-conditioned square
# matrices: of 1500 programs drawn at random, 4 used `det` and 1 `cholesky` (`mean`
# 60), so eight per name (928 of 116) expect `det` 2.5 times and miss it once in 12
# draws of the sequence; twenty expect it 6 times, a miss once in 500.  Measured on
# the derandomized sequence: of 115 names, 690 and 805 left `det` out and 920 none;
# of 116, every count from 928 to 2088 left it out and 2320 none.  The acceptance run
# of the program language uses GENERATOR_EXAMPLES=5000 with
# --hypothesis-show-statistics, whose "op: ..." (operations and constructs) and
# "shape: ..." events count what appeared.
EXAMPLES = int(os.environ.get("GENERATOR_EXAMPLES", 20 * len(LANGUAGE)))


@settings(max_examples=EXAMPLES, derandomize=True, database=None, deadline=None)
@given(case=st.one_of(programs(variants=2), programs(variants=2, grad_only=True)))
def test_programs_are_finite_bounded_and_use_every_operation(case):
    """Every variant evaluates to finite values with every domain margin kept,
    in every equation, inside every block and at every loop iteration (half the
    programs drawn for reverse mode alone, where a custom_vjp function may be
    called)."""
    for args in case.variants:
        for out in evaluate(case.program, args, checked=True):
            assert np.all(np.isfinite(out)) and np.all(np.abs(out) <= 100)
    SEEN.update(eqn.op for eqn in all_eqns(case.program.eqns))
    SEEN.update(shapes.edges(x.shape for x in case.args))


def test_every_operation_appeared():
    """Runs after the property above (file order): all of the language, and every
    edge shape, was generated."""
    if not SEEN:
        pytest.skip("run together with the generator property above")
    assert (set(LANGUAGE) | set(shapes.EDGES)) - SEEN == set()


# A nested grad, with what its block may call: a custom_vjp function, and operations
# of each kind (`sign` carries no derivative).
NESTED_GRAD_OPS = ("inner_grad", "custom_vjp", "closure", "sin", "sign", "multiply", "sum")


@settings(max_examples=150, derandomize=True, database=None, deadline=None)
@given(case=programs(ops=NESTED_GRAD_OPS, first="inner_grad", min_inputs=2))
def test_a_custom_vjp_function_in_a_nested_grad_is_reached_by_that_grad_first(case):
    """jvp of a program whose nested grad calls a custom_vjp function runs on refimpl:
    the function takes a value carrying that grad's tangent, never only values that
    the outer jvp alone differentiates (forward mode through it, an error)."""
    f = load(render_module(render_function(case.program)), refimpl)
    refimpl.jvp(f, case.args, tuple(np.ones_like(x) for x in case.args))


# Hypothesis's own word for a test case it abandoned because the choices ran
# out: its mutator replays a spliced prefix of choices with no room to grow,
# and a draw past the end stops the case before the test body runs (every
# strategy sees this; see `test_no_example_is_filtered_or_rejected`).
OVERRUN = "exceeded maximum test case size"


def abandoned(strategy, examples: int = 200) -> Counter:
    """Why Hypothesis gave up on test cases while drawing `examples` from
    `strategy`, by reason (observability's `status_reason`)."""
    observability = pytest.importorskip("hypothesis.internal.observability")
    reasons = Counter()

    def record(observation):
        if observation.type == "test_case" and observation.status == "gave_up":
            reasons[observation.status_reason or OVERRUN] += 1

    @settings(max_examples=examples, derandomize=True, database=None, deadline=None)
    @given(strategy)
    def draw(_):
        pass

    with observability.with_observability_callback(record):
        draw()
    return reasons


def test_no_example_is_filtered_or_rejected():
    """No program is thrown away by a filter or an `assume`: validity holds by
    construction.  The overruns Hypothesis reports as "invalid" in its
    statistics come from its engine, at the rate it has on plain nested lists."""
    by_programs = abandoned(programs(variants=2))
    by_lists = abandoned(st.lists(st.lists(st.integers())))
    rejected = {reason: n for reason, n in by_programs.items() if reason != OVERRUN}
    assert rejected == {}, f"programs were filtered or rejected: {rejected}"
    # Measured (Hypothesis 6.170): 30 overruns for 200 programs, 20 for 200 lists;
    # three times the lists' count leaves room for other engine versions and
    # still fails a strategy that draws far past Hypothesis's size limits.
    assert by_programs[OVERRUN] <= 3 * max(by_lists[OVERRUN], 1), (by_programs, by_lists)


@pytest.mark.filterwarnings("error::RuntimeWarning")
def test_drawing_programs_makes_numpy_warn_of_nothing():
    """The generator evaluates each candidate equation and rejects those outside their
    domain before NumPy computes them: a warning while drawing (a mean of no
    element) is a domain rule missing from the operation's row."""

    # 600: these draws first reach a mean over an empty axis between 300 and 600.
    @settings(max_examples=600, derandomize=True, database=None, deadline=None)
    @given(programs())
    def draw(case):
        pass

    draw()
