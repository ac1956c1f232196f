"""No SUT passes a wrong answer by changing what jaxcheck judges with (oracles/frozen.py).

Each SUT of `tests/tampering/` has a wrong `jvp` (the tangent times 2, plus
1) and changes one thing the oracle uses.  The jvp property runs on it as a
user would run it (`pytest --sut <module>` in a child process), and must not
pass: a change made at import refuses the SUT at start-up (pytest's usage
error, exit 4; the `jaxcheck` command's exit 2), naming what changed; a
change made in a call fails the property with the verdict "the SUT changed
the oracle", the same verdict each time Hypothesis replays it (never a
flaky one), and a reproducer that exits 1.  Python refuses to change its
built-in types (`float.__eq__`): that SUT fails as any wrong jvp does.

The correct SUTs beside them (refimpl, and refimpl setting NumPy's print
options and error handling) must pass: the frozen oracle fails no one for
what real libraries do.
"""

import subprocess
import sys
from pathlib import Path

import pytest

from tests import test_jvp
from tests.meta.test_broken_suts import ROOT, node_id

PROPERTY = node_id(test_jvp.test_jvp_matches_finite_differences_and_reference)

# Changes made as the SUT is imported: what the start-up error names.
AT_IMPORT = {
    "numpy_all_at_import": "numpy.all was replaced",
    "numpy_abs_zeros": "numpy.abs was replaced",
    "numpy_abs_identity": "numpy.abs was replaced",
    "numpy_isnan_true": "numpy.isnan was replaced",
    "numpy_allclose": "numpy.allclose was replaced",
    "numpy_testing": "numpy.testing.assert_allclose was replaced",
    "numpy_internals": "numpy._core.fromnumeric._wrapreduction_any_all was replaced",
    "numpy_function_code": "the code or defaults of numpy._core.numeric.allclose were replaced",
    "math_functions": "math.isclose was replaced",
    "oracles_verify": "oracles.verify.assert_close was replaced",
    "oracles_shadowed_builtin": "oracles.compare.abs was added",
    "reference_at_import": "refimpl.jvp was replaced",
}
# Changes made during the SUT's first call: what the verdict names.
IN_CALL = {
    "numpy_all_in_first_call": "numpy.all was replaced",
    "numpy_isfinite": "numpy.isfinite was replaced",
    "builtins_abs": "builtins.abs was replaced",
    "oracles_compare": "oracles.compare._mismatched was replaced",
    "strategies_module": "strategies.language.evaluation.evaluate was replaced",
    "reference_module": "refimpl.jvp was replaced",
}
# Changes Python refuses: the wrong jvp fails as it would anyway.
REFUSED = ("float_eq",)
CORRECT = ("tests.tampering.correct_numpy_settings", "refimpl")

VERDICT = "the SUT changed the oracle: "
USAGE_ERROR = 4  # pytest's exit status for a usage error (a refused --sut)


def run(sut: str, out: Path, profile: str = "ci") -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "pytest", PROPERTY, "-q", "-p", "no:cacheprovider",
               f"--hypothesis-profile={profile}", "--sut", sut, "--reproducers", str(out)]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)


@pytest.mark.meta
def test_every_tampering_sut_has_a_row():
    shipped = {path.stem for path in (ROOT / "tests" / "tampering").glob("[a-z]*.py")}
    rows = {*AT_IMPORT, *IN_CALL, *REFUSED, *(s.rpartition(".")[2] for s in CORRECT)}
    assert shipped == rows - {"refimpl"}


@pytest.mark.meta
@pytest.mark.parametrize("shim", sorted(AT_IMPORT))
def test_a_change_at_import_refuses_the_sut(shim, tmp_path):
    result = run(f"tests.tampering.{shim}", tmp_path)
    output = result.stdout + result.stderr
    assert result.returncode == USAGE_ERROR, output
    assert "importing it changed what jaxcheck judges with" in output, output
    assert AT_IMPORT[shim] in output, output
    assert "Traceback" not in output, output


@pytest.mark.meta
@pytest.mark.parametrize("shim", sorted(IN_CALL))
def test_a_change_in_a_call_is_the_verdict(shim, tmp_path):
    result = run(f"tests.tampering.{shim}", tmp_path)
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert VERDICT + IN_CALL[shim] in output, output
    assert "Flaky" not in output, output
    saved = sorted(tmp_path.glob("repro_*.py"))
    assert saved, output
    replay = subprocess.run([sys.executable, str(saved[0])], cwd=ROOT, capture_output=True,
                            text=True, timeout=300)
    assert replay.returncode == 1, replay.stdout + replay.stderr


@pytest.mark.meta
@pytest.mark.parametrize("shim", REFUSED)
def test_a_change_python_refuses_leaves_the_wrong_answer_failing(shim, tmp_path):
    result = run(f"tests.tampering.{shim}", tmp_path)
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "Mismatch" in output and VERDICT not in output, output


@pytest.mark.meta
@pytest.mark.parametrize("sut", CORRECT)
def test_a_correct_sut_passes(sut, tmp_path):
    # triage's 10 examples: refimpl's reference is JAX, whose compiles make ci's 60 slow
    result = run(sut, tmp_path, profile="triage")
    assert result.returncode == 0, result.stdout + result.stderr
