"""Bots that play President through the engine's public API (issue #4, docs/bots.md).

``make_bot(spec, seed=…)`` builds a bot from its spec: a built-in name (``random``,
``greedy``, ``heuristic``, ``montecarlo``) with optional ``:key=value,…`` parameters
(``montecarlo:playouts=200``), an ``http://`` or ``https://`` URL of an outside bot (its host
must be allowed by the administrator), or the name of a local program that trusted code
passed in ``programs``.
"""

from gameplay.bots.base import Bot, BotError, BotFault, Seat
from gameplay.bots.observation import Observation

BUILT_IN = ("random", "greedy", "heuristic", "montecarlo")

__all__ = ["BUILT_IN", "Bot", "BotError", "BotFault", "Observation", "Seat", "make_bot"]


def _parameters(text: str) -> dict:
    params = {}
    for item in filter(None, text.split(",")):
        key, _, value = item.partition("=")
        try:
            params[key.strip()] = int(value)
        except ValueError:
            try:
                params[key.strip()] = float(value)
            except ValueError:
                params[key.strip()] = value
    return params


def make_bot(spec: str, *, seed: int = 0, programs: dict | None = None) -> Bot:
    if spec.startswith(("http://", "https://")):
        from gameplay.bots.outside import HttpBot

        return HttpBot(spec)
    name, _, rest = spec.partition(":")
    if programs and name in programs:
        from gameplay.bots.outside import ProgramBot

        return ProgramBot(list(programs[name]), name=name)
    params = _parameters(rest)
    if name == "random":
        from gameplay.bots.simple import RandomBot

        return RandomBot(seed, **params)
    if name == "greedy":
        from gameplay.bots.simple import GreedyBot

        return GreedyBot(seed, **params)
    if name == "heuristic":
        from gameplay.bots.heuristic import HeuristicBot

        return HeuristicBot(seed, **params)
    if name == "montecarlo":
        from gameplay.bots.montecarlo import MonteCarloBot

        return MonteCarloBot(seed, **params)
    raise ValueError(f"unknown bot {spec!r}; bots are {', '.join(BUILT_IN)}, an allowed "
                     "http(s) URL, or a local program given by an administrator")
