"""Every pattern the text checks use, pumped with floods an agent could write: each text is cut
by ``text.calm`` first (as the reader does), then searched; the time at 8,000 characters (a chat
message's cap) against 2,000 (a note's) says whether reading grows linearly (a ratio near 4) or
worse (16 is quadratic). Red team 49 found patterns taking seconds on 2,000 characters.

    python bench/text_floods.py [--top 12]

Exit status 1 when a pattern grows faster than 8x or takes over 250 ms at 8,000 characters.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import random
import re
import sys
import time

from _common import ROOT, table

sys.path.insert(0, str(ROOT))
import pytest_agenteval  # noqa: E402
from pytest_agenteval.text.calm import calm  # noqa: E402

UNITS = [" ", "a", "a ", "1", "1,", "1.", "1,0", "0", ",", ". ", "-", "(", ")", "\n", "  ", "it ", "x y ", "\t"]
WORDS = ["paid", "the", "claim", "not", "approved", "1,200", "SNR-07", "to", "and", "it", "was", "a", "letter",
         "would", "have", "had", "once", "before", "note", "£4,200", "KYC", "FAC-5029", "rate"]


def patterns() -> dict[tuple[str, int], str]:
    """Every compiled pattern at module level in the text, domain and engine packages (in lists,
    tuples and dicts too), by its source."""
    found: dict[tuple[str, int], str] = {}

    def add(name: str, value: object) -> None:
        if isinstance(value, re.Pattern):
            found.setdefault((value.pattern, value.flags), name)
        elif isinstance(value, (list, tuple)):
            for k, item in enumerate(value):
                add(f"{name}[{k}]", item)
        elif isinstance(value, dict):
            for key, item in value.items():
                add(f"{name}[{key!r}]", item)

    for info in pkgutil.walk_packages(pytest_agenteval.__path__, "pytest_agenteval."):
        if any(part in info.name for part in (".text", ".domains", ".engine")):
            module = importlib.import_module(info.name)
            for name, value in vars(module).items():
                add(f"{info.name.removeprefix('pytest_agenteval.')}.{name}", value)
    return found


def floods(n: int) -> list[str]:
    rnd = random.Random(49)
    return [*(unit * (n // len(unit)) for unit in UNITS), "".join(rnd.choice("0123456789,") for _ in range(n)),
            " ".join(rnd.choice(WORDS) for _ in range(n // 4))[:n], "Hello" + " " * n, "1," * (n // 2) + " x. reversed"]


def worst(pattern: re.Pattern[str], texts: list[str]) -> float:
    slowest = 0.0
    for text in texts:
        for end in ("!", " x", "?"):
            said = calm(text + end)
            start = time.perf_counter()
            pattern.search(said)
            for _ in pattern.finditer(said):
                pass
            slowest = max(slowest, time.perf_counter() - start)
    return slowest


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=12)
    args = parser.parse_args()
    short, long = floods(2_000), floods(8_000)
    rows = []
    for (source, flags), name in patterns().items():
        pattern = re.compile(source, flags)
        at_2k, at_8k = worst(pattern, short), worst(pattern, long)
        rows.append((at_8k, name, at_2k))
    rows.sort(reverse=True)
    print(f"{len(rows)} patterns, each searched over {len(long)} floods cut by text.calm\n")
    print(table(["pattern", "2,000 chars (ms)", "8,000 chars (ms)", "ratio"],
                [[name, f"{a * 1000:.1f}", f"{b * 1000:.1f}", f"{b / a:.1f}" if a > 1e-4 else "-"]
                 for b, name, a in rows[:args.top]]))
    bad = [name for b, name, a in rows if b > 0.25 or (a > 1e-3 and b / a > 8)]
    print(f"\nsuper-linear or slow: {', '.join(bad) or 'none'}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
