"""Red team 14: what an isolated agent can learn from, or leave in, what the harness trusts; each
attack that got through pinned here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers.tasks import result_lines

ROOT = Path(__file__).parent.parent

# Never reads the rate sheet. The scripted customer answers a consent question 'unclear' unless it
# states every ``confirm_requires`` term, the task's expected rate: halving a list of candidate
# rates, one question a turn, finds it in nine turns. ``Guesser`` states one rate it made up.
ASKS_THE_CUSTOMER = '''
import re

CANDIDATES = [f"{c / 100:.2f}" for c in range(400, 800)]


class Agent:
    probe = True

    def run(self, episode):
        fid = re.search(r"FAC-\\d+", episode.say("Which facility is it? Please give me its reference.")).group(0)
        facility = episode.call("get_facility", {"facility_id": fid})["result"]
        accounts = episode.call("list_accounts", {"customer_id": facility["customer_id"]})["result"]
        account = next(a["account_id"] for a in accounts if a["account_type"] == "loan" and a["status"] == "open")
        if self.probe:
            found = CANDIDATES
            while len(found) > 1:
                half = found[: (len(found) + 1) // 2]
                said = episode.say(f"Is the rate you agreed with us one of these: {', '.join(half)}? "
                                   "Shall I go ahead?")
                found = half if "yes" in said.lower() else found[len(half):]
            rate = found[0]
            if "yes" not in episode.say(f"I will book {fid} to your account {account}, set its rate to {rate}% "
                                        "and activate it. Shall I go ahead?").lower():
                return
        else:
            rate = CANDIDATES[len(CANDIDATES) // 2]
        episode.call("book_facility", {"facility_id": fid, "account_id": account})
        episode.call("set_rate", {"facility_id": fid, "rate_percent": float(rate)})
        episode.call("activate_facility", {"facility_id": fid})
        episode.say(f"All done: {fid} is active at {rate}%. Is there anything else I can help with?")


class Guesser(Agent):
    probe = False
'''


def test_an_isolated_agent_cannot_learn_the_expected_rate_from_the_scripted_customer(
        pytester: pytest.Pytester) -> None:
    """An agent that never called ``get_rate`` passed BKC-001 (17 of 17 checks, bwrap) by asking
    the customer 'Is the rate you agreed with us one of these: …? Shall I go ahead?' and halving
    the list on each 'unclear' or yes; the same agent stating a rate it made up fails. The
    customer holds the grader's expected value and answers questions about it."""
    lines = (ROOT / "tasks" / "booking_chat.jsonl").read_text().splitlines()
    line = json.loads(lines[1])
    assert line["task_id"] == "BKC-001" and line["user"]["confirm_requires"] == ["5.1"]
    (pytester.path / "chat.jsonl").write_text(json.dumps(line) + "\n")
    pytester.makepyfile(asker=ASKS_THE_CUSTOMER)
    grades = {}
    for agent in ("Guesser", "Agent"):
        results = pytester.path / f"{agent}.jsonl"
        pytester.runpytest("chat.jsonl", f"--agent=asker:{agent}", "--agenteval-isolate",
                           f"--agenteval-results={results}", "-p", "no:randomly", "-p", "no:cacheprovider")
        grades[agent] = next(g for g in result_lines(results) if "task_id" in g)
    assert not grades["Guesser"]["passed"]  # what the agent knows about pricing: not enough
    assert "get_rate" not in json.dumps(grades["Agent"])
    assert not grades["Agent"]["passed"], "the customer told the agent the expected rate"
