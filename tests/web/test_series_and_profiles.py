"""Series and player records on the live page's JSON API: the series an event is in, and the
records of its players who chose to show them; read afresh (a series changes without the event
changing), without a user id, and not found like everything else when the page is hidden."""

from __future__ import annotations

import json

from bot.demo import FIRST_PLAYER_ID
from bot.services.actors import Actor
from tests.web.conftest import Site


async def test_the_series_and_the_chosen_profiles_are_served(finished: Site) -> None:
    slug = await finished.slug()
    services, admin = finished.services, finished.event.admin
    response = await finished.client.get(f"/t/{slug}/api/series.json")
    assert response.status == 200
    assert response.headers["Cache-Control"] == "no-cache"
    assert json.loads(await response.text()) == {"series": []}
    await services.series.create(admin, "Demo League")
    await services.series.add(admin, "Demo League", finished.event.ref)
    (series,) = json.loads(await (await finished.client.get(f"/t/{slug}/api/series.json")).text())[
        "series"
    ]
    tournament = await finished.tournament()
    assert series["name"] == "Demo League"
    assert len(series["standings"]) == len(tournament.players)
    assert series["standings"][0]["rank"] == 1
    assert series["standings"][0]["points"] == 11  # the winner: 10, and 1 for playing
    assert series["tiebreaks"][0] == "points"

    profiles = await finished.client.get(f"/t/{slug}/api/profiles.json")
    assert json.loads(await profiles.text()) == {"players": []}  # nobody chose to show theirs
    first = min(tournament.players)
    entry = tournament.players[first]
    await services.profiles.set_public(Actor(first, tournament.guild_id, entry.display_name), True)
    body = await (await finished.client.get(f"/t/{slug}/api/profiles.json")).text()
    (shown,) = json.loads(body)["players"]
    assert shown["name"] == entry.display_name
    assert shown["events_played"] == 1
    assert str(FIRST_PLAYER_ID)[:12] not in body  # no user id
    assert str(first) not in body

    await services.tournaments.set_page(admin, finished.event.ref, False)
    for part in ("series", "profiles"):
        hidden = await finished.client.get(f"/t/{slug}/api/{part}.json")
        assert hidden.status == 404
