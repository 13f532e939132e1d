"""The deck fingerprint: a short stable hash of the normalised list (R-DECK-4)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.decks import Regulation, fingerprint, parse_decklist
from tests.domain.decks.helpers import EXAMPLES, check, legal_keion

KEION_TEXT = "# けいおん！\n4 01-001 平沢 唯\n4 01-002 秋山 澪\n2 P-012\n"


def test_fingerprint_is_12_hex_digits_and_stable() -> None:
    # R-DECK-4: a locked list can be checked later against the printed fingerprint.
    value = fingerprint(parse_decklist(KEION_TEXT))
    assert re.fullmatch(r"[0-9a-f]{12}", value)
    # A fixed value: changing the canonical form changes every published fingerprint.
    assert value == fingerprint(parse_decklist(KEION_TEXT))
    assert value == "32add79a4f36"


def test_order_width_names_comments_and_format_do_not_matter() -> None:
    # R-DECK-4: the same list in another order or in other widths gives the same fingerprint.
    reference = fingerprint(parse_decklist(KEION_TEXT))
    variants = [
        "# けいおん！\n2 P-012\n4 01-002\n4 01-001\n",
        "# けいおん!\n// comment\n４ ０１－００１ ひらさわ\n2x P-012\n4 01-002\n",
        "# けいおん！\n2 01-001\n2 01-001a\n4 01-002\n1 P-012\n1 P-012a\n",
        "count,title,number\n2,けいおん!,P-012\n4,けいおん！,01-001\n4,けいおん!,01-002\n",
    ]
    for text in variants:
        assert fingerprint(parse_decklist(text)) == reference, text


def test_a_changed_list_changes_the_fingerprint() -> None:
    reference = fingerprint(parse_decklist(KEION_TEXT))
    assert fingerprint(parse_decklist(KEION_TEXT.replace("2 P-012", "3 P-012"))) != reference
    assert fingerprint(parse_decklist(KEION_TEXT.replace("P-012", "P-013"))) != reference
    assert fingerprint(parse_decklist(KEION_TEXT.replace("けいおん！", "ゆるゆり"))) != reference


def test_resolved_titles_make_aliases_fingerprint_alike() -> None:
    alias = parse_decklist(KEION_TEXT.replace("# けいおん！", "# 映画けいおん！"))
    assert fingerprint(alias) != fingerprint(parse_decklist(KEION_TEXT))
    assert check(alias).fingerprint == check(parse_decklist(KEION_TEXT)).fingerprint


def test_the_example_files_share_one_fingerprint() -> None:
    text = check(parse_decklist((EXAMPLES / "keion.txt").read_bytes()), Regulation.SINGLE)
    csv = check(parse_decklist((EXAMPLES / "keion.csv").read_bytes()), Regulation.SINGLE)
    sjis = check(parse_decklist((EXAMPLES / "keion-sjis.csv").read_bytes()), Regulation.SINGLE)
    assert text.fingerprint == csv.fingerprint == sjis.fingerprint
    # The example is fifteen 4-ofs, 01-001 to 01-015: names do not count.
    assert check(legal_keion()).fingerprint == text.fingerprint


@settings(max_examples=60, deadline=None)
@given(st.permutations(KEION_TEXT.splitlines()[1:]), st.booleans())
def test_fingerprint_ignores_line_order_and_width(lines: list[str], wide: bool) -> None:
    body = "\n".join(lines)
    if wide:
        body = body.translate(str.maketrans("0123456789-P", "０１２３４５６７８９－Ｐ"))
    assert fingerprint(parse_decklist(f"# けいおん！\n{body}\n")) == fingerprint(
        parse_decklist(KEION_TEXT)
    )
