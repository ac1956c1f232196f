"""The `jaxcheck` command: the suite as a tool for someone else's implementation.

Reading order: `cli` (the four subcommands), `runner` (child processes a
crash or a hang cannot take down) and `child` (its pytest plugin inside each
child), `database` (`--db`), `table` (what a run prints), `replay`,
`report` (the conformance matrix), `profiles` (the Hypothesis profiles,
shared with conftest.py).  The command runs from a checkout: it runs the
properties in `tests/`.
"""
