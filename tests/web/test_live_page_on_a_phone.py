"""The live page as a player sees it on a phone (390 px) in Debian's chromium: nothing stray
in a section, a header that agrees with its tables, a layout that keeps its words whole, the
address with a trailing slash, and live updates that last through tab taps and through
players sharing one address.

The browser, the demo and `python -m bot web` are those of tests/web/test_browser.py.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import PYTHON, cli_env
from tests.web import test_browser as shared
from tests.web.test_browser import api, sized, wait_for

# The browser and the events it is pointed at, shared with the other browser tests.
browser = shared.browser
demo = shared.demo
finished_demo = shared.finished_demo
nothing_finished = shared.nothing_finished

PHONE = 390
MAIN = "#pm-main > *:not(noscript)"


def opened(driver: Any, url: str, selector: str = MAIN) -> None:
    driver.get(url)
    wait_for(lambda: driver.find_elements("css selector", selector), 15, f"{url} drawn")


def header_text(driver: Any) -> str:
    script = "const box = document.getElementById('pm-clock'); return box ? box.innerText : ''"
    return str(driver.execute_script(script))


def one_line(driver: Any, selector: str) -> list[str]:
    """The texts of the elements matching `selector` that take more than one line."""
    script = """
        return [...document.querySelectorAll(arguments[0])].filter((node) => {
            const line = parseFloat(getComputedStyle(node).lineHeight);
            const range = document.createRange();
            range.selectNodeContents(node);
            return range.getBoundingClientRect().height > line * 1.4;
        }).map((node) => node.textContent);
    """
    broken: list[str] = driver.execute_script(script, selector)
    return broken


def test_nothing_stray_under_sections_that_fit_on_one_page(
    browser: Any, finished_demo: str
) -> None:
    # 32 players: the standings and the lists fit on one page, so there is no pager, and
    # nothing (no 「null」) stands where it would be.
    sized(browser, PHONE)
    for section in ("/standings", "/decklists"):
        opened(browser, f"{finished_demo}{section}")
        text = browser.find_element("id", "pm-main").text
        assert "null" not in text, (section, text[-200:])
        assert not browser.find_elements("css selector", "#pm-main .pager")


def test_the_header_of_a_finished_round_says_finished_once(
    browser: Any, finished_demo: str
) -> None:
    sized(browser, PHONE)
    for section in ("", "/pairings"):
        opened(browser, f"{finished_demo}{section}", "#pm-clock")
        header = header_text(browser)
        assert header.count("終了") == 1, (section, header)


def test_choosing_an_earlier_round_shows_that_rounds_header(
    browser: Any, finished_demo: str
) -> None:
    sized(browser, PHONE)
    opened(browser, f"{finished_demo}/pairings", "#pm-round")
    assert "決勝" in header_text(browser)
    browser.execute_script(
        "const picker = document.getElementById('pm-round');"
        "picker.value = '1'; picker.dispatchEvent(new Event('change'))"
    )
    wait_for(lambda: "第 1 回戦" in header_text(browser), 10, "round 1's header")
    header = header_text(browser)
    assert "決勝" not in header
    assert "終了" in header
    assert not browser.find_elements("css selector", "#pm-clock .clock-left")
    tables = browser.find_elements("css selector", "#pm-tables li")
    assert len(tables) == 16


def test_before_the_clock_starts_no_table_is_playing(browser: Any, nothing_finished: str) -> None:
    # Round 1 paired, its clock not started: the header waits for the start, and so do the
    # tables (開始前), instead of every table saying 対戦中 under 対戦開始を待っています.
    sized(browser, PHONE)
    opened(browser, f"{nothing_finished}/pairings", "#pm-tables li")
    assert "対戦開始を待っています" in header_text(browser)
    badges = {b.text for b in browser.find_elements("css selector", "#pm-tables .badge")}
    assert badges == {"開始前"}, badges


def test_the_overview_keeps_its_words_whole_on_a_phone(browser: Any, finished_demo: str) -> None:
    sized(browser, PHONE)
    opened(browser, finished_demo, ".facts")
    assert one_line(browser, ".fact dt") == []  # 「形式」, not 「形 / 式」
    facts = {
        dt.text: dd.text
        for dt, dd in zip(
            browser.find_elements("css selector", ".fact dt"),
            browser.find_elements("css selector", ".fact dd"),
            strict=True,
        )
    }
    assert facts["形式"].count("決勝トーナメント") == 1, facts["形式"]
    assert "上位 8 人" in facts["形式"]
    # The demo's one drop still counts among the 32 who entered.
    overview = api(finished_demo, "overview")
    assert overview["registered"] == 31
    assert overview["dropped"] == 1
    assert facts["参加者"] == "32 人（うち 1 人ドロップ）"


def test_each_titles_bar_is_its_share_of_the_lists(browser: Any, finished_demo: str) -> None:
    sized(browser, PHONE)
    opened(browser, f"{finished_demo}/titles", ".chart .bar")
    shares = [title["share"] for title in api(finished_demo, "titles")["titles"]]
    widths = browser.execute_script(
        "return [...document.querySelectorAll('.chart .bar-box')]"
        ".map((box) => box.firstChild.getBoundingClientRect().width"
        " / box.getBoundingClientRect().width)"
    )
    assert len(widths) == len(shares)
    for width, share in zip(widths, shares, strict=True):
        assert abs(width - share) < 0.02, (widths, shares)


def test_the_record_heading_is_one_word(browser: Any, finished_demo: str) -> None:
    sized(browser, PHONE)
    for query, heading in (("", "勝-敗-分"), ("?lang=en", "W-L-D")):
        opened(browser, f"{finished_demo}/standings{query}", "table.standings")
        assert browser.find_element("css selector", "th.col_record").text == heading
        assert one_line(browser, "th.col_record") == []


def broken_words(driver: Any, selector: str) -> list[str]:
    """The words of the elements matching `selector` that a line break cuts in two: a
    heading's words are parted by a space or a zero-width space (where a Japanese heading
    may break: 「決勝\u200bトーナメント」), and a word on one line has one box."""
    script = """
        const broken = [];
        for (const node of document.querySelectorAll(arguments[0])) {
            const text = node.firstChild;
            if (!text || text.nodeType !== Node.TEXT_NODE) continue;
            let start = 0;
            for (const word of text.data.split(/[ \u200b]/)) {
                const range = document.createRange();
                range.setStart(text, start);
                range.setEnd(text, start + word.length);
                const boxes = [...range.getClientRects()];
                const lines = new Set(boxes.map((box) => Math.round(box.top)));
                if (word && lines.size > 1) broken.push(word);
                start += word.length + 1;
            }
        }
        return broken;
    """
    found: list[str] = driver.execute_script(script, selector)
    return found


def test_every_standings_heading_keeps_its_words_whole(browser: Any, finished_demo: str) -> None:
    # 「決勝トーナメ / ント」 and 「プレイヤ / ー」 were broken inside the word: a heading breaks
    # only between its words (「決勝 / トーナメント」), and the table fits the phone.
    sized(browser, PHONE)
    for query, headings in (
        ("", ["順位", "決勝トーナメント", "プレイヤー", "勝ち点", "対戦相手の勝ち点", "勝-敗-分"]),
        ("?lang=en", ["Rank", "Top cut", "Player", "Points", "Opponents' points", "W-L-D"]),
    ):
        opened(browser, f"{finished_demo}/standings{query}", "table.standings")
        shown = [
            th.get_attribute("textContent").replace("\u200b", "")
            for th in browser.find_elements("css selector", "table.standings th")
        ]
        assert [h for h in shown if h not in ("シード", "Seed")] == headings, shown
        assert broken_words(browser, "table.standings th") == [], (query, shown)
        width = browser.execute_script("return document.documentElement.scrollWidth")
        assert width <= PHONE, (query, width)


def test_an_address_with_a_trailing_slash_opens_the_page(browser: Any, finished_demo: str) -> None:
    sized(browser, PHONE)
    for path, tab in (("/", "概要"), ("/standings/", "順位")):
        opened(browser, f"{finished_demo}{path}", "#pm-nav .tab.current")
        assert current_tab(browser) == tab
        assert not browser.current_url.endswith("/")


def tap(driver: Any, tab: str) -> None:
    """A tap on a tab: the nav is drawn again at each update, so it is found as it is now."""
    driver.execute_script(
        "[...document.querySelectorAll('#pm-nav a')]"
        ".find((a) => a.textContent === arguments[0]).click()",
        tab,
    )


def current_tab(driver: Any) -> str:
    script = "return document.querySelector('#pm-nav .current').textContent"
    return str(driver.execute_script(script))


def is_current(driver: Any, tab: str) -> bool:
    return current_tab(driver) == tab


def is_past(driver: Any, version: int) -> bool:
    return int(driver.execute_script("return Number(document.body.dataset.version)")) > version


def live_state(driver: Any) -> str:
    return str(driver.execute_script("return document.getElementById('pm-live').textContent"))


def test_tapping_through_the_tabs_keeps_the_page_live(browser: Any, demo: str) -> None:
    # One address may keep 4 streams open (WEB_STREAMS_PER_IP). Each tab tap loaded a new
    # page with a stream of its own, and the fifth fell back to polling.
    sized(browser, PHONE)
    opened(browser, f"{demo}/pairings", "#pm-tables li")
    wait_for(lambda: "自動更新中" in live_state(browser), 10, "the live stream")
    browser.execute_script("window.__samePage = true")
    for tab in ("順位", "概要", "対戦表", "順位", "概要", "対戦表", "順位", "決勝トーナメント"):
        tap(browser, tab)
        wait_for(partial(is_current, browser, tab), 10, f"the {tab} tab")
    time.sleep(1.5)  # a refused stream says so within a second
    assert "自動更新中" in live_state(browser), live_state(browser)
    assert browser.execute_script("return window.__samePage") is True
    assert re.search(r"/t/[A-Za-z0-9_-]+/bracket$", browser.current_url)
    # Back goes to the tab before, drawn in the same page too.
    browser.back()
    wait_for(
        lambda: current_tab(browser) == "順位",
        10,
        "the tab before",
    )
    assert browser.execute_script("return window.__samePage") is True
    # And the page still follows the event.
    version = browser.execute_script("return Number(document.body.dataset.version)")
    wait_for(
        lambda: browser.execute_script("return Number(document.body.dataset.version)") > version,
        30,
        "an update after the taps",
    )
    assert "自動更新中" in live_state(browser)


def test_opening_page_after_page_keeps_the_page_live(browser: Any, demo: str) -> None:
    # A page left closes its stream, and the server frees its place at once (it waited for
    # the next keep-alive to fail, 15 s): the sixth page opened in a row is live too.
    sized(browser, PHONE)
    for section in ("", "/pairings", "/standings", "/bracket", "", "/pairings", "/standings"):
        opened(browser, f"{demo}{section}")
        time.sleep(0.3)
    wait_for(lambda: "自動更新中" in live_state(browser), 5, "the live stream")
    time.sleep(1.5)  # a refused stream says so within a second
    assert "自動更新中" in live_state(browser), live_state(browser)


def test_players_behind_one_address_all_get_the_updates(browser: Any, demo: str) -> None:
    # Six phones behind one venue's Wi-Fi (one address, 4 streams): every page follows the
    # event, those without a stream by asking every 2 s.
    sized(browser, PHONE)
    first = browser.current_window_handle
    windows = []
    for _ in range(6):
        browser.switch_to.new_window("tab")
        opened(browser, f"{demo}/pairings", "#pm-tables li")
        windows.append(
            (
                browser.current_window_handle,
                browser.execute_script("return Number(document.body.dataset.version)"),
            )
        )
    try:
        states = []
        for handle, version in windows:
            browser.switch_to.window(handle)
            wait_for(partial(is_past, browser, version), 40, "an update in every window")
            states.append(live_state(browser))
        assert sum("自動更新中" in state for state in states) >= 3, states
    finally:
        for handle, _ in windows:
            browser.switch_to.window(handle)
            browser.close()
        browser.switch_to.window(first)


def test_python_m_bot_web_prints_an_address_that_opens_the_page(
    browser: Any, event_templates: dict[str, Path], tmp_path: Path
) -> None:
    # It printed http://127.0.0.1:PORT/t/, which is no page; now each public page's own
    # address, and that it opens only on this PC (the guide says how to share it).
    if shared.missing_browser() is not None and os.environ.get("REQUIRE_BROWSER") != "1":
        pytest.skip(shared.missing_browser() or "")
    database = tmp_path / "bot.sqlite3"
    shutil.copy(event_templates["running"], database)
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
        lines: list[str] = []
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not any("this computer" in x for x in lines):
            lines.append(process.stdout.readline())
        printed = "".join(lines)
        pages = re.findall(r"http://127\.0\.0\.1:\d+/t/[A-Za-z0-9_-]{22,}", printed)
        assert pages, printed
        assert "この PC でしか開けません" in printed
        assert "運営ガイド" in printed
        sized(browser, PHONE)
        opened(browser, pages[0], ".facts")
        assert browser.find_element("id", "pm-name").text == "プレメモ交流会（デモ）"
    finally:
        process.terminate()
        process.wait(10)
