"""Turning the live views into bytes: JSON for the API and the page's script, and the one
HTML shell the script fills in.

Escaping lives in one place: `html_text` for text in the HTML, `script_json` for data in
the page (a JSON island the script reads; `<`, `>` and `&` are escaped so no name can end
the script element). The page's script puts every name into the page as text
(`textContent`), never as markup, and the Content-Security-Policy allows no inline script.
"""

from __future__ import annotations

import dataclasses
import hashlib
import html
import json
from datetime import date, datetime
from fractions import Fraction
from functools import cache
from pathlib import Path
from string import Template
from typing import Any

from bot.i18n import Lang, catalog

STATIC_DIR = Path(__file__).with_name("static")
TEMPLATE = Template((Path(__file__).with_name("page.html")).read_text(encoding="utf-8"))
LANGS: tuple[Lang, ...] = ("ja", "en")

# The page's texts: its own, and the event's words the Discord side already has.
TEXT_PREFIXES = ("web.page.", "ui.format.", "ui.regulation.", "ui.state.", "bracket.")


def _encodable(value: Any) -> Any:
    """What `json` cannot write itself, one level at a time (json walks the rest in C):
    a view's dataclass as its fields, a date as ISO 8601, a fraction as a whole number or a
    float of 2 decimals."""
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else round(float(value), 2)
    if isinstance(value, datetime | date):
        return value.isoformat()
    names = _field_names(type(value))
    if names is None:
        raise TypeError(f"{type(value).__name__} is not JSON serializable")
    found = getattr(value, "__dict__", None)
    if found is not None and len(found) == len(names):
        return found  # exactly the fields (the fast path: no copy)
    return {name: getattr(value, name) for name in names}


def _field_names(kind: type) -> tuple[str, ...] | None:
    if kind not in _FIELD_NAMES:
        names = None
        if dataclasses.is_dataclass(kind):
            names = tuple(field.name for field in dataclasses.fields(kind))
        _FIELD_NAMES[kind] = names
    return _FIELD_NAMES[kind]


_FIELD_NAMES: dict[type, tuple[str, ...] | None] = {}


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), default=_encodable)


def json_str(value: Any) -> str:
    """A view (frozen dataclasses of plain values, tuples, dates, fractions) as JSON."""
    return _ENCODER.encode(value)


def json_bytes(value: Any) -> bytes:
    return json_str(value).encode()


def html_text(value: object) -> str:
    """Text for HTML (element content or a quoted attribute)."""
    return html.escape(str(value), quote=True)


class RawJson(str):
    """JSON text made earlier (a part's cached answer), put into a larger document as is."""


def json_text(value: Any) -> str:
    """`value` as JSON, with any `RawJson` inside spliced in rather than encoded again."""
    if isinstance(value, RawJson):
        return str(value)
    if isinstance(value, dict):
        items = (
            f"{json.dumps(str(k), ensure_ascii=False)}:{json_text(v)}" for k, v in value.items()
        )
        return "{" + ",".join(items) + "}"
    return json_str(value)


def script_json(value: Any) -> str:
    """Data for a `<script type="application/json">` island: nothing in it can close the
    element or start a comment."""
    text = json_text(value)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


@cache
def texts(lang: Lang) -> dict[str, str]:
    """The page's texts in `lang`, keyed without the catalog's prefix for the page's own."""
    found = {}
    for key, text in catalog(lang).items():
        if key.startswith(TEXT_PREFIXES):
            found[key.removeprefix("web.page.")] = text
    return found


def isolated(name: str) -> str:
    """A name inside a sentence, its direction its own (FSI … PDI): where no markup can go
    (the window's title), a right-to-left override in a name ends with the name."""
    return f"\u2068{name}\u2069"


def text(lang: Lang, key: str, **params: object) -> str:
    template = texts(lang)[key]
    return template.format(**params) if params else template


@cache
def asset_version() -> str:
    """A digest of the static files: their URLs change when they do, so they can be cached."""
    digest = hashlib.sha256()
    for path in sorted(STATIC_DIR.iterdir()):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def page_html(
    *,
    lang: Lang,
    title: str,
    section: str,
    data: dict[str, Any],
    other_lang_href: str,
) -> bytes:
    """The page's shell: the header the script fills in, and the data it starts from."""
    values = {
        "lang": lang,
        "title": html_text(title),
        "heading": html_text(data.get("name", title)),
        "section": html_text(section),
        "version": asset_version(),
        "data": script_json(data),
        "noscript": html_text(text(lang, "noscript")),
        "switch_href": html_text(other_lang_href),
        "switch_label": html_text(text(lang, "switch_language")),
        "other_lang": "en" if lang == "ja" else "ja",
    }
    return TEMPLATE.substitute(values).encode()


def not_found_html(lang: Lang) -> bytes:
    """The one answer for every hidden, unpublished or unknown page."""
    title = html_text(text(lang, "not_found_title"))
    body = html_text(text(lang, "not_found_text"))
    return (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{title}</title>"
        f'<link rel="stylesheet" href="/static/style.css?v={asset_version()}">'
        f'</head><body class="notfound"><main><h1>{title}</h1><p>{body}</p></main></body></html>'
    ).encode()


def choose_lang(asked: str | None, accept_language: str | None) -> Lang:
    """`?lang=` when given, else the first of Japanese and English the browser prefers
    (Japanese when it names neither)."""
    if asked in LANGS:
        return asked
    ranked: list[tuple[float, int, Lang]] = []
    for index, part in enumerate((accept_language or "").split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        primary = tag.strip().lower().split("-")[0]
        if primary in LANGS and quality > 0:
            ranked.append((-quality, index, primary))
    return min(ranked)[2] if ranked else "ja"
