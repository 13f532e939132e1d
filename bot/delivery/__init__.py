"""The delivery: the Discord half of telling. It sends what the outbox holds (the notices
the plan of `bot.notify` wrote in each operation's transaction) and runs the bot's timed
jobs; see `loop.py`."""

from bot.delivery.loop import Delivery

__all__ = ["Delivery"]
