"""Pictures of the live page, as a phone (390 px) and a computer (1280 px) show it:
`python docs/render_live_pages.py [--out DIR]` (default: docs/live-page).

It runs `python -m bot demo --seed 22` as a person does and takes each section of its page in
Debian's chromium, headless, driven by Selenium through Debian's chromedriver (`apt-get
install chromium chromium-driver fonts-noto-cjk`): the pairings while the first round is
played (the demo at half its own pace, with its first four tables reported), then every
section of an event played to its end (the demo 200 times faster). About a minute.

The seed makes every run show the same event, so a picture can be compared with a fresh one:
beside the pictures, `pictures.json` keeps what each one shows (the page's text, its times
left out) and where the times and the live state are drawn (they change from run to run).
tests/docs/test_live_page_pictures.py runs this into a temporary folder and compares both
with the committed set: a picture drawn before the page changed fails it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
OUT = HERE / "live-page"
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
WIDTHS = {390: 844, 1280: 900}  # width → the window's height
# The finished event's sections, by picture name.
SECTIONS = {
    "overview": "",
    "pairings": "/pairings",
    "standings": "/standings",
    "bracket": "/bracket",
    "decklists": "/decklists",
    "deck": "/decklists/1",
    "titles": "/titles",
}
LIVE = "pairings-live"  # the pairings while a round is played
SEED = 22  # the demo's every draw: the same event each run
LIVE_TABLES = 4  # the live picture: round 1 with its first batch of tables reported
# What changes from run to run: the clock, the end times, the live state and its time.
VOLATILE = "#pm-live, .clock-left, .clock-state, .clock-extra"
TIME = re.compile(r"\d{1,2}:\d{2}(?::\d{2})?")
# And from day to day: the demo's event is held today, its date in Japan.
DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
RECORD = "pictures.json"


def steady(text: str) -> str:
    """A page's text as two runs on any day compare it: times and dates as patterns."""
    lines = (DATE.sub("YYYY-MM-DD", TIME.sub("HH:MM", line)).rstrip() for line in text.splitlines())
    return "\n".join(line for line in lines if line)


def names() -> list[str]:
    """Every picture this draws, in order."""
    return [f"{name}-{width}.png" for name in (LIVE, *SECTIONS) for width in WIDTHS]


def wait_for(check: Callable[[], Any], seconds: float, what: str) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.25)  # within the page's request budget
    raise SystemExit(f"no {what} within {seconds} s")


def api(url: str, part: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{url}/api/{part}.json") as response:
        loaded: dict[str, Any] = json.load(response)
        return loaded


@contextmanager
def demo(speed: float) -> Iterator[str]:
    """`python -m bot demo --seed SEED` in a folder of its own; the page's address."""
    folder = tempfile.mkdtemp(prefix="pm-demo-")
    process = subprocess.Popen(
        [
            sys.executable,
            *("-m", "bot", "demo", "--speed", str(speed), "--port", "0", "--seed", str(SEED)),
        ],
        cwd=folder,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    try:
        assert process.stdout is not None
        url = None
        deadline = time.monotonic() + 30
        while url is None and time.monotonic() < deadline:
            found = re.search(
                r"http://127\.0\.0\.1:\d+/t/[A-Za-z0-9_-]+", process.stdout.readline()
            )
            url = found.group(0) if found else None
        if url is None:
            raise SystemExit("the demo printed no address within 30 s")
        yield url
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def chromium() -> Iterator[Any]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="pm-chromium-")
    for argument in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        "--no-first-run",
        f"--user-data-dir={profile}",
        "--lang=ja",
    ):
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"intl.accept_languages": "ja,en"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def shown(driver: Any) -> dict[str, Any]:
    """What the page shows now: its text without what changes from run to run (times, the
    live state), and the boxes where that is drawn."""
    found: dict[str, Any] = driver.execute_script(
        """
        const volatile = [...document.querySelectorAll(arguments[0])];
        const masks = volatile
            .map((node) => node.getBoundingClientRect())
            .filter((box) => box.width && box.height)
            .map((box) => [box.left, box.top, box.width, box.height].map(Math.round));
        const kept = volatile.map((node) => node.style.visibility);
        volatile.forEach((node) => { node.style.visibility = "hidden"; });
        const text = document.body.innerText;
        volatile.forEach((node, index) => { node.style.visibility = kept[index]; });
        return { text: text, masks: masks };
        """,
        VOLATILE,
    )
    found["text"] = steady(found["text"])
    return found


def take(driver: Any, url: str, width: int, path: Path) -> dict[str, Any]:
    from selenium.common.exceptions import TimeoutException

    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": WIDTHS[width], "deviceScaleFactor": 1, "mobile": width < 600},
    )
    driver.get(url)
    wait_for(lambda: driver.find_elements("css selector", "#pm-main > *:not(noscript)"), 15, url)
    driver.set_script_timeout(20)
    with suppress(TimeoutException):  # the glyphs of a machine without a Japanese font
        driver.execute_async_script("document.fonts.ready.then(arguments[0])")
    time.sleep(0.3)  # the stream's first notice may draw the page once more
    driver.save_screenshot(str(path))
    return shown(driver)


def render(out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    made = []
    record: dict[str, Any] = {}
    with chromium() as driver:
        with demo(speed=0.5) as url:

            def reported() -> int:
                now = api(url, "overview")
                return int(now["tables_finished"]) if now["ends_at"] else -1

            # A round under way, its first tables reported: the page as players follow it
            # (the demo waits 6 s before the next tables, time enough for both pictures).
            wait_for(lambda: reported() >= LIVE_TABLES, 180, "a round under way")
            for width in WIDTHS:
                made.append(out / f"{LIVE}-{width}.png")
                record[made[-1].name] = take(driver, f"{url}/pairings", width, made[-1])
            if reported() != LIVE_TABLES:
                raise SystemExit("the round moved on while it was drawn: run it again")
        with demo(speed=200.0) as url:
            wait_for(lambda: api(url, "overview")["phase"] == "finished", 300, "the demo's end")
            for name, section in SECTIONS.items():
                for width in WIDTHS:
                    made.append(out / f"{name}-{width}.png")
                    record[made[-1].name] = take(driver, f"{url}{section}", width, made[-1])
    written = json.dumps(record, ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    (out / RECORD).write_text(written, encoding="utf-8")
    return made


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help=f"folder (default {OUT})")
    out = parser.parse_args().out
    for path in render(out):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
