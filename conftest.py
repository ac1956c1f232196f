"""pytest in a clone of jaxcheck: the properties' wiring (jaxcheck/plugin.py) for every run."""

pytest_plugins = ("jaxcheck.plugin",)
