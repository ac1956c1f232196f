"""`python -m jaxcheck`, the same as the `jaxcheck` command."""

import sys

from jaxcheck.cli import main

sys.exit(main())
