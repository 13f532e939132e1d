"""Every message the engine can produce exists in Japanese and English with the same
placeholders, and renders with the values the engine gives it."""

from __future__ import annotations

import re
from pathlib import Path

from bot.i18n import LANGUAGES, catalog, placeholders, t
from domain.engine import simulate

ENGINE_DIR = Path(__file__).resolve().parents[3] / "domain" / "engine"


def test_every_engine_key_is_in_both_catalogs_with_the_same_placeholders() -> None:
    used = set()
    for source in ENGINE_DIR.glob("*.py"):
        used |= set(re.findall(r'"(engine\.[a-z_]+\.[a-z_]+)"', source.read_text("utf-8")))
    assert used
    for key in used:
        for lang in LANGUAGES:
            assert key in catalog(lang), (lang, key)
        assert placeholders(catalog("ja")[key]) == placeholders(catalog("en")[key]), key
    engine_keys = {key for key in catalog("en") if key.startswith("engine.")}
    assert engine_keys == {key for key in catalog("ja") if key.startswith("engine.")}


def test_every_explanation_renders_in_both_languages() -> None:
    # R-FMT-3: pairings are explained; the explanation must be showable.
    seen = set()
    for players in (7, 16, 31):
        for played in simulate(players, 6, seed=players).rounds:
            for note in played.pairing.explanation:
                seen.add(note.key)
                for lang in LANGUAGES:
                    assert t(note.key, lang, **note.params)
    assert {"engine.explain.order", "engine.explain.bye_lowest"} <= seen
