"""The delivery's order at the end of a round (issue 21), on real SQLite and PostgreSQL: once
the next round is paired, its pairings post goes out before what is still waiting of the
round before (its results told in its thread, its standings), even when the delivery was
already sending those. Players look for their new table first; nothing of the earlier
round is lost, it follows."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bot.delivery.loop import Delivery
from bot.notify.plan import Say
from bot.services import Services
from bot.store.outbox import SENT, Outgoing
from tests.services.conftest import LEGAL_DECK, NOW, organizer, player


class Recording(Delivery):
    """The real delivery, recording each notice instead of sending it to Discord. With
    `pair_meanwhile`, the organizer presses /round pair while it handles the first one."""

    def __init__(self, services: Services, *, pair_meanwhile: bool = False) -> None:
        store = services.rounds.store
        super().__init__(client=Any, store=store, clock=lambda: NOW)  # type: ignore[arg-type]
        store.commits.subscribe(self._committed)
        self.services = services
        self.pair_meanwhile = pair_meanwhile
        self.said: list[tuple[Say, Any]] = []

    async def _deliver(self, notice: Outgoing) -> int:
        self.said.append((notice.say, notice.data.get("round")))
        if self.pair_meanwhile and len(self.said) == 1:
            await self.services.rounds.pair(organizer(), None)
        await self.store.outbox.finish(notice.id, SENT, datetime.now())
        return 1


async def test_the_next_rounds_post_goes_before_what_is_left_of_the_round_before(
    configured: Services,
) -> None:
    services = configured
    await services.tournaments.create(organizer(), name="Cup", format="swiss", regulation="single")
    for number in range(1, 5):
        await services.registration.register(player(number), None)
        await services.decks.submit(player(number), None, LEGAL_DECK, "deck.csv")
    await services.lifecycle.start(organizer(), None)
    await services.rounds.pair(organizer(), None)
    await Recording(services).drain()  # round 1's post and everything before it went out
    _, first = await services.rounds.status(organizer(), None)
    for match in first.matches:
        winner, loser = match.players
        await services.rounds.report(player(winner - 100), None, "win")
        await services.rounds.report(player(loser - 100), None, "lose")

    delivery = Recording(services, pair_meanwhile=True)
    await delivery.drain()

    said = delivery.said
    round_one = [said for said in said if said[1] == 1]
    assert said[0][1] == 1  # the delivery was busy with round 1 when round 2 was paired
    assert said[1] == (Say.PAIRINGS, 2)  # round 2's post went next …
    assert said.index((Say.STANDINGS, 1)) > 1  # … before round 1's standings
    assert len(round_one) >= 4  # the results told, the round complete, the standings, …
    assert round_one[1:] == [s for s in said[2:] if s[1] == 1]  # … all of it still sent
    assert not await services.rounds.store.outbox.pending()
