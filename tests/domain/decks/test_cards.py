"""Card identity and normalisation (R-DECK-2, R-DECK-3)."""

from __future__ import annotations

import pytest

from domain.decks import CardKey, base_number, card_number, normalise_number, normalise_text


@pytest.mark.parametrize(
    ("written", "canonical"),
    [
        ("01-001", "01-001"),
        ("12-034a", "12-034a"),
        ("P-012", "P-012"),
        ("P-012a", "P-012a"),
        ("p-012", "P-012"),
        ("０１－００１", "01-001"),  # full width (NFKC)
        ("01ー001", "01-001"),  # katakana long-vowel mark typed for a hyphen
        ("01−001", "01-001"),  # minus sign
        (" 01-001 ", "01-001"),
        ("01-001A", "01-001a"),
    ],
)
def test_numbers_are_normalised(written: str, canonical: str) -> None:
    assert normalise_number(written) == canonical


@pytest.mark.parametrize(
    "written", ["", "01", "01-", "-001", "01-1", "01_001", "平沢唯", "01-001-2"]
)
def test_non_numbers_are_rejected(written: str) -> None:
    assert normalise_number(written) is None


@pytest.mark.parametrize(
    ("number", "identity"),
    [("01-001a", "01-001"), ("12-034a", "12-034"), ("P-012a", "P-012"), ("01-001", "01-001")],
)
def test_parallel_letters_are_ignored(number: str, identity: str) -> None:
    # R-DECK-3: a trailing letter marks a parallel card, the same card as without it.
    assert base_number(number) == identity
    assert card_number(number) == identity


def test_a_card_is_a_title_and_a_number() -> None:
    # R-DECK-2: the same card = same title AND same card number.
    assert CardKey("けいおん！", "01-001") == CardKey("けいおん！", card_number("01-001a") or "")
    assert CardKey("けいおん！", "01-001") != CardKey("ゆるゆり", "01-001")
    assert str(CardKey("けいおん！", "01-001")) == "けいおん！ 01-001"


def test_text_is_nfkc_with_collapsed_spaces() -> None:
    assert normalise_text("ＷＯＲＫＩＮＧ！！") == "WORKING!!"
    assert normalise_text("  百花繚乱\u3000 サムライガールズ ") == "百花繚乱 サムライガールズ"
