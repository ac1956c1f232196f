"""Where every benchmark's figures go: one section each of docs/performance.md.

Each bench script builds a Markdown section that ends with the machine and
the command that produced it, so the next person can reproduce the figures;
`publish` prints it and replaces that bench's section (between
`<!-- key:start -->` and `<!-- key:end -->`), leaving the others' sections
as they were.  A section may live in another page of docs/ (the kill
matrix's rows as pushed are docs/power.md's).
"""

from __future__ import annotations

import os
import platform
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "performance.md"


def machine() -> str:
    """The facts a reader needs to compare figures: cores, CPU, library versions."""
    import jax
    import numpy

    model = next((line.split(":", 1)[1].strip() for line in
                  Path("/proc/cpuinfo").read_text().splitlines()
                  if line.startswith("model name")), platform.processor() or "unknown")
    return (f"{len(os.sched_getaffinity(0))} CPUs ({model}), no GPU; "
            f"Python {platform.python_version()}, NumPy {numpy.__version__}, "
            f"JAX {jax.__version__} (backend {jax.default_backend()})")


def revision() -> str:
    """The checkout's commit, marked "+changes" when tracked files differ from it: a
    cached result must say which sources it was measured on."""
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True,
                              check=False).stdout.strip()
    commit = git("rev-parse", "--short", "HEAD") or "unknown"
    return commit + ("+changes" if git("status", "--porcelain", "--untracked-files=no") else "")


def _markers(key: str) -> tuple[str, str]:
    return f"<!-- {key}:start -->", f"<!-- {key}:end -->"


def section(key: str, doc: Path = DOC) -> str | None:
    """The `key` section of `doc`, its markers included (None: it has none)."""
    start, end = _markers(key)
    found = re.search(re.escape(start) + ".*?" + re.escape(end),
                      doc.read_text() if doc.exists() else "", flags=re.DOTALL)
    return found.group(0) if found else None


def write_section(key: str, body: str, doc: Path = DOC) -> None:
    start, end = _markers(key)
    text = doc.read_text() if doc.exists() else "# Performance\n"
    block = f"{start}\n{body}\n{end}"
    if start in text:
        text = re.sub(re.escape(start) + ".*?" + re.escape(end), lambda _: block, text,
                      flags=re.DOTALL)
    else:
        text = text.rstrip() + "\n\n" + block + "\n"
    doc.parent.mkdir(exist_ok=True)
    doc.write_text(text)


def publish_page(path: Path, text: str, *, write: bool) -> None:
    """Print `text`; with `write`, make it the whole of `path` (a page of docs/)."""
    print(text)
    if write:
        path.write_text(text)
        print(f"wrote {path.relative_to(ROOT)}", file=sys.stderr)


def publish(key: str, body: str, *, write: bool, doc: Path = DOC) -> None:
    """Print `body`; with `write`, make it the `key` section of `doc` (docs/performance.md)."""
    print(body)
    if write:
        write_section(key, body, doc)
        print(f"wrote section {key!r} of {doc.relative_to(ROOT)}", file=sys.stderr)
