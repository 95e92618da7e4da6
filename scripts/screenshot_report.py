"""Screenshots of the HTML report for the README, in the system's headless Chromium.

    pytest --agent=examples.rule_agent:Agent tasks/ --agenteval-html=report.html
    python scripts/screenshot_report.py report.html docs/report.png docs/report-episode.png BK-005

The first picture is the top of the page; the second, the episode ``TASK`` run 1 opened (the
page's hash handler opens and scrolls to it on load). Chromium's own ``--screenshot``: no driver.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path


def shoot(url: str, out: str, height: int) -> None:
    subprocess.run([shutil.which("chromium") or "chromium", "--headless=new", "--no-sandbox", "--disable-gpu",
                    "--hide-scrollbars", f"--window-size=1280,{height}", "--virtual-time-budget=1000",
                    f"--screenshot={Path(out).resolve()}", url], check=True, capture_output=True)


def main(page: str, overview: str, episode: str, task: str) -> None:
    uri = Path(page).resolve().as_uri()
    shoot(uri, overview, 1400)
    shoot(f"{uri}#ep-{task}-run1", episode, 1500)


if __name__ == "__main__":
    main(*sys.argv[1:5])
