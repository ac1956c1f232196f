"""What a run prints: the closing table fits 100 columns, and each kind of failure is named once."""

import pytest

from jaxcheck import table
from jaxcheck.runner import Verdict

pytestmark = pytest.mark.meta

LONG = ("tests/test_conventions.py::"
        "test_derivative_at_a_kink_follows_the_convention[maximum_tie-jvp]")


def _raised(transformation: str, uses: str) -> dict:
    return {"error": f"SutRaised: mysut raised NotImplementedError while computing "
                     f"{transformation}(f) on mysut: no rule for cond_p\nThe example uses "
                     f"{uses}: if the SUT does not offer one of these by design, list it in "
                     "__sut_unsupported__", "reproducers": []}


VERDICTS = [
    Verdict("tests/test_grad.py::test_grad_matches", "failed", 3, 1.0,
            failures=[_raised("grad", "add, cond, grad, sum")],
            message="SutRaised: mysut raised NotImplementedError " + "x" * 200),
    Verdict("tests/test_grad.py::test_vjp_matches", "failed", 5, 1.0,
            failures=[_raised("vjp", "cond, multiply, vjp"),
                      {"error": "Mismatch: output 1: got 3.0, but should be 1.0",
                       "reproducers": ["counterexamples/" + "r" * 120 + ".py"]}],
            reproducers=["counterexamples/" + "r" * 120 + ".py"]),
    Verdict(LONG, "skipped", 1, 0.0, "mysut declares tie_convention: " + "y" * 200),
    Verdict("tests/test_jvp.py::test_jvp_matches", "crashed", 3, 1.0, "SIGSEGV"),
    Verdict("tests/test_cost.py::test_grad_work_grows_linearly[chain]", "passed", None, 0.3),
]


def test_the_closing_table_fits_100_columns_and_keeps_reproducer_paths_whole():
    lines = table.closing_table(VERDICTS).splitlines()
    assert all(len(line) <= 100 for line in lines if "reproducer:" not in line), lines
    assert f"    reproducer: counterexamples/{'r' * 120}.py" in lines
    assert any(line.startswith("ok") and " once " in line for line in lines)  # not "-"
    assert any("maximum_tie-jvp]" in line for line in lines)  # a name keeps its parameters


def test_each_kind_of_failure_is_named_once_with_what_every_example_used():
    text = table.groups(VERDICTS)
    assert text.count("raises NotImplementedError: no rule for cond_p") == 1
    assert "in 2 properties: test_grad_matches, test_vjp_matches" in text
    assert "declare it in __sut_unsupported__: cond\n" in text + "\n"  # used by both
    assert "wrong values (Mismatch)" in text and "crashed: SIGSEGV" in text
    assert text.startswith("\n\n3 distinct kinds of failure")


@pytest.mark.parametrize("error", [
    "SutRaised: mysut raised TypeError while computing f(x): only 0-dimensional arrays can "
    "be converted to Python scalars",
    "oracles.errors.SutRaised: mysut raised TypeError while computing the SUT's own vjp: "
    "<J^T u, t> on mysut: only 0-dimensional arrays can be converted to Python scalars",
    "SutRaised: mysut raised TypeError in make_jaxpr of the chain family at n=8: only "
    "3-dimensional arrays can be converted to Python scalars",
    "SutRaised: mysut raised TypeError while computing a jvp(f, x, t)[1] + b jvp(f, x, s)[1] "
    "on mysut: only 0-dimensional arrays can be converted to Python scalars",
])
def test_one_bug_is_one_kind_whatever_the_computation_and_its_numbers(error):
    assert table.error_kind(error) == ("raises TypeError: only N-dimensional arrays can be "
                                       "converted to Python scalars")


def test_a_message_that_holds_a_colon_is_kept_whole():
    assert table.error_kind("SutRaised: toy raised TypeError while computing jvp(f, x, t): "
                            "unsupported operand type(s) for @: 'Dual' and 'Dual'") == (
        "raises TypeError: unsupported operand type(s) for @: 'Dual' and 'Dual'")


def test_the_live_line_says_which_features_a_refusal_met():
    line = table.live_line(VERDICTS[0])
    assert "uses add, cond, grad, sum: if the SUT lacks one by design, declare it" in line
