"""A fake Discord (REST + gateway) on loopback for end-to-end tests of the real bot."""

from .harness import DEFAULT_TOKEN, BotProcess, FakeDiscord, Reply, Upload, text_of, walk_components

__all__ = [
    "DEFAULT_TOKEN",
    "BotProcess",
    "FakeDiscord",
    "Reply",
    "Upload",
    "text_of",
    "walk_components",
]
