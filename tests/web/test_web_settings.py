"""The live page's settings: off unless WEB_PORT is set, and clear refusals."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bot.config import Settings


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
