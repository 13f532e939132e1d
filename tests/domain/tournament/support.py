"""Building tournaments for rule tests: create one, apply operations at a fixed time."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from domain.event import EventConfig, EventFormat
from domain.tournament.apply import apply, create
from domain.tournament.model import Tournament
from domain.tournament.operations import Actor, CreateTournament, Operation, Role, SubmitDeck
from domain.tournament.replay import LoggedOperation
from tests.conftest import REPO_ROOT

T0 = datetime(2026, 12, 1, 4, 0, tzinfo=UTC)
ORGANIZER = Actor(1, Role.ORGANIZER)
JUDGE = Actor(2, Role.JUDGE)
LEGAL_CSV = (REPO_ROOT / "data" / "examples" / "keion.csv").read_text(encoding="utf-8")


def player(number: int) -> Actor:
    return Actor(100 + number, Role.PLAYER)


def new_tournament(**config: object) -> Tournament:
    values: dict[str, object] = {
        "name": "Cup",
        "format": EventFormat.SWISS,
        "regulation": "single",
        "event_date": date(2026, 12, 1),
    }
    values.update(config)
    tournament, _ = create(
        CreateTournament(EventConfig(**values)),  # type: ignore[arg-type]
        tournament_id=1,
        guild_id=1000,
        at=T0,
        actor=ORGANIZER,
    )
    return tournament


class Clock:
    """Applies operations one minute apart, so arrival times differ."""

    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament
        self.at = T0

    def apply(self, operation: Operation, actor: Actor = ORGANIZER) -> Tournament:
        self.at += timedelta(minutes=1)
        self.tournament, self.events = apply(self.tournament, operation, self.at, actor)
        return self.tournament


def canonical_legal_deck() -> str:
    from domain.decks import check_deck, parse_decklist

    tournament = new_tournament()
    check = check_deck(parse_decklist(LEGAL_CSV, filename="deck.csv"), tournament.deck_rules())
    assert check.legal
    return check.decklist.canonical_csv()


def submit(player_id: int) -> SubmitDeck:
    return SubmitDeck(player_id, canonical_legal_deck())


class Logged:
    """Applies operations and keeps them as the action log keeps them (after `log`, the
    entries already there)."""

    def __init__(self, clock: Clock, log: tuple[LoggedOperation, ...] = ()) -> None:
        self.clock = clock
        self.log: list[LoggedOperation] = list(log)

    def apply(self, operation: Operation, actor: Actor = ORGANIZER) -> int:
        self.clock.apply(operation, actor)
        entry = LoggedOperation(
            len(self.log) + 1,
            operation.kind,
            operation.to_payload(),
            actor.user_id,
            actor.role,
            self.clock.at,
        )
        self.log.append(entry)
        return entry.id
