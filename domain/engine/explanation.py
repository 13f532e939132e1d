"""Why a pairing came out as it did, as message keys and values (never text).

The bot renders each `Explanation` with the catalogs in `bot/locales/*/engine.toml`
(keys under `engine.explain`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Explanation:
    key: str
    params: Mapping[str, str | int] = field(default_factory=dict)
