"""The reverse-proxy example of docs/OPERATIONS.md ("Exposing the live page safely") parses,
bounds every client as the bot does, and agrees with the bot's settings: the proxy is a
trusted one, the client's address replaces X-Forwarded-For, the stream is unbuffered."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.config import Settings
from bot.web import connections
from bot.web.server import Limits, WebLimits
from tests.conftest import REPO_ROOT

EXAMPLE = REPO_ROOT / "docs" / "nginx-live-page.conf"


@dataclass
class Block:
    name: tuple[str, ...]
    directives: list[tuple[str, ...]] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)

    def all(self, name: str) -> list[tuple[str, ...]]:
        return [d[1:] for d in self.directives if d[0] == name]

    def one(self, name: str) -> tuple[str, ...]:
        (found,) = self.all(name)
        return found

    def children(self, name: str) -> list[Block]:
        return [b for b in self.blocks if b.name[0] == name]


def parse(text: str) -> Block:
    """nginx's syntax: words, quoted strings, `;` ending a directive, `{ }` a block."""
    tokens = re.findall(r'"[^"]*"|[{};]|[^\s{};"]+', re.sub(r"#[^\n]*", "", text))
    root = Block(("main",))
    stack, words = [root], []
    for token in tokens:
        if token == ";":
            assert words, "an empty directive"
            stack[-1].directives.append(tuple(words))
            words = []
        elif token == "{":
            block = Block(tuple(words))
            stack[-1].blocks.append(block)
            stack.append(block)
            words = []
        elif token == "}":
            assert not words, f"a directive without its ';': {words}"
            stack.pop()
            assert stack, "a '}' too many"
        else:
            words.append(token)
    assert len(stack) == 1, "a '{' not closed"
    assert not words, f"a directive without its ';' at the end: {words}"
    return root


def seconds(value: str) -> float:
    number, unit = re.fullmatch(r"(\d+)(ms|s|m|h)?", value).groups()  # type: ignore[union-attr]
    return int(number) * {"ms": 0.001, None: 1, "s": 1, "m": 60, "h": 3600}[unit]


@pytest.fixture(scope="module")
def config() -> Block:
    return parse(EXAMPLE.read_text(encoding="utf-8"))


def test_the_example_is_referenced_where_the_page_is_documented() -> None:
    for doc in ("docs/OPERATIONS.md", "README.md"):
        assert "nginx-live-page.conf" in (REPO_ROOT / doc).read_text(encoding="utf-8"), doc


def test_each_client_is_bounded_by_connections_streams_and_requests(config: Block) -> None:
    zones = {d[1].split("=")[1].split(":")[0]: d[0] for d in config.all("limit_conn_zone")}
    assert set(zones.values()) == {"$binary_remote_addr"}
    (rate_zone,) = config.all("limit_req_zone")
    assert rate_zone[0] == "$binary_remote_addr"
    defaults = Settings(_env_file=None)  # type: ignore[call-arg]
    assert rate_zone[2] == f"rate={defaults.web_rate_limit:g}r/s"
    (public,) = [s for s in config.children("server") if any("443" in d for d in s.all("listen"))]
    for name in ("client_header_timeout", "client_body_timeout", "keepalive_timeout"):
        assert seconds(public.one(name)[0]) <= 15, name
    connections_zone, per_address = public.one("limit_conn")
    assert connections_zone in zones
    assert 1 <= int(per_address) <= 32
    locations = public.children("location")
    assert locations
    for location in locations:
        limit = location.one("limit_req")
        assert limit[0].removeprefix("zone=") in rate_zone[1]
        assert f"burst={int(defaults.web_rate_limit * 4)}" in limit
        headers = {h[0]: h[1] for h in location.all("proxy_set_header")}
        # The client's own address, never the header the client sent, extended.
        assert headers["X-Forwarded-For"] == "$remote_addr"
        assert location.one("proxy_pass")[0] == "http://pm_bot"
    (stream,) = [b for b in locations if "events" in " ".join(b.name)]
    assert stream.one("proxy_buffering") == ("off",)
    stream_zone, streams = stream.one("limit_conn")
    assert stream_zone in zones
    assert stream_zone != connections_zone  # page loads never eat the streams' count
    assert int(streams) == defaults.web_streams_per_ip
    assert re.fullmatch(stream.name[2], "/t/AbCdEfGhIjKlMnOpQrStUv/events")


def test_the_bot_behind_it_believes_it_and_only_it(config: Block) -> None:
    (upstream,) = config.children("upstream")
    (address,) = upstream.one("server")[:1]
    host, port = address.rsplit(":", 1)
    assert host == "127.0.0.1"
    assert port == "8080"
    # nginx closes an idle connection to the bot before the bot does.
    assert seconds(upstream.one("keepalive_timeout")[0]) < connections.IDLE_SECONDS
    defaults = Settings(_env_file=None)  # type: ignore[call-arg]
    limits = Limits(WebLimits(behind_proxy=True, trusted_proxies=defaults.trusted_proxies))
    assert limits.is_proxy(host)
    text = EXAMPLE.read_text(encoding="utf-8")
    for setting in ("WEB_BEHIND_PROXY=true", "WEB_TRUSTED_PROXIES=127.0.0.1", "WEB_HOST=127.0.0.1"):
        assert setting in text


def test_nginx_itself_accepts_it(tmp_path: Path) -> None:
    nginx = shutil.which("nginx")
    if nginx is None:
        if os.environ.get("REQUIRE_NGINX") == "1":  # CI installs it: a skip would hide a break
            pytest.fail("nginx is not installed, and REQUIRE_NGINX=1")
        pytest.skip("nginx is not installed: the parse above is the check")
    text = EXAMPLE.read_text(encoding="utf-8")
    # Without certificates: the same server on plain ports (nothing is started, -t only).
    text = re.sub(r"ssl_certificate(_key)? [^;]+;", "", text)
    text = text.replace("443 ssl http2", "8443").replace("listen 80", "listen 8081")
    (tmp_path / "site.conf").write_text(text, encoding="utf-8")
    main = f"pid {tmp_path}/nginx.pid; error_log {tmp_path}/error.log; events {{}}\n"
    main += f"http {{ access_log off; include {tmp_path}/site.conf; }}\n"
    (tmp_path / "nginx.conf").write_text(main, encoding="utf-8")
    done = subprocess.run(
        [nginx, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0, done.stderr


def test_the_budget_the_operations_guide_quotes_is_the_bots() -> None:
    """The connection budget docs/OPERATIONS.md quotes, in both languages, is what
    `ConnectionBudget.of` gives at those file limits (it drifted once when the reserve for
    asyncio's accept batches was added)."""
    text = (REPO_ROOT / "docs" / "OPERATIONS.md").read_text(encoding="utf-8")
    small, large = connections.ConnectionBudget.of(1024), connections.ConnectionBudget.of(65536)

    def n(value: int) -> str:
        return f"{value:,}"

    assert (
        f"with 1,024, at most {n(small.total)}\n  connections, {n(small.per_address)} from one"
        f" address, and {n(small.streams)} of them streams"
    ) in text
    assert f"With 65,536: {n(large.total)}, {n(large.per_address)} and {n(large.streams)}." in text
    assert (
        f"接続は最大 {n(small.total)}、1 つのアドレスから {n(small.per_address)}、"
        f"自動更新は {n(small.streams)} まで"
    ) in text
