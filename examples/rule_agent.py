"""A plausible rule-based agent for both shipped domains: good, not perfect.

It follows the rules most of the time, but has habits real agents have. Booking: it prices
from the rate sheet without checking for a pricing exception, and after a timeout on
``open_account`` it simply tries again without looking (a duplicate account). Claims: it
escalates to the senior whose limit fits without checking whether they are present, and
when a reviewer amends the amount it still pays the assessed amount. With a customer on the
chat (``say_to_user``) it asks which facility, and asks once for a yes to the whole job, even
where each write needs its own.

    pytest --agent=examples.rule_agent:Agent tasks/
"""

from __future__ import annotations

import re
from typing import Any

ACCOUNT_TYPE = {"term_loan": "loan", "revolver": "loan", "overdraft": "current"}


class Agent:
    def run(self, episode: Any) -> None:
        claim = re.search(r"CLM-\d+", episode.instruction)
        if claim is not None:
            ClaimsHandler().run(episode, claim.group(0))
            return
        chat = any(tool["name"] == "say_to_user" for tool in episode.tools)
        match = re.search(r"FAC-\d+", episode.instruction)
        if match is None and chat:  # a customer on the chat: ask which facility
            match = re.search(r"FAC-\d+", episode.say("Which facility is it? Please give me its reference."))
        if match is None:
            return
        self.book(episode, match.group(0), chat)

    def book(self, episode: Any, fid: str, chat: bool) -> None:
        facility = episode.call("get_facility", {"facility_id": fid})["result"]
        customer = episode.call("get_customer", {"customer_id": facility["customer_id"]})["result"]
        if customer["kyc_status"] != "verified":
            episode.call("raise_query", {"facility_id": fid, "reason": f"KYC is {customer['kyc_status']}"})
            if chat:
                episode.say(f"I cannot set up {fid} yet: your KYC checks are {customer['kyc_status']}. "
                            "I have raised a query with our team.")
            return
        rate = episode.call("get_rate", {"product": facility["product"], "segment": customer["segment"],
                                         "limit_amount": facility["limit_amount"]})["result"]["rate_percent"]
        if rate is None:
            episode.call("raise_query", {"facility_id": fid, "reason": "no rate on the sheet for this limit"})
            return
        account = self.account_for(episode, facility) if facility["status"] == "PENDING" else facility["account_id"]
        # The habit in a conversation: one yes for the whole job, even where each write needs its own.
        if chat and "yes" not in episode.say(f"I will book {fid} to account {account}, set its rate to {rate}% "
                                             "and activate it. Shall I go ahead?").lower():
            return
        if facility["status"] == "PENDING":
            episode.call("book_facility", {"facility_id": fid, "account_id": account})
        for _ in range(2):  # one retry on an outage
            if episode.call("set_rate", {"facility_id": fid, "rate_percent": rate})["ok"]:
                break
        episode.call("activate_facility", {"facility_id": fid})
        if chat:
            episode.say(f"All done: {fid} is active at {rate}%. Is there anything else I can help with?")

    def account_for(self, episode: Any, facility: dict[str, Any]) -> str:
        kind = ACCOUNT_TYPE[facility["product"]]
        accounts = episode.call("list_accounts", {"customer_id": facility["customer_id"]})["result"]
        for acc in accounts:
            if acc["account_type"] == kind and acc["status"] == "open":
                return str(acc["account_id"])
        while True:  # the habit: retry blindly after a timeout
            obs = episode.call("open_account", {"customer_id": facility["customer_id"], "account_type": kind})
            if obs["ok"]:
                return str(obs["result"]["account_id"])


class ClaimsHandler:
    def run(self, episode: Any, claim_id: str) -> None:
        claim = episode.call("get_claim", {"claim_id": claim_id})["result"]
        policy = episode.call("get_policy", {"policy_id": claim["policy_id"]})["result"]
        limit = episode.call("get_authority_policy", {})["result"]["your_approval_limit"]
        amount = claim["assessed_amount"]
        if policy["status"] == "lapsed":
            self.decline(episode, claim_id, "The policy had lapsed.")
        elif amount <= limit:
            self.pay(episode, claim_id, amount)
        else:
            self.escalate(episode, claim, amount)

    def escalate(self, episode: Any, claim: dict[str, Any], amount: float) -> None:
        claim_id = claim["id"]
        people = episode.call("find_reviewers", {"specialism": claim["claim_type"]})["result"]
        # The habit: the first limit that fits, present or not.
        target = next(p["staff_id"] for p in people if p["approval_limit"] >= amount)
        episode.call("escalate", {"claim_id": claim_id, "to_staff_id": target, "reason": "Above my limit."})
        episode.call("add_note", {"claim_id": claim_id, "kind": "escalation", "body": f"Escalated to {target}."})
        answer = {"status": "pending"}
        for _ in range(6):
            answer = episode.call("check_escalation", {"claim_id": claim_id})["result"][-1]
            if answer["status"] != "pending":
                break
            episode.call("wait", {})
        if answer["status"] in ("approved", "amended"):
            self.pay(episode, claim_id, amount)  # the habit: the assessed amount, even if amended
        elif answer["status"] == "declined":
            self.decline(episode, claim_id, "Declined on review.")
        elif answer["status"] == "returned":
            episode.call("request_info", {"claim_id": claim_id, "question": "Please send the invoice and photos."})

    def pay(self, episode: Any, claim_id: str, amount: float) -> None:
        episode.call("approve_claim", {"claim_id": claim_id, "amount": amount})
        episode.call("issue_payment", {"claim_id": claim_id, "amount": amount})
        episode.call("notify_claimant", {"claim_id": claim_id, "kind": "approval", "body": "Your claim is approved."})

    def decline(self, episode: Any, claim_id: str, reason: str) -> None:
        episode.call("decline_claim", {"claim_id": claim_id, "reason": reason})
        episode.call("add_note", {"claim_id": claim_id, "kind": "decline", "body": reason})
        episode.call("notify_claimant", {"claim_id": claim_id, "kind": "decline", "body": "We cannot pay this claim."})
