"""What kind of failure each is, and what to do about it: the summary a newcomer reads first.

A run's failures are of kinds that call for different acts, and the summary
(jaxcheck/table.py) must tell them apart:

* a **convention** (a row of tests/test_conventions.py): the SUT computes
  another value at a kink or an edge than the contract's; the row's feature
  declares that it follows another convention by design;
* the **shim's mapping**: a `TypeError` on a call's arguments (`pad() missing
  1 required positional argument`), or an error raised in the shim's own
  code: fix the shim, there is nothing to declare;
* a **likely defect** of the system: a derivative rule missing for an
  operation it offers, or a transformation it offers refusing an operation
  it offers; declaring either would switch off every property that uses it;
* any other **raise**: the smallest declaration that would explain it, never
  a transformation and never an operation most programs use, on the strength
  of one error;
* **wrong values**, crashes, hangs: one cause per operation and mode of the
  shrunk reproducer, its numbers as they are.

Each failure becomes a `Diagnosis` whose `key` is one cause: the summary
groups failures by it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from oracles.names import module_path
from oracles.sut import features_in
from strategies.language.conventions import CONVENTIONS, STAGING
from strategies.language.transformations import TRANSFORMATIONS

# How an SUT's raise reads in a failure (oracles/experiment.py): "SutRaised: NAME
# raised TYPE while computing TITLE: MESSAGE", then "\nThe example uses A, B: if the
# SUT ...".  The title differs from property to property; where it holds ": "
# itself it ends " on NAME", and the SUT's message follows that.
_RAISED = re.compile(r"^[\w.]+: (\S+) raised (\w+)\b")
_USES = re.compile(r"\nThe example uses ([\w, ]+): if the SUT")
# A number standing alone (not a part of a name such as float32 or x0): two examples
# of one bug differ in them, and a group's key leaves them out (never its text).
_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?:e[-+]?\d+)?(?![\w.])")

# The operations most generated programs use: grad's scalar loss is a `sum`, and
# equations combine with `add` and `multiply`.  In the shrunk reproducers of the
# committed conformance runs, `sum` is in 31 %, `add` in 27 %, `multiply` in 16 %,
# and no other operation in more than 8 %: declaring one of these would switch off
# most of the suite, so one error never proposes it.
COMMON = frozenset({"sum", "add", "multiply"})

# A call that does not fit the callee's signature: the shim mapped NAME wrongly.
_SIGNATURE = re.compile(
    r"\b(\w+)\(\) (?:missing \d+ required (?:positional |keyword-only )?argument"
    r"|takes (?:from \d+ to )?\d+ positional arguments? but"
    r"|got an unexpected keyword argument|got multiple values for argument)")
# A derivative rule the system lacks: JAX's "Differentiation rule for 'x' not
# implemented", TensorFlow's "No gradient defined for operation", autograd's "VJP of x
# wrt argnum 0 not defined", PyTorch's "derivative for x is not implemented".
_DERIVATIVE = r"(?:gradients?|derivatives?|differentiation|jvp|vjp|transpose)"
_NO_RULE = re.compile(
    rf"(?i)\b(?:no|missing)\b[^\n.]{{0,40}}\b{_DERIVATIVE}\b"
    rf"|\b{_DERIVATIVE}\b[^\n.]{{0,60}}\bnot (?:implemented|defined|registered)"
    r"|gradient registry has no entry")
# A transformation refusing what it should take: "not supported inside
# vectorized_map", "XLA compilation requires ...", "cannot be staged under vmap".
_TRANSFORMING = (r"(?:vmap|batch\w*|vectori[sz]\w*|jit\w*|xla|compil\w*|trac\w*|stag\w*"
                 r"|autograph|grad\w*|jvp|vjp)")
_REFUSING = (r"(?:not supported|unsupported|not implemented|not allowed|cannot|can't"
             r"|could not|unable)")
_REFUSED = re.compile(rf"(?i)\b{_TRANSFORMING}\b[^\n]{{0,80}}\b{_REFUSING}"
                      rf"|\b{_REFUSING}\b[^\n]{{0,80}}\b{_TRANSFORMING}\b")
# The innermost frame of an exception in pytest's report: "path.py:LINE: TypeError".
_FRAME = re.compile(r"^(\S+\.py):(\d+): (\w+)$", re.MULTILINE)
_DEF = re.compile(r"^\s*def (\w+)\(")

CONVENTION_FILE = "test_conventions.py"


@dataclass(frozen=True)
class Diagnosis:
    """One failure: its cause as a key (the summary groups by it), what it is in a
    line, what to do (or "" where the group decides: a raise's declaration), and the
    features its example used."""

    key: tuple
    title: str
    advice: str
    uses: frozenset[str]
    declarable: bool = False  # a raise that a declaration may explain


def message_of(error: str) -> tuple[str, str] | None:
    """A raise's exception type and the SUT's own message, whole; None if not a raise."""
    raised = _RAISED.match(error)
    if not raised:
        return None
    rest = _USES.split(error[raised.end():], 1)[0]
    on_sut = f" on {raised[1]}: "
    message = rest.rsplit(on_sut, 1)[1] if on_sut in rest else rest.partition(": ")[2]
    return raised[2], message


def headline(error: str) -> str | None:
    """A raise in one line: "SutRaised: NAME raised TYPE: " and its message's
    `informative` end; None if `error` is not a raise."""
    raised = message_of(error)
    if raised is None:
        return None
    return f"{_RAISED.match(error)[0]}: {informative(raised[1])}".rstrip(": ")


def informative(message: str) -> str:
    """A message in one line, its informative end kept: TensorFlow's and XLA's errors
    open with "Graph execution error:" and say what went wrong in their last line."""
    lines = [line.strip() for line in message.strip().splitlines() if line.strip()]
    # TensorFlow's last lines name the node and the op: "[[{{node add}}]]", "[Op:AddV2]".
    said = [line for line in lines[1:] if not line.startswith("[")]
    if not said:
        return lines[0] if lines else ""
    return f"{lines[0]} \u2026 {said[-1]}"


def _uses(error: str) -> frozenset[str]:
    used = _USES.search(error)
    return frozenset(used[1].split(", ")) if used else frozenset()


def _reproduced(reproducers: list[str]) -> frozenset[str] | None:
    """The features of the first readable reproducer (the shrunk example), or None."""
    for path in reproducers:
        try:
            return frozenset(features_in(Path(path).read_text(errors="replace")))
        except OSError:
            continue
    return None


def _mode(uses: frozenset[str]) -> str:
    operations = sorted(uses - set(TRANSFORMATIONS))
    modes = sorted(uses & set(TRANSFORMATIONS))
    words = (f"with {', '.join(operations)}" if operations else "",
             f"under {', '.join(modes)}" if modes else "")
    return " ".join(filter(None, words))


def _convention(nodeid: str):
    """The convention row a property of tests/test_conventions.py checks, or None."""
    if CONVENTION_FILE not in nodeid.split("::")[0]:
        return None
    parameters = nodeid.partition("[")[2].rstrip("]").split("-")
    return next((CONVENTIONS[p] for p in parameters if p in CONVENTIONS), None)


def _staging(nodeid: str):
    """The convention of the transformations (`STAGING`) whose property `nodeid` is, or
    None.  Matched by file name and test name: an installed jaxcheck's node ids
    have another folder."""
    path, _, test = nodeid.partition("[")[0].partition("::")
    return next((row for row in STAGING.values()
                 if row.prop.rpartition("/")[2] == f"{Path(path).name}::{test}"), None)


# What Python itself raises for a mistake in the code it runs (a name, attribute,
# key or index that is not there).  Anything else whose innermost Python frame is the
# shim's came from the compiled extension that line calls (MLX's "[kron] Input arrays
# cannot be empty", "JVP is not implemented for cumulative prod"): the system raised
# it, unless the line is a `raise` of the shim's own.
CODE_MISTAKES = frozenset({"TypeError", "AttributeError", "NameError", "UnboundLocalError",
                           "KeyError", "IndexError"})


def _in_shim(evidence: str, kind: str, sut: str) -> tuple[str, str] | None:
    """Where the shim's own code raised `kind`, by the report's innermost frames: the
    function and `path:line`, or None where the system's code (or no frame) did."""
    if not sut:
        return None
    module = module_path(sut).partition(":")[0].replace(".", "/")
    for path, line, raised in _FRAME.findall(evidence):
        if raised == kind and (path.endswith(f"{module}.py")
                               or path.endswith(f"{module}/__init__.py")):
            if kind not in CODE_MISTAKES and not _line_at(path, int(line)).startswith("raise"):
                return None
            return _function_at(path, int(line)), f"{Path(path).name}:{line}"
    return None


def _line_at(path: str, line: int) -> str:
    """Line `line` of `path`, stripped, or "" if it cannot be read."""
    try:
        lines = Path(path).read_text(errors="replace").splitlines()
    except OSError:
        return ""
    return lines[line - 1].strip() if 0 < line <= len(lines) else ""


def _function_at(path: str, line: int) -> str:
    """The name of the function around `line` of `path`, or "" if it cannot be read."""
    try:
        lines = Path(path).read_text(errors="replace").splitlines()[:line]
    except OSError:
        return ""
    return next((m[1] for m in map(_DEF.match, reversed(lines)) if m), "")


def diagnose(error: str, nodeid: str, reproducers: list[str], evidence: str = "",
             sut: str = "") -> Diagnosis:
    """What the failure `error` of the property `nodeid` is (its reproducers and its
    report's `evidence` tell where and on what; `sut` names the shim)."""
    first = error.splitlines()[0] if error else "?"
    staging = _staging(nodeid)
    if staging is not None:
        return Diagnosis(("convention", staging.feature),
                         f"the convention for {staging.what}",
                         f"JAX {staging.jax}.  If the SUT does otherwise by design (it "
                         f"{staging.declared}), declare {staging.feature} in "
                         "__sut_unsupported__: it is then checked for that (docs/sut-api.md, "
                         "the conventions of the transformations)", frozenset())
    raised = message_of(error)
    if raised:
        return _raise(*raised, error, nodeid, evidence, sut)
    kind, _, message = first.partition(": ")
    kind = kind.rsplit(".", 1)[-1]
    if message.endswith("]") and " [" in message:  # "[what; tolerance]": the computation's
        message = message.rsplit(" [", 1)[0]
    nan = "a NaN on the SUT's side only" in first
    label = ("a NaN where a number is due" if nan else "wrong values") if kind == "Mismatch" \
        else f"{kind}: {message}" if kind not in ("crashed", "hung") else first
    row = _convention(nodeid)
    if row is not None and kind in ("Mismatch", "SutBadOutput"):
        declare = (f"if the SUT follows another convention by design, declare {row.feature} "
                   "in __sut_unsupported__ (docs/sut-api.md, the conventions)"
                   if row.feature else "the contract allows no other convention here: "
                   "likely a defect")
        return Diagnosis(("convention", row.name), f"{label}: the convention for {row.what}",
                         declare, frozenset())
    uses = _reproduced(reproducers)
    where = _mode(uses) if uses else ""
    title = f"{label} ({kind})" if kind == "Mismatch" else label
    example = f": {informative(message)}" if kind == "Mismatch" and message else ""
    key = (kind, nan, _NUMBER.sub("N", label) if kind != "Mismatch" else "",
           uses if uses is not None else nodeid)
    return Diagnosis(key, " ".join(filter(None, (title, where))) + example, "",
                     uses or frozenset())


def _raise(kind: str, message: str, error: str, nodeid: str, evidence: str,
           sut: str) -> Diagnosis:
    uses = _uses(error)
    title = f"raises {kind}: {informative(message)}".rstrip(": ")
    key = ("raises", kind, _NUMBER.sub("N", message.strip()))
    signature = _SIGNATURE.search(message) if kind == "TypeError" else None
    if signature and signature[1] != "f":
        return Diagnosis(key, title, f"probably the shim's mapping of {signature[1]}: the call "
                         "does not fit its signature (fix the shim; nothing to declare)", uses)
    shim = _in_shim(evidence, kind, sut) if kind != "NotImplementedError" else None
    if shim:
        name, place = shim
        return Diagnosis(key, title, f"probably the shim's mapping of {name or 'its code'}: "
                         f"raised in the shim's own code ({place}); fix the shim", uses)
    modes = ", ".join(sorted(uses & set(TRANSFORMATIONS))) or "a transformation"
    if _NO_RULE.search(message):
        return Diagnosis(key, title, "a derivative rule missing for an operation the system "
                         f"offers: likely a defect (under {modes}), not something to declare",
                         uses)
    if _REFUSED.search(message):
        return Diagnosis(key, title, f"{modes} refused what the system offers: likely a "
                         "defect, not something to declare (a declaration would switch off "
                         "every property that uses it)", uses)
    return Diagnosis(key, title, "", uses, declarable=True)


def declaration(uses: frozenset[str], messages: list[str]) -> str:
    """The smallest declaration that would explain a raise every example of which used
    `uses`: never a transformation or an operation most programs use (`COMMON`); the
    one feature a message names, where one does; else the candidates."""
    candidates = sorted(uses - set(TRANSFORMATIONS) - COMMON)
    said = [(message_of(m) or ("", m))[1] for m in messages]
    named = [c for c in candidates if any(re.search(rf"\b{re.escape(c)}\b", m) for m in said)]
    chosen = named[:1] or candidates
    if not chosen:
        return ("no declaration explains it: read its reproducer (the example uses only "
                "transformations and operations most programs use)")
    return (f"if the SUT lacks {'it' if len(chosen) == 1 else 'one of these'} by design, "
            f"declare it in __sut_unsupported__: {', '.join(chosen)}")
