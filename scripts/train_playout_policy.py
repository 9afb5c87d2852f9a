"""Train montecarlo's learned playout policy (issue #32) for a preset.

    .venv/bin/python scripts/train_playout_policy.py --preset classic [--method reinforce]
        [--iterations 12000] [--batch 256] [--rate 0.03] [--seed 1]
    .venv/bin/python scripts/train_playout_policy.py --preset classic --method imitation
        [--games 4000] [--playouts 300] [--seed 1] [--workers 1] [--l2 1.0]

The policy plays montecarlo's own later moves in its playouts (``montecarlo:policy=learned``):
a softmax over the kernel's features of each legal move (``kernel.features``, the code the
playouts weigh them with).  Two ways to fit its weights, each reproducible from ``--seed``:

``reinforce`` (policy gradient, as FujiGokoro): from the weights of the heuristic's move alone
(3 on it), kernel playouts of random deals with one seat on the policy and three on the
heuristic (montecarlo's model of the table); each step moves the weights along the mean of
(the seat's finish less its finish playing the heuristic itself from the same deal) times the
gradient of its moves' log-probability (Adam).  Measured on 2,000 other deals, 4 draws each:
the seat's mean finish (0 last … 1 first) less the heuristic's, with its 95% interval.

``imitation``: ``--games`` one-deal games of montecarlo at ``--playouts`` fixed playouts against
three ``heuristic`` bots, montecarlo's seat turning round the table; each of its decisions with
a choice is kept as the features of every legal move and the move it chose.  A conditional
logit (a softmax over each decision's moves) is fitted by Newton's method with an L2 penalty on
the first 80% of the games; the last 20% measure it (the chosen move's log-likelihood, how often
the policy's likeliest move is the chosen one, beside how often the heuristic's move is).

The weights go into gameplay/bots/playout_weights.json under the preset, with this command, the
games or deals, the figures and the time taken.
"""

import argparse
import json
import math
import random
import sys
import time
from array import array
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gameplay.bots import cardset as C  # noqa: E402
from gameplay.bots import kernel, make_bot  # noqa: E402
from gameplay.bots.base import BotDecider  # noqa: E402
from gameplay.bots.heuristic import PLAIN, HeuristicBot  # noqa: E402
from gameplay.bots.montecarlo import LEARNED, TUNED  # noqa: E402
from gameplay.bots.observation import GameLog  # noqa: E402
from gameplay.engine import selfplay  # noqa: E402
from gameplay.engine.game import Game  # noqa: E402
from gameplay.engine.options import PRESETS, preset  # noqa: E402
from gameplay.engine.ruleset import Rules  # noqa: E402

HEURISTIC = kernel.FEATURES.index("heuristic")


def decisions(task) -> list[tuple[int, list[tuple]]]:
    """One game's montecarlo decisions with a choice: (index of its move, features of each
    legal move)."""
    name, game_number, seed, playouts = task
    rules = Rules(preset(name), 4)
    game = Game(rules, dealer=0, scoring=None)
    log = GameLog()
    bot = make_bot(f"montecarlo:playouts={playouts}", seed=seed * 1_000_003 + game_number)
    fill = random.Random(seed * 7_919 + game_number)  # the other seats' hidden cards
    kept = []
    search = bot.play

    def play(obs, legal):
        choice = search(obs, legal)
        if len(legal) > 1 and kernel.supports(obs.rules):
            # the features read the seat's own hand, the counts and the pile; the others'
            # hands only as the unseen cards, whichever of them holds which
            pool = C.mask_cards(obs.unseen())
            fill.shuffle(pool)
            hands, at = [], 0
            for s in range(obs.players):
                take = 0 if s == obs.seat else obs.held[s]
                hands.append(obs.hand if s == obs.seat else C.cards_mask(pool[at:at + take]))
                at += take
            state = kernel.state(obs.deal_with(hands))
            _, rows = kernel.features(obs.rules, state, bot.style(obs.rules))
            # by its place: the kernel lists the legal moves in the engine's order, and with
            # two decks a play can have two codes
            kept.append((legal.index(choice), rows))
        return choice

    bot.play = play
    players = [HeuristicBot() for _ in range(4)]
    players[game_number % 4] = bot
    seats = [BotDecider(b, s, log, game) for s, b in enumerate(players)]
    selfplay.play_deal(game, seats, random.Random(seed * 104_729 + game_number))
    return kept


def pack(found) -> bytes:
    data = array("d")
    for chosen, rows in found:
        data.extend((len(rows), chosen))
        for row in rows:
            data.extend(row)
    return data.tobytes()


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """x with a·x = b (Gaussian elimination, partial pivoting)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c and m[r][c]:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit(data: bytes, l2: float, steps: int = 50) -> list[float]:
    """The weights of highest penalized likelihood (Newton's method, halving a step that does
    not improve it)."""
    w = [0.0] * kernel.N_FEATURES
    ll, grad, hess = kernel.logit(data, w, l2)
    for _ in range(steps):
        step = solve([[-x for x in row] for row in hess], grad)
        for _ in range(30):
            trial = [a + b for a, b in zip(w, step, strict=True)]
            trial_ll, trial_grad, trial_hess = kernel.logit(data, trial, l2)
            if trial_ll >= ll:
                break
            step = [x / 2 for x in step]
        else:
            break
        gain = trial_ll - ll
        w, ll, grad, hess = trial, trial_ll, trial_grad, trial_hess
        if gain < 1e-7 * max(1.0, abs(ll)):
            break
    return w


def measured(found, w) -> dict:
    """The held-out figures: mean log-likelihood of the chosen move, how often the policy's
    likeliest move and the heuristic's are the chosen one."""
    ll = likeliest = heuristic = 0.0
    for chosen, rows in found:
        z = [sum(a * b for a, b in zip(w, row, strict=True)) for row in rows]
        top = max(z)
        ll += z[chosen] - top - math.log(sum(math.exp(v - top) for v in z))
        likeliest += z.index(top) == chosen
        heuristic += rows[chosen][HEURISTIC] == 1
    n = max(1, len(found))
    return {"decisions": len(found), "log_likelihood": round(ll / n, 4),
            "likeliest_is_chosen": round(likeliest / n, 4),
            "heuristic_is_chosen": round(heuristic / n, 4)}


def new_deal(rules: Rules, rng: random.Random) -> bytes:
    """The kernel's state of a fresh deal (no exchange), its leader as the rules have it."""
    return kernel.state(selfplay.fresh_deal(rules, rng))


def against_heuristic(rules, style, weights: list[float], deals: list, draws: int = 4) -> dict:
    """The seat's mean finish on the policy less on the heuristic, over ``deals`` (state,
    seat), ``draws`` playouts each, with its 95% interval."""
    packed = kernel.packed(weights)
    gains = []
    for s, seat in deals:
        plain = kernel.playout(rules, s, kernel.NO_MOVE, seat, style)
        gains.append(sum(kernel.reinforce(rules, s, seat, style, packed, d)[0]
                         for d in range(draws)) / draws - plain)
    mean = sum(gains) / len(gains)
    sd = math.sqrt(sum((g - mean) ** 2 for g in gains) / (len(gains) - 1))
    half = 1.96 * sd / math.sqrt(len(gains))
    return {"deals": len(gains), "draws": draws, "gain": round(mean, 4),
            "gain_ci": [round(mean - half, 4), round(mean + half, 4)]}


def reinforce(name: str, args) -> dict:
    rules = Rules(preset(name), 4)
    style = TUNED.get(name, PLAIN)
    rng = random.Random(args.seed)
    held_out = [(new_deal(rules, random.Random(f"held out {args.seed} {i}")), i % 4)
                for i in range(2000)]
    n = kernel.N_FEATURES
    w = [3.0 if f == "heuristic" else 0.0 for f in kernel.FEATURES]
    start = against_heuristic(rules, style, w, held_out)
    first, second = [0.0] * n, [0.0] * n  # Adam's moments
    for step in range(1, args.iterations + 1):
        packed = kernel.packed(w)
        g = [0.0] * n
        for _ in range(args.batch):
            s, seat = new_deal(rules, rng), rng.randrange(4)
            plain = kernel.playout(rules, s, kernel.NO_MOVE, seat, style)
            result, grad = kernel.reinforce(rules, s, seat, style, packed, rng.getrandbits(64))
            if result != plain:
                for j in range(n):
                    g[j] += (result - plain) * grad[j] / args.batch
        for j in range(n):
            first[j] = 0.9 * first[j] + 0.1 * g[j]
            second[j] = 0.999 * second[j] + 0.001 * g[j] ** 2
            w[j] += args.rate * (first[j] / (1 - 0.9 ** step)) / (
                math.sqrt(second[j] / (1 - 0.999 ** step)) + 1e-8)
    return {"weights": w, "deals": args.iterations * args.batch,
            "games_of": f"kernel playouts of {args.iterations * args.batch} random deals, one "
                        f"seat on the policy and three on the heuristic, seeds from --seed "
                        f"{args.seed}",
            "held_out": {"at_start": start, "trained": against_heuristic(rules, style, w,
                                                                          held_out)}}


def imitation(name: str, args) -> dict:
    tasks = [(name, g, args.seed, args.playouts) for g in range(args.games)]
    if args.workers > 1:
        with Pool(args.workers) as pool:
            games = pool.map(decisions, tasks, chunksize=8)
    else:
        games = [decisions(t) for t in tasks]
    cut = args.games * 4 // 5
    train = [d for g in games[:cut] for d in g]
    held_out = [d for g in games[cut:] for d in g]
    w = fit(pack(train), args.l2)
    return {"weights": w, "games": args.games,
            "games_of": f"one-deal games, montecarlo:playouts={args.playouts} against three "
                        f"heuristic bots, seeds from --seed {args.seed}",
            "train_decisions": len(train), "held_out": measured(held_out, w),
            "train": measured(train, w)}


METHODS = {"reinforce": reinforce, "imitation": imitation}
SETTINGS = {"reinforce": ("iterations", "batch", "rate", "seed"),
            "imitation": ("games", "playouts", "seed", "workers", "l2")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", required=True, choices=sorted(PRESETS))
    parser.add_argument("--method", choices=sorted(METHODS), default="reinforce")
    parser.add_argument("--iterations", type=int, default=12000)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--rate", type=float, default=0.03)
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--playouts", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--l2", type=float, default=1.0)
    parser.add_argument("--out", type=Path, default=LEARNED)
    args = parser.parse_args()
    start = time.perf_counter()
    entry = METHODS[args.method](args.preset, args)
    w = entry["weights"]
    command = (f"scripts/train_playout_policy.py --preset {args.preset} --method {args.method} "
               + " ".join(f"--{k} {getattr(args, k)}" for k in SETTINGS[args.method]))
    entry = {"weights": [round(x, 6) for x in w],
             "named": dict(zip(kernel.FEATURES, (round(x, 3) for x in w), strict=True)),
             "command": command, **{k: v for k, v in entry.items() if k != "weights"},
             "seconds": round(time.perf_counter() - start, 1)}
    stored = json.loads(args.out.read_text()) if args.out.exists() else {
        "features": list(kernel.FEATURES), "presets": {}}
    if stored["features"] != list(kernel.FEATURES):
        raise SystemExit(f"{args.out} holds weights of other features: train every preset again")
    stored["presets"][args.preset] = entry
    args.out.write_text(json.dumps(stored, indent=1) + "\n")
    print(json.dumps({"preset": args.preset, **entry}))


if __name__ == "__main__":
    main()
