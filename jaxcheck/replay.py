"""`jaxcheck replay`: run saved reproducers, each in its own process group, and judge each.

A reproducer (oracles/reproducer.py) is judged by what it did, not by its
exit status alone:

* **now passes**: it ran to its end and its end says the SUT agrees: exit
  status 0 and the line its kind of script prints there (`KINDS`).  An SUT
  that ends the process early with status 0 (`os._exit(0)` inside the call)
  has not passed: the crash reproducer still crashes.
* **still fails**: it printed a mismatch, the SUT raised, the process
  crashed, or it hung (it is stopped after `timeout` seconds).  The detail
  is the line that shows it: the first output out of tolerance and the
  verdict, the exception, the signal.
* **cannot run**: it does not compile (a syntax error, a NUL byte, bytes
  that are not UTF-8), or it stopped before its SUT import was done: the
  SUT module no longer imports, or not from the directory replay runs in.

Each reproducer runs as `python PATH` would, in its own process group, ended
whole on a time-out or when the replay is interrupted, and by the
reproducer's process itself if the replay dies (jaxcheck/lifetime.py), so
what a reproducer started does not outlive it; an interrupted replay
returns what it has (`replay_all`).
"""

from __future__ import annotations

import ast
import io
import re
import signal
import subprocess
import sys
import tokenize
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from jaxcheck.runner import LIVE_GROUPS, child_env, end_group
from oracles.reproducer import HEADER

# Seconds a replay may take: a reproducer is one example, which takes well
# under a second once compiled; a minute leaves room for a first compile.
REPLAY_TIMEOUT = 60.0

# Seconds to read what is left of a reproducer's output once its group is
# killed: its pipes close at once, unless a process that left the group (a
# session of its own) holds them, and that must not hold the replay.
LEFTOVER_SECONDS = 5.0

# A detail line is cut to this many characters, a value in it to VALUE_CHARACTERS.
DETAIL_CHARACTERS = 400
VALUE_CHARACTERS = 80

PASSES, FAILS, CANNOT_RUN = "now passes", "still fails", "cannot run"
OUTCOMES = (PASSES, FAILS, CANNOT_RUN)


@dataclass(frozen=True)
class Kind:
    """A kind of reproducer oracles/reproducer.py writes: a text only its scripts
    hold, what its end is, and whether an output shows it got there with the SUT
    agreeing.  tests/meta/test_jaxcheck_replay.py holds each to the scripts
    reproducer.py writes."""

    name: str
    marker: str
    ending: str
    ended: Callable[[list[str]], bool]


def _refused(lines: list[str]) -> bool:
    return any(line.startswith("raised ") and line.endswith(", as a correct SUT must:")
               for line in lines)


KINDS = (
    Kind("call", 'print("calling the SUT...", flush=True)', "the call returned",
         lambda lines: "returned:" in lines),
    Kind("returns", 'print("returned, as a correct SUT must:")', "the call returned",
         lambda lines: "returned, as a correct SUT must:" in lines),
    Kind("refusal", 'print(f"raised {type(exc).__name__}, as a correct SUT must:',
         "the SUT raised or returned", _refused),
    Kind("judged", "sys.exit(0 if compare(", "its verdict",
         lambda lines: lines[-1:] == ["agree within tolerance"]),
    Kind("dtype", 'print("dtypes as the contract says" if got == expected', "its verdict",
         lambda lines: lines[-1:] == ["dtypes as the contract says"]),
)


def kind(text: str) -> Kind | None:
    """The kind of reproducer `text` is, or None for a script of no kind known here
    (judged by its exit status alone)."""
    return next((k for k in KINDS if k.marker in text), None)


@dataclass(frozen=True)
class Replay:
    path: Path
    outcome: str  # one of OUTCOMES
    detail: str = ""


@dataclass(frozen=True)
class Replays:
    """The replays done, and, when a signal stopped the others, its number and
    how many were not run."""

    results: list[Replay] = field(default_factory=list)
    not_run: int = 0
    stopped_by: int | None = None

    def count(self, outcome: str) -> int:
        return sum(r.outcome == outcome for r in self.results)

    def summary(self) -> str:
        line = (f"{self.count(PASSES)} passed, {self.count(FAILS)} failed, "
                f"{self.count(CANNOT_RUN)} cannot run")
        return line + (f", {self.not_run} not run (interrupted)" if self.stopped_by else "")


class ReplayError(ValueError):
    """A path that names no reproducer: the message says which and why."""


def gather(paths: list[str]) -> list[Path]:
    """The reproducers named: files, or folders searched for `*.py` that begin as
    a reproducer does.  A path that does not exist, or a file named that is no
    reproducer, is refused before any replay runs."""
    found = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            found += [p for p in sorted(path.rglob("*.py")) if _is_reproducer(p)]
        elif not path.exists():
            raise ReplayError(f"{name}: no such file or folder")
        elif _is_reproducer(path):
            found.append(path)
        else:
            raise ReplayError(f"{name} is not a reproducer: it does not begin with {HEADER!r}; "
                              "jaxcheck writes reproducers under counterexamples/ or --out")
    if not found:
        raise ReplayError(f"no reproducer in {' '.join(paths)}")
    return found


def _is_reproducer(path: Path) -> bool:
    try:
        with open(path, encoding="utf-8", errors="replace") as file:
            return file.read(len(HEADER)) == HEADER
    except OSError:
        return False


def replay_all(paths: list[Path], timeout: float = REPLAY_TIMEOUT,
               on_result: Callable[[Replay], None] = lambda result: None) -> Replays:
    """Replay each of `paths` in turn.  Interrupted (Ctrl-C, or a KeyboardInterrupt
    that carries the `signum` of another signal), it returns the replays done."""
    results: list[Replay] = []
    try:
        for path in paths:
            results.append(replay(path, timeout))
            on_result(results[-1])
    except KeyboardInterrupt as exc:
        return Replays(results, len(paths) - len(results),
                       int(getattr(exc, "signum", signal.SIGINT)))
    return Replays(results)


@dataclass(frozen=True)
class _Script:
    """What replay reads in a reproducer before running it."""

    kind: Kind | None
    sut_module: str | None  # the module its `sut = ...` line imports
    sut_line: int  # the last line of that binding (0: none found)


def _read(path: Path) -> _Script | str:
    """The script at `path`, or why it cannot run."""
    try:
        source = path.read_bytes()
        # As the interpreter reads a file: strictly in its declared encoding (compile()
        # of the bytes lets a comment that is not UTF-8 pass).
        text = source.decode(tokenize.detect_encoding(io.BytesIO(source).readline)[0])
        tree = ast.parse(text, str(path))
        compile(tree, str(path), "exec", dont_inherit=True)
    except OSError as exc:
        return f"it cannot be read: {exc.strerror}"
    # ValueError: a NUL byte before Python 3.12; UnicodeDecodeError is a ValueError too.
    except (SyntaxError, ValueError) as exc:
        return f"it does not compile: {type(exc).__name__}: {exc}"
    binding = next((node for node in tree.body if isinstance(node, ast.Assign) and any(
        isinstance(target, ast.Name) and target.id == "sut" for target in node.targets)), None)
    return _Script(kind(text),
                   _imported(binding.value) if binding else None,
                   binding.end_lineno if binding else 0)


def _imported(value: ast.expr) -> str | None:
    """The module `sut = VALUE` takes the SUT from: `importlib.import_module('m')`
    (inside a getattr for module:attribute), or a module imported above (`sut = jax`)."""
    for node in ast.walk(value):
        if (isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "import_module"
                and node.args and isinstance(node.args[0], ast.Constant)):
            return str(node.args[0].value)
    return value.id if isinstance(value, ast.Name) else None


@dataclass(frozen=True)
class _Ran:
    returncode: int | None  # None: still running when the time-out ended it
    stdout: str
    stderr: str


def _leftover(process: subprocess.Popen) -> tuple[str, str]:
    try:
        return process.communicate(timeout=LEFTOVER_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        return "", ""


# `python PATH`, after the guard every child of the command sets up
# (jaxcheck/lifetime.py): a SIGKILL of the replay ends what the reproducer started.
# The interpreter runs with PYTHONSAFEPATH (runner.child_env), so neither way puts
# the script's directory on the path.
_GUARDED = ("import runpy, sys\nfrom jaxcheck.lifetime import end_with_parent\n"
            "end_with_parent()\ndel sys.argv[0]\n"
            "runpy.run_path(sys.argv[0], run_name='__main__')\n")


def _run(path: Path, timeout: float) -> _Ran:
    process = subprocess.Popen([sys.executable, "-c", _GUARDED, str(path)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, encoding="utf-8",
                               errors="replace", env=child_env(), start_new_session=True)
    LIVE_GROUPS.add(process.pid)  # ended with the run on a signal (runner.end_all)
    try:
        stdout, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        # It may have exited, a process it started holding its output open.
        exited = process.poll()
        end_group(process.pid)
        return _Ran(exited, *_leftover(process))
    except BaseException:  # interrupted: end what the reproducer started, then go on up
        end_group(process.pid)
        process.wait()
        raise
    end_group(process.pid)  # whatever it started and left running
    return _Ran(process.returncode, stdout, stderr)


def replay(path: Path, timeout: float = REPLAY_TIMEOUT) -> Replay:
    script = _read(path)
    if isinstance(script, str):
        return Replay(path, CANNOT_RUN, script)
    ran = _run(path, timeout)
    if ran.returncode is None:
        return Replay(path, FAILS, f"hangs: no return within {timeout:g} s")
    if ran.returncode < 0:
        return Replay(path, FAILS, f"crashes: {_signal_name(-ran.returncode)}")
    if _stopped_in_sut_import(ran.stderr, path, script):
        return Replay(path, CANNOT_RUN, _import_failure(script.sut_module, ran.stderr))
    lines = [line.strip() for line in ran.stdout.splitlines() if line.strip()]
    if ran.returncode == 0 and (script.kind is None or script.kind.ended(lines)):
        return Replay(path, PASSES)
    return Replay(path, FAILS, _failure(script, ran, lines)[:DETAIL_CHARACTERS])


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


_FRAME = re.compile(r'^  File "(.*)", line (\d+), in ', flags=re.MULTILINE)


def _stopped_in_sut_import(stderr: str, path: Path, script: _Script) -> bool:
    """Whether the traceback's last line of the script is at or before its SUT import."""
    here = [int(line) for file, line in _FRAME.findall(stderr)
            if Path(file).resolve() == path.resolve()]
    return bool(here) and here[-1] <= script.sut_line


def _last_error(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    return lines[-1].strip() if lines else "no error printed"


_MISSING = re.compile(r"^ModuleNotFoundError: No module named '([\w.]+)'")


def _import_failure(module: str | None, stderr: str) -> str:
    error = _last_error(stderr)
    missing = _MISSING.match(error)
    if module and missing and (module == missing[1] or module.startswith(missing[1] + ".")):
        return (f"its SUT module {module!r} does not import from here (ModuleNotFoundError); "
                "run jaxcheck replay from the directory the SUT imports from, or add it to "
                "PYTHONPATH")
    return f"its SUT module {module!r} does not import: {error}"


def _failure(script: _Script, ran: _Ran, lines: list[str]) -> str:
    """The line that shows why a reproducer still fails."""
    refusal = next((line for line in lines if line.startswith("returned without raising")),
                   None)
    if refusal:
        return refusal
    if "MISMATCH" in lines:
        return f"{_first_out_of_tolerance(lines)} | MISMATCH"
    if "Traceback (most recent call last):" in ran.stderr:
        return _last_error(ran.stderr)
    if script.kind is not None:
        return f"crashes: exit status {ran.returncode} before {script.kind.ending}"
    return " | ".join((lines + ran.stderr.splitlines())[-3:])


_OUTPUT = re.compile(r"^output \d+:$")
_FACTOR = re.compile(r"(\S+) times the tolerance")


def _first_out_of_tolerance(lines: list[str]) -> str:
    """The first output the reproducer printed as out of tolerance (or of the wrong
    shape), on one line; or its count of outputs, where that is what is wrong."""
    starts = [i for i, line in enumerate(lines) if _OUTPUT.match(line)]
    for start, end in zip(starts, [*starts[1:], len(lines)]):
        block = lines[start:end]
        factors = [_number(m[1]) for line in block if (m := _FACTOR.search(line))]
        wrong_shape = any(", but should be " in line for line in block[1:])
        if wrong_shape or any(not factor <= 1 for factor in factors):  # nan too
            return block[0] + " " + ", ".join(_short(line) for line in block[1:]
                                              if line != "MISMATCH")
    return next((line for line in lines if line.startswith("got ")), "a mismatch")


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        return float("nan")


def _short(line: str) -> str:
    line = " ".join(line.split())
    return line if len(line) <= VALUE_CHARACTERS else line[:VALUE_CHARACTERS - 3] + "..."
