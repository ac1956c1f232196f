"""`python -m jaxcheck`, and the `jaxcheck` command (its `main`)."""

import os
import sys

# `python -m` puts the working directory first on sys.path, where a user's own
# `strategies.py` or `tests/` package would stand in for jaxcheck's.  The command
# never imports from there (SUTs are imported in children: jaxcheck/probe.py), so
# the entry goes, unless the working directory is the checkout itself.
_CHECKOUT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if sys.path and os.path.abspath(sys.path[0] or os.curdir) == os.getcwd() != _CHECKOUT:
    del sys.path[0]

from jaxcheck import interrupt  # noqa: E402 (after the path is made safe)

# Before the second of imports below, so a Ctrl-C then ends the command quietly.
interrupt.quiet()

from jaxcheck.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
