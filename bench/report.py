"""Where every benchmark's figures go: one section each of docs/benchmarks.md.

Each bench script builds a Markdown section that ends with the machine and
the command that produced it, so the next person can reproduce the figures;
`publish` prints it and replaces that bench's section (between
`<!-- key:start -->` and `<!-- key:end -->`), leaving the others' sections
as they were.
"""

from __future__ import annotations

import os
import platform
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "benchmarks.md"


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


def write_section(key: str, body: str) -> None:
    start, end = f"<!-- {key}:start -->", f"<!-- {key}:end -->"
    text = DOC.read_text() if DOC.exists() else "# Benchmarks\n"
    section = f"{start}\n{body}\n{end}"
    if start in text:
        text = re.sub(re.escape(start) + ".*?" + re.escape(end), lambda _: section, text,
                      flags=re.DOTALL)
    else:
        text = text.rstrip() + "\n\n" + section + "\n"
    DOC.parent.mkdir(exist_ok=True)
    DOC.write_text(text)


def publish_page(path: Path, text: str, *, write: bool) -> None:
    """Print `text`; with `write`, make it the whole of `path` (a page of docs/)."""
    print(text)
    if write:
        path.write_text(text)
        print(f"wrote {path.relative_to(ROOT)}", file=sys.stderr)


def publish(key: str, body: str, *, write: bool) -> None:
    """Print `body`; with `write`, make it the `key` section of docs/benchmarks.md."""
    print(body)
    if write:
        write_section(key, body)
        print(f"wrote section {key!r} of {DOC.relative_to(ROOT)}", file=sys.stderr)
