// A starter-like Node bot: president-bot/1's program form, one JSON line in, one out.
const readline = require("readline");

function decide(request) {
  switch (request.decision) {
    case "play": {
      const plays = request.legal.map((m, i) => ("play" in m ? i : -1)).filter((i) => i >= 0);
      return { choice: plays.length ? plays[0] : 0 };
    }
    case "give_back":
      return { cards: request.allowed.slice(0, request.count) };
    case "name_cards":
      return { cards: [] };
    case "ask":
      return { ask: "high" };
    default:
      return { leader: request.observation.seat, direction: "cw" };
  }
}

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  if (line.trim()) process.stdout.write(JSON.stringify(decide(JSON.parse(line))) + "\n");
});
