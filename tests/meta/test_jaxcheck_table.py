"""What a run prints: the closing table fits 100 columns, and each kind of failure is named once."""

import pytest

from jaxcheck import table
from jaxcheck.diagnosis import diagnose
from jaxcheck.runner import Verdict
from oracles import reproducer
from strategies.language.conventions import CONVENTIONS, STAGING

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


def _failed(error: str, nodeid: str = "tests/test_x.py::test_x", reproducers=(),
            evidence: str = "") -> Verdict:
    return Verdict(nodeid, "failed", 1, 1.0, failures=[{"error": error,
                                                          "reproducers": list(reproducers)}],
                   evidence=evidence)


def _raise(kind: str, message: str, uses: str = "add, grad, sum") -> str:
    return (f"SutRaised: mysut raised {kind} while computing grad(f)(x): {message}\nThe "
            f"example uses {uses}: if the SUT does not offer one of these by design, list it "
            "in __sut_unsupported__")


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
    found = diagnose(error, "tests/test_x.py::test_x", [])
    assert found.key == diagnose(_raise("TypeError", "only 0-dimensional arrays can be "
                                        "converted to Python scalars"), "t::u", []).key
    assert found.title.startswith("raises TypeError: only ") and "N" not in found.title


def test_a_group_shows_its_message_with_the_numbers_it_has():
    """Numbers are left out of a group's key, never out of what it shows: a dtype
    failure names its dtypes, and two dtypes are two causes."""
    text = table.groups([
        _failed("SutBadOutput: output 0 is float32, but should be float64 [jit(f)(x)]"),
        _failed("SutBadOutput: output 1 is float32, but should be float64 [grad(f)(x)]"),
        _failed("SutBadOutput: output 0 is float64, but should be float32 [jit(f)(x)]")])
    assert "output 0 is float32, but should be float64" in text, text
    assert "output 0 is float64, but should be float32" in text, text
    assert "floatN" not in text and text.startswith("\n\n2 distinct kinds"), text


def test_a_message_that_holds_a_colon_is_kept_whole():
    assert diagnose("SutRaised: toy raised TypeError while computing jvp(f, x, t): "
                    "unsupported operand type(s) for @: 'Dual' and 'Dual'", "t::u", []).title == (
        "raises TypeError: unsupported operand type(s) for @: 'Dual' and 'Dual'")


def test_a_message_is_shown_with_its_informative_end():
    error = _raise("InvalidArgumentError", "Graph execution error:\n\nDetected at node add "
                   "defined at (most recent call last):\n" + "  File x.py, line 1\n" * 200
                   + "Incompatible shapes: [3] vs. [2]\n\t [[{{node add}}]]")
    verdict = _failed(error)
    assert "Incompatible shapes: [3] vs. [2]" in table.groups([verdict])
    assert table.message(verdict).endswith("Incompatible shapes: [3] vs. [2]"), verdict
    assert "[3] vs. [2]" in table.closing_table([verdict])


def test_a_long_message_is_kept_whole_in_the_record_up_to_its_bound_and_its_end_past_it():
    long = ValueError("Graph execution error: " + "x" * 30_000 + " the informative end")
    (error, _), = reproducer.failures(long)
    assert error.endswith("the informative end") and len(error) < 21_000
    whole = ValueError("y" * 15_000 + " end")
    assert next(reproducer.failures(whole))[0] == f"ValueError: {whole}"


CONVENTION_PROPERTY = "tests/test_conventions.py::test_derivative_at_a_kink_follows_the_convention"


@pytest.mark.parametrize("name, feature", [("maximum_tie", "tie_convention"),
                                           ("clip_at_bounds", "clip_convention"),
                                           ("abs_at_zero", "abs_at_zero"),
                                           ("where_nan", "unselected_nan"),
                                           ("power_at_zero", "pow_at_zero")])
def test_a_failure_of_a_convention_row_names_the_feature_that_declares_it(name, feature):
    nodeid = f"{CONVENTION_PROPERTY}[{name}-jvp]"
    text = table.groups([_failed("Mismatch: output 0: got 1.0, but should be 0.5", nodeid),
                         _failed("Mismatch: output 0: got 1.0, but should be 0.5",
                                 nodeid.replace("-jvp]", "-vjp]"))])
    assert text.startswith("\n\n1 distinct kind"), text
    assert CONVENTIONS[name].what in text and f"declare {feature} in __sut_unsupported__" in text


def test_a_convention_no_feature_declares_is_a_likely_defect():
    nodeid = f"{CONVENTION_PROPERTY}[prod_at_zero-vjp]"
    text = table.groups([_failed("Mismatch: output 0: got nan, but should be 0.0", nodeid)])
    assert "likely a defect" in text and "__sut_unsupported__" not in text, text


@pytest.mark.parametrize("feature", sorted(STAGING))
def test_a_failure_of_a_transformations_convention_names_the_feature_that_declares_it(feature):
    row = STAGING[feature]
    nodeid = row.prop.replace("tests/", "jaxcheck/tests/", 1)  # as installed
    text = table.groups([_failed("SutDidNotRaise: it returned without raising", nodeid)])
    assert row.what in text and f"declare {feature} in __sut_unsupported__" in text, text


@pytest.mark.parametrize("message", [
    "pad() missing 1 required positional argument: 'mode'",
    "pad() got an unexpected keyword argument 'constant_values'",
    "pad() takes 2 positional arguments but 3 were given",
])
def test_a_call_that_does_not_fit_a_signature_is_probably_the_shims_mapping(message):
    text = table.groups([_failed(_raise("TypeError", message, "add, pad, sum, vmap"))])
    assert "probably the shim's mapping of pad" in text and "__sut_unsupported__" not in text, text


def test_an_error_raised_in_the_shims_own_code_is_probably_the_shims_mapping(tmp_path):
    shim = tmp_path / "myshim.py"
    shim.write_text("def pad(x, widths):\n    return helper(x)\n\n\n"
                    "def _pad_widths(widths):\n    raise ValueError('bad widths')\n")
    evidence = f"{shim}:2: in pad\n{shim}:6: ValueError\nx.py:9: SutRaised"
    verdict = _failed(_raise("ValueError", "bad widths", "add, pad, sum"), evidence=evidence)
    text = table.groups([verdict], sut="myshim")
    assert "probably the shim's mapping of _pad_widths" in text
    assert "__sut_unsupported__" not in text
    assert "myshim.py:6" in text
    # the system's own frame is the system's: the smallest declaration stands
    assert "declare it in __sut_unsupported__: pad" in table.groups([verdict], sut="othershim")


@pytest.mark.parametrize("kind, message, says", [
    ("ValueError", "[kron] Input arrays cannot be empty.", "declare it in __sut_unsupported__"),
    ("ValueError", "JVP is not implemented for cumulative prod.", "likely a defect"),
])
def test_an_error_a_compiled_extension_raises_through_the_shims_line_is_the_systems(
        tmp_path, kind, message, says):
    """The innermost Python frame of an error a compiled extension raises is the shim's
    line that calls it; unless Python raised it for a mistake of that line (a name, an
    attribute), it is the system's."""
    shim = tmp_path / "myshim.py"
    shim.write_text("import mlx.core as mx\n\n\ndef kron(a, b):\n    return mx.kron(a, b)\n")
    evidence = f"{shim}:5: {kind}\nx.py:9: SutRaised"
    verdict = _failed(_raise(kind, message, "kron, sum"), evidence=evidence)
    text = table.groups([verdict], sut="myshim")
    assert "probably the shim" not in text and says in text, text
    mistaken = _failed(_raise("AttributeError", "module 'mlx.core' has no attribute 'kronn'",
                              "kron, sum"), evidence=evidence.replace(kind, "AttributeError"))
    assert "probably the shim's mapping of kron" in table.groups([mistaken], sut="myshim")


@pytest.mark.parametrize("message", [
    "Differentiation rule for 'fmod' not implemented",
    "No gradient defined for operation 'FloorMod' (op type: FloorMod)",
    "VJP of fmod wrt argnum 0 not defined",
    "the derivative for 'fmod' is not implemented.",
])
def test_a_missing_derivative_rule_is_a_likely_defect_never_a_declaration(message):
    text = table.groups([_failed(_raise("NotImplementedError", message, "fmod, jvp, sum"))])
    assert "derivative rule missing" in text and "likely a defect" in text, text
    assert "__sut_unsupported__" not in text, text


@pytest.mark.parametrize("message", [
    "Batching rule for 'cumsum' not implemented",
    "using a tf.Tensor as a Python bool is not allowed under vmap staging",
    "XLA compilation cannot handle the op Sort with these attributes",
])
def test_a_transformation_refusing_an_operation_is_a_likely_defect(message):
    text = table.groups([_failed(_raise("ValueError", message, "add, cumsum, sum, vmap"))])
    assert "likely a defect" in text and "__sut_unsupported__" not in text, text


@pytest.mark.parametrize("uses", ["add, sum, vmap", "multiply, jit, grad"])
def test_one_error_never_proposes_a_transformation_or_an_operation_most_programs_use(uses):
    text = table.groups([_failed(_raise("RuntimeError", "something went wrong", uses))])
    assert "no declaration explains it" in text and "declare it" not in text, text


def test_the_declaration_is_the_smallest_that_explains_the_error():
    text = table.groups([_failed(_raise("RuntimeError", "cumsum has no kernel for float64",
                                        "add, cumsum, sort, sum, vmap"))])
    assert "declare it in __sut_unsupported__: cumsum\n" in text + "\n", text
    both = table.groups([_failed(_raise("RuntimeError", "no kernel", "add, cumsum, sort"))])
    assert "declare it in __sut_unsupported__: cumsum, sort" in both, both


def _reproducer(directory, name: str, operation: str, mode: str) -> str:
    path = directory / f"repro_{name}.py"
    path.write_text(f"def f(x0):\n    return sut.numpy.{operation}(x0)\n\n\n"
                    f"actual = sut.{mode}(f, (x0,), (x0,))\n")
    return str(path)


def test_wrong_values_are_one_group_per_operation_and_mode_of_the_shrunk_reproducer(tmp_path):
    mismatch = "Mismatch: output 0 at index (1,): got 2.0, but should be 1.5 (abs error 0.5)"
    text = table.groups([
        _failed(mismatch, "tests/test_a.py::test_a", [_reproducer(tmp_path, "a", "tile", "jvp")]),
        _failed(mismatch, "tests/test_b.py::test_b", [_reproducer(tmp_path, "b", "tile", "jvp")]),
        _failed(mismatch, "tests/test_c.py::test_c", [_reproducer(tmp_path, "c", "sin", "jvp")]),
        _failed(mismatch, "tests/test_d.py::test_d", [_reproducer(tmp_path, "d", "tile", "vjp")]),
    ])
    assert text.startswith("\n\n3 distinct kinds"), text
    assert "wrong values (Mismatch) with tile under jvp: output 0 at index (1" in text
    assert "in 2 properties: test_a, test_b" in text


def test_the_live_line_says_what_to_do_about_a_raise():
    line = table.live_line(VERDICTS[0])
    assert "if the SUT lacks it by design, declare it in __sut_unsupported__: cond" in line
