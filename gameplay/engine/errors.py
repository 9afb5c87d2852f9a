"""The engine's two kinds of user-facing fault.

``RuleViolation`` is a move or record that breaks the rules (the checker's exit 1);
``Unreadable`` is input that cannot be understood at all (exit 2).  Both carry a message
meant for the person who made the mistake.  Bugs raise whatever they raise.
"""


class PresidentError(Exception):
    """A user's mistake, reported as it is by the checker, the league, the API and the CLI."""

    def __init__(self, message: str, *, deal: int | None = None, move: int | None = None,
                 options: tuple[str, ...] | list[str] = (), field: str | None = None):
        super().__init__(message)
        self.message = message
        self.deal = deal
        self.move = move
        self.options = tuple(options)  # the options (by name) the fault is about
        # the field of the input it is about, in that input's names (a scoring's "system",
        # "limit"; the league's and tournaments' own fields), or None
        self.field = field


class RuleViolation(PresidentError):
    pass


class Unreadable(PresidentError):
    pass


class OptionsError(Unreadable):
    """Unknown preset or option, or a combination that cannot be played."""
