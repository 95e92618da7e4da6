"""Red team 13's project: an agent that makes the judge fail on the tasks it would fail (a letter
longer than the judge's context), and a fake judge that drops such requests. Used by the tests of
every report that must not read those ungraded tasks as passed."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.helpers.tasks import task_line

CHOKES_THE_JUDGE = '''
class Agent:
    """Does EX-1's job; on the others, which it would fail, writes a letter too long for the judge."""

    def run(self, episode):
        if "T-0001" in episode.instruction:
            episode.call("close_ticket", {"ticket_id": "T-0001"})
            episode.call("add_comment", {"ticket_id": "T-0001", "body": "Your ticket is closed. Kind regards."})
        else:
            episode.call("add_comment", {"ticket_id": "T-0002", "body": "x" * 1900})
'''


def choked_judge_project(pytester: pytest.Pytester, tasks: int) -> Any:
    """Writes the tasks (EX-1 to EX-``tasks``, each with a judged check) and the agent module
    ``choker``; returns the fake judge, started as a context manager: ``with judge() as server``."""
    pytest.importorskip("openai")
    from tests.helpers.openai_fake import FakeJudge

    class ContextLimited(FakeJudge):
        def reply(self, body: dict[str, Any]) -> dict[str, Any]:
            if len(next(m["content"] for m in body["messages"] if m["role"] == "user")) > 1500:
                raise ValueError("context length exceeded")  # the connection drops: a judge error
            return super().reply(body)

    rule = {"kind": "judged", "name": "reply_is_kind", "action": "add_comment", "argument": "body",
            "rubric": "The reply says the ticket is closed, politely.", "failure_mode": "rude_reply"}
    lines = [task_line(task_id=f"EX-{n}", instruction=f"Close ticket T-000{n} and tell the customer.",
                       expected_final_state={"ticket": {f"T-000{n}": {"status": "closed"}},
                                             "comment": {"+": [{"ticket_id": f"T-000{n}"}]}},
                       acceptable_action_paths=[[{"action": "close_ticket", "arguments": {"ticket_id": f"T-000{n}"}},
                                                 {"action": "add_comment",
                                                  "arguments": {"ticket_id": f"T-000{n}", "body": "x"}}]],
                       checks=[rule]) for n in range(1, tasks + 1)]
    (pytester.path / "tasks").mkdir()
    (pytester.path / "tasks" / "t.jsonl").write_text("\n".join(lines) + "\n")
    pytester.makepyfile(choker=CHOKES_THE_JUDGE)
    return lambda: ContextLimited(lambda text, body: json.dumps({"passed": "kind" in text.lower(), "reason": "r"}))
