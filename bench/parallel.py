"""Parallel runs with a latency-bound agent (it sleeps before each action, like an LLM call):
episodes per second at -n 0, 2, 4, 8 on this machine.

    python bench/parallel.py [--sleep 0.025] [--runs 4]

The work is waiting, not computing, so workers beyond the core count still help.
Target: at -n 8, >= 0.8 x the ideal 8x speed-up (wall time of the whole run, worker start-up included).
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from pathlib import Path

from _common import copy_tasks, pytest_seconds, table

AGENT = '''
import os, time
from pytest_agenteval.agents.builtin import Reference

class SlowReference:
    """The reference path, waiting {sleep} s before every action."""
    def for_task(self, task):
        inner = Reference().for_task(task)
        class Agent:
            def run(self, episode):
                pause = float(os.environ.get("AGENT_SLEEP", {sleep}))
                for step in inner.steps:
                    time.sleep(pause)
                    episode.call(step.action, dict(step.arguments))
        return Agent()

agent = SlowReference()
'''


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sleep", type=float, default=0.025)
    parser.add_argument("--runs", type=int, default=4)
    parser.add_argument("--workers", default="0,2,4,8")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        copy_tasks(work)
        (work / "slow_agent.py").write_text(AGENT.format(sleep=args.sleep))
        (work / "conftest.py").write_text("import pytest, slow_agent\n\n@pytest.fixture\ndef agent():\n"
                                          "    return slow_agent.agent\n")
        results = work / "r.jsonl"
        rows = []
        for n in [int(w) for w in args.workers.split(",")]:
            run = ["--runs", str(args.runs), "-n", str(n), f"--agenteval-results={results}", "tasks/"]
            seconds = pytest_seconds(run, work, repeat=1)
            episodes = sum("summary" not in json.loads(line) for line in results.read_text().splitlines())
            os.environ["AGENT_SLEEP"] = "0"  # the same run with no waiting: start-up and harness cost
            fixed = pytest_seconds(run, work, repeat=1)
            del os.environ["AGENT_SLEEP"]
            rows.append((n, episodes, seconds, fixed))
    base = rows[0][1] / rows[0][2]
    print(table(["-n", "episodes", "wall s", "episodes/s", "speed-up", "of ideal", "same run, agent not waiting: s"],
                [[n, e, f"{s:.1f}", f"{e / s:.1f}", f"{e / s / base:.2f}", f"{e / s / base / max(n, 1):.0%}",
                  f"{f:.1f}"] for n, e, s, f in rows]))
    n, e, s, f = rows[-1]
    share = e / s / base / max(n, 1)
    print(f"\nat -n {n}: {share:.0%} of the ideal speed-up on wall time (target >= 80%: "
          f"{'met' if share >= 0.8 else 'NOT met'}); the same run with an agent that does not wait takes "
          f"{f:.1f} s: worker start-up and the harness's own work, which 2 cores cannot hide")


if __name__ == "__main__":
    main()
