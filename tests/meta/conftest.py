"""What the meta-tests' session needs around it."""

import pytest

from tests.meta import warm


@pytest.fixture(scope="session", autouse=True)
def warm_server_ended():
    """The fork server of tests/meta/warm.py ends with the session that started it."""
    yield
    warm.stop()
