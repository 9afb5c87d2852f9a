// A starter bot in JavaScript (Node 18 or later, no dependencies), docs/kit.md.
//
//   node starters/javascript/bot.js --http 8765    # an HTTP bot at http://127.0.0.1:8765/
//   node starters/javascript/bot.js --stdio        # JSON lines on stdin/stdout (a hosted bot)
//
// With PRESIDENT_SECRET set (your bot's secret from the site), it answers only requests signed
// with it: X-President-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>,
// at most 300 s old and not received before (a copy of a request sent again); others get 401.
// It answers the validation's challenge {"decision":
// "challenge", "nonce": N} with {"proof": hex HMAC-SHA256(secret, N)}, which proves the server
// holds the bot's secret. Replace decide() with your strategy.
//
// Any answer may also carry "log": "..." (a note of yours, at most 4,000 characters): the ladder
// game's page shows it to you alone beside that decision's replay step, and a hosted bot's
// stderr (console.error) there too.
"use strict";
const http = require("node:http");
const crypto = require("node:crypto");

const MAX_REQUEST = 1 << 20;
const TOLERANCE_S = 300;
const REPLAYS_LIMIT = 100000;
// Each signature accepted, until it is too old to verify (its t + TOLERANCE_S): a copy of the
// request sent again is refused. Map keeps insertion order: the oldest first when full.
const seen = new Map();

// Remember an accepted signature; false if it was accepted before.
function firstTime(signature, t) {
  const now = Date.now() / 1000;
  for (const [key, end] of seen) {
    if (end >= now && seen.size < REPLAYS_LIMIT) break;
    seen.delete(key);
  }
  if (seen.has(signature)) return false;
  seen.set(signature, t + TOLERANCE_S);
  return true;
}

function decide(request) {
  const obs = request.observation;
  switch (request.decision) {
    case "play": {
      // the first play offered; obs.rank_order is the order of the ranks in force
      const i = request.legal.findIndex((move) => "play" in move);
      return { choice: i < 0 ? 0 : i };
    }
    case "give_back":
      return { cards: request.allowed.slice(0, request.count) };
    case "name_cards":
      return { cards: [] }; // the Scum then gives its highest cards
    case "ask":
      return { ask: "high" };
    case "lead_and_direction":
      return { leader: obs.seat, direction: "cw" };
    default:
      throw new Error(`unknown decision ${request.decision}`);
  }
}

// Why the request is not signed with the secret, or null when it is.
function signatureFault(secret, body, header) {
  if (!header) return "no X-President-Signature header";
  const parts = Object.fromEntries(header.split(",").map((p) => {
    const at = p.indexOf("=");
    return [p.slice(0, at), p.slice(at + 1)];
  }));
  const t = Number.parseInt(parts.t, 10);
  if (!Number.isInteger(t)) return "no t=<unix seconds>";
  const expected = crypto.createHmac("sha256", secret)
    .update(Buffer.concat([Buffer.from(`${t}.`), body])).digest();
  const given = Buffer.from(parts.v1 || "", "hex");
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) {
    return "the signature does not match the body";
  }
  if (Math.abs(Date.now() / 1000 - t) > TOLERANCE_S) return "the signature is too old";
  if (!firstTime(expected.toString("hex"), t)) {
    return "this signed request was already received: a request is answered once, and a copy " +
      "sent again is refused";
  }
  return null;
}

function reply(res, status, text, type = "text/plain") {
  res.writeHead(status, { "Content-Type": type, "Content-Length": Buffer.byteLength(text) });
  res.end(text);
}

function serveStdio() {
  let pending = "";
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (chunk) => {
    pending += chunk;
    let end;
    while ((end = pending.indexOf("\n")) >= 0) {
      const line = pending.slice(0, end).trim();
      pending = pending.slice(end + 1);
      if (line) process.stdout.write(JSON.stringify(decide(JSON.parse(line))) + "\n");
    }
  });
}

const secret = process.env.PRESIDENT_SECRET || "";
const server = http.createServer((req, res) => {
  const chunks = [];
  let size = 0;
  req.on("data", (chunk) => {
    size += chunk.length;
    if (size > MAX_REQUEST) req.destroy();
    else chunks.push(chunk);
  });
  req.on("end", () => {
    const body = Buffer.concat(chunks);
    const fault = secret ? signatureFault(secret, body, req.headers["x-president-signature"]) : null;
    if (fault) return reply(res, 401, fault);
    let answer;
    try {
      const request = JSON.parse(body.toString("utf8"));
      answer = JSON.stringify(secret && request.decision === "challenge"
        ? { proof: crypto.createHmac("sha256", secret).update(String(request.nonce)).digest("hex") }
        : decide(request));
    } catch (error) {
      return reply(res, 400, String(error));
    }
    reply(res, 200, answer, "application/json");
  });
});

if (process.argv.includes("--stdio")) {
  serveStdio();
} else {
  const at = process.argv.indexOf("--http");
  const port = at < 0 ? 8765 : Number(process.argv[at + 1]);
  server.listen(port, "127.0.0.1", () => {
    console.log(`serving at http://127.0.0.1:${server.address().port}/`);
  });
}
