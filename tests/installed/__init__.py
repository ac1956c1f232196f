"""jaxcheck as a user installs it: run by `tox -e installed`, skipped elsewhere (see conftest)."""
