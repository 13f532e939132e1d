"""docs/live-page: the live page as a phone (390 px) and a computer (1280 px) show it, drawn
by `python docs/render_live_pages.py` from `python -m bot demo --seed 22` in Debian's chromium.
The test runs the command into a fresh folder: it draws exactly the committed set, at those
widths, and each committed picture shows what a fresh one shows: the same text (its times
left out) and, but for the times and the live state, the same pixels to within font
antialiasing. A picture drawn before the page changed fails: draw the set again."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw

from tests.conftest import PYTHON, REPO_ROOT, cli_env
from tests.web.test_browser import missing_browser

PICTURES = REPO_ROOT / "docs" / "live-page"
sys.path.insert(0, str(REPO_ROOT / "docs"))
import render_live_pages  # noqa: E402


@pytest.fixture(scope="module")
def drawn(tmp_path_factory: pytest.TempPathFactory) -> Path:
    reason = missing_browser()
    if reason is not None:
        if os.environ.get("REQUIRE_BROWSER") == "1":
            pytest.fail(f"REQUIRE_BROWSER=1 but {reason}")
        pytest.skip(reason)
    out = tmp_path_factory.mktemp("live-page")
    done = subprocess.run(
        [PYTHON, "docs/render_live_pages.py", "--out", str(out)],
        cwd=REPO_ROOT,
        env=cli_env(),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return out


def test_the_command_draws_the_committed_set_at_both_widths(drawn: Path) -> None:
    names = set(render_live_pages.names())
    assert {p.name for p in drawn.glob("*.png")} == names
    assert {p.name for p in PICTURES.glob("*.png")} == names
    for name in sorted(names):
        width = int(name.removesuffix(".png").rsplit("-", 1)[1])
        for folder in (drawn, PICTURES):
            with Image.open(folder / name) as picture:
                picture.verify()
                assert picture.format == "PNG", name
                assert picture.size == (width, render_live_pages.WIDTHS[width]), name


def test_the_committed_pictures_stay_small() -> None:
    total = sum(p.stat().st_size for p in PICTURES.glob("*.png"))
    assert total < 2_000_000, f"the pictures take {total} bytes"


STALE = "docs/live-page/{} is not what the page shows now: run python docs/render_live_pages.py"
# Pixels of the pictures at a quarter of their size (which evens out antialiasing) that may
# differ by more than a tenth of the grey scale: none do between two runs on one machine.
MOST_DIFFERING = 0.002


def recorded(folder: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(
        (folder / render_live_pages.RECORD).read_text(encoding="utf-8")
    )
    return loaded


def test_each_picture_shows_the_pages_text_now(drawn: Path) -> None:
    fresh, committed = recorded(drawn), recorded(PICTURES)
    assert set(fresh) == set(committed) == set(render_live_pages.names())
    for name in sorted(fresh):
        # The committed record may hold the day it was drawn (the demo's event is today's).
        was, now = (render_live_pages.steady(record[name]["text"]) for record in (committed, fresh))
        assert was == now, STALE.format(name)


def test_each_picture_looks_as_the_page_does_now(drawn: Path) -> None:
    fresh, committed = recorded(drawn), recorded(PICTURES)
    for name in sorted(fresh):
        masks = fresh[name]["masks"] + committed[name]["masks"]
        now, then = (masked(folder / name, masks) for folder in (drawn, PICTURES))
        histogram = ImageChops.difference(now, then).histogram()
        differing = sum(histogram[26:]) / (now.width * now.height)
        assert differing <= MOST_DIFFERING, (STALE.format(name), f"{differing:.2%} differ")


def masked(path: Path, masks: list[list[int]]) -> Image.Image:
    """The picture in grey, what changes from run to run (the times, the live state) blacked
    out, at a quarter of its size."""
    with Image.open(path) as picture:
        grey = picture.convert("L")
    draw = ImageDraw.Draw(grey)
    for left, top, width, height in masks:
        draw.rectangle((left - 2, top - 2, left + width + 2, top + height + 2), fill=0)
    return grey.reduce(4)


def test_the_comparison_finds_a_stale_picture(tmp_path: Path) -> None:
    # A change the size of one heading (here blanked out) is more than antialiasing.
    name = "standings-390.png"
    with Image.open(PICTURES / name) as picture:
        changed = picture.convert("RGB")
    ImageDraw.Draw(changed).rectangle((40, 230, 130, 270), fill=(255, 255, 255))
    changed.save(tmp_path / name)
    masks = recorded(PICTURES)[name]["masks"]
    histogram = ImageChops.difference(
        masked(tmp_path / name, masks), masked(PICTURES / name, masks)
    ).histogram()
    assert sum(histogram[26:]) / sum(histogram) > MOST_DIFFERING
