"""The 異議 form: what a disputing player is asked, within Discord's limits for
a form, and how its answers are read back."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from bot.i18n import Lang
from bot.ui.buttons import decide_time_form, dispute_form
from bot.ui.stateless import submitted_values

LABEL, STRING_SELECT, TEXT_INPUT = 18, 3, 4


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_form_asks_the_claim_both_counts_and_a_note_within_discords_limits(
    lang: Lang,
) -> None:
    form = dispute_form(12, 3, 4, "第 3 回戦" if lang == "ja" else "round 3", lang).to_dict()
    assert form["custom_id"] == "df:12:3:4"
    assert len(form["title"]) <= 45
    rows = form["components"]
    assert [row["type"] for row in rows] == [LABEL] * 4  # at most 5 in a form
    inner = [row["component"] for row in rows]
    assert [(c["type"], c["custom_id"]) for c in inner] == [
        (STRING_SELECT, "claim"),
        (TEXT_INPUT, "mine"),
        (TEXT_INPUT, "theirs"),
        (TEXT_INPUT, "reason"),
    ]
    assert [o["value"] for o in inner[0]["options"]] == ["win", "lose", "time"]
    assert [c.get("required", True) for c in inner] == [True, False, False, False]
    assert all(len(row["label"]) <= 45 for row in rows)
    assert all(len(row.get("description") or "") <= 100 for row in rows)
    if lang == "ja":
        assert [o["label"] for o in inner[0]["options"]] == ["勝ち", "負け", "時間切れ"]


def test_the_judges_counts_form_names_each_player_even_a_long_name() -> None:
    long = "とても長い名前のプレイヤーさん、その名は三十二文字まであります"
    form = decide_time_form(1, 2, 3, ((101, "ムギ"), (102, long)), "準決勝", "ja").to_dict()
    assert form["title"] == "時間切れ判定: 準決勝 テーブル 3"
    labels = [row["label"] for row in form["components"]]
    assert labels[0] == "ムギのポイント置き場の枚数"
    assert labels[1].endswith("…のポイント置き場の枚数")
    assert all(len(label) <= 45 for label in labels)


def test_the_answers_are_read_from_labels_text_inputs_and_the_select() -> None:
    data: dict[str, Any] = {
        "custom_id": "df:12:3:4",
        "components": [
            {
                "type": LABEL,
                "component": {"type": STRING_SELECT, "custom_id": "claim", "values": ["time"]},
            },
            {"type": LABEL, "component": {"type": TEXT_INPUT, "custom_id": "mine", "value": "1"}},
            {"type": 1, "components": [{"type": TEXT_INPUT, "custom_id": "theirs", "value": "４"}]},
            {
                "type": LABEL,
                "component": {"type": STRING_SELECT, "custom_id": "none", "values": []},
            },
        ],
    }
    values = submitted_values(SimpleNamespace(data=data))  # type: ignore[arg-type]
    assert values == {"claim": "time", "mine": "1", "theirs": "４", "none": ""}
