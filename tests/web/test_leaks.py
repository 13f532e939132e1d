"""What the public (or any member) can read says nothing private: not another player's
penalties, not who is still changing their deck, not a database password."""

from __future__ import annotations

from bot.services.actors import Actor
from tests.web.conftest import Site


async def test_the_export_shows_a_player_only_their_own_penalties(finished: Site) -> None:
    event = finished.event
    judged = await finished.services.rounds.export(event.admin, event.ref)
    given = [p for row in judged.matches for p in row.penalties]
    assert given, "the demo gives a game loss in round 4"
    penalised = given[0].player_id
    # The penalised player sees theirs; any other member sees none (as /penalty list).
    own = await finished.services.rounds.export(event.by_id[penalised], event.ref)
    assert [p.player_id for row in own.matches for p in row.penalties] == [penalised]
    other = next(actor for actor in event.entrants if actor.user_id != penalised)
    theirs = await finished.services.rounds.export(other, event.ref)
    assert [p for row in theirs.matches for p in row.penalties] == []
    stranger = Actor(999_999, event.admin.guild_id, "Member")
    seen = await finished.services.rounds.export(stranger, event.ref)
    assert [p for row in seen.matches for p in row.penalties] == []
    # The judge still sees all.
    assert [p for row in judged.matches for p in row.penalties] == given
