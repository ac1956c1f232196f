"""`python -m jaxcheck`, the same as the `jaxcheck` command."""

import os
import sys

# `python -m` puts the working directory first on sys.path, where a user's own
# `strategies.py` or `tests/` package would stand in for jaxcheck's.  The command
# never imports from there (SUTs are imported in children: jaxcheck/probe.py), so
# the entry goes, unless the working directory is the checkout itself.
_CHECKOUT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if sys.path and os.path.abspath(sys.path[0] or os.curdir) == os.getcwd() != _CHECKOUT:
    del sys.path[0]

from jaxcheck.cli import main  # noqa: E402 (after the path is made safe)

sys.exit(main())
