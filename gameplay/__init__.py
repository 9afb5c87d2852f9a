"""Playing President: the rules engine (engine/), the bots (bots/), the match runner that seats
bots at a table and plays games (runner/), and bot tournaments on Celery workers
(tournaments/, the Django app). Each layer imports only the ones before it
(docs/architecture.md)."""
