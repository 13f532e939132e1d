"""`python -m bot replay` and `python -m bot simulate`, run as a user runs them."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.conftest import PYTHON, cli_env
from tests.domain.engine.test_record import GOOD


def run_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PYTHON, "-m", "bot", *args],
        cwd=cwd,
        env=cli_env(LANG="C.UTF-8"),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )


def test_replay_prints_standings_as_json_and_as_a_table(tmp_path: Path) -> None:
    # R-FMT-4 standings, R-FMT-7 dropped players marked.
    record = tmp_path / "event.json"
    record.write_text(json.dumps(GOOD), encoding="utf-8")
    result = run_cli("replay", str(record), "--json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    rows = json.loads(result.stdout)["standings"]
    assert rows[0] == {
        "rank": 1,
        "player": rows[0]["player"],
        "points": 6,
        "opponents_points": rows[0]["opponents_points"],
        "dropped": False,
    }
    assert {row["player"]: row["dropped"] for row in rows} == {
        "alice": False,
        "bob": True,
        "carol": False,
    }
    table = run_cli("replay", str(record), cwd=tmp_path)
    assert table.returncode == 0
    assert "carol" in table.stdout
    assert "dropped" in table.stdout


def test_replay_of_a_bad_file_exits_2_naming_the_entry(tmp_path: Path) -> None:
    record = tmp_path / "bad.json"
    bad = json.loads(json.dumps(GOOD))
    bad["matches"][2]["players"] = ["carol", "zed"]
    record.write_text(json.dumps(bad), encoding="utf-8")
    result = run_cli("replay", str(record), "--json", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""  # no partial standings
    assert "Traceback" not in result.stderr
    assert "matches[2] (round 2)" in result.stderr
    assert "zed" in result.stderr
    assert "不明なプレイヤー" in result.stderr


def test_replay_of_unreadable_or_invalid_json_exits_2(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"rounds": 3,', encoding="utf-8")
    for path in (broken, tmp_path / "missing.json"):
        result = run_cli("replay", str(path), cwd=tmp_path)
        assert result.returncode == 2
        assert result.stdout == ""
        assert "Traceback" not in result.stderr
        assert str(path.name) in result.stderr


def test_simulate_json_is_a_record_and_replays(tmp_path: Path) -> None:
    # R-FMT-3 pairing through the real engine; the output replays to the same standings.
    result = run_cli(
        "simulate", "--players", "13", "--rounds", "4", "--seed", "7", "--json", cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert set(data) == {"rounds", "standings"}
    assert [r["round"] for r in data["rounds"]] == [1, 2, 3, 4]
    first = data["rounds"][0]
    assert set(first) == {"round", "seconds", "matches"}
    assert set(first["matches"][0]) == {"players", "points_before", "result"}
    assert sum(len(m["players"]) for m in first["matches"]) == 13
    record = {
        "rounds": 4,
        "players": [f"p{i}" for i in range(1, 14)],
        "matches": [
            {"round": r["round"], "players": m["players"], "result": m["result"]}
            for r in data["rounds"]
            for m in r["matches"]
        ],
    }
    path = tmp_path / "simulated.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    replayed = run_cli("replay", str(path), "--json", cwd=tmp_path)
    assert json.loads(replayed.stdout)["standings"] == data["standings"]
    again = run_cli(
        "simulate", "--players", "13", "--rounds", "4", "--seed", "7", "--json", cwd=tmp_path
    )
    assert [r["matches"] for r in json.loads(again.stdout)["rounds"]] == [
        r["matches"] for r in data["rounds"]
    ]


def test_simulate_text_and_bad_options(tmp_path: Path) -> None:
    result = run_cli("simulate", "--players", "9", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Round 4:" in result.stdout
    assert "bye:" in result.stdout
    assert "p1" in result.stdout
    bad = run_cli("simulate", "--players", "1", cwd=tmp_path)
    assert bad.returncode == 2
    assert "--players" in bad.stderr
    assert "Traceback" not in bad.stderr
    assert bad.stdout == ""
