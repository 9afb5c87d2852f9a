"""A hosted bot: ``ProgramBot``'s conversation (president-bot/1's program form) with a program
running in the sandbox, for one game.

Unlike a trusted local program, a hosted bot is never restarted: once the sandbox stopped it
(no answer in time, out of its time bank, too much output, it died) every later decision of the
game is a fault at once, with the reason in words, and the seat plays safe moves.
"""

from pathlib import Path

from gameplay.bots.base import BotFault, fault_text
from gameplay.bots.outside import DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT_MS, ENDED, ProgramBot
from gameplay.bots.sandbox.jail import LAST_LINE_MAX, LIMITS, Jail, Limits


class SandboxedProgram(ProgramBot):
    """``code`` is a source file or a directory (an unpacked upload, started from ``entry``,
    by default the runtime's ``bot.py`` / ``bot.js``); ``runtime`` is "python" or "node".
    It is started with ``args``, by default ``--stdio`` as the starters and the example bot
    expect.  Raises SandboxUnavailable on a machine that cannot sandbox it."""

    def __init__(self, code: str | Path, runtime: str = "python", *, entry: str | None = None,
                 args: tuple[str, ...] = ("--stdio",), name: str = "hosted",
                 limits: Limits = LIMITS, timeout_ms: float = DEFAULT_TIMEOUT_MS,
                 max_bytes: int = DEFAULT_MAX_BYTES):
        self.jail = Jail(Path(code), runtime, entry=entry, args=args, limits=limits)
        super().__init__([runtime, self.jail.entry, *args], name=name, timeout_ms=timeout_ms,
                         max_bytes=max_bytes)
        self.limits = limits
        self.stopped: str | None = None  # why the sandbox stopped the bot, in words

    @property
    def stderr(self) -> bytes:
        """The start of what the bot wrote on stderr (complete once the game is over)."""
        return self.jail.stderr

    def cpu_seconds(self) -> float:
        return self.jail.cpu_seconds()

    def figures(self) -> dict[str, int]:
        return {"cpu_ms": round(1000 * self.cpu_seconds())}

    def _start(self):
        if self.process is None:
            self.process = self.jail.start()
        return self.process

    def exchange_json(self, request: dict) -> dict:
        if self.stopped is not None:
            raise BotFault("error", f"not asked: stopped earlier in this game ({self.stopped})")
        try:
            answer = super().exchange_json(request)
        except BotFault as fault:
            ended = fault.message == ENDED
            if not ended and self.jail.running():  # a bad answer; the bot plays on
                raise
            # Its answers end a moment before its exit status comes (bwrap's files close
            # first): then it may still seem to run, but has ended; stopping it waits for its
            # exit status, so the fault says how it ended.
            self.close()
            how = self.jail.ended
            self.stopped = f"{fault.message}: {how}" if how else fault.message
            # the last line of its stderr is its author's (stderr is shown to them alone): the
            # fault's body, not its message, which every game page shows
            last = self.jail.last_line if how else None
            body = None if last is None else (
                b"the last line of its stderr: "
                + fault_text(last, LAST_LINE_MAX).encode())
            raise BotFault(fault.kind, self.stopped, body=body) from None
        used = self.cpu_seconds()
        if used > self.limits.cpu_s:
            self.close()
            self.stopped = f"used {used:.1f} s of CPU time, over its time bank of " \
                           f"{self.limits.cpu_s:g} s"
            raise BotFault("timeout", self.stopped)
        return answer

    def close(self) -> None:
        self.jail.stop()
        self.process = None
