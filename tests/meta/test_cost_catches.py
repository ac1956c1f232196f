"""The complexity properties catch SUTs that are right but too slow, and only those.

Three broken shims compute every value correctly (the value and gradient
properties pass the two over JAX) but lose the cheap gradient principle:
`grad_per_element` (a forward pass per input element),
`grad_without_sharing` (reverse mode along every path, 2**n on the sharing
chain) and `mul_transpose_by_dense_jacobian` (n**2 work per product).
Each must fail a complexity property with a message naming the family, the
two sizes and the growth ratio, its work counted through `make_jaxpr` or
(the two over JAX) timed with `make_jaxpr` hidden.  A staging that
re-walks the program per equation must fail the tracing property, and
correct SUTs with `make_jaxpr` hidden must pass the timing fallback.
"""

import contextlib
import re
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, settings

import refimpl
from oracles import cost
from oracles.cost_bounds import TIMING_FACTOR, TIMING_GROWTH, TIMING_REPEATS, TIMING_ROUNDS
from oracles.sut import ATTRIBUTES, from_module, resolve
from strategies.language.vocabulary import vocabulary_for
from tests import test_cost, test_grad, test_value

PER_ELEMENT = "tests.broken.grad_per_element"
WITHOUT_SHARING = "tests.broken.grad_without_sharing"
# Over refimpl, counted only: its values are refimpl's products, summed by a dot
# (the value properties would add 30 s for what the witness test shows in 0.1 s).
DENSE_JACOBIAN = "tests.broken.mul_transpose_by_dense_jacobian"

settings.register_profile("cost-meta", max_examples=25, derandomize=True, database=None,
                          deadline=None, print_blob=False,
                          suppress_health_check=[HealthCheck.too_slow])


@contextlib.contextmanager
def profile(name):
    previous = settings.get_current_profile_name()
    settings.load_profile(name)
    try:
        yield
    finally:
        settings.load_profile(previous)


def without_make_jaxpr(name: str):
    """The SUT `name` with make_jaxpr hidden (declared unsupported), for the timing fallback."""
    api = resolve(name).api
    names = (*ATTRIBUTES, "__version__")
    hidden = SimpleNamespace(**{n: getattr(api, n) for n in names if hasattr(api, n)})
    hidden.__sut_unsupported__ = frozenset({"make_jaxpr"})
    return from_module(f"{name} without make_jaxpr", hidden)


def growth_message(family: str, n: int, m: int) -> str:
    return rf"family '{family}'.*n={n} -> {m}.*growth ratio \d+\.\d\d"


# ----------------------------------------------------------------------------- caught

@pytest.mark.meta
@pytest.mark.parametrize("shim, family", [(PER_ELEMENT, "input_size"),
                                          (WITHOUT_SHARING, "sharing"),
                                          (DENSE_JACOBIAN, "input_size")])
def test_counted_growth_catches_the_broken_shim(shim, family):
    n = cost.FAMILIES[family].n
    with pytest.raises(cost.CostTooHigh, match=growth_message(family, n, 2 * n)):
        test_cost.test_grad_work_grows_linearly(sut=resolve(shim), family=family)


@pytest.mark.meta
@pytest.mark.parametrize("shim, family", [(PER_ELEMENT, "input_size"),
                                          (WITHOUT_SHARING, "sharing")])
def test_timed_growth_catches_the_broken_shim(shim, family):
    n = cost.FAMILIES[family].timed_n
    match = growth_message(family, n, 4 * n)
    with pytest.raises(cost.CostTooHigh, match=match):
        test_cost.test_grad_time_grows_linearly_without_make_jaxpr(
            sut=without_make_jaxpr(shim), family=family)


@pytest.mark.meta
def test_constant_factor_catches_a_forward_pass_per_element():
    with profile("ci"), pytest.raises(cost.CostTooHigh, match=r"work\(grad loss\) = \d+"):
        sut = resolve(PER_ELEMENT)
        test_cost.test_grad_and_jvp_work_within_constant_factors_of_f(
            sut=sut, vocabulary=vocabulary_for(sut.unsupported), record_works=None)


def _walk(eqn):
    return eqn.primitive.name


def quadratic_make_jaxpr(fun):
    """refimpl's make_jaxpr, re-walking the whole program after every equation it adds."""
    def staged(*args):
        program = refimpl.make_jaxpr(fun)(*args)
        for k in range(len(program.eqns)):
            for eqn in program.eqns[:k]:
                _walk(eqn)
        return program
    return staged


@pytest.mark.meta
def test_tracing_growth_catches_quadratic_staging():
    api = SimpleNamespace(**{n: getattr(refimpl, n) for n in ATTRIBUTES})
    api.make_jaxpr = quadratic_make_jaxpr
    with pytest.raises(cost.CostTooHigh, match=r"family 'tracing'.*growth ratio"):
        test_cost.test_staging_is_linear_in_program_length(sut=from_module("quadratic", api))


# ----------------------------------------------------------------------------- not caught

@pytest.mark.meta
@pytest.mark.parametrize("shim", [PER_ELEMENT, WITHOUT_SHARING])
@pytest.mark.parametrize("prop", [test_value.test_value_matches_numpy_and_reference,
                                  test_grad.test_grad_matches_finite_differences_and_reference],
                         ids=lambda p: p.__name__)
def test_the_broken_shims_pass_the_value_properties(shim, prop):
    with profile("cost-meta"):
        sut = resolve(shim)
        prop(sut=sut, reference=None, vocabulary=vocabulary_for(sut.unsupported))


@pytest.mark.meta
@pytest.mark.parametrize("rounds, judged", [
    ([(1.0, 9.0), (2.0, 3.5), (1.0, 2.0)], (1.0, 3.5)),  # disturbed, then not: two rounds
    ([(1.0, 16.0)] * 4, (1.0, 16.0)),  # quadratic in every round: all three, still caught
])
def test_a_timing_over_the_bound_is_taken_again_and_its_fastest_runs_judged(
        monkeypatch, rounds, judged):
    taken = []

    def timings(sut, calls, repeats):
        taken.append(repeats)
        return list(rounds[len(taken) - 1])

    monkeypatch.setattr(cost, "fastest_seconds", timings)
    result = cost.timed_growth(resolve("refimpl"), "chain", TIMING_FACTOR, TIMING_REPEATS,
                               TIMING_GROWTH, TIMING_ROUNDS)
    assert result.grad == judged
    assert len(taken) == (2 if judged[1] / judged[0] <= TIMING_GROWTH else TIMING_ROUNDS)
    if judged[1] / judged[0] > TIMING_GROWTH:
        with pytest.raises(cost.CostTooHigh):
            cost.assert_linear_growth(result, TIMING_GROWTH, "refimpl")


@pytest.mark.meta
@pytest.mark.parametrize("name", ["refimpl", "jax"])
@pytest.mark.parametrize("family", test_cost.GROWTH_FAMILIES)
def test_correct_suts_pass_the_timing_fallback(name, family):
    test_cost.test_grad_time_grows_linearly_without_make_jaxpr(sut=without_make_jaxpr(name),
                                                              family=family)


@pytest.mark.meta
def test_the_failure_message_names_family_sizes_and_ratio():
    result = cost.growth(resolve(WITHOUT_SHARING), "sharing")
    with pytest.raises(cost.CostTooHigh) as failure:
        cost.assert_linear_growth(result, 2.5, "shim")
    assert re.search(r"growth ratio (\d+\.\d\d), but should be at most 2\.5", str(failure.value))
    assert "n=5 -> 10" in str(failure.value) and "'sharing'" in str(failure.value)
