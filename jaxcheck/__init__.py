"""The `jaxcheck` command: the suite as a tool for someone else's implementation.

Reading order: `cli` (the four subcommands), `interrupt` (SIGINT, SIGTERM
and SIGHUP alike), `probe` (SUTs imported in a child first), `places` (the
folders a run writes), `runner` (child processes a crash or a hang cannot
take down), `channel` (what a child tells the parent), `childlog` (what it
prints, copied into its log by the parent) and `child` (its pytest plugin
inside each child), `database` (`--db`, and a database that
fails mid-run), `table` (what a run prints), `replay`, `report` (the
conformance matrix), `profiles` (the Hypothesis profiles, shared with
conftest.py).  The command runs from a checkout: it runs the
properties in `tests/`.
"""
