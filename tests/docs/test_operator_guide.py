"""docs/ja/運営ガイド.md and its pictures: `python docs/render_guide.py` (a short event through
the fake Discord and the real bot) draws every picture the guide links, and nothing else; the
guide links only pictures that are in the repository; its links to headings lead somewhere.
The README's セットアップ手順 links the guide, lists every setting, and never overwrites `.env`.
"""

from __future__ import annotations

import re
import subprocess
import unicodedata
from pathlib import Path

import pytest
from PIL import Image

from domain.decks import load_restricted_list
from domain.decks.event_files import read_uploaded_files
from tests.conftest import PYTHON, REPO_ROOT, cli_env

GUIDE = REPO_ROOT / "docs" / "ja" / "運営ガイド.md"
IMAGES = GUIDE.parent / "images"
README = REPO_ROOT / "README.md"
PICTURE_LINK = re.compile(r"!\[[^\]]+\]\((images/[^)]+)\)")
LINK = re.compile(r"(?<!!)\[[^\]]+\]\(([^)\s]+)\)")


def linked_pictures() -> list[str]:
    return PICTURE_LINK.findall(GUIDE.read_text(encoding="utf-8"))


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation (full-width too) left out,
    spaces as hyphens."""
    kept = (
        char
        for char in heading.strip().lower()
        if char in " -_" or unicodedata.category(char)[0] in "LMN"
    )
    return "".join(kept).replace(" ", "-")


def anchors(markdown: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", markdown.read_text(encoding="utf-8"), flags=re.S)
    return {slug(found) for found in re.findall(r"^#{1,6} (.+)$", text, flags=re.M)}


@pytest.fixture(scope="module")
def drawn(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The pictures, drawn by the command the README documents, into a fresh folder."""
    out = tmp_path_factory.mktemp("guide-images")
    done = subprocess.run(
        [PYTHON, "docs/render_guide.py", "--out", str(out)],
        cwd=REPO_ROOT,
        env=cli_env(),
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return out


@pytest.mark.e2e
def test_the_command_draws_every_picture_the_guide_links_and_no_other(drawn: Path) -> None:
    linked = {Path(link).name for link in linked_pictures()}
    assert len(linked) >= 20
    assert {p.name for p in drawn.glob("*.png")} == linked
    for name in sorted(linked):
        with Image.open(drawn / name) as picture:
            picture.verify()
            assert picture.format == "PNG", name
            assert picture.width == 760, name
            assert 100 < picture.height < 3000, name


@pytest.mark.e2e
def test_the_pictures_show_what_the_bot_posted(drawn: Path) -> None:
    """Spot checks that the pictures are the bot's own output, not empty cards: a card with
    a bracket is taller than one reply, and a form over the window is mostly dimmed."""
    with Image.open(drawn / "top-cut.png") as top_cut, Image.open(drawn / "finish.png") as reply:
        assert top_cut.height > reply.height + 200
    with Image.open(drawn / "time.png") as form:
        histogram = form.convert("L").histogram()
        dark = sum(histogram[:40])  # the dimmed window around the form
        assert dark > sum(histogram) / 2


def test_the_guide_links_only_pictures_in_the_repository() -> None:
    links = linked_pictures()
    assert links, "the guide shows no picture"
    missing = [link for link in links if not (GUIDE.parent / link).is_file()]
    assert not missing, missing
    committed = {p.name for p in IMAGES.glob("*.png")}
    assert committed == {Path(link).name for link in links}, "a picture nothing links"
    total = sum(p.stat().st_size for p in IMAGES.glob("*.png"))
    assert total < 2_000_000, f"the pictures take {total} bytes"


def test_the_guides_links_lead_to_headings_and_files() -> None:
    own = anchors(GUIDE)
    for target in LINK.findall(GUIDE.read_text(encoding="utf-8")):
        if target.startswith(("http://", "https://")):
            continue
        path, _, anchor = target.partition("#")
        document = (GUIDE.parent / path).resolve() if path else GUIDE
        assert document.is_file(), target
        if anchor:
            found = own if not path else anchors(document)
            assert anchor in found, f"{target}: no such heading"


def test_the_readme_setup_links_the_guide_and_lists_every_setting() -> None:
    readme = README.read_text(encoding="utf-8")
    setup = readme.split("## セットアップ手順", 1)[1].split("\n## ", 1)[0]
    assert "](docs/ja/運営ガイド.md)" in setup
    assert "Python 3.11 以降" in setup
    table = setup.split("### 9. 設定の一覧", 1)[1].split("\n### ", 1)[0]
    example = (REPO_ROOT / ".env.example").read_text(encoding="utf-8")
    names = re.findall(r"^([A-Z_]+)=", example, flags=re.M)
    assert len(names) > 20
    for name in names:
        assert f"| `{name}` |" in table, name
    for anchor in re.findall(r"\]\(#([^)]+)\)", setup):
        assert anchor in anchors(README), anchor
    for target in re.findall(r"\]\((docs/ja/[^)#]+)(?:#([^)]+))?\)", setup):
        assert (REPO_ROOT / target[0]).is_file(), target
        if target[1]:
            assert target[1] in anchors(REPO_ROOT / target[0]), target


def test_no_copy_in_the_readme_overwrites_an_existing_env() -> None:
    readme = README.read_text(encoding="utf-8")
    copies = [
        line for line in readme.splitlines() if re.search(r"\b(copy|cp)\b.*\.env\.example", line)
    ]
    assert copies
    for line in copies:
        assert "if not exist .env" in line or "Test-Path .env" in line or "cp -n" in line, line


def test_the_guides_restricted_list_example_is_a_list_the_bot_accepts() -> None:
    # R-REG-5: no restricted list ships, so the guide shows a filled one; it must be a file
    # the panel's 制限カードリスト form takes, and it must say it is not the official list.
    text = GUIDE.read_text(encoding="utf-8")
    section = text.split("### 制限カードリストを添付する", 1)[1].split("\n## ", 1)[0]
    assert "ボットには、公式の制限カードリストは入っていません" in section
    assert "公式のリストではありません" in section
    assert "[制限カードリスト]" in section
    assert "images/restricted-form.png" in section
    assert "images/restricted.png" in section
    (example,) = re.findall(r"```toml\n(.*?)```", section, flags=re.S)
    read = read_uploaded_files({"restricted_list": ("制限カード.toml", example.encode())})
    restricted = load_restricted_list(read["restricted_list"])
    assert restricted.limits
    assert restricted.groups


def test_the_live_page_settings_lead_to_the_guides_section_on_making_it_public() -> None:
    # WEB_PORT, WEB_HOST and WEB_BASE_URL were listed without saying what to do with them,
    # and WEB_BEHIND_PROXY said "only behind nginx" while the guide's tunnel needs it too.
    readme = README.read_text(encoding="utf-8")
    section = "docs/ja/運営ガイド.md#15-ライブページをインターネットに公開する"
    assert section.split("#")[1] in anchors(GUIDE)
    english, japanese = readme.split("## セットアップ手順", 1)
    for table in (english, japanese):
        rows = {
            line.split("|")[1].strip(" `"): line
            for line in table.splitlines()
            if line.startswith("| `WEB_")
        }
        for name in ("WEB_PORT", "WEB_HOST", "WEB_BASE_URL"):
            assert f"]({section})" in rows[name], name
        assert "cloudflared" in rows["WEB_BEHIND_PROXY"]
        assert "only behind" not in rows["WEB_BEHIND_PROXY"]


def test_the_guides_caddy_example_bounds_idle_connections_and_links_the_safe_setup() -> None:
    text = GUIDE.read_text(encoding="utf-8")
    section = text.split("### 別の方法: VPS とリバースプロキシ", 1)[1].split("\n### ", 1)[0]
    (caddyfile,) = [
        block
        for block in re.findall(r"```\n(.*?)```", section, flags=re.S)
        if "reverse_proxy" in block
    ]
    assert "reverse_proxy 127.0.0.1:8080" in caddyfile
    for timeout in ("read_header", "read_body", "idle"):
        assert re.search(rf"^\s+{timeout}\s+\d+s$", caddyfile, flags=re.M), timeout
    assert "write" not in caddyfile  # the live-update streams stay open for hours
    assert "](../OPERATIONS.md#ライブページを安全に公開するには)" in section
    assert "ライブページを安全に公開するには" in {
        heading
        for heading in re.findall(
            r"^#+ (.+)$",
            (REPO_ROOT / "docs" / "OPERATIONS.md").read_text(encoding="utf-8"),
            flags=re.M,
        )
    }
    assert "](../nginx-live-page.conf)" in section
