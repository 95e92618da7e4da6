"""CPU time per episode of bench/scaling.py's episodes, and where the escalation one's text checks go.

    python bench/texts_cost.py [--episodes 300] [--repeat 5]

CPU time (``time.process_time``), not wall time: on a shared machine another process's work
does not count against ours. Each figure is the best of ``--repeat`` rounds of ``--episodes``
episodes, after 200 warm-up ones. Every episode's letter and note are new (as a model's are),
so no reading is cached. Target (issue #23): under 1 ms per episode, text checks included.
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections.abc import Callable
from dataclasses import replace

import scaling
from _common import table

from pytest_agenteval.domains.escalation import EscalationEnvironment
from pytest_agenteval.domains.escalation import texts as escalation_texts
from pytest_agenteval.environments.base import Environment
from pytest_agenteval.grading.context import GradeContext
from pytest_agenteval.text import reader_for


def best(run: Callable[[], object], episodes: int, repeat: int) -> float:
    """Best CPU ms per call of ``run`` over ``repeat`` rounds of ``episodes`` calls."""
    for _ in range(200):
        run()
    rounds = []
    for _ in range(repeat):
        start = time.process_time()
        for _ in range(episodes):
            run()
        rounds.append((time.process_time() - start) / episodes * 1e3)
    return min(rounds)


def episode_cost(name: str, episodes: int, repeat: int) -> float:
    cls, _, episode = scaling.DOMAINS[name]
    env: Environment = cls()
    env.reset(1)
    task, calls = episode(env)
    assert scaling.ours(env, task, calls)[1], "the benchmark episode must pass"
    return best(lambda: scaling.ours(env, task, calls), episodes, repeat)


def split(episodes: int, repeat: int) -> tuple[float, float]:
    """CPU ms to read an episode's letter and note afresh, and to judge both readings."""
    env = EscalationEnvironment()
    env.reset(1)
    task, calls = scaling.escalation_episode(env)
    scaling.ours(env, task, calls)  # leaves the episode's world in place for judging
    reader = reader_for(EscalationEnvironment.lexicon)
    fresh = itertools.count()
    texts = [scaling.LETTER, scaling.NOTE]

    def read() -> None:
        n = str(next(fresh))
        for text in texts:
            reader._read(text.replace("{n}", n))  # uncached, as every episode's texts are new

    judged: list[tuple[GradeContext, object, object]] = []
    original = escalation_texts._judge

    def capture(ctx: GradeContext, by_claim: dict[object, object], t: object) -> str | None:
        judged.append((ctx, by_claim, t))
        return original(ctx, by_claim, t)  # type: ignore[arg-type]

    escalation_texts._judge = capture  # type: ignore[assignment]
    try:
        env.grade()
    finally:
        escalation_texts._judge = original
    reading_ms = best(read, episodes, repeat)
    # a fresh context each time: rows and memos are read once per grading, not once for all
    judging_ms = best(lambda: [original(replace(ctx, _rows={}, memo={}), *rest)  # type: ignore[arg-type]
                               for ctx, *rest in judged], episodes, repeat)
    return reading_ms, judging_ms


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--episodes", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rows: list[list[object]] = [[name, episode_cost(name, args.episodes, args.repeat)] for name in scaling.DOMAINS]
    reading, judging = split(args.episodes, args.repeat)
    rows += [["escalation: reading its letter and note", reading], ["escalation: judging both", judging]]
    print(table(["CPU ms per episode (best of rounds)", "ms"], [[name, f"{ms:.3f}"] for name, ms in rows]))
    worst = max(float(ms) for _, ms in rows[:2])  # type: ignore[arg-type]
    print(f"\nworst episode: {worst:.3f} ms CPU (target < 1 ms: {'met' if worst < 1 else 'NOT met'})")


if __name__ == "__main__":
    main()
