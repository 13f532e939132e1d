"""The live page's settings: off unless WEB_PORT is set, and clear refusals."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bot.config import Settings, only_here


def settings(**values: object) -> Settings:
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


def test_the_page_is_off_unless_a_port_is_set() -> None:
    assert settings().web_port is None
    assert settings().web_public_url is None
    assert settings(web_port="").web_port is None
    assert settings(web_port=8080).web_public_url == "http://127.0.0.1:8080"
    assert settings(web_port=8080, web_host="::1").web_public_url == "http://[::1]:8080"
    behind = settings(web_port=8080, web_base_url="https://pm.example.org/live/")
    assert behind.web_public_url == "https://pm.example.org/live"


@pytest.mark.parametrize(
    "values",
    [
        {"web_port": 0},
        {"web_port": 70000},
        {"web_host": "a b"},
        {"web_host": "http://x"},
        {"web_base_url": "pm.example.org"},
        {"web_base_url": "https://pm.example.org/?x=1"},
        {"web_rate_limit": 0},
        {"web_streams_per_ip": 0},
    ],
)
def test_bad_web_settings_are_refused(values: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        settings(**values)


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8080",
        "http://127.1.2.3:8080",
        "http://localhost:8080",
        "http://LOCALHOST.:8080",
        "http://pm.localhost",
        "http://[::1]:8080",
        "http://[::ffff:127.0.0.1]:8080",
        "http://0.0.0.0:8080",
    ],
)
def test_an_address_only_this_computer_opens_is_never_given_to_players(url: str) -> None:
    assert only_here(url)
    loopback = settings(web_port=8080, web_base_url=url)
    assert loopback.web_public_url == url  # the organizer still sees it, for this PC
    assert loopback.web_players_url is None


@pytest.mark.parametrize(
    "url",
    [
        "https://pm.example.org",
        "https://abc-def.trycloudflare.com",
        "http://192.168.1.20:8080",
        "http://[2001:db8::1]:8080",
        "http://localhost-cup.example.org",
    ],
)
def test_an_address_others_can_open_is_given_to_players(url: str) -> None:
    assert not only_here(url)
    assert settings(web_port=8080, web_base_url=url).web_players_url == url


def test_the_default_address_is_not_given_to_players() -> None:
    assert settings(web_port=8080).web_players_url is None
    assert settings(web_port=8080, web_host="0.0.0.0").web_players_url is None
    assert settings().web_players_url is None  # no page served at all
