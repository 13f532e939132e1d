"""The shipped data files. The only module of `domain.decks` that reads a file."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from domain.decks.titles import TitleCatalogue, load_titles

DATA_DIR = Path(__file__).resolve().parents[2] / "data"
TITLES_FILE = DATA_DIR / "titles.toml"


@cache
def default_titles() -> TitleCatalogue:
    """The 36 titles of the regulation's title-logo table, from `data/titles.toml`."""
    return load_titles(TITLES_FILE.read_bytes(), source="data/titles.toml")
