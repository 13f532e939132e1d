"""The process that cuts the page's font says nothing in the terminal the bot, `web` and
`demo` run in: its lines went to the inherited stderr (「INFO:__main__:120 font slices cut
into …」 at the end of the demo's first run, a KeyboardInterrupt traceback on Ctrl + C, which
the terminal sends to the whole process group). They go to its log file."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest

from bot.web.fonts import Cutter, FontSlices, cutting_log, font_path


async def test_the_cutting_process_writes_to_its_log_not_to_the_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    path = font_path()
    if path is None:
        pytest.skip("the fallback font is not installed")
    monkeypatch.setenv("FONT_SLICES_DIR", str(tmp_path))
    slices = FontSlices(path, root=tmp_path)
    cutter = Cutter()
    assert await cutter.start(slices)
    process = cutter.process
    assert process is not None
    await asyncio.sleep(3)  # into its work: Python started, the font read
    process.send_signal(signal.SIGINT)  # as Ctrl + C in the terminal reaches it
    # At the lowest priority on a busy machine it may get little CPU to stop with.
    await asyncio.wait_for(process.wait(), 600)
    await cutter.stop()
    captured = capfd.readouterr()
    assert captured.err == ""
    assert captured.out == ""
    assert cutting_log(tmp_path).read_text(encoding="utf-8").strip()
