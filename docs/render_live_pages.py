"""Pictures of the live page, as a phone (390 px) and a computer (1280 px) show it:
`python docs/render_live_pages.py [--out DIR]` (default: docs/live-page).

It runs `python -m bot demo` as a person does and takes each section of its page in Debian's
chromium, headless, driven by Selenium through Debian's chromedriver (`apt-get install
chromium chromium-driver fonts-noto-cjk`): the pairings while the first round is played (the
demo at its own pace), then every section of an event played to its end (the demo 200 times
faster). About 30 s. The demo
draws its pairings from a random seed, so two runs show other names at other tables.
tests/docs/test_live_page_pictures.py runs this into a temporary folder.
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
    """`python -m bot demo` in a folder of its own; the page's address."""
    folder = tempfile.mkdtemp(prefix="pm-demo-")
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "demo", "--speed", str(speed), "--port", "0"],
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


def take(driver: Any, url: str, width: int, path: Path) -> None:
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


def render(out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    made = []
    with chromium() as driver:
        with demo(speed=1.0) as url:

            def under_way() -> bool:
                now = api(url, "overview")
                return bool(now["ends_at"] and now["tables_finished"] >= 3)

            # A round under way, some tables reported: the page as players follow it.
            wait_for(under_way, 120, "a round under way")
            for width in WIDTHS:
                made.append(out / f"{LIVE}-{width}.png")
                take(driver, f"{url}/pairings", width, made[-1])
        with demo(speed=200.0) as url:
            wait_for(lambda: api(url, "overview")["phase"] == "finished", 300, "the demo's end")
            for name, section in SECTIONS.items():
                for width in WIDTHS:
                    made.append(out / f"{name}-{width}.png")
                    take(driver, f"{url}{section}", width, made[-1])
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
