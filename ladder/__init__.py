"""The ladder (issue #20, docs/ladder.md): bots playing rated games continuously per preset.

Layers: ``matchmaking`` (plain Python) and ``timing`` below; ``models``, ``services`` (the one
write path), ``selectors`` (reads for the API and pages) and ``tasks`` (Celery) the domain,
above the league and tournaments; ``api`` (and pages) the web layer on top.
"""
