"""Bots that play President through the engine's public API (issue #4, docs/bots.md).

``make_bot(spec, seed=…)`` builds a bot from its spec: a built-in name (``random``,
``greedy``, ``heuristic``, ``spender``, ``hoarder``, ``montecarlo``) with optional
``:key=value,…`` parameters (``montecarlo:playouts=200``), an ``http://`` or ``https://``
URL of an outside bot (the scheme in any case; its host must be allowed by the
administrator), or the name of a local program that trusted code passed in ``programs``.
"""

from importlib import import_module

from gameplay.bots.base import Bot, BotDecider, BotError, BotFault
from gameplay.bots.observation import Observation

# Each built-in bot's module and class, imported when the bot is first made (montecarlo's
# module loads the playout kernel).
_CLASSES = {
    "random": ("gameplay.bots.simple", "RandomBot"),
    "greedy": ("gameplay.bots.simple", "GreedyBot"),
    "heuristic": ("gameplay.bots.heuristic", "HeuristicBot"),
    "spender": ("gameplay.bots.styles", "SpenderBot"),
    "hoarder": ("gameplay.bots.styles", "HoarderBot"),
    "montecarlo": ("gameplay.bots.montecarlo", "MonteCarloBot"),
}
BUILT_IN = tuple(_CLASSES)

__all__ = ["BUILT_IN", "SETTINGS", "Bot", "BotError", "BotFault", "Observation", "BotDecider",
           "bot_settings", "is_url", "make_bot"]


# The settings each built-in bot takes and their bounds: (whole numbers only, least, most),
# or None for a word the bot checks itself. The one place play_games, tournaments and every
# other caller of make_bot are held to. A montecarlo decision takes budget_ms or, with
# ``playouts``, about 2-4 ms a playout on one core: either way a few seconds at most.
SETTINGS = {
    "random": {}, "greedy": {}, "heuristic": {}, "spender": {}, "hoarder": {},
    "montecarlo": {
        "budget_ms": (False, 1, 2_000),
        "playouts": (True, 1, 2_000),
        "infer": (True, 0, 50),
        "policy": None,
        "walk": (True, 0, 100),
        "tuned": (True, 0, 1),
        "lean": (False, 0, 10),
        "chains": (True, 1, 16),
        "kernel": (True, 0, 1),
        "keep": (True, 0, 40),
        "halving": (False, 0, 10),
        "looks": (True, 0, 8),
        "endgame": (True, 0, 1_000_000),
        "exchange": (True, 0, 1),
        "bank": (False, 0, 3),  # a decision's time at most 4 budgets
        "random_below": (False, 0, 1),
        "strange": (False, 0, 1),
    },
}


def _number(text: str) -> int | float | str:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def bot_settings(name: str, text: str) -> dict:
    """The ``key=value,…`` settings of built-in bot ``name``, each checked against its bounds
    in ``SETTINGS``; ValueError names the one that is not allowed."""
    allowed = SETTINGS[name]
    params = {}
    for item in filter(None, text.split(",")):
        key, _, value = (part.strip() for part in item.partition("="))
        if key not in allowed:
            takes = f"takes {', '.join(allowed)}" if allowed else "takes no settings"
            raise ValueError(f"{name} {takes}, not {key!r}")
        value = _number(value)
        bounds = allowed[key]
        if bounds is not None:
            whole, least, most = bounds
            if isinstance(value, str) or (whole and not isinstance(value, int)):
                kind = "a whole number" if whole else "a number"
                raise ValueError(f"{name} {key} must be {kind} from {least:,} to {most:,}, "
                                 f"not {value!r}")
            if not least <= value <= most:
                raise ValueError(f"{name} {key} must be from {least:,} to {most:,}, "
                                 f"not {value:,}")
        params[key] = value
    return params


def is_url(spec: str) -> bool:
    """Whether a bot spec is an outside bot's URL: ``http://`` or ``https://`` in any case
    (``HTTP://`` is the same scheme)."""
    return spec[:8].lower().startswith(("http://", "https://"))


def make_bot(spec: str, *, seed: int = 0, programs: dict | None = None) -> Bot:
    if is_url(spec):
        from gameplay.bots.outside import HttpBot

        return HttpBot(spec)
    name, _, rest = spec.partition(":")
    if programs and name in programs:
        from gameplay.bots.outside import ProgramBot

        return ProgramBot(list(programs[name]), name=name)
    if name not in SETTINGS:
        raise ValueError(f"unknown bot {spec!r}; bots are {', '.join(BUILT_IN)}, an allowed "
                         "http(s) URL, or a local program given by an administrator")
    params = bot_settings(name, rest)
    module, cls = _CLASSES[name]
    return getattr(import_module(module), cls)(seed, **params)
