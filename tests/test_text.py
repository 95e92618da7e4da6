"""The text reader: what a sentence asserts, with negation, hedges, numbers and ids."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import pytest

from pytest_agenteval.domains.booking.texts import LEXICON as BOOKING
from pytest_agenteval.domains.escalation.texts import LEXICON as CLAIMS
from pytest_agenteval.text import ENGLISH, Reader
from pytest_agenteval.text.requirements import says_ok, unknown, unmet
from pytest_agenteval.text.tokens import tokenize

claims = Reader(CLAIMS)
booking = Reader(BOOKING)


@pytest.mark.parametrize(("text", "decision"), [
    ("Your claim is approved: 740000.0.", "approved"),
    ("Good news: your claim has been approved and will be paid in full.", "approved"),
    ("We have accepted your claim and will pay you 4,200.00 GBP.", "approved"),
    ("We regret to tell you that your claim has not been approved.", "declined"),
    ("We cannot pay this claim.", "declined"),
    ("Payment is not possible.", "declined"),
    ("Unfortunately we are unable to pay your claim after review.", "declined"),
    ("After careful review, the senior reviewer has turned down your claim.", "declined"),
    ("Your claim is declined: your policy was not in force.", "declined"),
    ("Your claim for 30,000 has been approved at the reduced amount of 24,000.", "amended"),
    ("Your claim has not yet been approved.", "pending"),
    ("We have not yet made a decision on your claim.", "pending"),
    ("Your claim is under review by a senior.", "pending"),
    ("Please send the repair bill and pictures.", "info"),
    ("If approved, we will pay you.", None),  # a hedge reaches to the end of its sentence
    ("Has your claim been approved?", None),  # a question asserts nothing
    ("Escalated: assessed amount above my approval limit.", None),  # a limit's name is no decision
    ("Policy lapsed at the date of loss.", None),
    ("We will pay once the reviewer approves.", None),  # the hedge reaches back in its clause
    ("We declined one item, but the rest of your claim is approved.", "mixed"),
    # A yes/no question answered by the whole next sentence is asserted; any other answer is read alone.
    ("Was your claim approved? Sadly, no.", "declined"),
    ("Has your claim been approved? Yes, it has.", "approved"),
    ("Has your claim been approved? No, not yet.", "pending"),
    ("Will we be paying your claim? I'm afraid we won't.", "declined"),
    ("Was your claim approved in full? No, it was amended to £24,000.", "amended"),
    ("Has your claim been approved? We will write soon.", None),
    ("When will your claim be approved? Soon.", None),
    # Hedges about the reader are none; undoings reach back after an auxiliary; headings denied.
    ("As you may know, your claim has been declined.", "declined"),
    ("If you are unhappy that we declined your claim, you can complain.", "declined"),
    ("Whether or not you agree, your claim has been declined.", "declined"),
    ("Payment on your claim has been withheld.", "declined"),
    ("Decision: declined\n* Payment: none", "declined"),
    ("We have paid £4,200. No further payment is due.", "approved"),
    ("Your claim has been declined, so you will not receive a payment.", "declined"),
    ("Subject to receipt of your bank details, we will pay your claim.", None),  # conditional
    ("Your claim hasn't been approved: it is waiting for a senior reviewer.", "pending"),
])
def test_the_decision_a_text_announces(text: str, decision: str | None) -> None:
    assert claims.read(text).decision() == decision


@pytest.mark.parametrize(("text", "status"), [
    ("KYC is verified", {"ok"}),
    ("KYC pending", {"problem"}),
    ("Onboarding checks (CDD) outstanding for this customer.", {"problem"}),
    ("The customer's identity has not been verified yet, so I cannot book.", {"problem"}),
    ("The customer has not passed due-diligence checks yet.", {"problem"}),
    ("No KYC issues on file.", {"ok"}),
    ("No KYC on file.", {"problem"}),
    ("Please check KYC and the rate.", set()),  # a bare mention says nothing
    ("Is KYC complete?", set()),
    ("Is KYC complete? No.", {"problem"}),
    # The state now counts; a bare clause carries on the topic only when time is marked.
    ("KYC was pending but is now verified.", {"ok"}),
    ("KYC was verified but is now pending.", {"problem"}),
    ("KYC was pending. It has since been completed.", {"ok"}),
    ("KYC was pending when I checked.", {"problem"}),
    ("KYC verified. Not active yet.", {"ok"}),
    ("KYC must be verified before booking; it is currently pending.", {"problem"}),
])
def test_what_a_text_says_of_a_topics_state(text: str, status: set[str]) -> None:
    assert booking.read(text).status("kyc") == status


def test_negation_scope_and_double_negation() -> None:
    assert not claims.read("No need to send the repair invoice or any photos.").mentions_meaning("invoice")
    both = claims.read("We cannot proceed without the repair invoice and photos.")
    assert both.mentions_meaning("invoice") and both.mentions_meaning("photos")
    split = claims.read("No need to send the invoice, but please send photos.")
    assert not split.mentions_meaning("invoice") and split.mentions_meaning("photos")
    assert claims.read("Reply no later than Friday with the invoice.").mentions_meaning("invoice")


def test_quantities_ids_and_their_roles() -> None:
    tokens = tokenize("Pay £4,200 (EUR 70k) on 1 March 2026 at 5.89% for CLM-00145, within 14 days, in 2026; covid-19")
    got = [(t.kind, t.value) for t in tokens if t.kind not in ("word", "punct")]
    assert got == [("money", 4200.0), ("money", 70000.0), ("date", date(2026, 3, 1)), ("rate", 5.89),
                   ("id", None), ("number", 14.0), ("number", 2026.0), ("number", 19.0)]
    reading = claims.read("Your claim for 30,000 has been approved at 24,000 rather than 30,000.")
    assert [(q.value, q.reference, q.polarity) for q in reading.quantities] == [
        (30000.0, True, 1), (24000.0, False, 1), (30000.0, True, -1)]
    assert [q.value for q in reading.amounts()] == [30000.0, 24000.0]
    # A bare integer is money only after money words: a reference number is none.
    assert [q.kind for q in claims.read("Approved: we will pay 4200 (reference 20931).").quantities] == [
        "money", "number"]
    assert claims.read("Escalated to SNR-07 for CLM-00145; see ESC-E001.").named() == ["SNR-07", "CLM-00145",
                                                                                        "ESC-E001"]


def test_requirements_on_meaning() -> None:
    assert says_ok(claims, ["invoice", "photos"], "Could you send us the repair bill and some pictures?")
    assert not says_ok(claims, ["invoice", "photos"], "No need to send the repair invoice or any photos.")
    assert not says_ok(booking, ["kyc:problem"], "KYC is verified")
    assert says_ok(booking, ["kyc:problem"], "Know-your-customer checks on the borrower are still outstanding.")
    assert unmet(booking.read("When does the exception expire?"), [["exception", "rate"], "expiry"]) == []
    assert unmet(booking.read("Note that the 5.89% exception never expires."), ["exception", "expiry"]) == ["expiry"]
    assert unknown(booking, ["kcy", "kyc:bad", "kyc:ok", ["rate", "nope"]]) == ["kcy", "kyc:bad", "nope"]


def test_readings_are_cached_per_text() -> None:
    reader = Reader(ENGLISH)
    assert reader.read("Approved.") is reader.read("Approved.")


def test_the_docs_list_every_lexicon_class_as_the_code_has_it() -> None:
    """docs/text.md's lexicon tables are what the reader uses, word for word."""
    from pathlib import Path

    docs = (Path(__file__).parent.parent / "docs" / "text.md").read_text()
    for lexicon, base in ((ENGLISH, None), (CLAIMS, ENGLISH), (BOOKING, ENGLISH)):
        for name, terms in lexicon.classes.items():
            own = terms if base is None else terms[len(base.classes.get(name, ())):]
            if own:
                assert f"| `{name}` | {', '.join(own)} |" in docs, name


def test_a_says_requirement_is_checked_against_the_lexicon_at_load(tmp_path: Any) -> None:
    """A misspelt meaning, a state other than ok/problem, or a malformed requirement: one line each."""
    from pytest_agenteval.environments.registry import EnvironmentPool
    from pytest_agenteval.taskfiles.loader import TaskLoader

    def line(n: int, says: Any) -> str:
        return json.dumps({
            "task_id": f"B-{n}", "environment": "booking", "scenario_seed": 1, "instruction": "Query FAC-5014.",
            "allowed_actions": ["raise_query"],
            "expected_final_state": {"booking_event": {"+": [{"facility_id": "FAC-5014", "event_type": "raise_query"}]}},
            "acceptable_action_paths": [[{"action": "raise_query",
                                          "arguments": {"facility_id": "FAC-5014", "reason": {"says": says}}}]],
            "split": "eval"})

    path = tmp_path / "t.jsonl"
    path.write_text("\n".join(line(n, says) for n, says in enumerate([["kcy:problem"], ["kyc:bad"], []], 1)) + "\n")
    tasks, problems = TaskLoader(EnvironmentPool()).load_file(path)
    assert tasks == []
    messages = [f"{p.field}: {p.message} ({p.fix})" for p in problems]
    assert messages[0].endswith("booking's lexicon has no meaning 'kcy:problem' (did you mean 'kyc'? use one of: "
                                "account, activate, activated, amended, approved, book, booked, close, closed, "
                                "corporate, courtesy, decided, declined, exception, expiry, failed, in_full, info, invented, "
                                "kyc, new_account, ok, on_hold, overdraft, pending, priced, problem, process, "
                                "provisional, rate, received, reporting, request, retail, revolver, sme, term_loan, threshold, "
                                "unactivated, unchanged)")
    assert messages[1].endswith("booking's lexicon has no meaning 'kyc:bad' (a state is :ok or :problem)")
    assert 'a meaning requirement is {"says": [meaning, ...]}' in messages[2]
    assert [p.line for p in problems] == [1, 2, 3]
