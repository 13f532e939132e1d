"""The judges' tools, as three cogs: penalties (/penalty, and the confirmation of a penalty
or an undo), judge calls and a judge's rulings at a table (/judge call, extend, noshow), and
the action log with undo (/log, /undo).

Who else is told about a decision (the player by DM, the log channel, the judges' channel)
is the notifier's plan (bot/notify/plan.py), not these cogs'.
"""

from __future__ import annotations

from cogs.common import Host
from cogs.judges.calls import Calls
from cogs.judges.log import ActionLog
from cogs.judges.penalties import Penalties


async def setup(bot: Host) -> None:
    await bot.add_cog(Penalties(bot))
    await bot.add_cog(Calls(bot))
    await bot.add_cog(ActionLog(bot))
