"""Every interaction is acknowledged before anything of it is written, so a callback that
Discord refuses (its 503: the person sees "This interaction failed") never hides a stored
change. Held by construction, and checked here:

- a person's change reaches the database only through `Service.uow`, which awaits the
  actor's acknowledgement first (a refused one stops it with nothing written);
- the cogs build every actor with `actor_of`, which always carries the acknowledgement;
- the cogs answer through `reply` and `edit_answer` only, which answer the acknowledged
  interaction with its follow-up or its edit.

The end-to-end proof, with the fake Discord refusing callbacks for every kind of handler,
is tests/e2e/test_refused_callbacks_story.py.
"""

from __future__ import annotations

import ast
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.ui.messages import NotAcknowledged, acknowledge
from cogs.common import actor_of
from tests.conftest import REPO_ROOT
from tests.services.conftest import GUILD


def calls_in(folder: str) -> list[tuple[Path, ast.Call, str]]:
    """Every call in the folder's modules, with its dotted name (`self.store.write`)."""
    found = []
    for path in sorted((REPO_ROOT / folder).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                found.append((path, node, ast.unparse(node.func)))
    return found


def enclosing_functions(path: Path) -> dict[int, ast.AsyncFunctionDef | ast.FunctionDef]:
    """Line → the innermost function around it."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lines: dict[int, ast.AsyncFunctionDef | ast.FunctionDef] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.AsyncFunctionDef | ast.FunctionDef):
            for line in range(node.lineno, (node.end_lineno or node.lineno) + 1):
                known = lines.get(line)
                if known is None or known.lineno < node.lineno:
                    lines[line] = node
    return lines


def test_a_persons_change_is_written_only_through_the_unit_of_work() -> None:
    """The store's write transaction is opened by `Service.uow` (acknowledged first) and
    by `bookkeeping` (the bot's own: the clock, its posts), which no service method taking
    an actor uses."""
    writes = [
        (path.name, enclosing_functions(path)[node.lineno].name)
        for path, node, name in calls_in("bot/services")
        if name.endswith("store.write")
    ]
    assert sorted(writes) == [("base.py", "bookkeeping"), ("base.py", "uow")]
    for path, node, name in calls_in("bot/services"):
        if name == "self.bookkeeping":
            function = enclosing_functions(path)[node.lineno]
            parameters = [a.arg for a in function.args.args]
            assert "actor" not in parameters, f"{path.name}: {function.name}"


def test_the_cogs_make_every_actor_with_actor_of() -> None:
    built = [
        (path.relative_to(REPO_ROOT).as_posix(), enclosing_functions(path)[node.lineno].name)
        for path, node, name in calls_in("cogs")
        if name.split(".")[-1] == "Actor"
    ]
    assert built == [("cogs/common.py", "actor_of")]


def test_the_cogs_acknowledge_and_answer_only_through_the_helpers() -> None:
    """`interaction.response.send_message` / `edit_message` fail once the interaction is
    acknowledged: `reply` and `edit_answer` choose the response or the follow-up. And the
    cogs acknowledge with `acknowledge` (a refusal is then told apart: NotAcknowledged)."""
    direct = [
        f"{path.relative_to(REPO_ROOT)}:{node.lineno} {name}"
        for path, node, name in calls_in("cogs")
        if name.endswith(("response.send_message", "response.edit_message", "response.defer"))
    ]
    assert direct == []


class Response:
    """What `acknowledge` uses of discord.py's `InteractionResponse`."""

    def __init__(self, refuse: bool = False) -> None:
        self.deferred: list[dict[str, bool]] = []
        self.refuse = refuse

    def is_done(self) -> bool:
        return bool(self.deferred)

    async def defer(self, **options: bool) -> None:
        if self.refuse:
            raise discord.DiscordServerError(
                SimpleNamespace(status=503, reason="Service Unavailable"), "upstream"
            )
        self.deferred.append(options)


def interaction(kind: discord.InteractionType, *, message: bool, refuse: bool = False) -> Any:
    return SimpleNamespace(
        id=77,
        type=kind,
        message=object() if message else None,
        response=Response(refuse),
        user=SimpleNamespace(id=101, display_name="Alice"),
        permissions=discord.Permissions.none(),
        guild_id=GUILD,
        channel_id=5,
    )


async def test_the_actor_of_an_interaction_acknowledges_it_once_as_its_answer_needs() -> None:
    command = interaction(discord.InteractionType.application_command, message=False)
    actor = actor_of(command)
    assert actor.acknowledge is not None
    await actor.acknowledge()
    await actor.acknowledge()
    assert command.response.deferred == [{"ephemeral": True, "thinking": True}]
    # A button whose answer edits its message: a deferred update.
    button = interaction(discord.InteractionType.component, message=True)
    edits = actor_of(button, updates_message=True)
    assert edits.acknowledge is not None
    await edits.acknowledge()
    assert button.response.deferred == [{}]
    # A command has no message to update: a private answer follows instead.
    other = interaction(discord.InteractionType.application_command, message=False)
    await acknowledge(other, update=True)
    assert other.response.deferred == [{"ephemeral": True, "thinking": True}]


async def test_a_refused_acknowledgement_is_told_apart() -> None:
    refused = interaction(discord.InteractionType.component, message=True, refuse=True)
    with pytest.raises(NotAcknowledged) as stopped:
        await acknowledge(refused)
    assert stopped.value.error.status == 503
