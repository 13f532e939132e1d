"""The command line's argument parser, in the terminal's language (`bot.i18n.cli_language`):
argparse's own words (the usage line, the section titles, the help option, its refusals) come
from the catalogs, so a Japanese terminal reads no English line, and an English one reads
what argparse says."""

from __future__ import annotations

import argparse
import re
import sys
import unicodedata
from collections.abc import Iterable
from typing import Any, NoReturn

from bot.i18n import Lang, cli_language, join_list, t

# argparse's refusals (Python 3.11–3.13), each with the catalog line that says it.
_REFUSALS = (
    (re.compile(r"the following arguments are required: (?P<names>.+)"), "required"),
    (re.compile(r"unrecognized arguments: (?P<names>.+)"), "unrecognized"),
    (re.compile(r"ambiguous option: (?P<option>\S+) could match (?P<matches>.+)"), "ambiguous"),
    (re.compile(r"argument (?P<name>[^:]+): (?P<message>.+)", re.S), "argument"),
)
_ARGUMENT_REFUSALS = (
    (
        re.compile(r"invalid choice: '(?P<value>.*)' \(choose from (?P<choices>.+)\)"),
        "invalid_choice",
    ),
    (re.compile(r"invalid (?P<kind>int|float) value: '(?P<value>.*)'"), "invalid_value"),
    (re.compile(r"expected one argument"), "expected_one"),
    (re.compile(r"not allowed with argument (?P<other>.+)"), "not_allowed"),
)


def argparse_message(message: str, lang: Lang) -> str:
    """argparse's refusal `message` in `lang`; one it never said before is left as it is."""
    for pattern, key in _REFUSALS:
        found = pattern.fullmatch(message)
        if found is None:
            continue
        params = found.groupdict()
        if key == "required":  # argparse joins them with ", ": a list in the reader's way
            params["names"] = join_list(params["names"].split(", "), lang)
        if key == "argument":
            params["message"] = _argument_message(params["message"], lang)
        return t(f"cli.argparse.{key}", lang, **params)
    return message


def _argument_message(message: str, lang: Lang) -> str:
    for pattern, key in _ARGUMENT_REFUSALS:
        found = pattern.fullmatch(message)
        if found is not None:
            params = found.groupdict()
            if key == "invalid_choice":
                params["choices"] = join_list(_unquoted(params["choices"].split(", ")), lang)
            if key == "invalid_value":
                params["kind"] = t(f"cli.argparse.{params['kind']}", lang)
            return t(f"cli.argparse.{key}", lang, **params)
    return message  # our own type functions' words, already in the terminal's language


def _unquoted(choices: Iterable[str]) -> list[str]:
    return [choice.strip("'") for choice in choices]


# A run of characters kept on one line: a word of Latin letters, a setting's name, an
# option, an address (broken nowhere inside), or one Japanese character (broken anywhere).
_UNITS = re.compile(r"[!-~]+|\s+|.", re.S)
# Marks that never begin a line in Japanese (禁則): they stay after what they close.
_NO_LINE_START = frozenset("、。，．）」』】〉》・：；？！ー,.;:)]}!?")


def display_width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def wrap(text: str, width: int) -> list[str]:
    """`text` in lines of at most `width` columns as a terminal shows them (a Japanese
    character takes two), broken between Japanese characters or at spaces, never inside
    a word of Latin letters (textwrap counted characters and broke 「DATABASE_URL」)."""
    lines: list[str] = []
    line = ""
    for unit in _UNITS.findall(" ".join(text.split())):
        if unit.isspace():
            if line:
                line += " "
            continue
        fits = display_width(line.rstrip() + unit) <= width if line else True
        if fits or unit[0] in _NO_LINE_START:
            line += unit
        else:
            lines.append(line.rstrip())
            line = unit
    if line.strip():
        lines.append(line.rstrip())
    return lines


class LocalizedHelpFormatter(argparse.HelpFormatter):
    """argparse's help, measured as a terminal shows it: a Japanese value's name
    (「ファイル」) is twice as wide as its characters, and a Japanese sentence is broken
    between characters, not inside 「DATABASE_URL」."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return wrap(text, width)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "\n".join(indent + line for line in wrap(text, width - len(indent)))

    def add_argument(self, action: argparse.Action) -> None:
        super().add_argument(action)
        if action.help is not argparse.SUPPRESS:
            actions = [action, *self._iter_indented_subactions(action)]
            widest = max(display_width(self._format_action_invocation(a)) for a in actions)
            self._action_max_length = max(self._action_max_length, widest + self._current_indent)

    def _format_action(self, action: argparse.Action) -> str:
        # argparse's own (Python 3.11–3.13), with the invocation measured by its width.
        help_position = min(self._action_max_length + 2, self._max_help_position)
        help_width = max(self._width - help_position, 11)
        action_width = help_position - self._current_indent - 2
        header = self._format_action_invocation(action)
        indent = " " * self._current_indent
        indent_first = 0
        if not action.help:
            header = f"{indent}{header}\n"
        elif display_width(header) <= action_width:
            header = f"{indent}{header}{' ' * (action_width - display_width(header))}  "
        else:
            header = f"{indent}{header}\n"
            indent_first = help_position
        parts = [header]
        if action.help and action.help.strip():
            help_text = self._expand_help(action)
            if help_text:
                lines = self._split_lines(help_text, help_width)
                parts.append(" " * indent_first + lines[0] + "\n")
                parts.extend(" " * help_position + line + "\n" for line in lines[1:])
        elif not header.endswith("\n"):
            parts.append("\n")
        parts.extend(self._format_action(sub) for sub in self._iter_indented_subactions(action))
        return self._join_parts(parts)

    def add_usage(
        self,
        usage: str | None,
        actions: Iterable[argparse.Action],
        groups: Iterable[argparse._MutuallyExclusiveGroup],
        prefix: str | None = None,
    ) -> None:
        if prefix is None:
            prefix = t("cli.usage", cli_language())
        super().add_usage(usage, actions, groups, prefix)


class CliParser(argparse.ArgumentParser):
    """An ArgumentParser whose own words are the catalogs' (subcommands' parsers are made
    of this class too)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", LocalizedHelpFormatter)
        kwargs["add_help"] = False
        super().__init__(*args, **kwargs)
        lang = cli_language()
        self._positionals.title = t("cli.positionals", lang)
        self._optionals.title = t("cli.options", lang)
        self.add_argument(
            "-h",
            "--help",
            action="help",
            default=argparse.SUPPRESS,
            help=t("cli.help_option", lang),
        )

    def error(self, message: str) -> NoReturn:
        lang = cli_language()
        self.print_usage(sys.stderr)
        said = t("cli.error", lang, prog=self.prog, message=argparse_message(message, lang))
        self.exit(2, said + "\n")
