"""The one shape of a rule handler: the tournament, the operation, the time and the actor
in; the new tournament and what happened out (a refusal raises a keyed error)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from domain.tournament.events import Event
from domain.tournament.model import Tournament
from domain.tournament.operations import Actor

Applied = tuple[Tournament, tuple[Event, ...]]
Handler = Callable[[Tournament, Any, datetime, Actor], Applied]
