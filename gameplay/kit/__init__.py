"""The bot author's kit: the ``president`` command (``gameplay.kit.cli``) and the protocol's
servers (``gameplay.kit.serve``), plain Python over the engine, bots and match runner
(docs/kit.md)."""
