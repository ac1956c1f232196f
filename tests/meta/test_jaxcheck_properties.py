"""`jaxcheck/properties.py`: every property has a family and a one-line description.

The conformance matrix groups its rows by `FAMILIES` and describes each by
the first line of the property's docstring, so a property module missing
from the table, or a property without a docstring whose first line stands
alone, would show up as an undescribed row under "Other properties".
"""

import ast

import pytest

from jaxcheck import properties
from tests.meta.command import ROOT

pytestmark = pytest.mark.meta

MODULES = sorted(p.name for p in (ROOT / "tests").glob("test_*.py"))


def _properties(module: str) -> list[ast.FunctionDef]:
    tree = ast.parse((ROOT / "tests" / module).read_text())
    return [node for node in tree.body
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")]


def test_every_property_module_has_a_family_and_the_table_names_no_other():
    assert sorted(properties.FAMILIES) == MODULES


@pytest.mark.parametrize("module", MODULES)
def test_every_property_says_what_it_checks_in_its_first_docstring_line(module):
    for node in _properties(module):
        text = ast.get_docstring(node) or ""
        lines = text.splitlines() or [""]
        summary = lines[0].strip()
        assert summary.endswith(".") and (len(lines) == 1 or not lines[1].strip()), (
            f"tests/{module}::{node.name} has the docstring {text!r}, but should open with "
            "one line, a sentence of its own, that says what it checks (the matrix shows it)")
        described = properties.parse(f"tests/{module}::{node.name}[a-b]").description
        assert described == summary


@pytest.mark.parametrize("nodeid, path, function, parameter", [
    ("tests/test_grad.py::test_grad_matches", "tests/test_grad.py", "test_grad_matches", ""),
    ("tests/test_x.py::test_y[jvp-a.b]", "tests/test_x.py", "test_y", "[jvp-a.b]"),
    ("tests/test_x.py::TestZ::test_y[1]", "tests/test_x.py", "test_y", "[1]"),
])
def test_a_node_id_is_taken_apart(nodeid, path, function, parameter):
    assert properties.parse(nodeid) == properties.Property(nodeid, path, function, parameter)


def test_a_property_the_checkout_does_not_have_renders_undescribed_under_other():
    found = properties.parse("tests/test_gone.py::test_nothing")
    assert (found.family, found.description) == (properties.OTHER, "")
