"""What a property checks, for the conformance matrix: its family and a one-line description.

The matrix knows a property only by its node id
(`tests/test_grad.py::test_grad_matches_finite_differences_and_reference`),
and the parent process must not import the test modules (that would import
the SUT layer).  So the description has one home, the first line of the
property's own docstring, read with `ast` from the file the node id names,
in this checkout's `tests/` (every property has one:
tests/meta/test_jaxcheck_properties.py).  The family is a small table keyed
by test module, which the same test holds complete.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from jaxcheck.runner import ROOT

# The family of each property module, in the order the matrix shows them:
# what a value is first, then its derivatives, then how transformations
# combine, then the contract's corners, then cost and the exhaustive cells.
FAMILIES = {
    "test_value.py": "Values",
    "test_jvp.py": "Derivatives",
    "test_grad.py": "Derivatives",
    "test_long_programs.py": "Derivatives",
    "test_identities.py": "Identities",
    "test_stacks.py": "Transformations of transformations",
    "test_jacobians.py": "Transformations of transformations",
    "test_pairs.py": "Transformations of transformations",
    "test_jit.py": "jit",
    "test_vmap.py": "Batching (vmap)",
    "test_python_control_flow.py": "Python control flow",
    "test_pytrees.py": "Pytrees",
    "test_dtypes.py": "Dtypes",
    "test_equivalences.py": "Equivalences",
    "test_conventions.py": "Conventions at kinks and domain edges",
    "test_errors.py": "Errors",
    "test_dynamic_shapes.py": "Dynamic shapes",
    "test_cost.py": "Cost",
    "test_cells.py": "Per-operation and per-construct cells",
}
# The family of a module the table does not name (a property file added since).
OTHER = "Other properties"
ORDER = list(dict.fromkeys([*FAMILIES.values(), OTHER]))


@dataclass(frozen=True)
class Property:
    """A node id taken apart: `tests/test_x.py::test_y[p]`."""

    nodeid: str
    path: str  # tests/test_x.py
    function: str  # test_y
    parameter: str  # [p], or ""

    @property
    def module(self) -> str:
        return self.path.rsplit("/", 1)[-1]

    @property
    def family(self) -> str:
        return FAMILIES.get(self.module, OTHER)

    @property
    def description(self) -> str:
        """The first line of the property's docstring; "" if it has none."""
        return docstrings(ROOT / self.path).get(self.function, "")


def parse(nodeid: str) -> Property:
    path, _, rest = nodeid.partition("::")
    name = rest.rsplit("::", 1)[-1]
    function, bracket, parameter = name.partition("[")
    return Property(nodeid, path, function, bracket + parameter)


@cache
def docstrings(path: Path) -> dict[str, str]:
    """The first docstring line of each function in a test module (a test class's methods
    included); {} for a file that is gone or does not parse, so a report drawn from an
    older record still renders."""
    try:
        tree = ast.parse(path.read_text())
    except (OSError, SyntaxError, ValueError):
        return {}
    nodes = [*tree.body, *(n for c in tree.body if isinstance(c, ast.ClassDef) for n in c.body)]
    return {node.name: text.strip().splitlines()[0] for node in nodes
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and (text := ast.get_docstring(node))}
