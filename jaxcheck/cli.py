"""The `jaxcheck` command: check, hunt, replay, report.

    jaxcheck check  --sut NAME [--profile ci|dev|thorough] [--seed N] [--jobs N] [--shard K/N]
                    [--balance VERDICTS ...]
    jaxcheck hunt   --sut NAME --minutes M [--jobs N] [--out DIR] [--db PATH|URL]
    jaxcheck replay PATH...
    jaxcheck report --sut A [--sut B ...] [--from VERDICTS ...] [--out DIR] [--findings FILE]

`check` and `hunt` run the properties (never jaxcheck's self-tests) in
child processes (jaxcheck/runner.py), so a crash or a hang of the SUT is a
verdict on one property, not the end of the run.  Exit status: 0 when every
property passes, 1 when one fails, crashes or hangs (or a replay still
fails), 2 for a usage error, and 128 + the signal's number when SIGINT
(130), SIGTERM (143) or SIGHUP (129) cut the run short, whatever it had
found: the closing table and the record are written first, with every
failure found so far (jaxcheck/interrupt.py).
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time
from dataclasses import replace
from pathlib import Path

from jaxcheck import (
    arguments,
    findings,
    interrupt,
    junit,
    known,
    probe,
    profiles,
    reaper,
    record,
    replay,
    report,
    table,
    version,
)
from jaxcheck.database import DEFAULT_DB, DatabaseError, check_usable, redacted
from jaxcheck.places import LOGS, PlaceError, new_run_dir, slug, writable_directory
from jaxcheck.runner import Run, RunError, RunOptions, Verdict, collect, end_all, run, shard
from oracles.reproducer import DIRECTORY
from oracles.sut import DEFAULT_SUT, DEFAULT_TIMEOUT, SutError, reference_name

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
FAILING = {"failed", "crashed", "hung", "error"}

# check --quick: the round's properties share this many minutes from the command's
# start (the SUT's import in the probe, the collection and each child included),
# and a failure shrinks this many steps at most: a first look wants each bug
# named, not minimal.
QUICK_MINUTES = 4
QUICK_SHRINKS = 20
# A property of the round may run this share of the budget past its own share
# (shrinking and its last run included) before it is cut: 30 s of 4 minutes, so a
# round ends within 4.5 minutes, and the command's exit within 5, however slow the
# SUT (a hang is cut too).  After the deadline no property starts; the next round
# of the same --out and SUT starts with those (`_earlier_round`).
QUICK_OVERRUN = 1 / 8
# What a property's verdict may be and still count as judged (a round may resume
# after it): not `interrupted` (cut or stopped), not `error` (jaxcheck's own).
JUDGED = ("passed", "failed", "crashed", "hung", "skipped")

# A hunt's status line is redrawn this often on a terminal, and printed
# this often into a log (where every line stays).
STATUS_SECONDS = {True: 1.0, False: 30.0}

# The profiles whose examples a seed chooses (the others draw the same every run).
SEEDED = [name for name, values in profiles.PROFILES.items() if not values.get("derandomize")]


class UsageError(Exception):
    """Bad input to the command: the message says what and what to do."""


def _sut_options(parser: argparse.ArgumentParser, *, many: bool = False) -> None:
    if many:
        parser.add_argument("--sut", action="append", type=arguments.sut_name, metavar="NAME",
                            help="an SUT to check (repeat for each column, each SUT once)")
    else:
        parser.add_argument("--sut", default=os.environ.get("SUT", DEFAULT_SUT),
                            type=arguments.sut_name, metavar="NAME",
                            help="system under test: refimpl, jax, a module path or "
                                 f"module:attribute (default: $SUT or {DEFAULT_SUT}); "
                                 "the contract is docs/sut-api.md")
    parser.add_argument("--reference", default="auto", type=arguments.reference_name,
                        metavar="NAME",
                        help="SUT whose results are exact expectations: a name as for --sut, "
                             "'none', or 'auto' (refimpl; JAX when the SUT is refimpl)")
    parser.add_argument("--jobs", type=arguments.whole_number, default=os.cpu_count() or 1,
                        metavar="N",
                        help="child processes side by side, at least 1 (default: the number "
                             "of cores)")
    parser.add_argument("--sut-timeout", type=arguments.sut_timeout, default=DEFAULT_TIMEOUT,
                        metavar="SECONDS",
                        help="one SUT call longer than this is a hang: 0 (no limit) to "
                             f"{arguments.MAX_SUT_TIMEOUT:g} (default {DEFAULT_TIMEOUT:g})")
    parser.add_argument("--only", type=arguments.selection, metavar="EXPR",
                        help="only the properties that match this pytest -k expression "
                             "(not empty)")


def _known_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--known", type=Path, metavar="FINDINGS",
                        help="known findings, a file or folder in the form of docs/findings/ "
                             "(`Signature (SUT): `regex`` under `### ID. title`): a failure "
                             "that shows one of the SUT's is reported as known and not shrunk "
                             "again; the run exits 1 only for a new one")
    parser.add_argument("--shrink-known", action="store_true",
                        help="shrink known failures too (a smaller reproducer, at the cost "
                             "of the shrinking --known saves)")


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="jaxcheck", description="Property-based verification of JAX-style transformations.")
    top.add_argument("--version", action="version", version=version.line())
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    check = commands.add_parser("check", help="run every property once and print a table",
                                description="Run the properties (not jaxcheck's self-tests) "
                                            "against an SUT and print a verdict per property.")
    _sut_options(check)
    check.add_argument("--profile", choices=sorted(profiles.PROFILES), default=None,
                       help="Hypothesis profile (default ci: 60 derandomized examples each; "
                            "--quick runs triage)")
    check.add_argument("--out", type=Path, default=Path(DIRECTORY), metavar="DIR",
                       help=f"where reproducers and logs go (default {DIRECTORY}/)")
    check.add_argument("--quick", action="store_true",
                       help=f"a first look at a new system in about {QUICK_MINUTES + 1} "
                            "minutes: every property briefly (the triage profile, its share "
                            f"of {QUICK_MINUTES} minutes each), every distinct bug of a "
                            f"property, shrinks cut at {QUICK_SHRINKS}, and each kind of "
                            "failure named once with what to do; a round stopped by its time "
                            "is resumed by the next with the same --out")
    check.add_argument("--quick-minutes", type=arguments.positive_number,
                       default=QUICK_MINUTES, help=argparse.SUPPRESS)  # the tests' budget
    check.add_argument("--shard", type=arguments.shard, metavar="K/N",
                       help="run the K-th of N shares of the properties (every N-th in "
                            "collection order, or by --balance), for N machines; "
                            "`report --from` the N verdicts.json draws them as one column")
    check.add_argument("--balance", action="append", type=Path, default=[],
                       metavar="VERDICTS",
                       help="deal the properties to the shards and the workers by the "
                            "seconds an earlier run's verdicts.json gives them (a sharded "
                            "run: each shard's, the option once per file), longest first "
                            "to the least busy, so they end together; give every shard "
                            "the same files")
    check.add_argument("--seed", type=arguments.seed, metavar="N",
                       help="Hypothesis's seed, for a profile that is not derandomized "
                            f"({', '.join(SEEDED)}): the same seed draws the same examples, "
                            "so the shards of a run draw what one run draws")
    check.add_argument("--max-shrinks", type=arguments.whole_number, metavar="N",
                       help="report a failure after N successful shrinks (default: shrink "
                            "until nothing smaller fails): a quicker, larger reproducer")
    _known_options(check)
    check.add_argument("--junit-xml", type=Path, metavar="PATH",
                       help="also write the verdicts as JUnit XML, a testcase per property, "
                            "for a CI's test report (known failures as skipped)")

    hunt = commands.add_parser("hunt", help="search for failures for a fixed time",
                               description="Share M minutes among the properties, drawing "
                                           "fresh examples; write each failure, shrunk, to --out.")
    _sut_options(hunt)
    hunt.add_argument("--minutes", type=arguments.positive_number, required=True, metavar="M",
                      help="how long to hunt, a positive number, shared among the properties "
                           "(a failing one shrinks to the end, past its share)")
    hunt.add_argument("--profile", choices=sorted(profiles.PROFILES), default=profiles.DEFAULT,
                      help="the profile the hunt starts from (its example budget is lifted)")
    hunt.add_argument("--out", type=Path, default=Path(DIRECTORY), metavar="DIR",
                      help=f"where reproducers and logs go (default {DIRECTORY}/)")
    hunt.add_argument("--db", default=DEFAULT_DB, type=arguments.check_database_spec,
                      metavar="PATH|URL",
                      help="example database: a directory, or redis://HOST:PORT[/DB] to share "
                           f"failures between machines (default {DEFAULT_DB})")
    _known_options(hunt)

    again = commands.add_parser(
        "replay", help="run saved reproducers, say which still fail",
        description="Run each reproducer in its own process group and say whether it now "
                    "passes (it ran to its end and the SUT agrees), still fails (a mismatch, "
                    "an exception, a crash, a hang) or cannot run (it does not compile, or "
                    "its SUT module does not import from here).  Exit status: 0 when every "
                    "one now passes; 1 when one still fails or cannot run; 2 for a usage "
                    "error; 130 when Ctrl-C stopped it (128 + N for signal N), after "
                    "printing what it had.")
    again.add_argument("paths", nargs="+", metavar="PATH", help="reproducer files or folders")
    again.add_argument("--timeout", type=arguments.positive_number, default=replay.REPLAY_TIMEOUT,
                       metavar="SECONDS", help="a replay longer than this hangs, a positive "
                                               f"number (default {replay.REPLAY_TIMEOUT:g})")

    matrix = commands.add_parser("report", help="a conformance matrix of several SUTs",
                                 description="Check each SUT and write the matrix of verdicts "
                                             "as Markdown and as one self-contained HTML page.")
    _sut_options(matrix, many=True)
    matrix.add_argument("--from", dest="runs", action="append", type=Path, default=[],
                        metavar="VERDICTS",
                        help="a verdicts.json that check, hunt or report wrote: its columns "
                             "join the matrix without running again (repeatable, each file "
                             "once)")
    matrix.add_argument("--profile", choices=sorted(profiles.PROFILES), default="ci")
    matrix.add_argument("--out", type=Path, default=Path("jaxcheck-report"), metavar="DIR",
                        help="where conformance.md and conformance.html go; reproducers go "
                             "under DIR/conformance/")
    matrix.add_argument("--findings", "--known", type=Path, metavar="FILE",
                        help="findings, a file or a folder (docs/findings/ says how), whose "
                             "`Signature (SUT): `regex`` lines link failures to known findings")
    return top


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    reaper.adopt_orphans()  # what the SUT detaches is found and ended (jaxcheck/reaper.py)
    try:
        with interrupt.handled(on_last=end_all):
            return COMMANDS[args.command](args)
    except (UsageError, SutError, DatabaseError, PlaceError, RunError) as exc:
        print(f"jaxcheck {args.command}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:  # the reader went away (`jaxcheck ... | head`): end quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # nothing more to flush
        return 128 + signal.SIGPIPE
    except OSError as exc:  # a file jaxcheck itself could not read or write
        print(f"jaxcheck {args.command}: {exc.filename or 'a file'}: {exc.strerror or exc}",
              file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt as exc:  # before any property ran (run() keeps what a run found)
        status = interrupt.exit_status(exc)
        print(f"jaxcheck {args.command}: {signal.Signals(status - 128).name}: stopped",
              file=sys.stderr)
        return status


def _options(args, sut: str, out: Path, described: list[str] | None = None,
             **extra) -> tuple[RunOptions, list[str]]:
    """The run's options, and how its SUT and reference describe themselves (a bad
    name, or an SUT that misbehaves at import, is a usage error here, before any
    work: the names resolve in a child, jaxcheck/probe.py, unless `described`
    says already)."""
    if described is None:
        described = probe.describe([("--sut", sut),
                                    ("--reference", reference_name(sut, args.reference))],
                                   probe.import_limit(args.sut_timeout))
    out = writable_directory(out, "--out")
    settings = RunOptions(sut=sut, reference=args.reference, profile=args.profile,
                          timeout=args.sut_timeout, jobs=args.jobs, out=out, **extra)
    return settings, described


def _header(command: str, options: RunOptions, described: list[str], count: int,
            run_dir: Path, baseline: known.Baseline | None = None) -> None:
    seed = "" if options.seed is None else f", seed {options.seed}"
    print(f"jaxcheck {command}: {count} properties, profile {options.profile}{seed}, "
          f"{options.jobs} job(s)\n  SUT: {described[0]}\n  reference: {described[1]}\n"
          f"  reproducers: {table.relative(str(options.out))}/  logs: "
          f"{table.relative(str(run_dir))}/", flush=True)
    if baseline is not None:
        print(baseline.header(), flush=True)


def _recorder(run_dir: Path, options: RunOptions, described: list[str],
              shard: str | None = None, collection: str | None = None):
    """What keeps the run's record on disk as verdicts come (and failures are found),
    so an interruption at any moment leaves it; a record that cannot be written is
    jaxcheck's trouble, said once, and never the SUT's."""
    path = run_dir / "verdicts.json"
    told = []

    def keep(verdicts: list[Verdict]) -> Path | None:
        try:
            return record.write(path, record.Column(options.sut, described[0],
                                                    options.profile, verdicts, shard,
                                                    options.seed, collection, record.now()))
        except OSError as exc:
            if not told:
                told.append(exc)
                print(f"jaxcheck: the record {table.relative(str(path))} could not be written "
                      f"({exc.strerror}); the table below is all there is", file=sys.stderr,
                      flush=True)
            return None

    return keep


def _ending(found: Run, keep, baseline: known.Baseline | None = None,
            junit_xml: Path | None = None, complete: bool = True, sut: str = "",
            planned: int | None = None) -> int:
    saved = keep(found.verdicts)
    new = [v for v in found.verdicts if not v.known]
    print("\n" + table.closing_table(found.verdicts, sut, planned) + table.groups(new, sut)
          + table.trouble(found.verdicts) + table.unsaved(found.verdicts), flush=True)
    if baseline is not None:
        print(known.closing(baseline, found.verdicts, complete and not found.interrupted),
              flush=True)
    if saved:
        print(f"(as JSON: {table.relative(str(saved))})", flush=True)
    if junit_xml is not None:
        print(f"(as JUnit XML: {table.relative(str(junit.write(junit_xml, found.verdicts)))})",
              flush=True)
    return _status(found)


def _status(found: Run) -> int:
    """Exit 128 + the signal of a stopped run, 1 if a property failed, crashed or hung
    and is not known, else 0."""
    if found.interrupted:
        return 128 + found.signum
    new = [v for v in found.verdicts if v.outcome in FAILING and not v.known]
    return EXIT_FAILED if new else EXIT_OK


def _baseline(args) -> known.Baseline | None:
    """The SUT's known findings (`--known`), or None; an unreadable file is a usage error."""
    if args.known is None:
        return None
    try:
        return known.read(args.known.resolve(), args.sut)
    except findings.FindingsError as exc:
        raise UsageError(f"--known: {exc}") from None


def _judging(baseline: known.Baseline | None, on_verdict, keep):
    """`on_verdict` and `keep` with each verdict judged against the baseline first, so the
    live lines, the record and the table all say which failures are known."""
    if baseline is None:
        return on_verdict, keep
    return (lambda verdict: on_verdict(baseline.judged(verdict)),
            lambda verdicts: keep([baseline.judged(v) for v in verdicts]))


def check(args) -> int:
    quick = {}
    args.profile = profile_of(args)
    if args.quick:
        quick = {"deadline": time.time() + 60 * args.quick_minutes,
                 "max_shrinks": args.max_shrinks or QUICK_SHRINKS,
                 "overrun": 60 * args.quick_minutes * QUICK_OVERRUN}
    if args.seed is not None and profiles.PROFILES[args.profile].get("derandomize"):
        raise UsageError(f"--seed: the profile {args.profile} is derandomized (the same "
                         "examples every run, whatever the seed); give --seed with one of "
                         f"the profiles {', '.join(SEEDED)}")
    costs = _costs(args.balance) if args.balance else None
    baseline = _baseline(args)
    options, described = _options(args, args.sut, args.out, seed=args.seed,
                                  **{"max_shrinks": args.max_shrinks, **quick},
                                  **_known_run(baseline, args))
    nodeids = collect(options, args.only)
    sharded = {}
    if args.shard:
        sharded = {"shard": "/".join(map(str, args.shard)),
                   "collection": record.collection(nodeids, costs)}
        everything = len(nodeids)
        nodeids = shard(nodeids, *args.shard, costs)
        print(f"jaxcheck check: shard {args.shard[0]}/{args.shard[1]}: {len(nodeids)} of "
              f"{everything} properties", flush=True)
    sharded.setdefault("collection", record.collection(nodeids))  # how many it meant to run
    earlier = _earlier_round(options.out, args.sut, sharded["collection"]) \
        if args.quick and not args.shard else {}
    run_dir = new_run_dir(options.out, "check", args.sut)
    todo = _resumed(nodeids, earlier)
    _header("check", options, described, len(todo), run_dir, baseline)
    status = _Status(time.time(), sut=args.sut)
    recorder = _recorder(run_dir, options, described, **sharded)
    on_verdict, keep = _judging(baseline, status.verdict,
                                lambda verdicts: recorder(_with(nodeids, earlier, verdicts)))
    found = run(todo, options, run_dir, costs, on_verdict=on_verdict,
                on_tick=status.tick, on_change=keep)
    status.clear()
    found = Run(_with(nodeids, earlier, found.verdicts), found.signum, found.not_reached)
    ended = _ending(found, keep, baseline, args.junit_xml,
                    complete=not (args.only or args.shard or args.quick), sut=args.sut,
                    planned=len(nodeids))
    if args.quick:
        print(_round_end(nodeids, found), flush=True)
    return ended


def profile_of(args) -> str:
    """The profile a check runs: `triage` for --quick, else --profile (default ci);
    --quick with another profile is a usage error."""
    if args.quick and args.profile not in (None, "triage"):
        raise UsageError(f"--quick runs the triage profile, each property its share of the "
                         f"time: give --quick or --profile {args.profile}, not both")
    return "triage" if args.quick else args.profile or "ci"


def _earlier_round(out: Path, sut: str, collection: str) -> dict[str, Verdict]:
    """What the last `--quick` round of `sut` into `out` judged, by property, if it
    stopped before judging every one of the same properties (the same checkout and
    --only): the next round starts where it stopped.  {} for a fresh --out, or after
    a round that judged them all (the next starts over)."""
    rounds = sorted((out / LOGS).glob(f"check-{slug(sut)}-*/verdicts.json"),
                    key=lambda path: path.stat().st_mtime, reverse=True)
    for path in rounds:
        try:
            (column,) = record.read(path)
        except (record.RecordError, ValueError):
            continue  # not a record of one run: an unreadable round is no round
        if column.sut != sut or column.profile != "triage" or column.shard:
            continue
        judged = {v.nodeid: v for v in column.verdicts if v.outcome in JUDGED}
        count = record.planned(collection)
        if column.collection != collection or len(judged) >= count:
            return {}
        print(f"jaxcheck check --quick: resuming the round of {table.relative(str(path))}: "
              f"{len(judged)} of {count} properties judged there", flush=True)
        return judged
    return {}


def _resumed(nodeids: list[str], earlier: dict[str, Verdict]) -> list[str]:
    """The properties a round runs, in order: those not yet judged, then those that
    failed last time (a shim fixed since may pass them); those that passed or were
    skipped keep their verdicts."""
    if not earlier:
        return nodeids
    failed = [n for n in nodeids if n in earlier and earlier[n].outcome in FAILING]
    return [n for n in nodeids if n not in earlier] + failed


def _with(nodeids: list[str], earlier: dict[str, Verdict], verdicts: list[Verdict]
          ) -> list[Verdict]:
    """This round's verdicts over the earlier rounds', in collection order (where this
    round did not judge a property again, the earlier verdict stays)."""
    if not earlier:
        return verdicts
    merged = dict(earlier)
    for verdict in verdicts:  # a failure found before stays, if this round cut its rerun
        if verdict.outcome in JUDGED or verdict.nodeid not in merged:
            merged[verdict.nodeid] = verdict
    return [merged[n] for n in nodeids if n in merged]


def _round_end(nodeids: list[str], found: Run) -> str:
    """How far the rounds have come, for a newcomer: what is judged, and what to do."""
    judged = sum(v.outcome in JUDGED for v in found.verdicts)
    if judged == len(nodeids):
        every = "the property" if judged == 1 else f"all {judged} properties"
        return f"{every} judged; the next --quick round starts over"
    return (f"{judged} of {len(nodeids)} properties judged so far ({len(nodeids) - judged} not "
            "reached or cut by the round's time); run the same command again to continue "
            "where this round stopped (a fresh --out starts over)")


def _known_run(baseline: known.Baseline | None, args) -> dict:
    """The run options `--known` sets: where the children read the findings."""
    if baseline is None:
        return {}
    return {"known": baseline.source, "shrink_known": args.shrink_known}


def _costs(paths: list[Path]) -> dict[str, float]:
    """Each property's seconds in the run the `--balance` records hold (a sharded
    run's records joined as `report --from` joins them)."""
    _once("--balance", paths, key=Path.resolve)
    try:
        run = record.one_run(paths)
    except record.RecordError as exc:
        raise UsageError(f"--balance: {exc}") from None
    return {verdict.nodeid: verdict.seconds for verdict in run.verdicts}


def hunt(args) -> int:
    check_usable(args.db)  # a bad --db is a usage error before any child starts
    baseline = _baseline(args)
    start = time.time()
    options, described = _options(args, args.sut, args.out,
                                  deadline=start + 60 * args.minutes, fresh=True, db=args.db,
                                  **_known_run(baseline, args))
    nodeids = collect(options, args.only)
    run_dir = new_run_dir(options.out, "hunt", args.sut)
    _header(f"hunt ({args.minutes:g} min, database {redacted(args.db)})", options, described,
            len(nodeids), run_dir, baseline)
    status = _Status(start, 60 * args.minutes, every=False, sut=args.sut)
    on_verdict, keep = _judging(baseline, status.verdict,
                                _recorder(run_dir, options, described))
    found = run(nodeids, options, run_dir, on_verdict=on_verdict, on_tick=status.tick,
                on_change=keep)
    status.clear()
    return _ending(found, keep, baseline, complete=not args.only, sut=args.sut)


class _Status:
    """A run's live display: a status line on a terminal, redrawn in place every
    STATUS_SECONDS, and a line for each verdict as it comes (`every`) or for each
    failure only (a hunt, whose properties end by the clock).  Into a log, a check
    prints its verdict lines alone; a hunt adds its status every 30 s."""

    def __init__(self, start: float, total: float | None = None, every: bool = True,
                 sut: str = ""):
        self.start, self.total, self.every, self.sut = start, total, every, sut
        self.verdicts: list[Verdict] = []
        self.tty = sys.stdout.isatty()
        self.shown = 0.0
        self.width = 0

    def verdict(self, verdict: Verdict) -> None:
        self.verdicts.append(verdict)
        if self.every or verdict.outcome in FAILING:
            self.clear()
            print(table.live_line(verdict, self.sut), flush=True)

    def tick(self, workers) -> None:
        now = time.time()
        if now - self.shown < STATUS_SECONDS[self.tty] or not (self.tty or self.total):
            return
        self.shown = now
        running = [table.Running(w.running_nodeid, (w.current() or {}).get("examples", 0),
                                 now - w.started, w.running_nodeid in w.failing)
                   for w in workers if w.running and w.running_nodeid in w.remaining]
        line = table.status_line(now - self.start, self.total, self.verdicts, running)
        if self.tty:
            line = line[:os.get_terminal_size().columns - 1]
            print("\r" + line.ljust(self.width), end="", flush=True)
            self.width = len(line)
        else:
            print(line, flush=True)

    def clear(self) -> None:
        if self.tty and self.width:
            print("\r" + " " * self.width + "\r", end="", flush=True)
            self.width = 0


def replay_command(args) -> int:
    try:
        paths = replay.gather(args.paths)
    except replay.ReplayError as exc:
        raise UsageError(str(exc)) from None
    done = replay.replay_all(paths, args.timeout, on_result=_replayed)
    print("\n" + done.summary(), flush=True)
    if done.stopped_by:
        return 128 + done.stopped_by  # the shell's status for a process ended by that signal
    return EXIT_OK if all(r.outcome == replay.PASSES for r in done.results) else EXIT_FAILED


def _replayed(result: replay.Replay) -> None:
    detail = f": {result.detail}" if result.detail else ""
    print(f"{result.outcome:<16} {table.relative(str(result.path))}{detail}", flush=True)


def _once(option: str, values: list, key) -> None:
    """Refuse a value given twice (`key` says when two are the same) before any column
    runs: a report has one column per SUT, and refuses two alike once all have run."""
    seen = {}
    for value in values:
        if key(value) in seen:
            also = "" if str(seen[key(value)]) == str(value) else f" (as {seen[key(value)]})"
            raise UsageError(f"{option} {value} is given twice{also}: give each once")
        seen[key(value)] = value


def report_command(args) -> int:
    if not args.sut and not args.runs:
        raise UsageError("name the SUTs to check (--sut NAME, once per column) or the runs to "
                         "draw the matrix from (--from verdicts.json)")
    _once("--sut", args.sut or [], key=str)
    _once("--from", args.runs, key=Path.resolve)
    try:
        known_findings = findings.read(args.findings) if args.findings else None
        columns = record.joined(args.runs)
    except (findings.FindingsError, record.RecordError) as exc:
        raise UsageError(str(exc)) from None
    described = [c.description for c in columns]
    for description in described:
        if described.count(description) > 1:
            raise UsageError(f"--from: two columns of the records describe {description}: "
                             "give each run once")
    # Every column's SUT and reference import (in one child) before the first runs.
    suts = args.sut or []
    names = [(option, name) for sut in suts
             for option, name in (("--sut", sut), ("--reference",
                                                    reference_name(sut, args.reference)))]
    descriptions = probe.describe(names, probe.import_limit(args.sut_timeout))
    signum = None
    for i, sut in enumerate(suts):
        out = args.out / "conformance" / report.slug(sut)
        settings, described = _options(args, sut, out, descriptions[2 * i:2 * i + 2])
        nodeids = collect(settings, args.only)
        run_dir = new_run_dir(settings.out, "report", sut)
        _header("report", settings, described, len(nodeids), run_dir)
        status = _Status(time.time(), sut=sut)
        dealt = record.collection(nodeids)  # how many it meant to run
        found = run(nodeids, settings, run_dir, on_verdict=status.verdict, on_tick=status.tick,
                    on_change=_recorder(run_dir, settings, described, collection=dealt))
        status.clear()
        column = record.Column(sut, described[0], args.profile, found.verdicts,
                               collection=dealt, written=record.now())
        columns.append(replace(column, description=column.description + record.not_run(column)))
        if found.interrupted:  # the columns so far are drawn; the rest never ran
            signum = found.signum
            print(f"jaxcheck report: {signal.Signals(signum).name}: the SUTs after {sut} "
                  "were not run", file=sys.stderr)
            break
    if len({c.description for c in columns}) < len(columns):
        raise UsageError("two columns describe the same SUT: give each run once")
    # The page links only files beside it (a column just run keeps its own there).
    columns = [record.gathered(c, args.out / "conformance" / report.slug(c.sut))
               for c in columns]
    dead = record.absent(columns)
    if dead:
        print(f"jaxcheck report: {len(dead)} reproducer(s) the records name are not on disk, "
              f"and the page links them dead: {table.relative(dead[0])}"
              f"{' and more' * (len(dead) > 1)}", file=sys.stderr)
    by_description = {c.description: c.verdicts for c in columns}
    known = None if known_findings is None else {
        c.description: {v.nodeid: findings.recognise(v, c.sut, known_findings)
                        for v in c.verdicts}
        for c in columns}
    profile = ", ".join(dict.fromkeys(
        c.profile + ("" if c.seed is None else f" (seed {c.seed})") for c in columns))
    paths = report.write(by_description, args.out.resolve(), profile=profile, known=known,
                         findings_path=args.findings.resolve() if args.findings else None,
                         when=report.when_ran([c.written for c in columns]))
    (args.out.resolve() / "conformance").mkdir(parents=True, exist_ok=True)
    paths.append(record.write(args.out.resolve() / "conformance" / "verdicts.json", columns))
    print("\n" + "\n".join(f"wrote {table.relative(str(p))}" for p in paths))
    return EXIT_OK if signum is None else 128 + signum


COMMANDS = {"check": check, "hunt": hunt, "replay": replay_command, "report": report_command}
