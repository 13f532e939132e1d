"""docs/live-page: the live page as a phone (390 px) and a computer (1280 px) show it, drawn
by `python docs/render_live_pages.py` from `python -m bot demo` in Debian's chromium. The test
runs the command into a fresh folder: it draws exactly the committed set, at those widths."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

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
