"""The page says only what is true, whatever the names say: a name is filled in once (a
winner named "{loser}" is not taken for the loser), and a right-to-left override in a name
ends with the name."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from bot.web.render import STATIC_DIR, page_html
from tests.web.conftest import Site

RLO = "\u202e"


def script_tr() -> str:
    source = (STATIC_DIR / "app.js").read_text(encoding="utf-8")
    found = re.search(
        r"\n  const RIGHT_TO_LEFT = [^\n]*\n  function tr\(key, params\) \{\n.*?\n  \}\n",
        source,
        re.S,
    )
    assert found is not None
    return found.group(0)


def run_tr(texts: dict[str, str], key: str, params: dict[str, object]) -> str:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    program = (
        f"const T = {json.dumps(texts)};\n{script_tr()}\n"
        f"process.stdout.write(JSON.stringify(tr({json.dumps(key)}, {json.dumps(params)})));"
    )
    done = subprocess.run([node, "-e", program], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    result: str = json.loads(done.stdout)
    return result


def test_a_name_that_looks_like_a_placeholder_is_filled_once() -> None:
    texts = {"result_win": "{winner} beat {loser}"}
    said = run_tr(texts, "result_win", {"winner": "{loser}", "loser": "Bob"})
    assert said.replace("\u2068", "").replace("\u2069", "") == "{loser} beat Bob"
    assert run_tr({"n": "{count} left"}, "n", {"count": 3}) == "3 left"
    assert run_tr({"n": "{missing}"}, "n", {}) == "{missing}"


def test_each_name_in_a_sentence_is_isolated() -> None:
    said = run_tr({"adv": "{player} advances"}, "adv", {"player": RLO + "evil"})
    assert said == "\u2068" + RLO + "evil\u2069 advances"
    said = run_tr({"adv": "{player} advances"}, "adv", {"player": "محمد"})
    assert said == "\u2068محمد\u2069 advances"
    # A text of the page's own put into another is left as it is.
    assert run_tr({"n": "{count}（{left}）"}, "n", {"count": "32 人", "left": "1"}) == "32 人（1）"


def test_the_style_isolates_every_inline_name() -> None:
    style = re.sub(
        r"/\*.*?\*/", "", (STATIC_DIR / "style.css").read_text(encoding="utf-8"), flags=re.S
    )
    rule = re.search(r"([^{}]*)\{\s*unicode-bidi:\s*isolate;?\s*\}", style)
    assert rule is not None
    selectors = {part.strip() for part in rule.group(1).split(",")}
    assert {"span", "strong", "a"} <= selectors


def test_the_shell_isolates_the_tournament_name() -> None:
    page = page_html(
        lang="ja",
        title="x",
        section="overview",
        data={"name": RLO + "大会"},
        other_lang_href="/t/x?lang=en",
    ).decode()
    assert f'<h1 id="pm-name"><bdi>{RLO}大会</bdi></h1>' in page


async def test_the_window_title_isolates_the_name(running: Site) -> None:
    slug = await running.slug()
    page = await (await running.client.get(f"/t/{slug}")).text()
    title = re.search(r"<title>(.*?)</title>", page, re.S)
    assert title is not None
    name = (await running.tournament()).name
    assert f"\u2068{name}\u2069" in title.group(1)
