"""The engine's command line (TRANSCRIPT.md "The checker", and a random-play game printer)."""

import argparse
import json
import sys

from gameplay.engine.checker import UNREADABLE, VALID, check_text
from gameplay.engine.options import PRESETS, preset
from gameplay.engine.scoring import Scoring, systems

# A long game's transcript is a few hundred kilobytes; reading and checking 10 MB takes seconds.
MAX_BYTES = 10_000_000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gameplay.engine")
    commands = parser.add_subparsers(dest="command", required=True)
    check_cmd = commands.add_parser("check", help="check transcripts, one JSON verdict per line")
    check_cmd.add_argument("files", nargs="+", help="transcript files, - for standard input")
    check_cmd.add_argument("--max-bytes", type=int, default=MAX_BYTES, metavar="N",
                           help="refuse a file longer than N bytes, unread "
                                f"(default {MAX_BYTES:,})")
    play_cmd = commands.add_parser("play", help="print the transcript of a random-play game")
    play_cmd.add_argument("--preset", required=True, choices=sorted(PRESETS))
    play_cmd.add_argument("--players", type=int, default=4)
    play_cmd.add_argument("--seed", type=int, default=0)
    play_cmd.add_argument("--scoring", choices=[s.name for s in systems()], default="penalty")
    play_cmd.add_argument("--limit", type=int)
    play_cmd.add_argument("--target", type=int)
    play_cmd.add_argument("--deals", type=int)
    play_cmd.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                          help="override an option, e.g. --option jokers=2 (JSON values)")
    args = parser.parse_args(argv)
    if args.command == "check":
        return _check(args.files, max_bytes=args.max_bytes)
    return _play(args)


def _check(files: list[str], *, max_bytes: int) -> int:
    worst = VALID
    for name in files:
        try:
            text = _read(name, max_bytes)
        except OSError as e:
            status, result = UNREADABLE, _unreadable(f"cannot read file: {e.strerror}")
        else:
            if text is None:
                status, result = UNREADABLE, _unreadable(
                    f"file is longer than {max_bytes:,} bytes (--max-bytes)")
            else:
                status, result = check_text(text)
        print(json.dumps({"file": name} | result), flush=True)
        worst = max(worst, status)
    return worst


def _read(name: str, max_bytes: int) -> bytes | None:
    """The file's bytes, or None when it is longer than ``max_bytes``: no more than one byte
    past the limit is read, so /dev/zero or a huge file costs nothing."""
    if name == "-":
        text = sys.stdin.buffer.read(max_bytes + 1)
    else:
        with open(name, "rb") as file:
            text = file.read(max_bytes + 1)
    return None if len(text) > max_bytes else text


def _unreadable(error: str) -> dict:
    return {"valid": False, "deal": None, "move": None, "error": error}


def _play(args) -> int:
    from gameplay.engine.errors import PresidentError
    from gameplay.engine.selfplay import play_random_game

    try:
        overrides = {}
        for item in args.option:
            name, _, value = item.partition("=")
            overrides[name] = json.loads(value)
        options = preset(args.preset, **overrides)
        scoring = Scoring(args.scoring, limit=args.limit, target=args.target, deals=args.deals)
        transcript = play_random_game(options, args.players, seed=args.seed, scoring=scoring)
    except (PresidentError, ValueError) as e:
        print(f"error: {getattr(e, 'message', e)}", file=sys.stderr)
        return 2
    json.dump(transcript, sys.stdout, indent=1)
    print()
    return 0
