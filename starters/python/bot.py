"""A starter bot in Python, on the kit (docs/kit.md): `pip install .` at the repository's root.

    python starters/python/bot.py --http 8765     # an HTTP bot at http://127.0.0.1:8765/
    python starters/python/bot.py --stdio         # JSON lines on stdin/stdout

With PRESIDENT_SECRET set (your bot's secret from the site), the HTTP bot answers only requests
signed with it (gameplay.bots.signing) and refuses the rest with 401.  It plays its lowest play
(passing only when it must), gives back the first cards it may, asks "high", leads itself
clockwise: replace ``decide`` with your strategy.
"""

import argparse
import os

from gameplay.kit.serve import http_server, serve_stdio


def decide(request: dict) -> dict:
    decision = request["decision"]
    observation = request["observation"]
    if decision == "play":
        # the first play offered; observation["rank_order"] is the order of the ranks in force
        plays = [i for i, move in enumerate(request["legal"]) if "play" in move]
        return {"choice": plays[0] if plays else 0}
    if decision == "give_back":
        return {"cards": request["allowed"][: request["count"]]}
    if decision == "name_cards":
        return {"cards": []}  # the Scum then gives its highest cards
    if decision == "ask":
        return {"ask": "high"}
    if decision == "lead_and_direction":
        return {"leader": observation["seat"], "direction": "cw"}
    raise ValueError(f"unknown decision {decision!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    how = parser.add_mutually_exclusive_group(required=True)
    how.add_argument("--http", type=int, metavar="PORT")
    how.add_argument("--stdio", action="store_true")
    args = parser.parse_args()
    if args.stdio:
        serve_stdio(decide)
        return
    server = http_server(decide, args.http, secret=os.environ.get("PRESIDENT_SECRET"))
    print(f"serving at http://127.0.0.1:{server.server_address[1]}/", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
