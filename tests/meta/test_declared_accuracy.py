"""An operation declared less accurate is still checked, at its declared accuracy.

`tests/meta/declared_inaccurate.py` errs by its declaration, the largest
allowed, at every call
of exp, sin and cos.  Declared, the properties that use them pass; undeclared,
they fail; a wrong derivative rule of sin is still caught under the
declaration; and a declaration smaller than the error is caught by the
one-operation property, so a declaration is checked, not trusted.  A
declaration the suite cannot honour is refused before any work starts.
"""

from types import SimpleNamespace

import pytest

from oracles.sut import SutError, from_module, resolve
from oracles.tolerance import DECLARED_ERROR_GROWTH, EXACT, MAX_DECLARED_ERROR, ONE_OPERATION
from tests.meta.test_broken_suts import run_property
from tests.test_cells import test_each_operand_rank_combination_under_every_mode as per_cell
from tests.test_value import test_each_operation_alone_is_accurate_to_float64 as one_operation

pytestmark = pytest.mark.meta

SUT = "tests.meta.declared_inaccurate"


@pytest.mark.parametrize("op", ["exp", "sin", "cos"])
def test_a_declared_operation_passes_and_an_undeclared_one_fails(op):
    declared = run_property(SUT, per_cell, "--hypothesis-profile=ci", param=op)
    assert declared.returncode == 0, declared.stdout[-3000:]
    undeclared = run_property(f"{SUT}:undeclared", per_cell, "--hypothesis-profile=ci", param=op)
    assert undeclared.returncode == 1, undeclared.stdout[-3000:]
    assert "Mismatch" in undeclared.stdout


def test_a_wrong_derivative_rule_is_caught_under_the_declaration():
    run = run_property(f"{SUT}:small_angle", per_cell, "--hypothesis-profile=ci", param="sin")
    assert run.returncode == 1, run.stdout[-3000:]
    assert f"declares sin accurate to {MAX_DECLARED_ERROR:g}" in run.stdout


def test_a_declaration_below_the_error_made_fails_the_one_operation_property():
    assert run_property(SUT, one_operation, "--hypothesis-profile=ci").returncode == 0
    run = run_property(f"{SUT}:overclaimed", one_operation, "--hypothesis-profile=ci")
    assert run.returncode == 1, run.stdout[-3000:]
    assert f"accurate to {MAX_DECLARED_ERROR / 10:g}" in run.stdout


def test_the_tolerance_widens_only_for_examples_using_a_declared_operation():
    sut = resolve(SUT)
    assert sut.tolerance_for("y = jnp.tanh(x)", EXACT) == EXACT
    widened = sut.tolerance_for("y = jnp.exp(jnp.sin(x))", EXACT)
    assert widened.rtol == pytest.approx(EXACT.rtol + DECLARED_ERROR_GROWTH * MAX_DECLARED_ERROR)
    assert f"declares exp accurate to {MAX_DECLARED_ERROR:g}" in widened.why
    one = sut.tolerance_for("jnp.cos(x)", ONE_OPERATION)
    assert one.rtol == pytest.approx(ONE_OPERATION.rtol + MAX_DECLARED_ERROR)


def test_the_description_names_the_declaration():
    e = f"{MAX_DECLARED_ERROR:g}"
    assert resolve(SUT).describe().endswith(f"(declares accuracy: cos {e}, exp {e}, sin {e})")


@pytest.mark.parametrize("declaration, says", [
    ([("exp", (1e-7, "why"))], "must be a dict"),
    ({"erf": (1e-7, "why")}, "names ['erf'], which are not operations"),
    ({"exp": 1e-7}, "must be (relative error, reason)"),
    ({"exp": (1e-7, "")}, "must be (relative error, reason)"),
    ({"exp": (True, "why")}, "must be (relative error, reason)"),
    ({"exp": (0.0, "why")}, f"must be above 0 and at most {MAX_DECLARED_ERROR:g}"),
    ({"exp": (1e-4, "float32 kernel")}, "declare the operation unsupported instead"),
    ({"exp": (float("nan"), "why")}, "must be above 0"),
])
def test_a_declaration_the_suite_cannot_honour_is_refused(declaration, says):
    api = SimpleNamespace(__sut_accuracy__=declaration)
    with pytest.raises(SutError, match=r"__sut_accuracy__") as refused:
        from_module("shim", api)
    assert says in str(refused.value)
    assert "\n" not in str(refused.value)
