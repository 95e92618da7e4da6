"""``agenteval validate`` kills lying texts: the declared texts of the reference path made to
say something false (negated, another amount, another record, too early, a fact left out),
each killed only when a check carrying its label fails."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

import pytest
from pydantic import Field

from pytest_agenteval.agents.text_mutants import lying_texts, scaled
from pytest_agenteval.agents.variants import Planner
from pytest_agenteval.cli import main
from pytest_agenteval.engine import action
from pytest_agenteval.engine.actions import FreeText
from pytest_agenteval.environments import Environment
from pytest_agenteval.environments.registry import EnvironmentPool
from pytest_agenteval.errors import ActionError
from pytest_agenteval.grading import Check, GradeContext, check
from pytest_agenteval.grading.texts import Text, text_checks
from pytest_agenteval.taskfiles.loader import TaskLoader
from pytest_agenteval.text import ENGLISH, Reader
from pytest_agenteval.validate import validate

SCHEMA = """
CREATE TABLE claim (
    id              TEXT PRIMARY KEY,
    amount          REAL NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('open', 'approved', 'declined')),
    approved_amount REAL
);
CREATE TABLE letter (id TEXT PRIMARY KEY, claim_id TEXT NOT NULL REFERENCES claim (id), body TEXT NOT NULL);
CREATE TABLE note (id TEXT PRIMARY KEY, claim_id TEXT NOT NULL REFERENCES claim (id), body TEXT NOT NULL);
"""
ClaimId = Annotated[str, Field(description="Claim id, e.g. CLM-0001", max_length=40)]
# What each claim status lets a letter announce.
ANNOUNCES = {"approved": ("approved", "amended"), "declined": ("declined",), "open": ("pending", "info", None)}


class Letters(Environment):
    """Claims, the letters that announce their decisions, and file notes; the rubric reads the letters."""

    name = "letters"
    schema = SCHEMA
    default_population = 10
    lexicon = ENGLISH.extend(invoice=("invoice*", "bill"), photos=("photo*", "picture*"))
    texts = {("send_letter", "body"): "misleading_letter"}
    early_text_failure_modes = frozenset({"premature_letter"})
    mutant_failure_modes = {"drop send_letter": frozenset({"wrong_final_state"}),
                            "repeat send_letter": frozenset({"duplicate_letter"})}
    conformance_probe = [("approve_claim", {"claim_id": "CLM-0001", "amount": 10.0}),
                         ("decline_claim", {"claim_id": "CLM-0002"}),
                         ("send_letter", {"claim_id": "CLM-0001", "body": "Approved."}),
                         ("add_note", {"claim_id": "CLM-0001", "body": "Invoice seen."})]

    def seed_rows(self, rng: random.Random, scenario_seed: int) -> Mapping[str, Iterable[Sequence[Any]]]:
        claims = [(f"CLM-{i:04d}", float(rng.randrange(100, 900)), "open", None)
                  for i in range(1, self.population + 1)]
        return {"claim": claims, "letter": [], "note": []}

    def _open(self, claim_id: str) -> None:
        if self.require("claim", claim_id)["status"] != "open":
            raise ActionError("already_decided", f"claim {claim_id} is decided")

    @action(writes=False)
    def get_claim(self, claim_id: ClaimId) -> dict[str, Any]:
        """Look up a claim."""
        return self.require("claim", claim_id)

    @action
    def approve_claim(self, claim_id: ClaimId, amount: Annotated[float, Field(gt=0)]) -> dict[str, Any]:
        """Approve an open claim for an amount."""
        self._open(claim_id)
        self.db.execute("UPDATE claim SET status = 'approved', approved_amount = ? WHERE id = ?", (amount, claim_id))
        return {"claim_id": claim_id, "status": "approved"}

    @action
    def decline_claim(self, claim_id: ClaimId) -> dict[str, Any]:
        """Decline an open claim."""
        self._open(claim_id)
        self.db.execute("UPDATE claim SET status = 'declined' WHERE id = ?", (claim_id,))
        return {"claim_id": claim_id, "status": "declined"}

    @action
    def send_letter(self, claim_id: ClaimId, body: FreeText) -> dict[str, Any]:
        """Write to the claimant."""
        self.require("claim", claim_id)
        letter_id = self.new_id("LTR")
        self.db.execute("INSERT INTO letter VALUES (?, ?, ?)", (letter_id, claim_id, body))
        return {"letter_id": letter_id}

    @action
    def add_note(self, claim_id: ClaimId, body: FreeText) -> dict[str, Any]:
        """Add the claim's file note (one per claim)."""
        self.require("claim", claim_id)
        if self.db.execute("SELECT 1 FROM note WHERE claim_id = ?", (claim_id,)).fetchone():
            raise ActionError("has_note", f"claim {claim_id} has its note")
        self.db.execute("INSERT INTO note VALUES (?, ?, ?)", (self.new_id("NT"), claim_id, body))
        return {"claim_id": claim_id}

    def rubric(self, ctx: GradeContext) -> list[Check]:
        def judge(text: Text) -> str | None:
            claim_id = text.event.arguments["claim_id"]
            claim = ctx.row("claim", claim_id) or {}
            reading, wrong = text.reading, []
            if reading.decision() not in ANNOUNCES[claim.get("status", "open")]:
                wrong.append(f"{text.quote()} says {reading.decision()}; claim {claim_id} is {claim.get('status')}")
            wrong += [f"{text.quote()} states {q.text}; approved: {claim.get('approved_amount')}"
                      for q in reading.amounts() if not q.reference and q.value != claim.get("approved_amount")]
            wrong += [f"{text.quote()} names {named}, not {claim_id}" for named in reading.named() if named != claim_id]
            return "; ".join(wrong) or None

        decided: set[str] = set()
        early: list[str] = []
        for event in ctx.written():
            if event.action in ("approve_claim", "decline_claim"):
                decided.add(event.arguments["claim_id"])
            elif event.action == "send_letter" and event.arguments["claim_id"] not in decided:
                early.append(event.arguments["claim_id"])
        return [*text_checks(ctx, judge, component="letters"),
                check("letter_after_decision", not early, failure_mode="premature_letter", component="letters",
                      ok="every letter follows its claim's decision", failed=f"letters before the decision: {early}")]


class RefusesEarlyLetters(Letters):
    """The same, but a letter on an open claim is refused: an early letter cannot be sent."""

    name = "refuses_early_letters"

    @action
    def send_letter(self, claim_id: ClaimId, body: FreeText) -> dict[str, Any]:
        """Write to the claimant about a decided claim."""
        if self.require("claim", claim_id)["status"] == "open":
            raise ActionError("undecided", f"claim {claim_id} is not decided yet")
        return Letters.send_letter(self, claim_id=claim_id, body=body)


class Unread(Letters):
    """The same, with a rubric that reads no letter."""

    name = "unread"

    def rubric(self, ctx: GradeContext) -> list[Check]:
        return [check("claim_on_file", ctx.row("claim", "CLM-0001") is not None, failure_mode="lost_claim",
                      component="letters", ok="the claim is on file", failed="the claim is gone")]


LETTER = "Your claim CLM-0001 is approved: we will pay £450.00."
TASK: dict[str, Any] = {
    "task_id": "LT-1",
    "environment": f"{__name__}:Letters",
    "scenario_seed": 1,
    "instruction": "Approve claim CLM-0001 for 450.00, tell the claimant, and note the evidence seen (the invoice "
                   "and the photos).",
    "allowed_actions": ["get_claim", "approve_claim", "decline_claim", "send_letter", "add_note"],
    "expected_final_state": {"claim": {"CLM-0001": {"status": "approved", "approved_amount": 450.0}},
                             "letter": {"+": [{"claim_id": "CLM-0001"}]}, "note": {"+": [{"claim_id": "CLM-0001"}]}},
    "acceptable_action_paths": [[
        {"action": "get_claim", "arguments": {"claim_id": "CLM-0001"}},
        {"action": "approve_claim", "arguments": {"claim_id": "CLM-0001", "amount": 450.0}},
        {"any_order": [
            {"action": "send_letter", "arguments": {"claim_id": "CLM-0001", "body": LETTER}},
            {"action": "add_note", "arguments": {"claim_id": "CLM-0001", "body": {"says": ["invoice", "photos"]}}},
        ]},
    ]],
    "checks": [{"kind": "called", "name": "note_names_the_evidence", "action": "add_note",
                "arguments": {"claim_id": "CLM-0001", "body": {"says": ["invoice", "photos"]}},
                "failure_mode": "vague_note"}],
    "failure_mode_tags": [],
    "split": "train",
}
ONE_LETTER = {"kind": "called", "name": "one_letter", "action": "send_letter", "min": 0, "max": 1,
              "failure_mode": "duplicate_letter"}


def write(tmp_path: Path, *tasks: dict[str, Any]) -> Path:
    path = tmp_path / "t.jsonl"
    path.write_text("".join(json.dumps(t) + "\n" for t in tasks))
    return path


def test_each_lying_text_is_killed_under_its_label(tmp_path: Path) -> None:
    report = validate([write(tmp_path, {**TASK, "checks": [*TASK["checks"], ONE_LETTER]})])
    assert report.ok, [str(f) for f in report.findings]
    row = report.strictness[0]
    assert (row.other_label, row.survived) == ([], [])
    assert row.texts == row.texts_killed == 7 and row.killed == row.mutants
    assert report.passed(strict=True)


def test_the_lying_texts_generated(tmp_path: Path) -> None:
    pool = EnvironmentPool()
    (loaded,), problems = TaskLoader(pool).load_file(write(tmp_path, TASK))
    assert not problems
    texts = {s.name: (s.expect, s.calls) for s in Planner(pool.get(TASK["environment"]), loaded.task).mutants()
             if s.text}
    body = "send_letter.body"
    assert {name: sorted(expect) for name, (expect, _) in texts.items()} == {
        f"text {body}: negate the decision (approved -> declined)": ["misleading_letter"],
        f"text {body}: amount £450.00 -> £405.00": ["misleading_letter"],
        f"text {body}: amount £450.00 -> £405.00, with zero-width spaces": ["misleading_letter"],
        f"text {body}: names CLM-0001 -> CLM-0002": ["misleading_letter"],
        f"text {body}: announced before approve_claim(claim_id='CLM-0001', amount=450.0)": ["premature_letter"],
        "text add_note.body: says all but invoice": ["vague_note"],
        "text add_note.body: says all but photos": ["vague_note"],
    }
    letters = {name: next(args["body"] for a, args in calls if a == "send_letter") for name, (_, calls) in texts.items()}
    assert letters[f"text {body}: negate the decision (approved -> declined)"] == \
        "Your claim CLM-0001 is not approved: we will not pay £450.00."
    assert letters[f"text {body}: amount £450.00 -> £405.00"] == "Your claim CLM-0001 is approved: we will pay £405.00."
    assert letters[f"text {body}: names CLM-0001 -> CLM-0002"] == "Your claim CLM-0002 is approved: we will pay £450.00."
    assert letters[f"text {body}: amount £450.00 -> £405.00, with zero-width spaces"] == \
        "Your claim CLM-0001 is approved: we will pay " + "\u200b".join("£405.00") + "."
    early = texts[f"text {body}: announced before approve_claim(claim_id='CLM-0001', amount=450.0)"][1]
    assert [a for a, _ in early] == ["get_claim", "send_letter", "approve_claim", "add_note"]
    # The swap of approve_claim and send_letter is the same run as the early letter: run once, as the text.
    assert len([s for s in Planner(pool.get(TASK["environment"]), loaded.task).mutants() if "swap" in s.name]) == 0


def test_killed_under_another_label_is_reported_and_fails_strict(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """A repeated letter is declared a duplicate_letter mistake; without a check for it, only the
    expected state's row count fails: killed, but under another label."""
    path = write(tmp_path, TASK)
    assert main(["validate", str(path)]) == 0
    out = capsys.readouterr().out
    assert ("  killed under another label: repeat send_letter(claim_id='CLM-0001') "
            "(expected duplicate_letter; fired: wrong_final_state)") in out
    assert "LT-1              15      7      14            1         0" in out
    assert (f"{path}: 15 mutants, 14 killed under their label (93%), 1 under another label, 0 survived; "
            "7 lying texts, 7 killed under their label") in out
    assert main(["validate", "--strict", str(path)]) == 1
    assert capsys.readouterr().out.rstrip().endswith(
        "--strict: 1 mutant(s) killed under another label count as problems: make the check for the mistake fail "
        "(or declare the label it carries: mutant_failure_modes)\nFAILED: 1 problem(s)")


def test_lying_texts_no_check_reads_survive(tmp_path: Path) -> None:
    """The path ignores the letter's body and the expected state its wording: without the
    rubric's letter checks, every lie about the letter goes unnoticed."""
    report = validate([write(tmp_path, {**TASK, "environment": f"{__name__}:Unread"})])
    row = report.strictness[0]
    assert sorted(name.rsplit(" (", 1)[0] for name in row.survived) == [
        "text send_letter.body: amount £450.00 -> £405.00",
        "text send_letter.body: amount £450.00 -> £405.00, with zero-width spaces",
        "text send_letter.body: announced before approve_claim(claim_id='CLM-0001', amount=450.0)",
        "text send_letter.body: names CLM-0001 -> CLM-0002",
        "text send_letter.body: negate the decision (approved -> declined)",
    ]
    assert not report.passed(strict=True)


def test_an_early_text_the_environment_refuses_is_no_mutant(tmp_path: Path) -> None:
    report = validate([write(tmp_path, {**TASK, "environment": f"{__name__}:RefusesEarlyLetters",
                                        "checks": [*TASK["checks"], ONE_LETTER]})])
    assert report.ok
    row = report.strictness[0]
    assert row.texts == row.texts_killed == 6  # no early letter: it could not be sent
    assert not any("announced before" in name for name in [*row.other_label, *row.survived])
    # A letter on another (open) claim is refused too: only the expected state fails, and an
    # undeclared mutant in an environment with a rubric is not killed under its label by that.
    assert "change send_letter.claim_id 'CLM-0001' -> 'CLM-0002' (fired: wrong_final_state)" in row.other_label


def test_a_change_that_keeps_the_meaning_is_no_mutant() -> None:
    reader = Reader(ENGLISH)

    def another(record: str) -> str | None:
        return {"CLM-0001": "CLM-0002"}.get(record)

    # £0.01 x 0.9 is £0.01 again: no amount mutant; the decision is still negated.
    assert [c.what for c in lying_texts(reader, "We will pay £0.01 now.", another)] == [
        "negate the decision (approved -> declined)"]
    # Nothing decided, no amount, and no other record of REF-9 to name: nothing to lie about.
    assert lying_texts(reader, "We are looking into REF-9.", another) == []
    # A figure referred to ("claimed £500") is not the amount stated as the fact.
    assert [c.what for c in lying_texts(reader, "Approved: £450 (claimed £500).", another)] == [
        "negate the decision (approved -> declined)", "amount £450 -> £405", "amount £450 -> £405, with zero-width spaces"]


@pytest.mark.parametrize(("written", "expected"), [
    ("£4,500.00", "£4,050.00"), ("4200.0", "3780.0"), ("$1,200", "$1,080"), ("EUR 3.5k", "EUR 3.15k"),
    ("£5", "£4.50"), ("£0.01", "£0.01"), ("1 250 GBP", "1 125 GBP"),
])
def test_amounts_are_swapped_in_their_own_format(written: str, expected: str) -> None:
    assert scaled(written) == expected
