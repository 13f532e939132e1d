"""A code an error carries (a setting, a step) is named from the catalog before the reply
escapes people's text: 「設定「開始時刻」を直して」, never the escaped code 「starts\\_at」."""

from __future__ import annotations

from bot.ui.messages import render_error
from domain.errors import InvalidInput


def test_a_refused_setting_is_named_as_the_readers_discord_names_it() -> None:
    problem = InvalidInput("tournament.bad_start_time", value="来週_どこか")
    refused = InvalidInput("tournament.settings_refused", problem=problem, setting="starts_at")
    text = render_error(refused, "ja")
    assert "設定「開始時刻」を直して" in text
    assert "来週\\_どこか" in text  # what the organizer typed is still escaped
    assert "starts_at" in render_error(refused, "en")  # English names the option itself
    needs = render_error(InvalidInput("tournament.create_needs", options=("name",)), "ja")
    assert "大会名を指定" in needs
