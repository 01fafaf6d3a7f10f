"""The tournament rules, pure: the draw, the ranking, cup points, money and the
tournament file (docs/tournament-file.md, /TOURNAMENTS.md).

Standard library and ``scoring.engine`` only: no Django, no I/O, no clock (a
test walks the imports), so the app and ``score_tournament`` share one reading.
"""
