"""`t` fills a template from its pieces, cut once per template (parsing each template again
was most of a 2,048-table pairings post's rendering). Every template of both catalogs must
come out exactly as `string.Formatter` fills it."""

from __future__ import annotations

import string

import pytest

from bot.i18n import _COMMAND_MARKUP, Lang, _CatalogFormatter, catalog, command_ref, t


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_template_is_filled_as_the_formatter_fills_it(lang: Lang) -> None:
    checked = 0
    for key, template in catalog(lang).items():
        fields = {
            name: (2 if spec else f"<{name}>")  # a spec formats a number
            for _, name, spec, _ in string.Formatter().parse(template)
            if name
        }
        if not fields:
            continue
        marked = _COMMAND_MARKUP.sub(lambda m: command_ref(m[1], lang), template)
        expected = _CatalogFormatter(lang).format(marked, **fields)
        assert t(key, lang, **fields) == expected, key
        checked += 1
    assert checked > 100


def test_a_missing_parameter_is_still_an_error() -> None:
    key = next(k for k, v in catalog("en").items() if "{" in v and "[[" not in v)
    with pytest.raises(KeyError):
        t(key, "en", unrelated="x")
