"""A minimal outside bot speaking president-bot/1 (docs/bots.md), standard library only.

    python examples/outside_bot.py --port 8765      # an HTTP bot at http://127.0.0.1:8765/
    python examples/outside_bot.py --stdio          # a local program: JSON lines on stdin/stdout

It plays the first legal play it is offered (passing only when it must), gives back the first
cards it may, asks "high", leads itself clockwise.  Replace ``decide`` with your own strategy.
"""

import argparse
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MAX_REQUEST = 1 << 20


def decide(request: dict) -> dict:
    decision = request["decision"]
    if decision == "play":
        legal = request["legal"]
        plays = [i for i, move in enumerate(legal) if "play" in move]
        return {"choice": plays[0] if plays else 0}
    if decision == "give_back":
        return {"cards": request["allowed"][: request["count"]]}
    if decision == "name_cards":
        return {"cards": []}  # the Scum then gives its highest cards
    if decision == "ask":
        return {"ask": "high"}
    if decision == "lead_and_direction":
        return {"leader": request["observation"]["seat"], "direction": "cw"}
    raise ValueError(f"unknown decision {decision!r}")


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):  # noqa: N802 - the name http.server calls
        length = int(self.headers.get("Content-Length", 0))
        if length > MAX_REQUEST:
            self.send_error(413)
            return
        try:
            body = json.dumps(decide(json.loads(self.rfile.read(length)))).encode()
        except (ValueError, KeyError) as error:
            self.send_error(400, str(error))
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def serve_stdio() -> None:
    for line in sys.stdin:
        if line.strip():
            print(json.dumps(decide(json.loads(line))), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--stdio", action="store_true")
    args = parser.parse_args()
    if args.stdio:
        serve_stdio()
        return
    ThreadingHTTPServer((args.host, args.port), Handler).serve_forever()


if __name__ == "__main__":
    main()
