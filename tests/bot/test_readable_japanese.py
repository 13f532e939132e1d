"""Messages for people, not programmers: a Japanese organizer, trying the bot as a
newcomer would, found internal codes in Japanese messages: a step name (「「pair_round」の前に
入力してください」), a phase (「（今の状態: registration）」), rule ids meant for judges
(「（該当ルール: R-MATCH-2）」). These tests read every Japanese message of the catalogs.

What counts as an internal code in a message's prose, i.e. outside its placeholders, its
`code spans`, its <Discord markup> and its [[command markup]]:

- a snake_case word (`pair_round`, `start_anyway`): an identifier of the code;
- a bare value of one of the domain's enums (`registration`, `swiss`, `drop` …): a state, a
  phase or a choice as the code stores it, where the reader needs its name;
- a rule id (`R-MATCH-2`), or a `{rule}` placeholder (which holds one), outside the staff's
  messages (`STAFF_MESSAGES` below) and the decklist messages (`decks.*`, whose violations
  cite 「（規定 R-DECK-1: デッキ枚数）」). Players see the rule's name (`rule_names` in the
  catalogs, `bot.i18n.rule_name`), judges and organizers its id.

Something the reader must type exactly (a CSV header, a field of a data file, a value of
the replay record) is not a code: it is written as a `code span`.

A code that arrives through a parameter (an error's `step=pair_round`) is named through the
catalog (`bot.i18n.CODED_PARAMS`); the last tests render the errors themselves.
"""

from __future__ import annotations

import enum
import importlib
import inspect
import pkgutil
import re
from collections.abc import Callable
from datetime import timedelta

import domain
from bot.i18n import CODED_PARAMS, catalog, describe_error, rule_name, t
from domain.engine.results import MatchResult
from domain.engine.state import TournamentState
from domain.errors import DomainError, InvalidInput
from domain.tournament.apply import apply
from domain.tournament.model import Tournament
from domain.tournament.operations import (
    Actor,
    CallJudge,
    ChangeSettings,
    CheckIn,
    ConfirmResult,
    DisputeResult,
    Drop,
    ExtendRound,
    ExtendTable,
    FinishTournament,
    GivePenalty,
    PublishDecks,
    RecordNoShow,
    Register,
    ReportResult,
    RevokePenalty,
    SetResult,
    SettingsChange,
    StartRound,
    StartTournament,
    Undrop,
    UnpairRound,
    Unregister,
)
from domain.tournament.penalties import Infraction, PenaltyType
from domain.tournament.play import propose_round
from domain.tournament.rounds import Claim
from tests.conftest import REPO_ROOT
from tests.domain.tournament.support import (
    JUDGE,
    ORGANIZER,
    T0,
    Clock,
    new_tournament,
    player,
    submit,
)

NOT_PROSE = re.compile(r"\{[^{}]*\}|`[^`]*`|https?://[^\s）」]+|<[^<>\s]*>|\[\[[^\]]*\]\]")
SNAKE_CASE = re.compile(r"(?<![\w-])[a-z0-9]+(?:_[a-z0-9]+)+(?![\w-])")
LOWER_WORD = re.compile(r"(?<![\w-])[a-z][a-z0-9_-]*(?![\w-])")
RULE_ID = re.compile(r"R-[A-Z]+-\d+")
RULE_PLACEHOLDER = re.compile(r"\{(?:\w+_)?rule\}")

# The messages only judges and organizers read, where a rule id helps them look the rule up.
STAFF_MESSAGES = {
    "ui.penalty.preview_body": "the judge's preview of a penalty",
    "ui.penalty.suggestion": "the escalation suggested to the judge",
    "ui.penalty.given": "the judge's confirmation",
    "ui.penalty.log": "the log channel, read by the staff",
    "ui.judge.noshow": "the judge's reply to /judge noshow",
    "commands.judge.noshow.description": "a judges' command",
    "commands.penalty.give.params.infraction.description": "a judges' command",
    "engine.cli.rule_suffix": "the command line, run by the organizer",
}
DECKLIST_MESSAGES = ("decks.", "submission.rule_item")


def japanese() -> dict[str, str]:
    return dict(catalog("ja"))


def prose(text: str) -> str:
    return NOT_PROSE.sub(" ", text)


def domain_enum_values() -> set[str]:
    """Every text value of an enum of the domain: what a state, phase or choice is stored as."""
    values: set[str] = set()
    for module in pkgutil.walk_packages(domain.__path__, "domain."):
        loaded = importlib.import_module(module.name)
        for item in vars(loaded).values():
            if inspect.isclass(item) and issubclass(item, enum.Enum):
                values |= {str(member.value) for member in item if isinstance(member.value, str)}
    return values


def test_the_enum_scan_finds_the_states_and_choices() -> None:
    assert {"registration", "running", "pair_round", "swiss", "start_anyway"} & (
        domain_enum_values() | {"pair_round"}
    ) >= {"registration", "running", "swiss", "start_anyway"}


def test_no_japanese_message_shows_a_snake_case_identifier() -> None:
    found = {
        key: SNAKE_CASE.findall(prose(text))
        for key, text in japanese().items()
        if SNAKE_CASE.search(prose(text))
    }
    assert found == {}, (
        "these Japanese messages show an identifier of the code; name the thing in words, or"
        " put what the reader must type in `backticks`"
    )


def test_no_japanese_message_shows_a_bare_state_or_choice() -> None:
    values = domain_enum_values()
    found = {
        key: words
        for key, text in japanese().items()
        if (words := [w for w in LOWER_WORD.findall(prose(text)) if w in values])
    }
    assert found == {}, (
        "these Japanese messages show a value of a domain enum (a state, phase or choice as"
        " stored); show its name from the catalog instead"
    )


def test_rule_ids_are_for_staff_and_decklists_only() -> None:
    found = {
        key: text
        for key, text in japanese().items()
        if (RULE_ID.search(prose(text)) or RULE_PLACEHOLDER.search(text))
        and key not in STAFF_MESSAGES
        and not key.startswith(DECKLIST_MESSAGES)
    }
    assert found == {}, (
        "a player reads these: show the rule's name (bot.i18n.rule_name), or, if only judges"
        " and organizers read the message, list it in STAFF_MESSAGES with who reads it"
    )


def test_the_staff_list_names_real_messages() -> None:
    assert set(STAFF_MESSAGES) <= set(japanese())


def rules_the_code_cites() -> set[str]:
    """Every rule id written in the code of the domain, the bot and the cogs."""
    return {
        rule
        for folder in ("domain", "bot", "cogs")
        for path in (REPO_ROOT / folder).rglob("*.py")
        for rule in RULE_ID.findall(path.read_text(encoding="utf-8"))
    }


def test_every_rule_the_code_cites_has_a_short_name_in_both_languages() -> None:
    rules = rules_the_code_cites()
    assert {"R-MATCH-2", "R-PEN-2", "R-DECK-1"} <= rules
    for rule in sorted(rules):
        for lang in ("ja", "en"):
            assert rule_name(rule, lang), (rule, lang)


def test_a_rule_is_named_in_one_table_only() -> None:
    ja = japanese()
    general = {key.removeprefix("rule_names.") for key in ja if key.startswith("rule_names.")}
    decks = {key.removeprefix("decks.rule_names.") for key in ja if key.startswith("decks.rule_")}
    assert general
    assert general.isdisjoint(decks)


def test_every_coded_param_names_every_value_of_its_enum() -> None:
    # The steps are the state machine's (tested by rendering below); the enums, here.
    from bot.i18n import readable_params
    from domain.engine.state import Phase, RoundStatus
    from domain.event import EventFormat

    for key, param, values in (
        ("rounds.not_running", "phase", [p.value for p in Phase]),
        ("engine.state.illegal_step", "status", [s.value for s in RoundStatus]),
        ("event.unknown_format", "known", [tuple(f.value for f in EventFormat)]),
    ):
        assert param in CODED_PARAMS[key if key in CODED_PARAMS else key.rsplit(".", 1)[0] + "."]
        for value in values:
            named = readable_params(key, {param: value}, "ja")[param]
            assert readable_problems(str(named)) == [], (key, value, named)


# -- errors as they are rendered, codes arriving through their params ---------------------


def readable_problems(text: str) -> list[str]:
    """What a reader should never see in a rendered Japanese message."""
    shown = prose(text)
    problems = SNAKE_CASE.findall(shown)
    problems += [w for w in LOWER_WORD.findall(shown) if w in domain_enum_values()]
    problems += RULE_ID.findall(shown)
    if "第 0 回戦" in text:  # there is no round 0: say there are no pairings yet
        problems.append("第 0 回戦")
    return problems


def test_an_illegal_step_names_the_step_and_the_phase() -> None:
    # 「「pair_round」の前に入力してください」 and 「（段階: registration）」 were shown.
    states = {
        "registration": TournamentState(),
        "running, no round": TournamentState().start(3),
        "paired": TournamentState().start(3).pair_round([1, 2]),
        "in play": TournamentState().start(3).pair_round([1, 2]).begin_round(),
        "finished": TournamentState().start(1).pair_round([]).begin_round().finish(),
    }
    steps: dict[str, Callable[[TournamentState], object]] = {
        "start": lambda s: s.start(3),
        "pair_round": lambda s: s.pair_round([1]),
        "begin_round": lambda s: s.begin_round(),
        "record_result": lambda s: s.record_result(1),
        "start_top_cut": lambda s: s.start_top_cut(),
        "finish": lambda s: s.finish(),
    }
    rendered = []
    for state in states.values():
        for step in steps.values():
            try:
                step(state)
            except DomainError as error:
                rendered.append(describe_error(error, "ja"))
    assert len(rendered) > 15
    assert {text: readable_problems(text) for text in rendered if readable_problems(text)} == {}
    assert any("「組み合わせ」の前に" in text for text in rendered)


def test_the_errors_of_every_operation_at_every_stage_read_as_words() -> None:
    """Every operation a player, judge or organizer can make, tried at each stage of an
    event (registration, started without pairings, paired, in play, finished): whatever it
    is refused with reads without a code, and never speaks of a round 0."""
    refusals = every_refusal()
    assert len(refusals) > 40
    problems = {text: readable_problems(text) for text in refusals if readable_problems(text)}
    assert problems == {}


def stages() -> dict[str, Tournament]:
    clock = Clock(new_tournament(rounds=1))
    for number in range(1, 5):
        clock.apply(Register(player(number).user_id, f"ムギ{number}"), player(number))
        clock.apply(submit(player(number).user_id), player(number))
    found = {"registration": clock.tournament}
    clock.apply(StartTournament(seed=1))
    found["started"] = clock.tournament
    clock.apply(propose_round(clock.tournament, 2).operation())
    found["paired"] = clock.tournament
    clock.apply(StartRound(1))
    found["in play"] = clock.tournament
    for match in clock.tournament.rounds[0].matches:
        clock.apply(SetResult(1, match.table, MatchResult.win(str(match.players[0]))), JUDGE)
    found["round complete"] = clock.tournament
    clock.apply(FinishTournament())
    found["finished"] = clock.tournament
    return found


def attempts(tournament: Tournament) -> list[tuple[object, Actor]]:
    """Each operation as the services build it: the round is the current one (0 when there
    is none yet), the table 1, the player the first registered."""
    number = tournament.current_round
    someone = player(1)
    first = someone.user_id
    win = MatchResult.win(str(first))
    return [
        (Register(first, "ムギ"), someone),
        (Unregister(first), someone),
        (CheckIn(first), someone),
        (submit(first), someone),
        (ChangeSettings(SettingsChange(decklist_required=False)), ORGANIZER),
        (StartTournament(seed=1), ORGANIZER),
        (PublishDecks(), ORGANIZER),
        (UnpairRound(number), ORGANIZER),
        (StartRound(number), ORGANIZER),
        (ReportResult(first, number, Claim.WIN), someone),
        (ConfirmResult(first, number, 1), someone),
        (DisputeResult(first, number, 1), someone),
        (SetResult(number, 1, win), JUDGE),
        (Drop(first), someone),
        (Undrop(first), ORGANIZER),
        (ExtendTable(number, 1, 5), JUDGE),
        (ExtendRound(number, 5), JUDGE),
        (RecordNoShow(number, 1, first), JUDGE),
        (FinishTournament(), ORGANIZER),
        (GivePenalty(first, PenaltyType.WARNING, Infraction.STALLING, "遅い"), JUDGE),
        (RevokePenalty(1), ORGANIZER),
        (CallJudge(first, "質問"), someone),
    ]


def every_refusal() -> list[str]:
    refused = []
    for tournament in stages().values():
        for operation, actor in attempts(tournament):
            try:
                apply(tournament, operation, T0 + timedelta(days=1), actor)  # type: ignore[arg-type]
            except DomainError as error:
                refused.append(describe_error(error, "ja"))
    return refused


# -- Japanese style ------------------------------------------------------------------------

# Placeholders that stand for words (a name, a state, a kind): in Japanese a particle or
# さん follows a word with no space (「ムギの勝ち」, not 「ムギ の勝ち」). Numbers, ids and
# file names keep the spaces around them (「第 1 回戦」「テーブル 2 の結果」).
WORD_PLACEHOLDERS = (
    "player|winner|loser|judge|organizer|opponent|reporter|name|tournament|regulation|field"
    "|kind|other|event|step|phase|state|type|infraction|what|title|main|actor"
)
PARTICLE = "の|が|を|に|は|で|と|へ|から|まで|より|も|や|か|さん"
SPACE_BEFORE_PARTICLE = re.compile(rf"\{{(?:{WORD_PLACEHOLDERS})(?::[^{{}}]*)?\}} (?:{PARTICLE})")
SPACE_AFTER_PARTICLE = re.compile(rf"(?:{PARTICLE}) \{{(?:{WORD_PLACEHOLDERS})\}}")


def test_no_space_between_a_word_and_its_particle() -> None:
    found = {
        key: SPACE_BEFORE_PARTICLE.findall(text)
        for key, text in japanese().items()
        if SPACE_BEFORE_PARTICLE.search(text) or SPACE_AFTER_PARTICLE.search(text)
    }
    assert found == {}, "write 「{judge}が{player}に」, not 「{judge} が {player} に」"


def test_the_style_rule_catches_a_space_before_a_particle() -> None:
    assert SPACE_BEFORE_PARTICLE.search("{winner} の勝ち")
    assert SPACE_BEFORE_PARTICLE.search("{reporter} さんが")
    assert not SPACE_BEFORE_PARTICLE.search("{winner}の勝ち")
    assert not SPACE_BEFORE_PARTICLE.search("テーブル {table} の結果")
    assert SPACE_AFTER_PARTICLE.search("{judge}が {player}に")


def test_the_logs_kinds_share_one_grammatical_form() -> None:
    # Japanese: noun phrases (「大会の作成」「結果への異議」), never a verb phrase (「大会を作成」,
    # 「罰則を与えた」); English: what the actor did, in the past ("created the tournament").
    kinds = {k: v for k, v in japanese().items() if k.startswith("ui.log.kind.")}
    assert len(kinds) > 20
    verb_like = {k: v for k, v in kinds.items() if "を" in v or v.endswith(("た", "する", "す"))}
    assert verb_like == {}
    english = {k: v for k, v in catalog("en").items() if k.startswith("ui.log.kind.")}
    irregular = {"took", "gave", "undid", "made"}
    not_past = {
        k: v
        for k, v in english.items()
        if not (v.split()[0].endswith("ed") or v.split()[0] in irregular)
    }
    assert not_past == {}


def test_what_discord_shows_never_sends_people_to_the_command_line() -> None:
    # The export's reply spoke of `python -m bot replay`; it says what the files
    # are for instead. The command line's own messages (startup.*, verify.*, …) may.
    for lang in ("ja", "en"):
        shown = {k: v for k, v in catalog(lang).items() if k.startswith("ui.") and "python" in v}
        assert shown == {}, lang
    assert "スプレッドシート" in catalog("ja")["ui.export.reply"]


def test_a_regulation_is_shown_by_its_name_in_the_regulation() -> None:
    # 「MIX-Two limited」 is the regulation's own name for R-REG-3 (regulation-ja.txt writes it
    # so); a regulation is shown by that one name, never by its code (`mix-two`).
    from domain.decks import Regulation

    rule_of = {"mix": "R-REG-1", "single": "R-REG-2", "mix-two": "R-REG-3", "event": "R-REG-4"}
    for regulation in Regulation:
        shown = t(f"ui.regulation.{regulation.value}", "ja")
        assert shown == rule_name(rule_of[regulation.value], "ja"), regulation
    refused = describe_error(InvalidInput("event.titles_not_used", regulation="mix-two"), "ja")
    assert "（MIX-Two limitedでは不要です）" in refused
