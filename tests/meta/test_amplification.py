"""Amplification (oracles/amplify.py): a shrunk counterexample's inputs moved to where
the bug shows plainly, never to where a correct SUT fails.

End to end: `tests.broken.sin_derivative_small_angle` is right at x = 0, so
Hypothesis shrinks its counterexample to an input just far enough from 0 to
fail; amplification must move it away, to an error thousands of times the
tolerance, with the same program and the shrunk reproducer kept beside.

No false alarm: every kind of drawn example that amplification moves
(strategies/moves.py), moved as the search moves it and run through its
property's own body on refimpl, passes.
"""

import ast
import inspect
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jaxcheck.examples import Recording, Replaying
from oracles.amplify import MAX_TRIALS, jitter, rounded, search
from oracles.errors import Mismatch
from oracles.reproducer import equations
from oracles.sut import resolve
from strategies.language.ir import OutOfDomain
from strategies.language.vocabulary import vocabulary_for
from strategies.moves import moved
from strategies.program import programs
from tests import (
    test_grad,
    test_identities,
    test_jit,
    test_jvp,
    test_pytrees,
    test_stacks,
    test_value,
    test_vmap,
)
from tests.meta.test_broken_suts import saved_reproducer

pytestmark = pytest.mark.meta
ROOT = Path(__file__).resolve().parents[2]
_RATIOS = re.compile(r"Amplified: the shrunk example's error was (\S+) times the tolerance; "
                     r".* it is (\S+) times")


def _rule_right_at_zero(drawn: list) -> Mismatch | None:
    """A stand-in for one run of a property whose SUT gets x**4 / 24 wrong: the
    error of cos x against its small-angle approximation, tolerance 1e-7."""
    x = np.max(np.abs(drawn[0].args[0]), initial=0.0)
    error = abs(np.cos(x) - (1 - x**2 / 2))
    return Mismatch("", ratio=error / 1e-7, relative=error) if error > 1e-7 else None


def _precision_loss(drawn: list) -> Mismatch:
    """A stand-in for a float32 step: about 3 times the tolerance at every input."""
    x = float(np.sum(drawn[0].args[0]))
    return Mismatch("", ratio=3.0 + 0.1 * np.sin(x), relative=3e-7)


@settings(max_examples=10, derandomize=True, database=None, deadline=None)
@given(case=programs(ops=("sin", "add"), min_inputs=1, max_inputs=1, max_eqns=2,
                     allow_empty=False))
def test_the_search_moves_inputs_to_where_the_error_is_large_or_says_why_not(case):
    """The search leaves the shrunk input (1.01 times the tolerance) for one at
    least 1e3 times it, within the budget; a precision loss is named, not
    amplified."""
    shrunk = case._replace(args=(np.full_like(case.args[0], 0.03),),
                           variants=((np.full_like(case.args[0], 0.03),),))
    first = Mismatch("", ratio=1.01, relative=1e-7)
    outcome = search(_rule_right_at_zero, [shrunk], first)
    assert outcome.tried <= MAX_TRIALS and outcome.drawn is not None, outcome
    assert outcome.ratio >= 1e3 and "Amplified" in outcome.note(), outcome
    assert _rule_right_at_zero(outcome.drawn).ratio == outcome.ratio
    flat = search(_precision_loss, [shrunk], Mismatch("", ratio=3.0, relative=3e-7))
    assert "a loss of precision" in flat.note(), flat.note()


def test_a_rule_right_at_one_point_is_shown_far_from_it(tmp_path):
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "tests/test_jvp.py", "-q", "-p", "no:cacheprovider",
         "--sut=tests.broken.sin_derivative_small_angle", "--hypothesis-profile=catch",
         f"--reproducers={tmp_path}"],
        cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert run.returncode == 1, run.stdout[-3000:]
    shrunk_ratio, ratio = map(float, _RATIOS.search(run.stdout).groups())
    assert shrunk_ratio < 100 <= 1000 <= ratio, run.stdout[-3000:]
    amplified = saved_reproducer(run.stdout)
    shrunk, = [p for p in tmp_path.glob("*.py") if p != amplified]
    assert "of the shrunk example" in shrunk.read_text()
    assert equations(amplified.read_text()) == equations(shrunk.read_text()) == 1
    # The input's largest magnitude: the shrunk example may keep x0 an array.
    x0 = {p: float(np.max(np.abs(ast.literal_eval(
              re.search(r"^x0 = np.array\((.+)\)$", p.read_text(), re.M).group(1)))))
          for p in (shrunk, amplified)}
    assert x0[shrunk] < 0.2 < 1.0 <= x0[amplified], x0
    for path in (shrunk, amplified):
        replay = subprocess.run([sys.executable, str(path)], cwd=ROOT, capture_output=True,
                                text=True, timeout=300)
        assert replay.returncode == 1 and "MISMATCH" in replay.stdout, replay.stdout


# Each property whose drawn examples amplification moves, with its parameters.
MOVED = [
    (test_value.test_value_matches_numpy_and_reference, {}),
    (test_jvp.test_jvp_matches_finite_differences_and_reference, {}),
    (test_grad.test_grad_matches_finite_differences_and_reference, {}),
    (test_grad.test_vjp_matches_finite_differences_and_reference, {}),
    (test_vmap.test_vmap_matches_loop_and_stack, {}),
    (test_jit.test_jit_matches_eager_and_numpy, {}),
    (test_jit.test_jit_retraces_for_a_new_shape, {}),
    (test_identities.test_jvp_and_vjp_are_adjoint, {}),
    (test_identities.test_jvp_is_linear_in_the_tangent, {}),
    (test_identities.test_hessian_of_loss_is_symmetric, {}),
    (test_identities.test_vmap_of_grad_is_grad_per_example, {}),
    (test_identities.test_grad_is_vjp_of_unit_cotangent, {}),
    *[(test_identities.test_jit_commutes_with, {"transform": t})
      for t in test_identities.TRANSFORMS],
    (test_stacks.test_stack_layers_match_their_meaning_and_reference, {}),
    (test_pytrees.test_pytree_arguments_and_results_match_the_unpacked_program, {}),
    (test_pytrees.test_vmap_over_pytrees_with_prefix_in_axes, {}),
]
MOVES = [jitter(np.random.default_rng(0), scale) for scale in (0.05, 0.25, 1.0, None)]
REFIMPL = resolve("refimpl")


@pytest.mark.parametrize("prop, params", MOVED,
                         ids=[p.__name__ + "".join(f"-{v}" for v in k.values()) for p, k in MOVED])
@settings(max_examples=15, derandomize=True, database=None, deadline=None)
@given(data=st.data())
def test_moved_examples_pass_on_a_correct_sut(prop, params, data):
    body = prop.hypothesis.inner_test
    fixtures = {"sut": REFIMPL, "vocabulary": vocabulary_for(REFIMPL.unsupported), **params}
    if "reference" in inspect.signature(body).parameters:
        fixtures["reference"] = None
    recording = Recording(data)
    body(**fixtures, data=recording)
    for move in (*MOVES, rounded(0.5)):
        try:
            candidate = [moved(value, move) for value in recording.drawn]
        except OutOfDomain:
            continue
        body(**fixtures, data=Replaying(candidate))
