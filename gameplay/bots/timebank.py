"""One outside bot's time in one game, as the arenas keep it (Kaggle's ``actTimeout`` and
``remainingOverageTime``; docs/bots.md, "Time").

Each decision may take up to ``decision_ms``; time beyond it comes out of the game's overage
bank. A decision that runs past its limit plus what is left of the bank empties the bank: the
seat then plays safe moves for the rest of the game without calling the bot again. So one
bot's time in a game is at most ``decisions × decision_ms + overage_ms``.

The bot is charged only for time measured on our side between sending its request and reading
its answer (``OutsideBot``); a decision the service itself was late for (its own timer woke up
more than ``SERVICE_SLACK_MS`` after it was due: the worker was stalled) is not charged.
"""

from dataclasses import dataclass

SERVICE_SLACK_MS = 100.0  # how late our own deadline timer may wake before we are to blame


@dataclass
class TimeBank:
    decision_ms: float  # each decision's own limit
    overage_ms: float  # what is left of the bank
    exhausted: bool = False  # the bank ran out: the bot is not called again this game

    @property
    def allowance_ms(self) -> float:
        """The most the next decision may take: its limit and the whole bank left."""
        return self.decision_ms + self.overage_ms

    def charge(self, ms: float) -> None:
        """A decision took ``ms`` of the bot's time: what is over the limit comes from the bank."""
        self.overage_ms = max(0.0, self.overage_ms - max(0.0, ms - self.decision_ms))

    def empty(self) -> None:
        self.overage_ms, self.exhausted = 0.0, True


def bound_ms(decisions: int, decision_ms: float, overage_ms: float) -> float:
    """The longest a bot's ``decisions`` in one game can take (docs/bots.md, "Time")."""
    return decisions * decision_ms + overage_ms
