"""What judging free text costs: a text read afresh, and an episode with and without text checks.

    python bench/texts.py [--episodes 400]

Every text differs (as a model's do), so no reading is cached. The episodes with and without
text checks run interleaved, in one process, so the machine's noise falls on both alike; the
ratio is the figure to quote. Target (issue #23): text checks keep an episode under 1 ms.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import time

import scaling
from _common import table

from pytest_agenteval.domains.escalation import EscalationEnvironment
from pytest_agenteval.text import reader_for

TEXTS = [
    "Good news: your claim {cid} has been approved, and we will pay you the assessed amount of 4,200.00 GBP "
    "within five working days (letter {n}).",
    "Approved at 4200.0 within my authority; payment issued and the claimant told (note {n}).",
    "We regret to tell you that your claim has not been approved (ref {n}).",
    "KYC status: pending for CUS-0925, so FAC-5014 was not booked; please advise ({n}).",
]


class Silent(EscalationEnvironment):
    """The same world and rubric, with no declared texts: what an episode costs without text checks."""

    name = "escalation-silent"
    seed_key = "escalation"
    texts = {}


def read_cost(n: int) -> list[list[object]]:
    reader = reader_for(EscalationEnvironment.lexicon)
    rows = []
    for template in TEXTS:
        texts = [template.format(cid="CLM-00012", n=i) for i in range(n)]
        start = time.perf_counter()
        for text in texts:
            reader.read(text)
        rows.append([template[:48] + "…", len(template.split()), (time.perf_counter() - start) / n * 1e6])
    return rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--episodes", type=int, default=400)
    args = parser.parse_args()
    print(table(["text", "words", "µs to read"], read_cost(2000)))
    worlds = [EscalationEnvironment(), Silent()]
    for env in worlds:
        env.reset(1)
    episodes = [(env, *scaling.escalation_episode(env)) for env in worlds]
    times: list[list[float]] = [[], []]
    for _, k in itertools.product(range(args.episodes), (0, 1)):
        env, task, calls = episodes[k]
        took, passed = scaling.ours(env, task, calls)
        assert passed, "the benchmark episode must pass"
        times[k].append(took * 1000)
    with_texts, without = (statistics.median(t) for t in times)
    print()
    print(table(["escalation episode (a letter and a note)", "ms"],
                [["with text checks", with_texts], ["without", without],
                 ["text checks' share", f"{(with_texts - without) / with_texts:.0%}"]]))
    verdict = "met" if with_texts < 1 else "NOT met"
    print(f"\nper episode with text checks: {with_texts:.3f} ms (target < 1 ms: {verdict}); "
          f"text checks add {with_texts - without:.3f} ms ({with_texts / without:.2f}x)")


if __name__ == "__main__":
    main()
