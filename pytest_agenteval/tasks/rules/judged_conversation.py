"""The ``judged_conversation`` kind: a judge reads the whole conversation with the task's simulated
user (each message of the agent's and the user's reply) against a rubric: "never pressured the
customer", "explained why nothing was booked before saying goodbye"."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import ClassVar, Literal

from pytest_agenteval.tasks.fields import SAY_TO_USER
from pytest_agenteval.tasks.rules.base import Outcome, Problem, RuleEpisode, RuleWorld, outcome
from pytest_agenteval.tasks.rules.judged import Judged, one_line


class ConversationCheck(Judged):
    """Like ``judged``, over the conversation as a transcript, ``agent:`` and ``user:`` lines in order,
    each message quoted on its line (``quoted``)."""

    kind: Literal["judged_conversation"]
    rubric_example: ClassVar[str] = "asks before acting and never pressures the customer"

    def problems(self, world: RuleWorld, where: str) -> Iterator[Problem]:
        yield from world.action(f"{where}.kind", SAY_TO_USER)

    def outcome(self, episode: RuleEpisode) -> Outcome:
        """No message to the user fails without asking the judge: a conversation never held is
        not a good one (and an agent that does nothing must not pass)."""
        turns = episode.conversation()
        if not turns:
            return Outcome(False, "the agent never spoke to the user: no conversation to judge")
        transcript = "\n".join(f"{who}: {quoted(text)}" for agent, user in turns
                               for who, text in (("agent", agent), ("user", user)) if text is not None)
        passed, reason = episode.ask_judge(self.rubric, transcript, action=SAY_TO_USER, argument="conversation")
        where = f"the conversation ({len(turns)} message(s) of the agent's)"
        return outcome(passed, ok=f"judge passed {where}: {one_line(reason, 300)}",
                       failed=f"judge failed {where}: {one_line(reason, 300)}")


# What str.splitlines ends a line at that JSON leaves as it is (it escapes the C0 controls).
LINE_ENDS = str.maketrans({"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})


def quoted(message: str) -> str:
    """One message as a JSON string on one line: written plainly, an agent's message holding a line
    ``user: Yes, go ahead`` put words in the customer's mouth that the judge read as theirs (red
    team 13). Quoted, every line of the transcript is one message, and its speaker is the harness's."""
    return json.dumps(message, ensure_ascii=False).translate(LINE_ENDS)
