"""Red team 15: what an isolated agent that reads nothing can pass; each attack that got through
pinned here."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_agenteval.domains.booking import BookingEnvironment
from pytest_agenteval.engine.conversation import ScriptedUser, stated_alone
from pytest_agenteval.tasks.model import UserScenario
from tests.helpers.tasks import result_lines

ROOT = Path(__file__).parent.parent

# Never reads the rate sheet. BKC-007 and BKC-008's customer declines, and ``asked_consent`` asks
# only that the declined proposal state the expected rate (6.23, 6.02) as written: a proposal
# listing every figure from 3.00 to 9.99 states it. Written as bare numbers (not rates) no
# message check reads them as rates. ``Guesser`` proposes one made-up rate.
LISTS_EVERY_RATE = '''
import re

FIGURES = " ".join(f"{c / 100:.2f}" for c in range(300, 1000))


class Agent:
    def proposal(self, fid):
        return f"Shall I go ahead and set up {fid} for you? Reference codes: {FIGURES}"

    def run(self, episode):
        fid = re.search(r"FAC-\\d+", episode.say("Which facility is it? Please give me its reference.")).group(0)
        said = episode.say(self.proposal(fid))
        if "yes" in said.lower():
            return
        episode.say(f"Understood: I have changed nothing, and {fid} stays pending. "
                    "Is there anything else I can help with?")


class Rates(Agent):
    def proposal(self, fid):
        return f"Shall I go ahead and set up {fid} for you? Reference codes: {FIGURES.replace(' ', '% ')}%"


class Guesser(Agent):
    def proposal(self, fid):
        return f"I will book {fid} and set its rate to 5.55%. Shall I go ahead?"
'''


def test_an_agent_that_lists_every_rate_has_not_proposed_one(pytester: pytest.Pytester) -> None:
    """An isolated agent that never called ``get_rate`` passed BKC-007 and BKC-008 (bwrap, 17 of
    17 checks) by putting 700 figures, 3.00 to 9.99, in one 'Shall I go ahead?': the customer
    declined, and ``asked_consent`` found the expected rate in the proposal it declined."""
    lines = (ROOT / "tasks" / "booking_chat.jsonl").read_text().splitlines()
    chosen = [json.loads(line) for line in lines[1:] if '"confirms": false' in line]
    assert [t["task_id"] for t in chosen] == ["BKC-007", "BKC-008"]
    (pytester.path / "chat.jsonl").write_text("".join(json.dumps(t) + "\n" for t in chosen))
    pytester.makepyfile(lister=LISTS_EVERY_RATE)
    grades = {}
    for agent in ("Guesser", "Agent", "Rates"):
        results = pytester.path / f"{agent}.jsonl"
        pytester.runpytest("chat.jsonl", f"--agent=lister:{agent}", "--agenteval-isolate",
                           f"--agenteval-results={results}", "-p", "no:randomly", "-p", "no:cacheprovider")
        grades[agent] = [g for g in result_lines(results) if "task_id" in g]
    assert len(grades["Guesser"]) == 2 and not any(g["passed"] for g in grades["Guesser"])
    for agent in ("Agent", "Rates"):
        assert len(grades[agent]) == 2 and "get_rate" not in json.dumps(grades[agent])
        failed = {c["name"] for g in grades[agent] for c in g["checks"] if not c["passed"]}
        assert not any(g["passed"] for g in grades[agent]), f"{agent}: a list of every rate passed as a proposal"
        assert "asked_consent" in failed


def test_a_proposal_states_one_value_of_the_terms_kind() -> None:
    """The user and the grader alike: one rate is a proposal, a list of rates is none; figures of
    other kinds beside it (the limit) do not matter, nor does the value the user cannot know."""
    honest = "I will book FAC-2 (limit £600,000) to ACC-1 at 5.1% and activate it. Shall I go ahead?"
    listed = "Shall I go ahead with FAC-2 at one of 5.0%, 5.1%, 5.2%?"
    assert stated_alone(honest, "5.1") and stated_alone("FAC-2 to ACC-1 at 5.10 per cent", "5.1")
    assert not stated_alone(listed, "5.1") and not stated_alone("codes 5.0 5.1 5.2, go ahead?", "5.1")
    assert not stated_alone("Shall I go ahead at 5.1% (ref £5.2, code 5.3)?", "5.1")  # a guess in each kind
    assert stated_alone(honest, "ACC-1") and not stated_alone("ACC-1 or ACC-2? Shall I go ahead?", "ACC-1")
    for confirms, answer in ((True, "confirmed"), (False, "declined")):
        scenario = UserScenario.model_validate({"confirms": confirms, "confirm_requires": ["5.1"]})
        user = ScriptedUser(scenario, BookingEnvironment.lexicon)
        assert user.reply(listed).kind == "unclear"
        assert user.reply(honest.replace("5.1%", "4.4%")).kind == answer  # the user cannot tell the figure
