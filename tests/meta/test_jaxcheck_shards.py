"""A run spread over machines: `check --shard K/N` runs a share, `report --from` joins them."""

import json

import pytest

from jaxcheck import record
from jaxcheck.runner import Verdict, shard
from tests.meta.command import jaxcheck

pytestmark = pytest.mark.meta

NODEIDS = [f"tests/test_{i % 3}.py::test_{i}" for i in range(11)]


@pytest.mark.parametrize("count", [1, 2, 4, 11, 12])
def test_the_shares_are_disjoint_and_together_are_every_property(count):
    shares = [shard(NODEIDS, index, count) for index in range(1, count + 1)]
    assert sorted(n for share in shares for n in share) == sorted(NODEIDS)
    assert max(map(len, shares)) - min(map(len, shares)) <= 1


def _column(shard_of: str, nodeids: list[str]) -> record.Column:
    return record.Column("mysut", "mysut 1.0 (declares unsupported: nothing)", "ci",
                         [Verdict(n, "passed", 60) for n in nodeids], shard_of)


def test_shards_join_into_one_column_and_a_missing_one_is_said():
    whole = record.merged([_column("2/3", NODEIDS[1::3]), _column("1/3", NODEIDS[0::3]),
                           _column("3/3", NODEIDS[2::3])])
    assert len(whole) == 1 and sorted(v.nodeid for v in whole[0].verdicts) == sorted(NODEIDS)
    partial = record.merged([_column("1/3", NODEIDS[0::3]), _column("3/3", NODEIDS[2::3])])
    assert partial[0].description.endswith("[shards 2 of 3 missing]")
    with pytest.raises(record.RecordError, match="do not fit together"):
        record.merged([_column("1/2", NODEIDS[0::2]), _column("1/2", NODEIDS[0::2])])


def test_two_shards_of_a_check_draw_the_column_one_run_draws(tmp_path):
    only = ("test_jit_retraces_for_a_new_shape or test_shape_mismatch_raises or "
            "test_grad_of_a_non_scalar_output_raises")
    records = []
    for index in (1, 2):
        out = tmp_path / f"shard{index}"
        run = jaxcheck("check", "--sut", "refimpl", "--reference", "none", "--only", only,
                       "--shard", f"{index}/2", "--jobs", "1", "--out", str(out))
        assert run.returncode == 0, run.stdout + run.stderr
        assert f"shard {index}/2: " in run.stdout
        records += list(out.glob("logs/*/verdicts.json"))
    report = jaxcheck("report", "--from", str(records[0]), "--from", str(records[1]),
                      "--out", str(tmp_path / "page"))
    assert report.returncode == 0, report.stdout + report.stderr
    (column,) = json.loads((tmp_path / "page" / "conformance" / "verdicts.json").read_text())
    assert sorted(v["nodeid"].rsplit("::", 1)[1] for v in column["verdicts"]) == sorted(
        ["test_jit_retraces_for_a_new_shape", "test_shape_mismatch_raises",
         "test_grad_of_a_non_scalar_output_raises"])
    assert {v["outcome"] for v in column["verdicts"]} == {"passed"}
