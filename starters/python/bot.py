"""A starter bot in Python, on the kit (docs/kit.md): `pip install .` at the repository's root.

    python starters/python/bot.py --http 8765     # an HTTP bot at http://127.0.0.1:8765/
    python starters/python/bot.py --stdio         # JSON lines on stdin/stdout

With PRESIDENT_SECRET set (your bot's secret from the site), the HTTP bot answers only requests
signed with it (gameplay.bots.signing) and refuses the rest with 401; the kit's server answers
the validation's challenge with the proof that it holds the secret.  It plays its lowest play
by the rank order in force (passing only when it must), gives back its lowest cards, asks
"high", leads itself clockwise: replace ``decide`` with your strategy.

Any answer may also carry ``"log": "..."`` (a note of yours, at most 4,000 characters): the
ladder game's page shows it to you alone beside that decision's replay step, and a hosted bot's
stderr (``print(..., file=sys.stderr)``) there too.
"""

import argparse
import os

from gameplay.kit.serve import http_server, serve_stdio


def rank(card: str) -> str:
    """A card's rank in the transcript's notation: "10" of "10C"; jokers, the numbered deck's
    cards and doppelgängers are their rank already."""
    return card[:-1] if len(card) > 1 and card[-1] in "CDHS" else card


def decide(request: dict) -> dict:
    decision = request["decision"]
    observation = request["observation"]
    # the ranks lowest first as they stand now (a revolution reverses them); others (bombs)
    # count above them all
    order = {r: i for i, r in enumerate(observation["rank_order"])}
    strength = lambda cards: max(order.get(rank(c), len(order)) for c in cards)  # noqa: E731
    if decision == "play":  # the lowest play, passing only when none is offered
        plays = [(strength(move["play"]), i) for i, move in enumerate(request["legal"])
                 if "play" in move]
        return {"choice": min(plays)[1] if plays else 0}
    if decision == "give_back":  # the lowest cards
        allowed = sorted(request["allowed"], key=lambda c: strength([c]))
        return {"cards": allowed[: request["count"]]}
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
