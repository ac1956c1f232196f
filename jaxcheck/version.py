"""What `jaxcheck --version` says: jaxcheck's own version, and the JAX it was checked against.

A verdict of jaxcheck's is only as good as its oracles, and one of them is
real JAX: CI runs every property against the JAX pinned here (tox.ini's
environments install it; tests/meta/test_jaxcheck_version.py holds the pin
and this equal), and docs/findings/jax.md's findings were measured on it.
"""

from __future__ import annotations

from importlib import metadata

# The JAX (and jaxlib) whose every property CI runs, float64 on the CPU.
JAX_CHECKED = "0.10.2"


def installed(distribution: str) -> str | None:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def line() -> str:
    """One line: jaxcheck's version, the JAX it was checked against, and the JAX here."""
    own = installed("jaxcheck") or "(not installed: run from a clone without pip install)"
    here = installed("jax")
    jax_here = f"; JAX here: {here}" if here and here != JAX_CHECKED else ""
    return f"jaxcheck {own} (checked against JAX {JAX_CHECKED}, float64 on the CPU{jax_here})"
