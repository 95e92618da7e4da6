"""Screenshots of the HTML report for the README, in headless Chromium (system chromedriver).

    pytest --agent=examples.rule_agent:Agent tasks/ --agenteval-html=report.html
    python scripts/screenshot_report.py report.html docs/report.png docs/report-episode.png BK-005

The first picture is the top of the page; the second, the episode ``TASK`` run 1 opened.
"""

from __future__ import annotations

import shutil
import sys
import time
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def main(page: str, overview: str, episode: str, task: str) -> None:
    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1280,1400"):
        options.add_argument(flag)
    options.binary_location = shutil.which("chromium") or ""
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    try:
        driver.get(Path(page).resolve().as_uri())
        driver.save_screenshot(overview)
        driver.get(Path(page).resolve().as_uri() + f"#ep-{task}-run1")
        time.sleep(0.3)  # the hashchange handler opens and scrolls to the episode
        driver.set_window_size(1280, 1500)
        driver.save_screenshot(episode)
    finally:
        driver.quit()


if __name__ == "__main__":
    main(*sys.argv[1:5])
