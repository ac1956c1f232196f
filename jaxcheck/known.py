"""A known-findings baseline: what a team already knows keeps its CI green; anything new fails it.

A real system fails some properties for bugs it has not fixed yet, so a CI
that runs `jaxcheck check` on it would be red for good, and a new bug would
look like the old ones.  `check --known FILE` (and `hunt`, `report`) reads
findings in the format of `docs/findings/` (jaxcheck/findings.py: a
`### ID. title` heading, a `Signature (SUT): `regex`` line; a file or a
folder of them, one file may carry several SUTs' entries) and keeps the
SUT's own.  Then:

* a failure, crash or hang whose every distinct failure shows a finding's
  signature is *known*: marked so, and not a reason to fail the run;
* a known failure is not shrunk again (its first failing example is its
  reproducer, since the finding's own reproducer is already minimal): the
  child ends shrinking as soon as it sees one (`known_failure`), unless
  `--shrink-known`;
* the exit status is 1 only for a failure that is new, named as new;
* the closing lines list the SUT's findings that no failure showed, so the
  file can be pruned: fixed, or not drawn by this run (a finding is not
  tied to one property, so jaxcheck cannot tell which from one run; it says
  when the run did not even run every property).

A signature recognises a finding; it does not prove one: a new bug whose
message matches an old signature passes as known.  Keep signatures narrow.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from jaxcheck import findings, signatures
from jaxcheck.runner import Verdict

# Outcomes a known finding can explain (a failure, a crash, a hang).
EXPLAINABLE = findings.EXPLAINABLE


@dataclass(frozen=True)
class Baseline:
    """The known findings of one SUT, read from `source`."""

    sut: str
    source: Path
    findings: tuple[findings.Finding, ...]
    others: int  # findings in the source for other SUTs

    def judged(self, verdict: Verdict) -> Verdict:
        """`verdict`, its `known` set to the ids of the findings it shows where every
        failure of it shows one (a failure beside them that shows none makes it new)."""
        recognised = findings.recognise(verdict, self.sut, list(self.findings))
        verdict.known = ([f.id for f in recognised.findings]
                         if recognised.kind == "known" else [])
        return verdict

    def unseen(self, verdicts: list[Verdict]) -> list[findings.Finding]:
        """The findings no failure of `verdicts` showed."""
        seen = {finding_id for v in verdicts for finding_id in v.known}
        for verdict in verdicts:  # a new failure may show a finding beside an unknown one
            if verdict.outcome in EXPLAINABLE and not verdict.known:
                seen.update(f.id for f in findings.recognise(
                    verdict, self.sut, list(self.findings)).findings)
        # A finding with several signatures is one finding: listed once.
        return list({f.id: f for f in self.findings if f.id not in seen}.values())

    def header(self) -> str:
        others = f" ({self.others} of other SUTs left aside)" if self.others else ""
        return (f"  known findings: {len({f.id for f in self.findings})} of {self.sut} in "
                f"{self.source}{others}")


def read(path: Path, sut: str) -> Baseline:
    """The baseline of `sut` in the findings at `path` (FindingsError if unreadable)."""
    every = findings.read(path)
    own = tuple(f for f in every if f.sut == sut)
    others = {(f.sut, f.id) for f in every if f.sut != sut}
    return Baseline(sut, path, own, len(others))


def known_failure(text: str, sut: str, known: list[findings.Finding]) -> findings.Finding | None:
    """The first of `known` (of `sut`) whose signature `text` shows: a failing example's
    error and reproducer, as the child sees them before shrinking."""
    return next((f for f in known if f.sut == sut and signatures.search(f.pattern, text, f.id)),
                None)


def closing(baseline: Baseline, verdicts: list[Verdict], complete: bool) -> str:
    """What the run says of the baseline after its table: the known failures by finding,
    the new ones by name, and the findings no failure showed."""
    lines = [f"\nKnown findings of {baseline.sut} ({baseline.source}):"]
    by_finding: dict[str, list[str]] = {}
    for verdict in verdicts:
        for finding_id in verdict.known:
            by_finding.setdefault(finding_id, []).append(verdict.name)
    titles = {f.id: f.title for f in baseline.findings}
    for finding_id, names in by_finding.items():
        lines.append(f"  known  {finding_id}. {titles[finding_id]}: {_properties(names)}")
    new = [v.name for v in verdicts if v.outcome in EXPLAINABLE and not v.known]
    if new:
        lines.append(f"  NEW    failures that show no known finding: {_properties(new)}")
    unseen = baseline.unseen(verdicts)
    if unseen:
        why = ("fixed, or not drawn by this run" if complete else
               "fixed, or not drawn by this run, which did not run every property")
        lines.append(f"  not seen ({why}): "
                     + ", ".join(f"{f.id}. {f.title}" for f in unseen))
    if len(lines) == 1:
        lines.append("  none, and no failure")
    return "\n".join(lines)


def _properties(names: list[str]) -> str:
    count = f"{len(names)} propert{'y' if len(names) == 1 else 'ies'}"
    return f"{count}: {', '.join(names[:4])}{', ...' * (len(names) > 4)}"
