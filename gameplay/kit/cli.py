"""The ``president`` command of the bot author's kit (docs/kit.md):

    president play BOT --preset classic --deals 10     # BOT against built-in bots, duplicate
    president validate BOT [--preset classic ...]      # the site's validation game
    president serve heuristic --http 8765 | --stdio    # a built-in bot as an outside bot
    president serve "./bot" --http 8765                # a program as an HTTP bot

BOT is an outside bot's URL (``http://…``) or a program speaking the protocol over stdin/stdout,
given as one command line (``"python bot.py --stdio"``); ``serve`` takes a built-in bot or a
program.
"""

import argparse
import json
import os
import shlex
import sys
from contextlib import closing
from pathlib import Path
from urllib.parse import urlsplit

from gameplay.bots import BUILT_IN, is_url, make_bot
from gameplay.bots.outside import HttpBot, ProgramBot, decision_ms
from gameplay.engine import checker
from gameplay.engine.errors import PresidentError
from gameplay.engine.options import PRESETS
from gameplay.kit.serve import BuiltInAnswerer, ProgramAnswerer, http_server, serve_stdio
from gameplay.runner import validation
from gameplay.runner.figures import summary_text
from gameplay.runner.match import Tally, run, schedule

SECRET_VARIABLE = "PRESIDENT_SECRET"


def bot_maker(spec: str, *, timeout_ms: float, secret: str | None):
    """A function building the bot under test afresh: an HttpBot for a URL (its own host
    allowed, as the author's machine trusts it), else a ProgramBot running the command."""
    if is_url(spec):
        parts = urlsplit(spec)
        try:
            port = parts.port or (443 if parts.scheme.lower() == "https" else 80)
        except ValueError as error:
            raise ValueError(f"{spec!r} is not a usable URL: {error}") from None
        allowed = {f"{parts.hostname}:{port}"}
        HttpBot(spec, timeout_ms=timeout_ms, allowed=allowed, secret=secret)  # refused early
        return lambda: HttpBot(spec, timeout_ms=timeout_ms, allowed=allowed, secret=secret)
    argv = shlex.split(spec)
    if not argv:
        raise ValueError("BOT is a URL or a command line")
    return lambda: ProgramBot(argv, name="bot", timeout_ms=timeout_ms)


def _play(args) -> int:
    lineup = [args.bot, *args.against]
    PRESETS[args.preset].validate(len(lineup))
    new_bot = bot_maker(args.bot, timeout_ms=args.decision_ms, secret=args.secret)

    def make(spec, *, seed, programs=None):
        return new_bot() if spec == args.bot else make_bot(spec, seed=seed)

    games = args.deals * len(lineup)  # each deal once from every seat
    specs = schedule(lineup, args.preset, games=games, seed=args.seed, duplicate=True)
    args.transcripts.mkdir(parents=True, exist_ok=True)
    tally, unchecked, faults = Tally(lineup), 0, []
    for spec, result in run(specs, make=make):
        tally.add(spec, result)
        faults += [dict(f, game=spec.index + 1) for f in result.stats[spec.seat_of(0)].faults]
        unchecked += checker.check(result.transcript)[0] != 0
        path = args.transcripts / f"game-{spec.index:05d}.json"
        path.write_text(json.dumps(result.transcript, indent=1))
    print(f"{args.deals} deals of {args.preset}, each played from all {len(lineup)} seats "
          f"({games} games), seed {args.seed}")
    for player, summary in enumerate(tally.summary()):
        print(summary_text(player, summary))
        if summary["faults"]:
            print(f"   faults by kind: {summary['fault_kinds']}")
    if faults:
        print(f"faults of {args.bot}, each kind with where it first came:")
    for (decision, kind, message), alike in _alike(faults).items():
        f = alike[0]
        print(f"  {kind} x{len(alike)}, first in game {f['game']}, deal {f['deal'] + 1}, "
              f"decision {f['number']} ({decision}): {message}{_its_answer(f)}")
    _hint_secret(args, [f["message"] for f in faults])
    print(f"transcripts: {args.transcripts}/ ({games - unchecked} of {games} checked valid)")
    return 1 if unchecked else 0


def _validate(args) -> int:
    new_bot = bot_maker(args.bot, timeout_ms=args.decision_ms, secret=args.secret)
    if is_url(args.bot) and not args.secret:
        print("no --secret: the ownership challenge the site starts each validation with "
              "is skipped here")
    failed = 0
    for preset in args.preset or ["classic"]:
        outcome = validation.validate(new_bot(), preset, opponents=args.against or
                                      validation.OPPONENTS, deals=args.deals, seed=args.seed)
        print(f"{preset}: {outcome.summary()}")
        for (decision, kind, message), faults in _alike(outcome.faults).items():
            f = faults[0]
            print(f"  {kind} x{len(faults)}, first at deal {f['deal'] + 1}, decision "
                  f"{f['number']} ({decision}): {message}{_its_answer(f)}")
        _hint_secret(args, [f["message"] for f in outcome.faults] + [outcome.refusal or ""])
        failed += not outcome.passed
    return 1 if failed else 0


def _its_answer(fault: dict) -> str:
    return f"; its answer: {fault['answer']}" if fault["answer"] else ""


def _hint_secret(args, messages: list[str]) -> None:
    """Say what to do when the bot refused the kit's requests for their signature."""
    if any("HTTP status 401" in message for message in messages):
        what = "were not signed" if not args.secret else "were signed with another secret"
        print(f"  the bot refused the kit's requests (401): they {what}; give the kit its "
              f"secret: --secret='…' or {SECRET_VARIABLE}='…'")


def _alike(faults: list[dict]) -> dict[tuple, list[dict]]:
    """The faults grouped by decision, kind and message, in the order they first came."""
    groups: dict[tuple, list[dict]] = {}
    for f in faults:
        groups.setdefault((f["decision"], f["kind"], f["message"]), []).append(f)
    return groups


def answerer(spec: str, *, seed: int, stdio: bool):
    """What ``serve`` serves: a built-in bot (``make_bot`` spec), or a program's command
    line (over HTTP: it speaks stdin/stdout itself)."""
    if spec.partition(":")[0] in BUILT_IN:
        return BuiltInAnswerer(spec, seed=seed)
    if is_url(spec):
        raise ValueError("serve takes a built-in bot or a program's command line, not a URL")
    if stdio:
        raise ValueError("a program speaks stdin/stdout already: serve it with --http")
    argv = shlex.split(spec)
    if not argv:
        raise ValueError("BOT is a built-in bot or a command line")
    return ProgramAnswerer(argv)


def _serve(args) -> int:
    with closing(answerer(args.bot, seed=args.seed, stdio=args.stdio)) as answer:
        if args.stdio:
            serve_stdio(answer)
            return 0
        with http_server(answer, args.http, secret=args.secret, host=args.host) as server:
            print(f"serving {args.bot} at http://{args.host}:{server.server_address[1]}/",
                  flush=True)
            try:
                server.serve_forever()
            except KeyboardInterrupt:
                pass
    return 0


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="president", description=__doc__.splitlines()[0])
    commands = top.add_subparsers(dest="command", required=True)
    secret = dict(default=os.environ.get(SECRET_VARIABLE),
                  help=f"the bot's secret, to sign requests (default ${SECRET_VARIABLE})")
    presets = sorted(PRESETS)
    for name, helped in (("play", "play BOT against built-in bots, duplicate deals"),
                         ("validate", "the site's validation game; non-zero if BOT faults")):
        p = commands.add_parser(name, help=helped)
        p.add_argument("bot", metavar="BOT", help="a URL, or a command line in quotes")
        p.add_argument("--seed", type=int, default=None if name == "validate" else 0)
        p.add_argument("--decision-ms", type=float, default=decision_ms(),
                       help="the time for one decision (the site's: 1000)")
        p.add_argument("--secret", **secret)
        p.set_defaults(run=_play if name == "play" else _validate)
    play, check = commands.choices["play"], commands.choices["validate"]
    play.add_argument("--preset", default="classic", choices=presets)
    play.add_argument("--deals", type=int, default=10)
    play.add_argument("--against", type=_bots, default=["heuristic"] * 3,
                      help="the built-in opponents, comma separated (heuristic,heuristic,"
                           "heuristic)")
    play.add_argument("--transcripts", type=Path, default=Path("president-transcripts"))
    check.add_argument("--preset", action="append", choices=presets,
                       help="a preset the bot plays (again for more; default classic)")
    check.add_argument("--deals", type=int, default=validation.DEALS)
    check.add_argument("--against", type=_bots, default=None,
                       help=f"the opponents ({','.join(validation.OPPONENTS)}, as the site)")
    serve = commands.add_parser("serve", help="serve a built-in bot, or a program over HTTP, "
                                              "as an outside bot")
    serve.add_argument("bot", metavar="BOT", help=f"a built-in bot ({', '.join(BUILT_IN)}), "
                                                  "or a program's command line in quotes")
    how = serve.add_mutually_exclusive_group(required=True)
    how.add_argument("--http", type=int, metavar="PORT")
    how.add_argument("--stdio", action="store_true")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--seed", type=int, default=0)
    serve.add_argument("--secret", **secret)
    serve.set_defaults(run=_serve)
    return top


def _bots(text: str) -> list[str]:
    specs = [b.strip() for b in text.split(",") if b.strip()]
    for spec in specs:
        try:
            make_bot(spec).close()  # a bad spec fails here, before any game
        except ValueError as error:  # argparse would say only "invalid _bots value"
            raise argparse.ArgumentTypeError(str(error)) from None
    return specs


def main(argv: list[str] | None = None) -> int:
    top = parser()
    args = top.parse_args(argv)
    if getattr(args, "deals", 1) < 1:
        top.error("--deals must be at least 1")
    try:
        return args.run(args)
    except (ValueError, PresidentError) as error:
        top.error(str(error))


if __name__ == "__main__":
    sys.exit(main())
