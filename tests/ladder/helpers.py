"""Outside bot servers on 127.0.0.1 for the ladder tests, answering like examples/outside_bot.py
or, as a test picks, with junk."""

import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples"
sys.path.insert(0, str(EXAMPLE))
from outside_bot import decide  # noqa: E402


class BotServer:
    """An HTTP bot: ``mode`` "good" plays like the example bot, "junk" answers what is not
    JSON (a malformed fault each decision)."""

    def __init__(self):
        self.mode = "good"
        self.requests = 0
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802
                request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.requests += 1
                body = (json.dumps(decide(request)) if server.mode == "good"
                        else "not json {").encode()
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/bot"
        self.allowed = f"127.0.0.1:{self.port}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()
