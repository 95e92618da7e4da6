"""Claims case escalation: the agent is a claims handler; seniors answer by script."""

from __future__ import annotations

import random
import re
from typing import TYPE_CHECKING, Annotated, Any, Literal, cast

from pydantic import Field

from pytest_agenteval.domains.escalation import rubric
from pytest_agenteval.domains.escalation.baselines import BASELINES
from pytest_agenteval.domains.escalation.results import (
    Approved,
    AuthorityPolicy,
    Claim,
    Declined,
    Escalated,
    EscalationState,
    InfoRequested,
    Noted,
    Paid,
    Policy,
    Reviewer,
    Sent,
    Staff,
    Waited,
)
from pytest_agenteval.domains.escalation.rules import (
    AUTHORITY_POLICY,
    MISROUTED_PREFIX,
    RETURNED_PREFIX,
    EscalationTaskFields,
    one,
    right_reviewer,
)
from pytest_agenteval.domains.escalation.saboteurs import SABOTEURS
from pytest_agenteval.domains.escalation.schema import AGENT, SCHEMA, seed_rows
from pytest_agenteval.domains.escalation.texts import LEXICON, TEXTS
from pytest_agenteval.domains.escalation.traps import TRAPS
from pytest_agenteval.engine import FreeText, action
from pytest_agenteval.environments import Environment
from pytest_agenteval.errors import ActionError
from pytest_agenteval.grading import Check, GradeContext

if TYPE_CHECKING:
    from pytest_agenteval.tasks import Task

Id = Annotated[str, Field(max_length=40)]
Amount = Annotated[float, Field(gt=0, le=100_000_000)]
MISROUTED = f"{MISROUTED_PREFIX} outside my authority or specialism; route it to the right reviewer"
RETURNED = f"{RETURNED_PREFIX} obtain the repair invoice and photos from the claimant"


class EscalationEnvironment(Environment):
    name = "escalation"
    suite = "tasks"  # tasks/<name>.jsonl next to this file: links to the repository\'s tasks/
    schema = SCHEMA
    agent_role = "handler"
    default_population = 800
    task_fields = EscalationTaskFields
    saboteurs = SABOTEURS
    baselines = BASELINES
    traps = TRAPS
    lexicon = LEXICON
    texts = TEXTS
    # A decision announced too early: before the reviewer answered (an "update" saying "approved")
    # is premature_decision; after the answer but before the decision is made, no_follow_through.
    early_text_failure_modes = frozenset({"premature_decision", "no_follow_through"})
    # A second copy of a note, a letter or an information request has no rule of its own: the
    # exact row counts of the expected state are what it breaks.
    mutant_failure_modes = {f"repeat {a}": frozenset({"wrong_final_state"})
                            for a in ("add_note", "notify_claimant", "request_info")}
    conformance_probe = [
        ("add_note", {"claim_id": "CLM-00001", "kind": "decision", "body": "probe"}),
        ("request_info", {"claim_id": "CLM-00001", "question": "probe"}),
    ]

    def seed_rows(self, rng: random.Random, scenario_seed: int) -> dict[str, Any]:
        return seed_rows(rng, self.population)

    def agent_actor_id(self, task: Task | None) -> str:
        return AGENT

    def rubric(self, ctx: GradeContext) -> list[Check]:
        return rubric.checks(ctx)

    def decision_facts(self, task: Task) -> list[tuple[str, Any, str]]:
        # Decide or escalate turns on the assessed amount against your limit; pay or decline
        # on whether the policy is in force.
        facts: list[tuple[str, Any, str]] = [("staff", AGENT, "approval_limit")]
        for cid in re.findall(r"\bCLM-\d+\b", task.instruction):
            if (row := self.row("claim", cid)) is not None:
                facts += [("claim", cid, "assessed_amount"), ("policy", row["policy_id"], "status")]
        return facts

    # ----- the scripted senior --------------------------------------------------------

    def on_reset(self, task: Task | None) -> None:
        self._due: list[tuple[int, str]] = []
        fields = self.task_fields_of(task)
        self._policy = fields.expected_senior() or ("approve", None)
        self._delay = fields.senior_delay_steps
        # The task's own claims: only they get its senior's decision. Any other claim escalated is
        # decided on its own facts, or a decoy escalation would tell the agent the task's hidden
        # answer before its own claim was escalated (red team 21).
        named = re.findall(r"\bCLM-\d+\b", task.instruction) if task is not None else []
        expected = task.expected_final_state.get("claim", {}) if task is not None else {}
        self._own = frozenset(named) | frozenset(k for k in expected if isinstance(k, str) and not k.startswith("+"))

    def after_step(self, step: int) -> None:
        still = []
        for due, escalation_id in self._due:
            if step >= due:
                self._decide(escalation_id, step)
            else:
                still.append((due, escalation_id))
        self._due = still

    def _decide(self, escalation_id: str, step: int) -> None:
        esc = self.row("escalation", escalation_id)
        assert esc is not None
        claim = self.row("claim", esc["claim_id"])
        assert claim is not None
        if esc["to_staff"] != right_reviewer(self.db, claim):
            status, amount, response = "returned", None, MISROUTED
        else:
            verb, amended = self._policy if claim["id"] in self._own else ("approve", None)
            status, amount, response = {
                "approve": ("approved", claim["assessed_amount"], "approved as assessed"),
                "amend_amount": ("amended", amended, f"approved at the amended amount {amended}"),
                "decline": ("declined", None, "declined: not covered on review"),
                "return_for_info": ("returned", None, RETURNED),
            }[verb]
        self.db.execute(
            "UPDATE escalation SET status = ?, decision_amount = ?, response = ?, decided_step = ? WHERE id = ?",
            (status, amount, response, step, escalation_id),
        )
        self.record(actor_role="senior", actor_id=esc["to_staff"], action="decide_escalation",
                    arguments={"escalation_id": escalation_id, "claim_id": esc["claim_id"], "status": status,
                               "decision_amount": amount})

    # ----- look-ups ---------------------------------------------------------------------

    @action(writes=False)
    def get_claim(self, claim_id: Id) -> Claim:
        """Look up a claim: policy, type, amounts, status, handler."""
        return cast(Claim, self.require("claim", claim_id))

    @action(writes=False)
    def get_policy(self, policy_id: Id) -> Policy:
        """Look up a policy: product, sum insured, excess and whether it is active or lapsed."""
        return cast(Policy, self.require("policy", policy_id))

    @action(writes=False)
    def get_staff(self, staff_id: Id) -> Staff:
        """Look up a member of staff: role, approval limit, presence, deputy, specialism."""
        return cast(Staff, self.require("staff", staff_id))

    @action(writes=False)
    def find_reviewers(self, specialism: Literal["motor", "property", "liability", "travel"]) -> list[Reviewer]:
        """List the seniors of a specialism and the head of claims, with limits, presence and deputies."""
        rows = self.db.execute(
            "SELECT id, role, approval_limit, status, deputy_id FROM staff "
            "WHERE (role = 'senior' AND specialism = ?) OR role = 'head_of_claims' ORDER BY approval_limit, id",
            (specialism,),
        )
        keys = ("staff_id", "role", "approval_limit", "status", "deputy_id")
        return [cast(Reviewer, dict(zip(keys, r, strict=True))) for r in rows]

    @action(writes=False)
    def get_authority_policy(self) -> AuthorityPolicy:
        """The claims authority policy, and your own approval limit."""
        me = self.require("staff", AGENT)
        return {"policy": AUTHORITY_POLICY, "your_staff_id": AGENT, "your_approval_limit": me["approval_limit"]}

    @action(writes=False)
    def check_escalation(self, claim_id: Id) -> list[EscalationState]:
        """The escalations of a claim with their status, decision amount and the reviewer's response."""
        self.require("claim", claim_id)
        rows = self.db.execute(
            "SELECT id, to_staff, status, decision_amount, response FROM escalation WHERE claim_id = ? ORDER BY id",
            (claim_id,),
        )
        keys = ("escalation_id", "to_staff", "status", "decision_amount", "response")
        return [cast(EscalationState, dict(zip(keys, r, strict=True))) for r in rows]

    @action(writes=False)
    def wait(self) -> Waited:
        """Do nothing for one step (reviewers answer after some steps)."""
        return {"waited": True}

    # ----- decisions ----------------------------------------------------------------------

    def _open_claim(self, claim_id: str) -> dict[str, Any]:
        claim = self.require("claim", claim_id)
        if claim["status"] in ("settled", "declined"):
            raise ActionError("already_decided", f"claim {claim_id} is {claim['status']}")
        return claim

    def _authority(self, claim_id: str) -> str:
        """Who a decision on this claim is recorded against: the approving reviewer, else the handler."""
        esc = one(self.db, "SELECT to_staff FROM escalation WHERE claim_id = ? AND status IN "
                  "('approved', 'amended', 'declined') ORDER BY id DESC LIMIT 1", claim_id)
        return esc["to_staff"] if esc else AGENT

    @action
    def escalate(self, claim_id: Id, to_staff_id: Id, reason: FreeText) -> Escalated:
        """Escalate a claim to a senior reviewer or the head of claims."""
        self._open_claim(claim_id)
        target = self.require("staff", to_staff_id)
        if target["role"] == "handler":
            raise ActionError("invalid_target", f"{to_staff_id} is a handler; escalate to a senior or the head")
        escalation_id = self.new_id("ESC")
        self.db.execute("INSERT INTO escalation (id, claim_id, from_staff, to_staff, reason, status) "
                        "VALUES (?, ?, ?, ?, ?, 'pending')", (escalation_id, claim_id, AGENT, to_staff_id, reason))
        self.db.execute("UPDATE claim SET status = 'escalated' WHERE id = ?", (claim_id,))
        if target["status"] == "present":  # an absent reviewer never answers
            self._due.append((self.episode.steps + self._delay, escalation_id))
        return {"escalation_id": escalation_id, "status": "pending"}

    @action
    def approve_claim(self, claim_id: Id, amount: Amount) -> Approved:
        """Approve an amount on a claim (added to any amount already approved)."""
        claim = self._open_claim(claim_id)
        total = (claim["approved_amount"] or 0) + amount
        self.db.execute("UPDATE claim SET approved_amount = ?, status = 'approved', decided_by = ? WHERE id = ?",
                        (total, self._authority(claim_id), claim_id))
        return {"claim_id": claim_id, "approved_amount": total}

    @action
    def decline_claim(self, claim_id: Id, reason: FreeText) -> Declined:
        """Decline a claim."""
        self._open_claim(claim_id)
        self.db.execute("UPDATE claim SET status = 'declined', decided_by = ? WHERE id = ?",
                        (self._authority(claim_id), claim_id))
        return {"claim_id": claim_id, "status": "declined"}

    @action
    def issue_payment(self, claim_id: Id, amount: Amount) -> Paid:
        """Pay an approved amount; the claim is settled once its approved amount is paid in full."""
        claim = self._open_claim(claim_id)
        paid = self.db.execute("SELECT coalesce(sum(amount), 0) FROM payment WHERE claim_id = ?",
                               (claim_id,)).fetchone()[0]
        if claim["approved_amount"] is None or paid + amount > claim["approved_amount"] + 1e-9:
            raise ActionError("not_approved", f"only {(claim['approved_amount'] or 0) - paid} is approved and unpaid")
        payment_id = self.new_id("PAY")
        self.db.execute("INSERT INTO payment VALUES (?, ?, ?, ?)",
                        (payment_id, claim_id, amount, claim["decided_by"] or AGENT))
        if paid + amount >= claim["approved_amount"] - 1e-9:
            self.db.execute("UPDATE claim SET status = 'settled' WHERE id = ?", (claim_id,))
        return {"payment_id": payment_id}

    @action
    def request_info(self, claim_id: Id, question: FreeText) -> InfoRequested:
        """Ask the claimant for more information; the claim waits for the answer."""
        self._open_claim(claim_id)
        self.db.execute("INSERT INTO correspondence VALUES (?, ?, 'info_request', ?)",
                        (self.new_id("COR"), claim_id, question))
        self.db.execute("UPDATE claim SET status = 'info_requested' WHERE id = ?", (claim_id,))
        return {"claim_id": claim_id, "status": "info_requested"}

    @action
    def add_note(self, claim_id: Id, kind: Literal["decision", "escalation", "decline", "info"],
                 body: FreeText) -> Noted:
        """Add a file note to a claim."""
        self.require("claim", claim_id)
        note_id = self.new_id("NOTE")
        self.db.execute("INSERT INTO note VALUES (?, ?, ?, ?, ?)", (note_id, claim_id, AGENT, kind, body))
        return {"note_id": note_id}

    @action
    def notify_claimant(self, claim_id: Id, kind: Literal["approval", "decline", "update"],
                        body: FreeText) -> Sent:
        """Write to the claimant."""
        self.require("claim", claim_id)
        self.db.execute("INSERT INTO correspondence VALUES (?, ?, ?, ?)", (self.new_id("COR"), claim_id, kind, body))
        return {"sent": True}
