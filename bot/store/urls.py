"""Database URLs read as written: whether one parses, and what of it must never be shown.
Pure functions, for the settings (which refuse a URL that does not parse) and the store
(which shows a URL only without its password)."""

from __future__ import annotations

from urllib.parse import parse_qsl, unquote, urlsplit, urlunsplit


def is_postgres_url(location: str) -> bool:
    """A PostgreSQL database's URL, not an SQLite file's path."""
    return location.startswith(("postgresql://", "postgres://"))


# What is wrong with a postgresql:// URL, by code (the settings' messages name each in the
# reader's language, `settings.problem.database_url_<code>`), with the words of the log.
_ENCODE = (
    "the password (or user name) holds a character that must be percent-encoded: "
    "? as %3F, # as %23, / as %2F, @ as %40, : as %3A"
)
URL_PROBLEMS = {
    "encode": _ENCODE,
    "port": "the port must be a number (1-65535)",
    "host": "a postgresql:// URL needs a host: postgresql://user@host/db",
    "parameters": f"the parameters after ? must be name=value pairs joined by & ({_ENCODE})",
}


def postgres_url_problem(text: str) -> str | None:
    """Why a postgresql:// URL would not be read as written (a code of `URL_PROBLEMS`), or
    None. A password holding an unencoded `?`, `#`, `/` or `@` moves where the URL's parts
    begin (the driver would then read a piece of the password as a port or a parameter, and
    print it), so such a URL is refused here; the message says what to do and quotes
    nothing of the URL."""
    parts = urlsplit(text)
    rest = text.split("://", 1)[1][len(parts.netloc) :]
    if "@" in rest or parts.netloc.count("@") > 1:
        return "encode"
    try:
        port = parts.port
    except ValueError:
        port = None
        return "encode" if "@" not in parts.netloc else "port"
    if port == 0:
        return "port"
    if not parts.hostname and "host=" not in parts.query:
        return "host"
    try:
        parse_qsl(parts.query, keep_blank_values=True, strict_parsing=bool(parts.query))
    except ValueError:
        return "parameters"
    return None


def url_secrets(text: str) -> list[str]:
    """The password of a database URL as written, however malformed the URL (between the
    user name's `:` and the last `@`), decoded too, and its pieces between the characters
    that would cut it: what no output may show."""
    _, found, rest = text.partition("://")
    if not found or "@" not in rest:
        return []
    userinfo = rest.rsplit("@", 1)[0]
    _, colon, password = userinfo.partition(":")
    if not colon or not password:
        return []
    found_all = {password, unquote(password)}
    for cut in "?#/@:&=":
        found_all |= {piece for piece in password.split(cut) if len(piece) >= 3}
    return sorted(found_all, key=len, reverse=True)


def safe_url(url: str) -> str:
    """The URL with its password replaced by ***: what logs and messages may show (only
    the scheme of a URL that does not parse as written)."""
    if "://" in url and postgres_url_problem(url) is not None:
        return url.split("://", 1)[0] + "://***"
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    if parts.port is not None:
        host += f":{parts.port}"
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))
