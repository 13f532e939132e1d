"""The live page in a real browser: Debian's chromium, headless, driven by Selenium through
Debian's chromedriver (nothing is downloaded), on the page of `python -m bot demo`.

Without chromium these tests skip and say what to install; with REQUIRE_BROWSER=1 (CI sets
it) a missing browser fails instead. Screenshots are kept under `test-artifacts/browser/`
(the path is printed; the folder is not committed).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import sqlite3
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import PYTHON, REPO_ROOT, cli_env

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
INSTALL = "apt-get install -y chromium chromium-driver"
ARTIFACTS = REPO_ROOT / "test-artifacts" / "browser"
WIDTHS = (390, 1280)


def missing_browser() -> str | None:
    if not CHROMIUM.exists() or not CHROMEDRIVER.exists():
        return f"no chromium at {CHROMIUM} or chromedriver at {CHROMEDRIVER}: {INSTALL}"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed: pip install -e '.[test]'"
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    reason = missing_browser()
    if reason is not None:
        if os.environ.get("REQUIRE_BROWSER") == "1":
            pytest.fail(f"REQUIRE_BROWSER=1 but {reason}")
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    profile = tempfile.mkdtemp(prefix="pm-chromium-")
    for argument in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        f"--user-data-dir={profile}",
        "--lang=ja",
    ):
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"intl.accept_languages": "ja,en"})
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`python -m bot demo` as a person runs it, at its own pace; the page's address."""
    yield from run_demo(tmp_path_factory, speed=1.0)


@pytest.fixture(scope="module")
def finished_demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The demo played to its end quickly: the bracket, the lists and the titles."""
    url = next(run := run_demo(tmp_path_factory, speed=200.0))
    wait_for(lambda: api(url, "overview")["phase"] == "finished", 120, "the demo's end")
    yield url
    next(run, None)


def run_demo(factory: pytest.TempPathFactory, *, speed: float) -> Iterator[str]:
    if missing_browser() is not None and os.environ.get("REQUIRE_BROWSER") != "1":
        pytest.skip(missing_browser() or "")
    workdir = factory.mktemp("demo")
    process = subprocess.Popen(
        [str(PYTHON), "-m", "bot", "demo", "--speed", str(speed), "--port", "0"],
        cwd=workdir,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
    )
    try:
        assert process.stdout is not None
        url = None
        deadline = time.monotonic() + 30
        while url is None and time.monotonic() < deadline:
            line = process.stdout.readline()
            found = re.search(r"http://127\.0\.0\.1:\d+/t/[A-Za-z0-9_-]+", line)
            url = found.group(0) if found else None
        assert url is not None, "the demo printed no address within 30 s"
        yield url
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:  # a font slice still being cut: no need to wait
            process.kill()
            process.wait(10)


def sized(driver: Any, width: int) -> None:
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {
            "width": width,
            "height": 844 if width < 600 else 900,
            "deviceScaleFactor": 1,
            "mobile": width < 600,
        },
    )


def wait_for(check: Callable[[], Any], seconds: float, what: str) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"{what} within {seconds} s")


def api(url: str, part: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{url}/api/{part}.json") as response:
        loaded: dict[str, Any] = json.load(response)
        return loaded


def test_the_page_updates_live_when_a_result_is_confirmed(browser: Any, demo: str) -> None:
    sized(browser, 390)
    browser.get(f"{demo}/pairings")
    wait_for(lambda: browser.find_elements("css selector", "#pm-tables li"), 15, "tables")
    browser.execute_script("window.__samePage = true")
    version = browser.execute_script("return Number(document.body.dataset.version)")
    finished = len(browser.find_elements("css selector", "#pm-tables li.finished"))
    # The demo confirms results as it goes: the page follows without a reload.
    wait_for(
        lambda: (
            len(browser.find_elements("css selector", "#pm-tables li.finished")) != finished
            or browser.execute_script("return Number(document.body.dataset.version)") > version + 2
        ),
        20,
        "a confirmed result on the page",
    )
    assert browser.execute_script("return window.__samePage") is True
    assert "自動更新中" in browser.find_element("id", "pm-live").text


def test_the_name_filter_finds_a_player(browser: Any, demo: str) -> None:
    sized(browser, 390)
    browser.get(f"{demo}/pairings")
    wait_for(lambda: browser.find_elements("css selector", "#pm-tables li"), 15, "tables")
    name = browser.find_element("css selector", "#pm-tables li .seat .name").text
    # The demo keeps updating the list while we type: the box stays, the list is redrawn.
    box = browser.find_element("id", "pm-filter")
    box.clear()
    box.send_keys(name)
    visible = (
        "return [...document.querySelectorAll('#pm-tables li')]"
        ".filter(li => li.offsetParent).map(li => li.textContent)"
    )
    count = "return document.querySelectorAll('#pm-tables li').length"
    shown = browser.execute_script(visible)
    assert shown
    assert all(name in text for text in shown)
    assert len(shown) < browser.execute_script(count)
    box.clear()
    box.send_keys("存在しない名前")
    assert browser.execute_script(visible) == []
    assert "存在しない名前" in browser.find_element("id", "pm-filter-none").text
    box.send_keys(*["\ue003"] * len("存在しない名前"))  # backspace: an empty box shows all
    assert len(browser.execute_script(visible)) == browser.execute_script(count)


def test_no_horizontal_scroll_at_390_and_1280(browser: Any, finished_demo: str) -> None:
    from selenium.common.exceptions import TimeoutException

    demo = finished_demo
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    print(f"\nscreenshots: {ARTIFACTS}")
    sections = ("", "/pairings", "/standings", "/bracket", "/decklists", "/titles",
                "/decklists/1")  # fmt: skip
    for width in WIDTHS:
        sized(browser, width)
        for section in sections:
            browser.get(f"{demo}{section}")
            wait_for(
                lambda: browser.find_elements("css selector", "#pm-main > *:not(noscript)"),
                10,
                f"{section or '/'} drawn",
            )
            # The Japanese glyphs of a machine without a Japanese font come from the served
            # slices, cut on first use: wait for them a while, for the screenshots' sake.
            browser.set_script_timeout(20)
            with contextlib.suppress(TimeoutException):
                browser.execute_async_script("document.fonts.ready.then(arguments[0])")
            widths = browser.execute_script(
                "return [document.scrollingElement.scrollWidth, innerWidth]"
            )
            name = (section.strip("/").replace("/", "-") or "overview") + f"-{width}.png"
            browser.save_screenshot(str(ARTIFACTS / name))
            assert widths[1] == width
            assert widths[0] <= widths[1], (section, width, widths)
    # The finished event's bracket has its champion; the chart draws every title played.
    browser.get(f"{demo}/titles")
    wait_for(lambda: browser.find_elements("css selector", ".chart .bar"), 10, "the chart")
    titles = api(demo, "titles")["titles"]
    assert len(browser.find_elements("css selector", ".chart .title-row")) == len(titles)


def test_the_final_standings_say_where_each_top_cut_player_finished(
    browser: Any, finished_demo: str
) -> None:
    # The order of the final placings is explained: 1位 with fewer points than 5位 is the
    # winner of the top cut, and the column says so (優勝, 準優勝, ベスト4, ベスト8).
    sized(browser, 390)
    browser.get(f"{finished_demo}/standings")
    wait_for(lambda: browser.find_elements("css selector", "table.standings tbody tr"), 10, "rows")
    header = [th.text for th in browser.find_elements("css selector", "table.standings th")]
    assert header[:2] == ["順位", "決勝トーナメント"]
    places = [
        td.text for td in browser.find_elements("css selector", "table.standings td.col_top_cut")
    ]
    assert places[:9] == ["優勝", "準優勝", "ベスト4", "ベスト4", *["ベスト8"] * 4, ""]
    assert "決勝トーナメントの結果で並びます" in browser.find_element("id", "pm-main").text


@pytest.fixture
def nothing_finished(event_templates: dict[str, Path], tmp_path: Path) -> Iterator[str]:
    """`python -m bot web` on the event of round 1 paired and nothing reported yet."""
    if missing_browser() is not None and os.environ.get("REQUIRE_BROWSER") != "1":
        pytest.skip(missing_browser() or "")
    database = tmp_path / "bot.sqlite3"
    shutil.copy(event_templates["running"], database)
    with sqlite3.connect(database) as connection:
        (slug,) = connection.execute("SELECT page_slug FROM tournaments").fetchone()
    process = subprocess.Popen(
        [str(PYTHON), "-m", "bot", "web", "--port", "0"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=cli_env(DATABASE_PATH=str(database), LOG_LEVEL="WARNING"),
    )
    try:
        assert process.stdout is not None
        found = None
        deadline = time.monotonic() + 30
        while found is None and time.monotonic() < deadline:
            found = re.search(r"http://127\.0\.0\.1:\d+", process.stdout.readline())
        assert found is not None, "python -m bot web printed no address within 30 s"
        yield f"{found.group(0)}/t/{slug}"
    finally:
        process.terminate()
        process.wait(10)


def test_before_any_round_has_finished_the_standings_list_the_entrants(
    browser: Any, nothing_finished: str
) -> None:
    # No 「第 0 回戦終了時点」: nothing has finished, so the page says so and lists who entered.
    sized(browser, 390)
    browser.get(f"{nothing_finished}/standings")
    wait_for(lambda: browser.find_elements("css selector", "table.standings tbody tr"), 10, "rows")
    text = browser.find_element("id", "pm-main").text
    assert "まだ終了した回戦はありません" in text
    assert "第 0 回戦" not in text
    header = [th.text for th in browser.find_elements("css selector", "table.standings th")]
    assert header == ["プレイヤー"]  # no ranks and no points yet
    assert len(browser.find_elements("css selector", "table.standings tbody tr")) == 32
