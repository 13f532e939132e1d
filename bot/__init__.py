"""Precious Memories tournament bot: Discord adapters, services and storage around `domain`."""
