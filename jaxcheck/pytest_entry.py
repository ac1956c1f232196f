"""jaxcheck's pytest11 entry point: nothing at all unless a run asks with `-p jaxcheck`.

Installing jaxcheck registers this module in every pytest run of the
environment, the user's own unrelated runs included.  Those must collect
and print what they did without it, and may well define a `--sut` option
of their own, so the module adds no option, fixture or hook of its own
and imports nothing heavy.  A run that names it,

    pytest --pyargs jaxcheck.tests --sut mypkg.shim -p jaxcheck

gets the properties' plugin (jaxcheck/plugin.py), loaded here before the
command line is parsed, so its options are known.
"""

import pytest

NAME = "jaxcheck"  # the entry point's name in pyproject.toml, and so `-p`'s
PLUGIN = "jaxcheck.plugin"


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config, parser, args):
    if NAME in (early_config.known_args_namespace.plugins or ()):
        early_config.pluginmanager.import_plugin(PLUGIN)
