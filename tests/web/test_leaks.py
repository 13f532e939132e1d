"""What the public (or any member) can read says nothing private: not another player's
penalties, not who is still changing their deck, not a database password."""

from __future__ import annotations

from dataclasses import replace

from bot.services.actors import Actor
from bot.services.live import changed_parts
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


async def test_a_list_changed_before_publication_moves_no_stamp(running: Site) -> None:
    private = await running.tournament()
    first, second = list(private.decks)[:2]
    swapped = {**private.decks, first: private.decks[second], second: private.decks[first]}
    assert "decklists" not in changed_parts(private, replace(private, decks=swapped))
    assert "titles" not in changed_parts(private, replace(private, decks=swapped))
    removed = {user: deck for user, deck in private.decks.items() if user != first}
    assert not {"decklists", "titles"} & changed_parts(private, replace(private, decks=removed))


async def test_a_list_changed_once_public_moves_its_stamps(finished: Site) -> None:
    public = await finished.tournament()
    first, second = list(public.decks)[:2]
    swapped = {**public.decks, first: public.decks[second], second: public.decks[first]}
    assert "decklists" in changed_parts(public, replace(public, decks=swapped))
