"""Words that hold: no issue number in the code, and no pointer to a section that is gone.

An issue's number tells the next reader nothing; the feature or behaviour it was about does.
Every .py file of the house, its tests, benches and docs scripts is read as text, so a
number in a comment, a docstring, a string or a test's name is found, and so is one split
across a comment's lines. A measured figure lives in docs/BENCHMARKS.md, and code that needs
it names the section that holds it: that section must exist.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import REPO_ROOT

FOLDERS = ("bot", "cogs", "domain", "tests", "bench", "docs")

# The word, singular or plural, in any case, then spaces, underscores, a hash or a comment's
# line break, then a digit (the test below plants each form). Not "issued" nor "tissue".
ISSUE_NUMBER = re.compile(r"(?<![a-z])issues?[\s_#]*\d", re.IGNORECASE)


def issue_numbers(paths: list[Path], root: Path) -> list[str]:
    """`path:line: text` of every issue number in the files."""
    found = []
    for path in paths:
        text = path.read_text(encoding="utf-8")
        for match in ISSUE_NUMBER.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            words = " ".join(match.group().split())
            found.append(f"{path.relative_to(root)}:{line}: {words}")
    return found


def python_files(root: Path) -> list[Path]:
    return [path for folder in FOLDERS for path in sorted((root / folder).rglob("*.py"))]


def test_no_issue_numbers_in_the_code() -> None:
    assert issue_numbers(python_files(REPO_ROOT), REPO_ROOT) == []


def test_the_reader_finds_a_planted_issue_number(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "bench").mkdir()
    word = "Issue"  # written in two pieces, so that this file stays clean itself
    (tmp_path / "tests" / "test_planted.py").write_text(
        f'"""{word} 24\'s notices."""\n\n'
        f"def test_before_{word.lower()}_24() -> None:\n"
        f"    # Pairing reads each round's tally ({word.lower()}\n"
        "    # 21) instead of folding every match again.\n"
        f"    assert '{word.lower()}s 22 and 24, {word.upper()} #12'\n",
        encoding="utf-8",
    )
    (tmp_path / "bench" / "clean.py").write_text(
        '"""A token issued 3 times; tissue 4; the issue of a new id."""\n', encoding="utf-8"
    )
    found = issue_numbers(python_files(tmp_path), tmp_path)
    assert [hit.split(": ")[0] for hit in found] == [
        "tests/test_planted.py:1",
        "tests/test_planted.py:3",
        "tests/test_planted.py:4",
        "tests/test_planted.py:6",
        "tests/test_planted.py:6",
    ]
    assert found[2].endswith(f"{word.lower()} # 2")


# Figures live in docs/BENCHMARKS.md (and docs/OPERATIONS.md); code that needs one names the
# section that holds it: `docs/BENCHMARKS.md, "How the time was found"`, the heading's words
# (a "…" stands for words left out), across a comment's lines too.
CITATION = re.compile(r"docs/(BENCHMARKS|OPERATIONS)\.md,\s*(?:#\s*)?\"([^\"]+)\"")


def headings(document: Path) -> list[str]:
    lines = document.read_text(encoding="utf-8").splitlines()
    return [line.lstrip("#").strip().lower() for line in lines if line.startswith("#")]


def names_a_heading(cited: str, found: list[str]) -> bool:
    pieces = [piece.strip().lower() for piece in cited.split("…") if piece.strip()]

    def holds(heading: str) -> bool:
        at = 0
        for piece in pieces:
            at = heading.find(piece, at)
            if at < 0:
                return False
            at += len(piece)
        return True

    return any(holds(heading) for heading in found)


def missing_sections(paths: list[Path], root: Path) -> list[str]:
    """`path:line: document "words"` of every cited section no heading of the document has."""
    documents: dict[str, list[str]] = {}
    found = []
    for path in paths:
        text = path.read_text(encoding="utf-8")
        for match in CITATION.finditer(text):
            name = match.group(1)
            if name not in documents:
                documents[name] = headings(root / "docs" / f"{name}.md")
            cited = re.sub(r"\s*\n\s*(?:#\s*)?", " ", match.group(2))
            if not names_a_heading(cited, documents[name]):
                line = text.count("\n", 0, match.start()) + 1
                found.append(f'{path.relative_to(root)}:{line}: {name}.md "{cited}"')
    return found


def test_every_cited_section_exists() -> None:
    assert missing_sections(python_files(REPO_ROOT), REPO_ROOT) == []


def test_the_reader_finds_a_section_that_is_not_there(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "bot").mkdir()
    (tmp_path / "docs" / "BENCHMARKS.md").write_text(
        "# Benchmarks\n\n## The burst: `bench/burst.py`\n\ntext, not a heading: Gone\n",
        encoding="utf-8",
    )
    document = "docs/" + "BENCHMARKS.md"  # in two pieces, so that this file cites nothing
    (tmp_path / "bot" / "cited.py").write_text(
        f'"""Slow ({document}, "The burst: `bench/burst.py`").\n\n'
        f'Also ({document}, "the … burst") and ({document}, "Gone")."""\n\n'
        f'# A pause ({document}, "The\n# burst").\n',
        encoding="utf-8",
    )
    assert missing_sections(python_files(tmp_path), tmp_path) == [
        'bot/cited.py:3: BENCHMARKS.md "Gone"'
    ]
