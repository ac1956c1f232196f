"""An SUT whose attribute raises as it is read is refused in one line, exit 2 (tests/manners/)."""

import pytest

from tests.meta.command import jaxcheck

pytestmark = pytest.mark.meta


@pytest.mark.parametrize("sut", ["raising_getattr", "raising_version"])
def test_an_attribute_that_raises_is_one_line_and_exit_2(tmp_path, sut):
    run = jaxcheck("check", "--sut", f"tests.manners.{sut}", "--out", str(tmp_path))
    assert run.returncode == 2, run.stdout + run.stderr
    assert "reading its names raised RuntimeError" in run.stderr, run.stderr
    assert "Traceback" not in run.stderr and "sys.exit" not in run.stderr, run.stderr
    assert len(run.stderr.strip().splitlines()) == 1, run.stderr
