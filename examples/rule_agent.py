"""A plausible rule-based booking agent: good, not perfect.

It follows the booking rules most of the time, but it has two habits real agents have:
it prices from the rate sheet without checking for a pricing exception, and after a
timeout on ``open_account`` it simply tries again without looking (a duplicate account).

    pytest --agent=examples.rule_agent:Agent tasks/
"""

from __future__ import annotations

import re
from typing import Any

ACCOUNT_TYPE = {"term_loan": "loan", "revolver": "loan", "overdraft": "current"}


class Agent:
    def run(self, episode: Any) -> None:
        match = re.search(r"FAC-\d+", episode.instruction)
        if match is None:
            return
        fid = match.group(0)
        facility = episode.call("get_facility", {"facility_id": fid})["result"]
        customer = episode.call("get_customer", {"customer_id": facility["customer_id"]})["result"]
        if customer["kyc_status"] != "verified":
            episode.call("raise_query", {"facility_id": fid, "reason": f"KYC is {customer['kyc_status']}"})
            return
        rate = episode.call("get_rate", {"product": facility["product"], "segment": customer["segment"],
                                         "limit_amount": facility["limit_amount"]})["result"]["rate_percent"]
        if rate is None:
            episode.call("raise_query", {"facility_id": fid, "reason": "no rate on the sheet for this limit"})
            return
        if facility["status"] == "PENDING":
            account = self.account_for(episode, facility)
            episode.call("book_facility", {"facility_id": fid, "account_id": account})
        for _ in range(2):  # one retry on an outage
            if episode.call("set_rate", {"facility_id": fid, "rate_percent": rate})["ok"]:
                break
        episode.call("activate_facility", {"facility_id": fid})

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
