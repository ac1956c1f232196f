"""docs/sut-api.md, the public contract, says what oracles/sut.py checks: the same names."""

import pathlib
import re
import subprocess
import sys

import pytest

from oracles.sut import CONTRACT, EXTRA_FEATURES, OPTIONAL_NAMES
from strategies.language.opspec import OPS, SYMBOL

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "sut-api.md"

pytestmark = pytest.mark.meta


def table_rows(text: str) -> dict[str, str]:
    """First cell (backticks removed) -> the rest of the row, for every Markdown table row."""
    rows = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) > 1:
            rows[cells[0].strip("`")] = " | ".join(cells[1:])
    return rows


def test_the_contract_page_lists_exactly_the_checked_names():
    rows = table_rows(DOC.read_text())
    documented = {
        "": [name for name in CONTRACT[""] if name in rows],
        "numpy": re.search(r"`([a-z_ ]+)`", rows["numpy"]).group(1).split(),
        "lax": re.findall(r"`(\w+)\(", rows["lax"]),
    }
    for namespace, names in CONTRACT.items():
        if namespace:  # the optional numpy names are listed by a command (below)
            names = [name for name in names if name not in OPTIONAL_NAMES.get(namespace, ())]
        assert documented[namespace] == list(names), (
            f"docs/sut-api.md lists {documented[namespace]} for namespace {namespace!r}; "
            f"oracles/sut.py checks {list(names)}")


def test_the_page_marks_each_optional_transformation_optional():
    rows = table_rows(DOC.read_text())
    for name in CONTRACT[""]:
        marked = rows[name].split("|")[-1].strip().startswith("optional")
        assert marked == (name in OPTIONAL_NAMES[""]), (
            f"docs/sut-api.md's row of {name} says {rows[name]!r}; it is "
            f"{'' if name in OPTIONAL_NAMES[''] else 'not '}optional in oracles/sut.py")


def test_every_extra_feature_is_documented():
    text = DOC.read_text()
    for feature in EXTRA_FEATURES:
        assert f"`{feature}`" in text, f"docs/sut-api.md does not explain the feature {feature}"


def test_the_optional_names_are_listed_by_the_command_the_page_gives():
    """The page names the command that prints the optional names, rather than a copy
    of them: the operation table is their one home."""
    assert "python -m strategies.language.opspec" in DOC.read_text()
    listed = subprocess.run([sys.executable, "-m", "strategies.language.opspec"],
                            cwd=DOC.parents[1], capture_output=True, text=True, timeout=60,
                            check=True).stdout
    for name in sorted(OPTIONAL_NAMES["numpy"]):  # a row's name, or a function it calls
        assert f"`{name}`" in listed, listed


def test_the_page_names_every_python_operator_programs_use():
    """Programs write some operations as Python operators (`a0 @ x1`, with `x1` a
    NumPy array): an SUT's array type must take each, so the page must say so."""
    sentence = re.search(r"Values the SUT produces support the Python operators(.+?)\.\n\n",
                         DOC.read_text(), flags=re.DOTALL).group(1)
    named = set(re.findall(r"`([^`]+)`", sentence))
    symbols = {spec.operator.replace("{0}", "").replace("{1}", "").replace("{n}", "").strip()
               for spec in OPS.values() if spec.operator} | set(SYMBOL.values())
    missing = [symbol for symbol in sorted(symbols)
               if not any(symbol in name.split() for name in named)]
    assert not missing, f"docs/sut-api.md does not name the operators {missing}"
