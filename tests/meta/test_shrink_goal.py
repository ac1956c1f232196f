"""`--shrink-goal N` ends shrinking once a failure's program has at most N equations
(jaxcheck/examples.py, `shrinking_until`), and only then."""

import pytest
from hypothesis.internal.conjecture import engine

from jaxcheck.examples import shrinking_until
from oracles.reproducer import HEADER, equations

pytestmark = pytest.mark.meta


def reproducer_of(count: int) -> str:
    body = "".join(f"    v{i} = jnp.sin(x0)\n" for i in range(count))
    return f'{HEADER}: f."""\n\ndef f(x0):\n{body}    return v0\n\n\nx0 = 0.5\n'


def failing_with(script: str | None):
    def body():
        failure = AssertionError("MISMATCH")
        if script is not None:
            failure.add_note(script)
        raise failure

    return body


@pytest.fixture
def bound():
    """Hypothesis's own bound, restored after the test as conftest.py restores it."""
    kept = engine.MAX_SHRINKS
    yield kept
    engine.MAX_SHRINKS = kept


def test_equations_counts_the_generated_programs_lines():
    assert equations(reproducer_of(4)) == 4
    assert equations("print('no program here')") is None


@pytest.mark.parametrize("count, stops", [(2, True), (3, True), (4, False)])
def test_a_failure_within_the_goal_ends_shrinking(bound, count, stops):
    body = shrinking_until(3)(failing_with(reproducer_of(count)))
    with pytest.raises(AssertionError, match="MISMATCH"):
        body()
    assert engine.MAX_SHRINKS == (0 if stops else bound)


@pytest.mark.parametrize("script", [None, "print('no program here')"], ids=["none", "no-f"])
def test_a_failure_without_a_program_shrinks_on(bound, script):
    body = shrinking_until(3)(failing_with(script))
    with pytest.raises(AssertionError):
        body()
    assert engine.MAX_SHRINKS == bound


def test_a_passing_example_changes_nothing(bound):
    assert shrinking_until(3)(lambda: "passed")() == "passed"
    assert engine.MAX_SHRINKS == bound
