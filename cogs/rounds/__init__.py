"""A running event, as three cogs: pairing and the clock (/round, /pairing), reporting
(/report and the report buttons) and results (/result, /drop, /undrop, /standings).

What others are told about each change (the pairings post and its thread, the opponent's
Confirm notice, the judges' dispute notice, the standings post, the clock's reminders) is
the notifier's plan (bot/notify/plan.py), not these cogs'.
"""

from __future__ import annotations

from cogs.common import Host
from cogs.rounds.pairing import Pairing
from cogs.rounds.reporting import Reporting
from cogs.rounds.results import Results


async def setup(bot: Host) -> None:
    await bot.add_cog(Pairing(bot))
    await bot.add_cog(Reporting(bot))
    await bot.add_cog(Results(bot))
