"""The layer table of DESIGN.md, enforced: who may import whom.

An AST walk over every module (imports inside functions and TYPE_CHECKING blocks count).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT

# (folder, import prefixes it must never use)
FORBIDDEN: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("domain", ("bot", "cogs", "discord", "aiosqlite", "asyncpg")),
    ("bot/services", ("discord", "cogs", "bot.ui", "bot.delivery", "sqlite3", "asyncpg")),
    # The unit of work writes the plan's notices to the outbox; it never sends them.
    (
        "bot/store",
        ("discord", "cogs", "bot.services", "bot.ui", "bot.delivery", "bot.config"),
    ),
    ("bot/ui", ("bot.store", "bot.services.base", "bot.delivery", "aiosqlite", "asyncpg", "cogs")),
    # The contract of telling is pure: the delivery (the Discord half) sits above it.
    ("bot/notify", ("cogs", "bot.services", "bot.store", "bot.ui", "bot.delivery", "discord")),
    # The delivery sends the outbox; it never runs a use case or a command.
    ("bot/delivery", ("cogs", "bot.services", "bot.web", "bot.cli")),
    ("cogs", ("bot.store", "bot.notify", "aiosqlite", "asyncpg", "sqlite3")),
    # The live page reads through the services only, and knows nothing of Discord.
    ("bot/web", ("discord", "cogs", "bot.ui", "bot.store", "aiosqlite", "sqlite3", "bot.cli")),
)
# The plan is pure: it reads the domain's events and says who is told what.
PURE_MODULES = tuple(
    str(path.relative_to(REPO_ROOT)) for path in sorted((REPO_ROOT / "bot/notify").rglob("*.py"))
)
# Only the store talks to the database.
DATABASE_DRIVERS = ("aiosqlite", "asyncpg")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO_ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def import_statements(path: Path) -> list[tuple[str, tuple[str, ...]]]:
    """(module, names imported from it) of every absolute import in the file, at any depth:
    `import a.b` gives ("a.b", ()), `from a import b, c` gives ("a", ("b", "c"))."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[str, tuple[str, ...]]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, ()) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.module, tuple(alias.name for alias in node.names)))
    return found


def imported_modules(path: Path) -> set[str]:
    return {module for module, _ in import_statements(path)}


def violations(folder: str, forbidden: tuple[str, ...]) -> list[str]:
    found = []
    for path in sorted((REPO_ROOT / folder).rglob("*.py")):
        for module in imported_modules(path):
            if any(module == prefix or module.startswith(prefix + ".") for prefix in forbidden):
                found.append(f"{path.relative_to(REPO_ROOT)} imports {module}")
    return found


@pytest.mark.parametrize(("folder", "forbidden"), FORBIDDEN, ids=[f for f, _ in FORBIDDEN])
def test_layer_imports(folder: str, forbidden: tuple[str, ...]) -> None:
    assert violations(folder, forbidden) == []


def test_the_walk_sees_a_forbidden_import(tmp_path: Path) -> None:
    module = tmp_path / "sample.py"
    module.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from bot.store.tournaments import load_tournament\n"
        "def f():\n    import discord\n",
        encoding="utf-8",
    )
    assert imported_modules(module) >= {"bot.store.tournaments", "discord"}


HOUSE = ("domain", "bot", "cogs")

# The floors, lowest first: a module may import modules of its own floor or lower ones,
# never higher (docs/ARCHITECTURE.md draws them). Every module of the house is on one: a
# prefix names a module and the modules under it, except the bare package "bot" (its
# __init__), which names itself only, so that a new top-level module must choose a floor.
FLOORS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("the domain", ("domain",)),
    ("the kernel", ("bot.errors", "bot.i18n", "bot.worker", "bot.outage", "bot.shutdown")),
    ("the contract of telling", ("bot.notify",)),
    ("the store", ("bot.store",)),
    ("the settings", ("bot.config",)),
    ("the services", ("bot.services",)),
    ("the presentation", ("bot.ui",)),
    ("the adapters", ("bot.delivery", "bot.web", "cogs")),
    (
        "the bot",
        (
            "bot",
            "bot.app",
            "bot.cli",
            "bot.__main__",
            "bot.command_sync",
            "bot.demo",
            "bot.logging_setup",
        ),
    ),
)


def module_name_in(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def import_graph(*folders: str, root: Path = REPO_ROOT) -> dict[str, set[str]]:
    """Module → the modules of `folders` it imports (`from a import b` of a submodule b is
    an import of a.b), at any depth: in functions and TYPE_CHECKING blocks too."""
    paths = [path for folder in folders for path in sorted((root / folder).rglob("*.py"))]
    modules = {module_name_in(root, path) for path in paths}
    graph: dict[str, set[str]] = {}
    for path in paths:
        found: set[str] = set()
        for module, names in import_statements(path):
            # A submodule's package is imported first anyway, as for any import.
            submodules = {f"{module}.{name}" for name in names} & modules
            found |= submodules or {module}
        graph[module_name_in(root, path)] = found & modules
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of two or more modules (or one importing itself)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1 or node in graph.get(node, ()):
                cycles.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return cycles


def floor_of(module: str) -> int | None:
    """The floor a module stands on: the one whose longest prefix names it."""
    best: tuple[int, int] | None = None  # (prefix length, floor)
    for number, (_, prefixes) in enumerate(FLOORS):
        for prefix in prefixes:
            under = prefix != "bot" and module.startswith(prefix + ".")
            if (module == prefix or under) and (best is None or len(prefix) > best[0]):
                best = (len(prefix), number)
    return None if best is None else best[1]


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """Every import from a lower floor to a higher one, and every module on no floor."""
    found = []
    for module in sorted(graph):
        floor = floor_of(module)
        if floor is None:
            found.append(f"{module} is on no floor")
            continue
        for target in sorted(graph[module]):
            above = floor_of(target)
            if above is not None and above > floor:
                found.append(f"{module} ({FLOORS[floor][0]}) imports {target} ({FLOORS[above][0]})")
    return found


def test_the_house_has_no_import_circle() -> None:
    assert import_cycles(import_graph(*HOUSE)) == []


def test_no_floor_imports_a_higher_one() -> None:
    assert upward_imports(import_graph(*HOUSE)) == []


def test_the_cycle_finder_sees_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert import_cycles(graph) == [["a", "b", "c"], ["e"]]
    assert import_cycles({"a": {"b"}, "b": set()}) == []


def plant(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_the_checker_fails_on_a_planted_circle(tmp_path: Path) -> None:
    """Two store modules importing each other, one of them only inside a function (as the
    old database ↔ postgres circle hid itself)."""
    plant(
        tmp_path,
        {
            "bot/__init__.py": "",
            "bot/store/__init__.py": "",
            "bot/store/one.py": "from bot.store.two import b\n",
            "bot/store/two.py": "def b():\n    from bot.store import one\n",
        },
    )
    graph = import_graph("bot", root=tmp_path)
    assert import_cycles(graph) == [["bot.store.one", "bot.store.two"]]


def test_the_checker_fails_on_a_planted_upward_import(tmp_path: Path) -> None:
    plant(
        tmp_path,
        {
            "domain/__init__.py": "",
            "domain/rules.py": "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from bot.services import Services\n",
            "bot/__init__.py": "",
            "bot/services/__init__.py": "import domain.rules\n",
            "cogs/__init__.py": "",
            "cogs/thing.py": "from bot.app import TournamentBot\n",
            "bot/app.py": "import cogs.thing\n",
            "bot/stray.py": "",
        },
    )
    graph = import_graph(*HOUSE, root=tmp_path)
    assert upward_imports(graph) == [
        "bot.stray is on no floor",
        "cogs.thing (the adapters) imports bot.app (the bot)",
        "domain.rules (the domain) imports bot.services (the services)",
    ]
    assert import_cycles(graph) == [["bot.app", "cogs.thing"], ["bot.services", "domain.rules"]]


def test_the_storage_backends_are_peers() -> None:
    """SQLite and PostgreSQL each import the interface, never each other; only the front
    that opens a database by its location (and the copy between them) knows both."""
    graph = import_graph("bot", "cogs")
    peers = {"bot.store.sqlite", "bot.store.postgres"}
    knows = {module for module, targets in graph.items() if targets & peers}
    assert knows <= {"bot.store.database", "bot.store.copy"}
    assert not graph["bot.store.sqlite"] & peers
    assert not graph["bot.store.postgres"] & peers


def python_files(*folders: str) -> list[Path]:
    return sorted(path for folder in folders for path in (REPO_ROOT / folder).rglob("*.py"))


@pytest.mark.parametrize("module", PURE_MODULES)
def test_the_plan_imports_only_the_domain(module: str) -> None:
    """Only the domain, and the contract's own modules (each checked here in turn)."""
    imports = imported_modules(REPO_ROOT / module)
    outside = {
        name
        for name in imports
        if name.split(".")[0] in ("bot", "cogs", "discord") and not name.startswith("bot.notify.")
    }
    assert outside == set()


def test_only_the_store_imports_a_database_driver() -> None:
    found = [
        f"{path.relative_to(REPO_ROOT)} imports {module}"
        for path in python_files("bot", "cogs", "domain")
        if "bot/store" not in path.as_posix()
        for module in imported_modules(path)
        if module.split(".")[0] in DATABASE_DRIVERS
    ]
    assert found == []


def attribute_uses(path: Path, names: set[str]) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return [
        f"{path.name}:{node.lineno} .{node.attr}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr in names
    ]


def test_services_hold_no_connection_and_no_sql() -> None:
    """The unit of work (and the store's query objects) is the only way to the database."""
    found = [
        use
        for path in python_files("bot/services")
        for use in attribute_uses(path, {"connection", "database", "execute", "executemany"})
    ]
    sql = [
        f"{path.relative_to(REPO_ROOT)}"
        for path in python_files("bot/services")
        if any(
            word in path.read_text(encoding="utf-8") for word in ("SELECT ", "INSERT ", "UPDATE ")
        )
    ]
    assert found == []
    assert sql == []


def test_no_cog_is_looked_up_by_name() -> None:
    """A cog that needs another's handler gets it typed (routes), never by a string name."""
    found = [
        str(path.relative_to(REPO_ROOT))
        for path in python_files("bot", "cogs")
        if "get_cog(" in path.read_text(encoding="utf-8")
    ]
    assert found == []


def test_option_bounds_come_from_the_domain() -> None:
    """Bounds written as numbers in a cog would copy a rule: bot/ui/options.py builds each
    option type from the domain's own limits."""
    found = [
        str(path.relative_to(REPO_ROOT))
        for path in python_files("cogs")
        if "Range[int," in path.read_text(encoding="utf-8")
    ]
    assert found == []


def test_the_attribute_check_sees_a_connection(tmp_path: Path) -> None:
    module = tmp_path / "sample.py"
    module.write_text("async def f(tx):\n    await tx.connection.execute('SELECT 1')\n")
    uses = attribute_uses(module, {"connection", "execute"})
    assert sorted(use.split(" ")[1] for use in uses) == [".connection", ".execute"]


# Settings of libraries, not of the bot's own objects: where discord.py sends its requests
# (the fake Discord of the tests), and argparse's section titles in the reader's language.
LIBRARY_SETTINGS = {
    "bot/app.py: discord.http.Route.BASE",
    "bot/app.py: discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY",
    "bot/cli/parser.py: self._positionals.title",
    "bot/cli/parser.py: self._optionals.title",
}


def assignments_into_parts(path: Path, root: Path = REPO_ROOT) -> list[str]:
    """Every assignment to an attribute of an attribute, or to an item of one
    (`self.services.round_clock.grace = …`, `self.bot.page_renderers[kind] = …`): one
    object wiring another after both were built."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        else:
            continue
        for target in targets:
            for single in target.elts if isinstance(target, ast.Tuple) else [target]:
                base = single.value if isinstance(single, ast.Subscript) else single
                if isinstance(base, ast.Attribute) and isinstance(base.value, ast.Attribute):
                    found.append(f"{path.relative_to(root)}: {ast.unparse(single)}")
    return found


def test_nothing_is_wired_after_it_is_built() -> None:
    """Each service, the clock, the delivery and the bot's registries get what they need when
    they are made (`bot.services.Services`, `bot.app.services_for`, `TournamentBot`); no
    code sets a part of another object afterwards."""
    found = [
        use
        for path in python_files("bot", "cogs")
        for use in assignments_into_parts(path)
        if use not in LIBRARY_SETTINGS
    ]
    assert found == []


def test_the_wiring_check_sees_a_part_set_afterwards(tmp_path: Path) -> None:
    module = tmp_path / "bot" / "planted.py"
    module.parent.mkdir()
    module.write_text(
        "def wire(bot, services):\n"
        "    services.round_clock.grace = 5\n"
        "    self.bot.page_renderers['help'] = print\n"
        "    bot.settings = None\n",
        encoding="utf-8",
    )
    assert assignments_into_parts(module, tmp_path) == [
        "bot/planted.py: services.round_clock.grace",
        "bot/planted.py: self.bot.page_renderers['help']",
    ]


# -- cogs act once -----------------------------------------------------------------------------


def service_writes() -> set[str]:
    """The service methods that write: their bodies open a unit of work (`self.uow`)."""
    writes = set()
    for path in python_files("bot/services"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.AsyncFunctionDef) and "self.uow(" in ast.unparse(node):
                writes.add(node.name)
    return writes


def _service_calls(node: ast.AST) -> list[str]:
    """The services' methods and the server-settings look-ups a statement calls."""
    found = []
    for call in ast.walk(node):
        if isinstance(call, ast.Call):
            name = ast.unparse(call.func)
            if "services." in name or name in ("guild_labels", "guild_lang"):
                found.append(name)
    return found


def calls_after_a_write(function: ast.AST, writes: set[str]) -> list[str]:
    """Service calls that may run after one of `writes` committed in `function`: in the
    statements after it, or after a branch that may have run it."""
    late: list[str] = []

    def run(statements: list[ast.stmt], written: bool) -> bool:
        for statement in statements:
            bodies = [
                getattr(statement, part)
                for part in ("body", "orelse", "finalbody")
                if isinstance(getattr(statement, part, None), list)
            ]
            bodies += [handler.body for handler in getattr(statement, "handlers", [])]
            if bodies and not isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
                head = [getattr(statement, f, None) for f in ("test", "iter", "items")]
                for part in head:
                    for item in part if isinstance(part, list) else [part]:
                        if item is not None:
                            written = visit(item, written)
                written = any([run(body, written) for body in bodies]) or written
            else:
                written = visit(statement, written)
        return written

    def visit(node: ast.AST, written: bool) -> bool:
        calls = _service_calls(node)
        if written:
            late.extend(calls)
        return written or any(call.rsplit(".", 1)[-1] in writes for call in calls)

    run(getattr(function, "body", []), False)
    return late


def test_no_cog_calls_a_service_after_its_operation_committed() -> None:
    """What a cog shows after a change comes back in the service's result (the server's
    language included): it never asks a second service once the first has written."""
    writes = service_writes()
    found = []
    for path in python_files("cogs"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.AsyncFunctionDef):
                for call in calls_after_a_write(node, writes):
                    found.append(f"{path.relative_to(REPO_ROOT)} {node.name}: {call}")
    assert found == []


def test_the_act_once_check_sees_a_second_call() -> None:
    source = (
        "async def claim(self, interaction):\n"
        "    await self.services.judges.may_claim(actor)\n"
        "    if pressed:\n"
        "        outcome = await self.services.judges.claim(actor)\n"
        "    else:\n"
        "        outcome = None\n"
        "    labels = await guild_labels(interaction)\n"
    )
    (function,) = ast.parse(source).body
    assert calls_after_a_write(function, {"claim"}) == ["guild_labels"]
    assert calls_after_a_write(function, {"resolve"}) == []
