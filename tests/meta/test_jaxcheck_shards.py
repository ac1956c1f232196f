"""A run spread over machines: `check --shard K/N` runs a share, `report --from` joins them."""

import json
from dataclasses import asdict, replace
from pathlib import Path

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


def _column(shard_of: str, nodeids: list[str], written: str | None = None) -> record.Column:
    return record.Column("mysut", "mysut 1.0 (declares unsupported: nothing)", "ci",
                         [Verdict(n, "passed", 60) for n in nodeids], shard_of,
                         written=written)


def test_shards_join_into_one_column_and_a_missing_one_is_said():
    whole = record.merged([_column("2/3", NODEIDS[1::3]), _column("1/3", NODEIDS[0::3]),
                           _column("3/3", NODEIDS[2::3])])
    assert len(whole) == 1 and sorted(v.nodeid for v in whole[0].verdicts) == sorted(NODEIDS)
    partial = record.merged([_column("1/3", NODEIDS[0::3]), _column("3/3", NODEIDS[2::3])])
    assert partial[0].description.endswith("[shards 2 of 3 missing]")
    with pytest.raises(record.RecordError, match="do not fit together"):
        record.merged([_column("1/2", NODEIDS[0::2]), _column("1/2", NODEIDS[0::2])])


def test_joined_shards_ran_until_the_last_of_them_ended():
    """A page says when its columns ran (`report.when_ran`): a column of shards that
    ended on two days ended on the second, and one whose shard has no time has none."""
    early, late = "2001-02-03 04:05", "2001-02-04 01:00"
    (joined,) = record.merged([_column("2/2", NODEIDS[1::2], late),
                               _column("1/2", NODEIDS[0::2], early)])
    assert joined.written == late
    (unknown,) = record.merged([_column("2/2", NODEIDS[1::2], late),
                                _column("1/2", NODEIDS[0::2])])
    assert unknown.written is None


# A broken divide, found by the jvp property at an example its seed decides (seeds 3,
# 4 and 5 first fail at examples 68, 92 and 25), beside a property that passes.
BROKEN = "tests.broken.div_jvp_denominator_sign"
ONLY = "test_jvp_matches_finite_differences_and_reference or test_jit_retraces_for_a_new_shape"


def _check(out, *args: str) -> Path:
    run = jaxcheck("check", "--sut", BROKEN, "--reference", "none", "--only", ONLY,
                   "--profile", "dev", "--seed", "3", "--max-shrinks", "1", "--jobs", "1",
                   "--out", str(out), *args)
    assert run.returncode in (0, 1), run.stdout + run.stderr  # 1: the divide's failure
    assert "profile dev, seed 3," in run.stdout
    (found,) = out.glob("logs/*/verdicts.json")
    return found


def test_two_shards_of_a_seeded_check_draw_the_column_one_run_draws(tmp_path):
    """With one seed, each property draws the same examples in a shard as in one run,
    so the joined column is the one run's: the same failure at the same example."""
    whole = record.read(_check(tmp_path / "whole"))[0]
    shards = [_check(tmp_path / f"shard{index}", "--shard", f"{index}/2") for index in (1, 2)]
    assert [record.read(path)[0].seed for path in shards] == [3, 3]
    (dealt,) = {record.read(path)[0].collection for path in shards}
    assert dealt.startswith("2 properties, sha256 ")
    report = jaxcheck("report", "--from", str(shards[0]), "--from", str(shards[1]),
                      "--out", str(tmp_path / "page"))
    assert report.returncode == 0, report.stdout + report.stderr
    (column,) = json.loads((tmp_path / "page" / "conformance" / "verdicts.json").read_text())
    assert column["seed"] == 3
    assert "Profile `dev (seed 3)`" in (tmp_path / "page" / "conformance.md").read_text()

    def drawn(verdicts):
        return sorted((v["nodeid"], v["outcome"], v["examples"], v["first_failure"])
                      for v in verdicts)

    assert drawn(column["verdicts"]) == drawn(map(asdict, whole.verdicts))
    assert sorted(v["outcome"] for v in column["verdicts"]) == ["failed", "passed"]


def test_shards_dealt_from_different_properties_are_refused():
    """Another checkout or another --only deals other shares: joined, they would
    overlap and leave gaps."""
    old, new = record.collection(NODEIDS[:-1]), record.collection(NODEIDS)
    columns = [record.Column("mysut", "mysut 1.0", "ci", [], f"{index}/2", None, dealt)
               for index, dealt in ((1, old), (2, new))]
    with pytest.raises(record.RecordError, match="dealt from different properties"):
        record.merged(columns)
    assert record.merged(columns[:1] + [replace(columns[1], collection=old)])[0].collection == old


def test_shards_of_different_seeds_are_not_one_run():
    columns = [record.Column("mysut", "mysut 1.0", "thorough", [], f"{index}/2", seed)
               for index, seed in ((1, 1), (2, 2))]
    assert [c.description for c in record.merged(columns)] == [
        "mysut 1.0 [shards 2 of 2 missing]", "mysut 1.0 [shards 1 of 2 missing]"]
