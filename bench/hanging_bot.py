"""The longest rated ladder game with a bot that never answers (issue #29, "Time").

    python bench/hanging_bot.py [--games 3] [--preset classic] [--deals 4]
                                [--decision-ms 1000] [--overage-ms 3000]

Plays ``--games`` ladder games (validation.play_ladder_game, as the ladder's workers do) of a
hanging HTTP bot on 127.0.0.1 (it reads each request and never answers) against the ladder's
default references (heuristic, greedy, random), ``--deals`` deals a game, with the production
settings' decision limit and time bank. Prints each game's wall time, the hanging seat's
decisions, calls and faults, and the longest game against the bound docs/bots.md states
(decisions × limit + bank). Plain Python, no database: run it on an older checkout
(``PYTHONPATH=/path/to/checkout``) to measure the game before the time bank.
"""

import os
import sys
from pathlib import Path

# The code measured is PYTHONPATH's (another checkout's, for "before"), or this checkout's.
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, os.environ.get("PYTHONPATH") or str(ROOT))

import argparse  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer  # noqa: E402

from gameplay.bots import make_bot  # noqa: E402
from gameplay.bots.outside import HttpBot  # noqa: E402
from gameplay.runner import validation  # noqa: E402


def hanging_server():
    calls = []
    closing = threading.Event()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802
            self.rfile.read(int(self.headers["Content-Length"]))
            calls.append(time.monotonic())
            closing.wait()

        def log_message(self, *args):
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, calls, closing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--decision-ms", type=float, default=1000)
    parser.add_argument("--overage-ms", type=float, default=3000)
    args = parser.parse_args()
    os.environ["OUTSIDE_BOT_OVERAGE_MS"] = str(args.overage_ms)
    httpd, calls, closing = hanging_server()
    port = httpd.server_address[1]
    url = f"http://127.0.0.1:{port}/bot"
    has_bank = hasattr(HttpBot, "bank_open")
    code = os.environ.get("PYTHONPATH") or ROOT
    print(f"code: {code} (time bank: {'yes' if has_bank else 'no'})")
    print(f"preset {args.preset}, {args.deals} deals a game, decision limit "
          f"{args.decision_ms:.0f} ms" + (f", bank {args.overage_ms:.0f} ms" if has_bank else ""))
    longest, bound = 0.0, 0.0
    for number in range(args.games):
        bots = [HttpBot(url, allowed={f"127.0.0.1:{port}"}, timeout_ms=args.decision_ms)]
        bots += [make_bot(spec, seed=number) for spec in ("heuristic", "greedy", "random")]
        before = len(calls)
        start = time.monotonic()
        result = validation.play_ladder_game(bots, args.preset, seed=number, deals=args.deals,
                                             names=["hanging", "heuristic", "greedy", "random"])
        took = time.monotonic() - start
        stats = result.stats[0]
        longest = max(longest, took)
        game_bound = (stats.decisions * args.decision_ms + args.overage_ms * has_bank) / 1000
        bound = max(bound, game_bound)
        print(f"game {number + 1}: {took:6.1f} s, hanging seat: {stats.decisions} decisions, "
              f"{len(calls) - before} calls, {len(stats.faults)} faults; bound "
              f"{game_bound:.1f} s")
    closing.set()
    httpd.shutdown()
    print(f"longest game with a hanging bot: {longest:.1f} s (bound {bound:.1f} s)")


if __name__ == "__main__":
    main()
