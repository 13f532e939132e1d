"""A refused setting, said in the reader's language: which setting is wrong, what it may
be, and where to correct it (the line of `.env`, or the environment variable that wins over
it), never quoting a secret (the token, a database URL and its password).

What a number may be is read from the setting's own bounds in `bot.config` (one rule in
one place); a setting whose value is text has its description in the catalogs
(`settings.expected.<field>`), and a validator's own refusal a reason
(`settings.problem.<its error type>`)."""

from __future__ import annotations

import os
import typing
from collections.abc import Mapping
from typing import Literal

from annotated_types import Ge, Gt, Le
from pydantic import SecretStr, ValidationError
from pydantic_core import ErrorDetails

from bot.config import Settings
from bot.i18n import Lang, catalog, t

# Sentences follow each other without a space in Japanese, with one in English.
_GAP: Mapping[Lang, str] = {"ja": "", "en": " "}
_LONGEST_SHOWN = 60


def settings_message(
    error: ValidationError, lang: Lang, environ: Mapping[str, str] | None = None
) -> str:
    """One line per refused setting, in `lang`."""
    found = os.environ if environ is None else environ
    return "\n".join(_problem(problem, lang, found) for problem in error.errors())


def _problem(problem: ErrorDetails, lang: Lang, environ: Mapping[str, str]) -> str:
    context = dict(problem.get("ctx") or {})
    field = str(context.pop("setting", "") or ".".join(map(str, problem["loc"]))).lower()
    if field not in Settings.model_fields:  # nothing here foresaw it: pydantic's own words
        return t("settings.unforeseen", lang, details=problem["msg"])
    name = field.upper()
    value = problem["input"]
    if isinstance(value, Mapping):  # a check of several settings: its input is all of them
        value = value.get(field)
    sentences = [_head(field, value, lang)]
    reason = f"settings.problem.{problem['type']}"
    if reason in catalog(lang):
        sentences.append(t(reason, lang, **{k: str(v) for k, v in context.items()}))
    sentences.append(expected(field, lang))
    wins = any(variable.upper() == name for variable in environ)
    sentences.append(
        t("settings.fix_environment" if wins else "settings.fix_env_file", lang, setting=name)
    )
    return _GAP[lang].join(sentences)


def _head(field: str, value: object, lang: Lang) -> str:
    name = field.upper()
    if is_secret(field) or not isinstance(value, str | int | float):
        return t("settings.invalid_hidden", lang, setting=name)
    shown = str(value)
    if not shown.strip():
        return t("settings.invalid_empty", lang, setting=name)
    if len(shown) > _LONGEST_SHOWN:
        shown = shown[: _LONGEST_SHOWN - 1] + "…"
    return t("settings.invalid", lang, setting=name, value=shown)


def is_secret(field: str) -> bool:
    """Whether the setting's value is never shown (a `SecretStr`: the token, DATABASE_URL)."""
    return SecretStr in _kinds(field)


def expected(field: str, lang: Lang) -> str:
    """What the setting may be, in `lang`: the catalog's words for a setting of text, else
    read from its type and bounds; with what to write when unsure."""
    described = f"settings.expected.{field}"
    if described in catalog(lang):
        return t(described, lang)
    info = Settings.model_fields[field]
    sentences = [_from_type(field, lang)]
    hint = f"settings.hint.{field}"
    if hint in catalog(lang):
        sentences.append(t(hint, lang))
    elif info.default is None:
        sentences.append(t("settings.empty_allowed", lang))
    else:
        sentences.append(t("settings.if_unsure", lang, default=_shown_default(info.default)))
    return _GAP[lang].join(sentences)


def _kinds(field: str) -> list[object]:
    annotation = Settings.model_fields[field].annotation
    if typing.get_origin(annotation) is Literal:
        return [annotation]
    found = typing.get_args(annotation) or (annotation,)
    return [kind for kind in found if kind is not type(None)]


def _from_type(field: str, lang: Lang) -> str:
    (kind,) = _kinds(field)
    if typing.get_origin(kind) is Literal:
        return t("settings.expected.choice", lang, choices=list(typing.get_args(kind)))
    if kind is bool:
        return t("settings.expected.bool", lang)
    if kind not in (int, float):
        raise LookupError(f"the catalogs describe no value of the setting {field.upper()}")
    noun = t(f"settings.kind.{'integer' if kind is int else 'number'}", lang)
    low: float | None = None
    above = False
    high: float | None = None
    for bound in Settings.model_fields[field].metadata:
        if isinstance(bound, Ge):
            low = float(bound.ge)  # type: ignore[arg-type]
        elif isinstance(bound, Gt):
            low, above = float(bound.gt), True  # type: ignore[arg-type]
        elif isinstance(bound, Le):
            high = float(bound.le)  # type: ignore[arg-type]
    if low is None:
        return t("settings.expected.any", lang, kind=noun)
    if high is None:
        return t("settings.expected.at_least", lang, kind=noun, low=_number(low))
    key = "settings.expected.above_at_most" if above else "settings.expected.between"
    return t(key, lang, kind=noun, low=_number(low), high=_number(high))


def _number(value: float) -> str:
    return str(int(value)) if value.is_integer() else str(value)


def _shown_default(value: object) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):
        return _number(value)
    return str(value)
