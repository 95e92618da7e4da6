"""Parallel runs with a latency-bound agent (it sleeps before each action, like an LLM call):
episodes per second at -n 0, 2, 4, 8 on this machine.

    python bench/parallel.py [--sleep 0.025] [--runs 4]

The work is waiting, not computing, so workers beyond the core count still help.
Target: at -n 8, >= 0.8 x the ideal 8x speed-up. Two measures are printed:
- while running: episodes per second from the first episode's start to the last one's end
  (the agent logs both), which is what a long evaluation sees;
- whole run: wall time of the pytest process, which also holds starting and stopping the
  interpreters (8 workers on 2 cores: seconds that do not depend on the number of episodes).
Hypothesis's pytest plugin (installed with our test extras, not a dependency of ours) imports
all of hypothesis at every session's end, in every worker; it is switched off for every run.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from pathlib import Path

from _common import copy_tasks, pytest_seconds, shipped_lines, table

AGENT = '''
import os, time
from pytest_agenteval.agents.builtin import Reference

LOG = os.environ.get("AGENT_LOG")

class SlowReference:
    """The reference path, waiting {sleep} s before every action."""
    def for_task(self, task):
        inner = Reference().for_task(task)
        class Agent:
            def run(self, episode):
                pause = float(os.environ.get("AGENT_SLEEP", {sleep}))
                start = time.time()
                for step in inner.steps:
                    time.sleep(pause)
                    episode.call(step.action, dict(step.arguments))
                if LOG:  # one short append per episode: atomic across worker processes
                    with open(LOG, "a") as log:
                        log.write(f"{{start}} {{time.time()}}\\n")
        return Agent()

agent = SlowReference()
'''


PLAIN = '''
import time, pytest

@pytest.mark.parametrize("pause", {pauses})
def test_wait(pause):
    time.sleep(pause)
'''


def plain(work: Path, n: int, runs: int, sleep: float) -> tuple[int, float, float]:
    """(items, wall s, ideal s) of a plain pytest file whose items only wait what the episodes
    wait (25 ms per step of each task's reference path): pytest-xdist's own cost, no harness."""
    pauses = [len(t["acceptable_action_paths"][0]) * sleep for t in shipped_lines()] * runs
    (work / "plain").mkdir(exist_ok=True)
    (work / "plain" / "test_wait.py").write_text(PLAIN.format(pauses=pauses))
    wall = pytest_seconds(["-n", str(n), "-p", "no:hypothesispytest", "plain/"], work, repeat=1, warm_up=False)
    return len(pauses), wall, sum(pauses) / max(n, 1)


def measure(work: Path, n: int, runs: int) -> tuple[int, float, float, float]:
    """(episodes, wall s, running s, wall s with an agent that does not wait) of one run."""
    results, log = work / "r.jsonl", work / "episodes.log"
    run = ["--runs", str(runs), "-n", str(n), f"--agenteval-results={results}", "-p", "no:hypothesispytest",
           "tasks/"]
    os.environ["AGENT_LOG"] = str(log)
    log.unlink(missing_ok=True)
    wall = pytest_seconds(run, work, repeat=1, warm_up=False)
    del os.environ["AGENT_LOG"]
    spans = [tuple(map(float, line.split())) for line in log.read_text().splitlines()]
    running = max(end for _, end in spans) - min(start for start, _ in spans)
    episodes = sum("task_id" in json.loads(line) for line in results.read_text().splitlines())
    assert episodes == len(spans), (episodes, len(spans))
    os.environ["AGENT_SLEEP"] = "0"  # the same run with no waiting: start-up and harness cost
    fixed = pytest_seconds(run, work, repeat=1, warm_up=False)
    del os.environ["AGENT_SLEEP"]
    return episodes, wall, running, fixed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sleep", type=float, default=0.025)
    parser.add_argument("--runs", type=int, default=4)
    parser.add_argument("--workers", default="0,2,4,8")
    parser.add_argument("--long-runs", type=int, default=12,
                        help="a last run at the largest -n with this many runs per task (0: none)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        copy_tasks(work)
        (work / "slow_agent.py").write_text(AGENT.format(sleep=args.sleep))
        (work / "conftest.py").write_text("import pytest, slow_agent\n\n@pytest.fixture\ndef agent():\n"
                                          "    return slow_agent.agent\n")
        os.environ["AGENT_SLEEP"] = "0"  # warm up once: bytecode, scenario images, remembered task lines
        pytest_seconds(["--runs", "1", "-p", "no:hypothesispytest", "tasks/"], work, repeat=1, warm_up=False)
        del os.environ["AGENT_SLEEP"]
        workers = [int(w) for w in args.workers.split(",")]
        rows = [(n, *measure(work, n, args.runs)) for n in workers]
        baselines = [plain(work, workers[-1], args.runs, args.sleep)]
        if args.long_runs:
            rows.append((workers[-1], *measure(work, workers[-1], args.long_runs)))
            baselines.append(plain(work, workers[-1], args.long_runs, args.sleep))
    # The serial rate while running is the base for both measures (the serial run's own start-up
    # would only lower it).
    base = rows[0][1] / rows[0][3]
    print(table(["-n", "episodes", "wall s", "of ideal (wall)", "running s", "episodes/s running",
                 "speed-up running", "of ideal (running)", "same run, agent not waiting: s"],
                [[n, e, f"{s:.1f}", f"{e / s / base / max(n, 1):.0%}", f"{r:.1f}", f"{e / r:.1f}",
                  f"{e / r / base:.2f}", f"{e / r / base / max(n, 1):.0%}", f"{f:.1f}"]
                 for n, e, s, r, f in rows]))
    n, e, s, r, f = rows[len(workers) - 1]
    running_share = e / r / base / max(n, 1)
    print(f"\nat -n {n}: {running_share:.0%} of the ideal speed-up while episodes run (target >= 80%: "
          f"{'met' if running_share >= 0.8 else 'NOT met'}); {e / s / base / max(n, 1):.0%} on the whole run's "
          f"wall time, which also holds {s - r:.1f} s of starting and stopping {n} interpreters on "
          f"{os.cpu_count()} cores (the same run with an agent that does not wait: {f:.1f} s)")
    if args.long_runs:
        n, e, s, r, f = rows[-1]
        print(f"with {e} episodes (--runs {args.long_runs}) at -n {n}: {e / s / base / max(n, 1):.0%} of the ideal "
              f"on the whole run's wall time ({s - r:.1f} s outside the episodes)")
    for items, wall, ideal in baselines:
        print(f"plain pytest-xdist at -n {workers[-1]}, {items} items that only wait as long: {wall:.1f} s, "
              f"{ideal / wall:.0%} of its ideal ({ideal:.1f} s)")


if __name__ == "__main__":
    main()
