"""The tournament rules of `rules/RULES.md` as pure Python: no I/O, no clock, no global random."""
