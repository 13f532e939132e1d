"""Thin slash-command adapters. Each module is a discord.py extension with an async `setup()`."""
