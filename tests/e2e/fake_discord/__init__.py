"""A fake Discord (REST + gateway) on loopback for end-to-end tests of the real bot."""

from .faults import Fault
from .harness import DEFAULT_TOKEN, BotProcess, FakeDiscord, Reply, Upload, text_of, walk_components
from .traffic import Traffic

__all__ = [
    "DEFAULT_TOKEN",
    "BotProcess",
    "FakeDiscord",
    "Fault",
    "Reply",
    "Traffic",
    "Upload",
    "text_of",
    "walk_components",
]
