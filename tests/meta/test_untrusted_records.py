"""A run's record is input: in a CI matrix it is another job's artifact.

`report --from`, `check --balance` and `replay` read records
(jaxcheck/record.py): a reproducer path must lie inside the record's run
folder (no absolute path, no `..` out of it, no symlink out of it), a shard
label must read K/N with 1 <= K <= N, and one run's shards must fit
together, a property missing named, a property held twice refused.  A file
that fails is refused in one line with exit 2, and nothing outside the run
is copied into the report.
"""

import json
import os
from pathlib import Path

import pytest

from jaxcheck import record
from jaxcheck.arguments import MAX_SHARDS
from tests.meta.command import jaxcheck

USAGE = 2  # the command's exit status for bad input
NODE = "tests/test_jvp.py::test_jvp_matches_finite_differences_and_reference"


def verdict(nodeid: str = NODE, reproducers=(), outcome: str = "failed") -> dict:
    return {"nodeid": nodeid, "outcome": outcome, "examples": 1,
            "reproducers": list(reproducers), "message": "Mismatch: got 5.0"}


def a_check_record(out: Path, verdicts: list[dict], **column) -> Path:
    """A record where `check` puts one: `out/logs/<run>/verdicts.json`."""
    path = out / "logs" / "check-refimpl-20261207-000000-abcdef" / "verdicts.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"sut": "refimpl", "description": "refimpl 0.1.0",
                                "profile": "ci", **column, "verdicts": verdicts}))
    return path


@pytest.mark.meta
def test_a_reproducer_of_the_run_folder_is_read_whole(tmp_path):
    (tmp_path / "repro_x.py").write_text("print('hi')\n")
    path = a_check_record(tmp_path, [verdict(reproducers=["../../repro_x.py"])])
    (column,) = record.read(path)
    assert column.verdicts[0].reproducers == [str(tmp_path / "repro_x.py")]


@pytest.mark.meta
@pytest.mark.parametrize("reproducer, says", [
    ("/etc/hostname", "is an absolute path"),
    ("../../../../../../../../../etc/hostname", "lies outside the run's folder"),
    ("link.py", "lies outside the run's folder"),
])
def test_a_reproducer_outside_the_run_folder_is_refused(tmp_path, reproducer, says):
    path = a_check_record(tmp_path, [verdict(reproducers=[reproducer])])
    if reproducer == "link.py":
        os.symlink("/etc/hostname", path.parent / "link.py")
    with pytest.raises(record.RecordError) as refused:
        record.read(path)
    assert says in str(refused.value) and "\n" not in str(refused.value)


@pytest.mark.meta
def test_report_from_a_hostile_record_copies_nothing_and_exits_2(tmp_path):
    path = a_check_record(tmp_path / "artifact", [verdict(reproducers=["/etc/hostname"])])
    out = tmp_path / "published"
    run = jaxcheck("report", "--from", str(path), "--out", str(out))
    assert run.returncode == USAGE, run.stdout + run.stderr
    assert "is an absolute path" in run.stderr and "Traceback" not in run.stderr, run.stderr
    assert len(run.stderr.strip().splitlines()) == 1, run.stderr
    assert not any(p.name == "hostname" for p in out.rglob("*")) if out.exists() else True


@pytest.mark.meta
@pytest.mark.parametrize("label", ["0/0", "3/2", "0/2", f"1/{MAX_SHARDS + 1}", "1/-2"])
def test_a_shard_label_out_of_range_is_refused(tmp_path, label):
    path = a_check_record(tmp_path, [verdict()], shard=label)
    with pytest.raises(record.RecordError, match="'shard' must read K/N, 1 <= K <= N"):
        record.read(path)


@pytest.mark.meta
def test_a_shard_relabelled_as_another_is_refused(tmp_path):
    first = a_check_record(tmp_path / "a", [verdict()], shard="1/2",
                           collection="2 properties, sha256 0123456789abcdef")
    relabelled = a_check_record(tmp_path / "b", [verdict()], shard="2/2",
                                collection="2 properties, sha256 0123456789abcdef")
    with pytest.raises(record.RecordError, match="both hold"):
        record.joined([first, relabelled])


@pytest.mark.meta
def test_shards_that_lack_a_property_name_it(tmp_path):
    dealt = "3 properties, sha256 0123456789abcdef"
    first = a_check_record(tmp_path / "a", [verdict()], shard="1/2", collection=dealt)
    second = a_check_record(tmp_path / "b", [verdict(NODE + "x")], shard="2/2", collection=dealt)
    (column,) = record.joined([first, second])
    assert column.description.endswith("[1 of 3 properties missing]"), column.description


@pytest.mark.meta
@pytest.mark.parametrize("label", ["1/100000000000", f"1/{MAX_SHARDS + 1}"])
def test_a_shard_count_past_the_bound_is_refused(tmp_path, label):
    run = jaxcheck("check", "--shard", label, "--out", str(tmp_path))
    assert run.returncode == USAGE, run.stdout + run.stderr
    assert f"N <= {MAX_SHARDS}" in run.stderr and "Traceback" not in run.stderr, run.stderr


@pytest.mark.meta
def test_report_from_a_record_whose_reproducer_is_gone_says_so(tmp_path):
    path = a_check_record(tmp_path / "artifact", [verdict(reproducers=["../../repro_gone.py"])])
    run = jaxcheck("report", "--from", str(path), "--out", str(tmp_path / "published"))
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 reproducer(s) the records name are not on disk" in run.stderr, run.stderr
