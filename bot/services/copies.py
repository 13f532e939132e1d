"""Copying a tournament: 「前回と同じ設定で作成」 and the next event of a repeating
one, made at its finish. One helper for both, used inside the caller's unit of work, so the
copy is created, and its settings logged, in the same transaction as what asked for it.

The copy is checked whole before anything is written (its event, then its settings applied
to it, by the domain's own rules): a copy that the rules would refuse refuses as a whole.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from bot.store.uow import Transaction
from domain.event import EventConfig
from domain.series.repeat import NextEvent, plan_next_event
from domain.tournament.apply import apply, create
from domain.tournament.model import Tournament
from domain.tournament.operations import ChangeSettings, CreateTournament, Repeat


@dataclass(frozen=True)
class PlannedCopy:
    source: Tournament
    planned: NextEvent
    repeated: bool  # made by the source's repeat at its finish

    @property
    def operations(self) -> tuple[CreateTournament, ChangeSettings | None]:
        created = CreateTournament(
            self.planned.config, copied_from=self.source.id, repeated=self.repeated
        )
        change = self.planned.settings_change
        return created, ChangeSettings(change) if change is not None else None


async def plan_copy(
    tx: Transaction,
    source: Tournament,
    repeat: Repeat,
    *,
    name: str | None = None,
    event_date: date | None = None,
    repeated: bool = False,
    config: EventConfig | None = None,
) -> PlannedCopy:
    """The copy of `source` (its next number unless `name`; a week or two later with a
    repeat, else `event_date`), with `config` in place of the source's event choices when
    given, checked by the rules; nothing is written."""
    planned = plan_next_event(
        config or source.config,
        source.settings,
        repeat,
        name=name,
        event_date=event_date,
        taken_names=await tx.tournament_names(),
    )
    copy = PlannedCopy(source, planned, repeated)
    created_op, settings_op = copy.operations
    draft, _ = create(created_op, tournament_id=0, guild_id=tx.guild_id, at=tx.at, actor=tx.actor)
    if settings_op is not None:
        apply(draft, settings_op, tx.at, tx.actor)
    return copy


async def create_copy(tx: Transaction, copy: PlannedCopy) -> Tournament:
    """Create the planned copy: its creation, then its copied settings, both logged."""
    created_op, settings_op = copy.operations
    created, _ = await tx.create(created_op)
    if settings_op is not None:
        created, _ = await tx.apply(created, settings_op)
    return created
