"""A run spread over machines: `check --shard K/N` runs a share, `report --from` joins them."""

import json
from dataclasses import asdict, replace
from pathlib import Path

import pytest

from jaxcheck import record
from jaxcheck.runner import Verdict, balanced, deal, shard
from tests.meta.command import jaxcheck

pytestmark = pytest.mark.meta

NODEIDS = [f"tests/test_{i % 3}.py::test_{i}" for i in range(11)]


@pytest.mark.parametrize("count", [1, 2, 4, 11, 12])
def test_the_shares_are_disjoint_and_together_are_every_property(count):
    shares = [shard(NODEIDS, index, count) for index in range(1, count + 1)]
    assert sorted(n for share in shares for n in share) == sorted(NODEIDS)
    assert max(map(len, shares)) - min(map(len, shares)) <= 1


# One property of a minute among ten of a second, as the costliest thorough rows stand
# among the rest.
COSTS = {n: (60.0 if i == 4 else 1.0) for i, n in enumerate(NODEIDS)}


def _cost(share: list[str]) -> float:
    return sum(COSTS[n] for n in share)


@pytest.mark.parametrize("count", [1, 2, 4, 11, 12])
def test_balanced_shares_are_disjoint_every_property_and_in_collection_order(count):
    shares = [shard(NODEIDS, index, count, COSTS) for index in range(1, count + 1)]
    assert sorted(n for share in shares for n in share) == sorted(NODEIDS)
    assert all(share == sorted(share, key=NODEIDS.index) for share in shares)
    assert shares == balanced(NODEIDS, count, COSTS) == deal(NODEIDS, count, COSTS)


@pytest.mark.parametrize("count", [2, 3, 4])
def test_balanced_shares_leave_the_costliest_property_alone(count):
    """Every N-th puts short properties beside the long one; balanced, its share
    holds it alone and the others split the rest evenly."""
    every_nth = [_cost(share) for share in deal(NODEIDS, count)]
    shares = balanced(NODEIDS, count, COSTS)
    assert [NODEIDS[4]] in shares
    rest = [_cost(share) for share in shares if share != [NODEIDS[4]]]
    assert max(rest) - min(rest) <= 1.0
    assert max(map(_cost, shares)) == 60.0 < max(every_nth)


def test_properties_of_no_cost_spread_and_a_new_one_costs_the_mean():
    """Skipped properties cost 0 s but a start-up each: they spread by count, not all
    to the first share.  One added since the record is dealt at the mean."""
    shares = balanced(NODEIDS, 3, dict.fromkeys(NODEIDS, 0.0))
    assert sorted(map(len, shares)) == [3, 4, 4]
    a, b, new, newer = NODEIDS[:4]
    # The two new ones cost 5.5 s each: they share a worker, as the 10 s and 1 s do.
    assert balanced([a, b, new, newer], 2, {a: 10.0, b: 1.0}) == [[a, b], [new, newer]]


def test_balanced_shards_record_the_times_they_were_dealt_by():
    """Shards balanced by other times (or not at all) deal other shares: joining them
    is refused as shards of other properties are."""
    plain, timed = record.collection(NODEIDS), record.collection(NODEIDS, COSTS)
    assert timed.startswith(plain + ", balanced by 11 times, sha256 ")
    assert timed != record.collection(NODEIDS, {**COSTS, NODEIDS[0]: 2.0})
    columns = [record.Column("mysut", "mysut 1.0", "ci", [], f"{index}/2", None, dealt)
               for index, dealt in ((1, plain), (2, timed))]
    with pytest.raises(record.RecordError, match="one --balance"):
        record.merged(columns)


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


@pytest.fixture(scope="module")
def whole_run(tmp_path_factory) -> Path:
    """The record of one unsharded run, which the shards below must draw again."""
    return _check(tmp_path_factory.mktemp("whole"))


def _drawn(verdicts) -> list[tuple]:
    return sorted((v["nodeid"], v["outcome"], v["examples"], v["first_failure"])
                  for v in verdicts)


def test_two_shards_of_a_seeded_check_draw_the_column_one_run_draws(tmp_path, whole_run):
    """With one seed, each property draws the same examples in a shard as in one run,
    so the joined column is the one run's: the same failure at the same example."""
    whole = record.read(whole_run)[0]
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
    assert _drawn(column["verdicts"]) == _drawn(map(asdict, whole.verdicts))
    assert sorted(v["outcome"] for v in column["verdicts"]) == ["failed", "passed"]


def test_shards_balanced_by_a_record_draw_the_column_one_run_draws(tmp_path, whole_run):
    """Balanced by the whole run's times, the shares are dealt by cost, and still each
    property draws what it drew in the one run."""
    shards = [_check(tmp_path / f"shard{index}", "--shard", f"{index}/2",
                     "--balance", str(whole_run)) for index in (1, 2)]
    (dealt,) = {record.read(path)[0].collection for path in shards}
    assert ", balanced by 2 times, sha256 " in dealt
    (joined,) = record.merged([record.read(path)[0] for path in shards])
    whole = record.read(whole_run)[0]
    assert _drawn(map(asdict, joined.verdicts)) == _drawn(map(asdict, whole.verdicts))


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
