"""The command line's argument parser, in the terminal's language (`bot.i18n.cli_language`):
argparse's own words (the usage line, the section titles, the help option, its refusals) come
from the catalogs, so a Japanese terminal reads no English line, and an English one reads
what argparse says."""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable
from typing import Any, NoReturn

from bot.i18n import Lang, cli_language, t

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
                params["choices"] = ", ".join(_unquoted(params["choices"].split(", ")))
            if key == "invalid_value":
                params["kind"] = t(f"cli.argparse.{params['kind']}", lang)
            return t(f"cli.argparse.{key}", lang, **params)
    return message  # our own type functions' words, already in the terminal's language


def _unquoted(choices: Iterable[str]) -> list[str]:
    return [choice.strip("'") for choice in choices]


class LocalizedHelpFormatter(argparse.HelpFormatter):
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
