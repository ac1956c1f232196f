"""The SUT plug-in contract (docs/sut-api.md): names, contract checks, declared gaps."""

import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from oracles.errors import SutBadOutput
from oracles.experiment import Experiment, flatten
from oracles.reference import from_reference, judges
from oracles.sut import WRAPPERS, SutError, from_module, resolve
from strategies.language.transformations import DERIVED
from strategies.language.vocabulary import supported_names as vocabulary

pytestmark = pytest.mark.meta
ROOT = Path(__file__).resolve().parents[2]

BAD_NAMES = [
    ("nosuchmodule", "could not import module 'nosuchmodule'"),
    ("../x", "'../x' is not a module path: use 'refimpl', 'jax', a dotted module path"),
    ("mod:", "'mod:' is not a module path"),
    ("json:nope", "module 'json' has no attribute 'nope'"),
    ("json", "the SUT lacks jvp, vjp, grad, vmap, jit, numpy.add"),
    ("tests.broken.over_jax", "the SUT lacks numpy.add"),
]


@pytest.mark.parametrize("name, message", BAD_NAMES, ids=[n for n, _ in BAD_NAMES])
def test_a_bad_sut_name_is_one_clear_error(name, message):
    with pytest.raises(SutError, match=message.replace("(", r"\(")):
        resolve(name)


def test_an_error_names_the_option_that_named_the_sut():
    with pytest.raises(SutError, match="^--reference nosuchmodule: could not import"):
        resolve("nosuchmodule", option="--reference")
    with pytest.raises(SutError, match="^--reference '../x' is not a module path"):
        resolve("../x", option="--reference")


@pytest.mark.parametrize("declared", [5, None, "vmap", {"vmap": True}, ["vmap", 1]])
def test_a_declaration_that_is_no_list_of_names_is_one_clear_error(declared):
    with pytest.raises(SutError, match="__sut_unsupported__ must be a list, tuple or set of "
                                       "feature names, got"):
        from_module("shim", SimpleNamespace(__sut_unsupported__=declared))


def test_module_attribute_names_resolve():
    sut = resolve("tests.shims.objects:JAX")
    assert sut.version.startswith("jax ")
    # make_jaxpr, shape_polymorphism, the derived transformations and the wrappers:
    # optional parts and names it lacks, set for it
    lacking = {"make_jaxpr", "shape_polymorphism", *DERIVED, *WRAPPERS}
    assert sut.unsupported == lacking | {"while_loop_reverse"}
    assert sut.inferred == lacking  # not declared by it


def test_declared_gaps_are_read_and_leave_the_vocabulary():
    sut = resolve("tests.shims.jax_without_vmap")
    assert sut.unsupported >= {"vmap", "concatenate"}
    assert "concatenate" not in vocabulary(sut.unsupported)


WHILE_LOOP = """jnp = sut.numpy


def f(x):
    return sut.lax.while_loop(lambda v: v < 3.0, lambda v: jnp.sin(v) + v, x)
"""


def test_the_reference_leaves_to_the_other_oracles_what_it_declares_unsupported():
    """An SUT that differentiates through while_loop in reverse mode (autograd)
    is not failed because its reference (refimpl) refuses to by design."""
    reference = resolve("refimpl")
    reverse = Experiment("grad(f)", WHILE_LOOP, "sut.grad(f)(x0)", {"x0": 1.0})
    forward = Experiment("jvp(f)", WHILE_LOOP, "sut.jvp(f, (x0,), (x0,))", {"x0": 1.0})
    assert not judges(reference, reverse) and from_reference(reference, reverse) == []
    assert judges(reference, forward) and len(from_reference(reference, forward)) == 1
    assert not judges(None, forward)


def pytest_run(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_nosuchmodule_is_a_usage_error_without_traceback():
    run = pytest_run("--sut", "nosuchmodule", "tests/test_value.py")
    assert run.returncode == 4
    assert "could not import module 'nosuchmodule'" in run.stderr
    assert "Traceback" not in run.stdout + run.stderr


def test_declared_gaps_become_skips_that_name_the_feature_and_show_in_the_header():
    run = pytest_run("--sut", "tests.shims.jax_without_vmap", "tests/test_vmap.py",
                     "--hypothesis-profile=ci", "-rs")
    assert run.returncode == 0, run.stdout
    header = next(line for line in run.stdout.splitlines() if line.startswith("jaxcheck SUT"))
    assert "concatenate" in header and "vmap" in header, header
    assert "SKIPPED" in run.stdout and "declares vmap unsupported" in run.stdout


def test_a_missing_optional_part_is_skipped_as_missing_not_as_declared():
    """`make_jaxpr` is set unsupported for an SUT that lacks it: its skip says so,
    rather than that the SUT declared it."""
    run = pytest_run("--sut", "tests.shims.objects:JAX", "tests/test_cost.py", "-rs",
                     "-k", "test_staging_is_linear_in_program_length")
    assert run.returncode == 0, run.stdout + run.stderr
    assert ("tests.shims.objects:JAX has no make_jaxpr (the contract's optional part: "
            "docs/sut-api.md)") in run.stdout, run.stdout
    assert "declares make_jaxpr" not in run.stdout, run.stdout


@pytest.mark.parametrize("value", ["-1", "inf", "nan", "1e10", "abc"])
def test_a_bad_sut_timeout_is_a_usage_error_of_plain_pytest_too(value):
    run = pytest_run("--sut-timeout", value, "--collect-only", "tests/test_value.py")
    assert run.returncode == 4, run.stdout + run.stderr
    assert f"argument --sut-timeout: expected seconds from 0 (no limit) to 86400 (a day), " \
           f"none between 0 and 0.1, got {value!r}" in run.stderr, run.stderr
    assert "Traceback" not in run.stdout + run.stderr


def test_an_output_of_absurd_shape_is_a_bad_output_not_an_allocation():
    """torch.func.vmap once returned a view of shape (34359738368, 4) (docs/findings/torch_func.md,
    T7): converting it asked NumPy for 1 TiB and ended in a MemoryError of ours."""

    class Huge:
        shape = (34359738368, 4)

        def __array__(self, dtype=None, copy=None):
            raise AssertionError("converted")

    with pytest.raises(SutBadOutput, match=r"of shape \(34359738368, 4\)"):
        flatten((np.ones(2), Huge()), "f(x)")
    assert flatten(np.ones((5, 5, 5, 5)), "f(x)")[0].shape == (5, 5, 5, 5)
