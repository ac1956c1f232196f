"""The `jaxcheck` command: the suite as a tool for someone else's implementation.

Reading order: `cli` (the four subcommands), `interrupt` (SIGINT, SIGTERM
and SIGHUP alike), `probe` (SUTs imported in a child first), `places` (the
folders a run writes), `runner` (child processes a crash or a hang cannot
take down), `channel` (what a child tells the parent), `childlog` (what it
prints, copied into its log by the parent) and `child` (its pytest plugin
inside each child), `database` (`--db`, and a database that
fails mid-run), `known` (`--known`, a findings baseline), `table` (what a
run prints), `junit` (`--junit-xml`), `replay`, `report` (the conformance
matrix), `profiles` (the Hypothesis profiles, shared with the properties'
pytest plugin, `plugin`, which `pytest_entry` brings into a user's own
pytest run).  The command runs the properties in `tests/`: a clone's, or
those the wheel installs as `jaxcheck.tests` (backend/jaxcheck_build.py).
"""
