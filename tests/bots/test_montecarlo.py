"""montecarlo: inference from the other seats' moves, consistent sampling, determinism."""

import random

import pytest

from gameplay.bots import cardset, inference, make_bot
from gameplay.bots.base import BotDecider
from gameplay.bots.heuristic import PLAIN, HeuristicBot, Style, heuristic_move
from gameplay.bots.montecarlo import TUNED, MonteCarloBot, SearchConfig, heuristic_policy
from gameplay.bots.observation import GameLog, Observation, observe
from gameplay.bots.simple import GreedyBot, RandomBot
from gameplay.engine import cards as C
from gameplay.engine import selfplay
from gameplay.engine.deal import CCW
from gameplay.engine.game import Game
from gameplay.engine.options import preset
from gameplay.engine.plays import PASS
from gameplay.engine.ruleset import Rules
from gameplay.runner.match import play_game


class Spy:
    """A seat's decider that, before each of its decisions, reads the constraints and hands
    them with the true deal to ``check``."""

    def __init__(self, seat: BotDecider, log: GameLog, game: Game, check):
        self.seat, self.log, self.game, self.check = seat, log, game, check

    def move(self, deal, legal):
        obs = observe(deal, self.game, self.log, self.seat.seat)
        self.check(obs, deal)
        return self.seat.move(deal, legal)

    def __getattr__(self, name):
        return getattr(self.seat, name)


def _play_spied(name: str, seed: int, check, bots=None) -> None:
    rules = Rules(preset(name), 4)
    game = Game(rules, dealer=0, scoring=None)
    log = GameLog()
    bots = bots or [HeuristicBot() for _ in range(4)]
    seats = [BotDecider(b, s, log, game) for s, b in enumerate(bots)]
    deciders = [Spy(s, log, game, check) for s in seats]
    selfplay.play_deal(game, deciders, random.Random(seed))


@pytest.mark.parametrize("name, deals", [("classic", 40), ("school-scum", 10)])
def test_constraints_hold_for_the_true_hands_of_heuristic_players(name, deals):
    """The model reads heuristic players right: their real hands never break a constraint,
    and the deals do produce constraints to check.  (school-scum: a follow with an opponent
    near out was read as the lowest play, split or not, though the heuristic plays a whole
    group above a group it would have to split.)"""
    seen = []

    def check(obs, deal):
        found = inference.constraints(obs)
        seen.extend(found)
        for c in found:
            assert c.seat != obs.seat
            assert not c.broken(deal.hands[c.seat]), (obs.moves, c.seat)

    for seed in range(deals):
        _play_spied(name, seed, check)
    assert len(seen) > 5 * deals


def test_a_pass_on_a_low_single_rules_out_cards_just_above_it():
    rules = Rules(preset("classic"), 4)
    hands = [C.cards_mask([3 * 4]), C.cards_mask([4 * 4, 9 * 4]), C.cards_mask([8 * 4]),
             C.cards_mask([10 * 4])]
    game = Game(rules, dealer=0, scoring=None)
    log = GameLog()
    deal = game.begin(hands, leader=0, direction=1, blind=None, opening=None)
    from gameplay.engine.plays import PASS

    single3 = next(m for m in deal.legal_moves() if m is not PASS and m.face == 3)
    log.follow(deal)
    deal.apply(single3)
    log.record(0, single3)
    deal.apply(PASS)
    log.record(1, PASS)
    obs = observe(deal, game, log, 2)
    found = inference.constraints(obs)
    assert [c.seat for c in found] == [0, 1]  # seat 0 led its lowest, seat 1 passed
    c = found[1]
    assert c.broken(C.cards_mask([4 * 4]))  # a 4 just above the 3: it would have played it
    assert c.broken(C.cards_mask([7 * 4]))
    assert not c.broken(C.cards_mask([2 * 4, 2 * 4 + 1]))  # only 2s (controls): a fair pass


def test_sampled_worlds_match_counts_and_unseen_cards_and_usually_the_constraints():
    broken_total = []

    def check(obs, deal):
        bot = MonteCarloBot(seed=3, playouts=8, infer=20)
        found = inference.constraints(obs)
        for _ in range(5):
            hands, blind = bot.dealer(obs, found)()
            assert hands[obs.seat] == obs.hand
            others = sum(h for s, h in enumerate(hands) if s != obs.seat)
            assert others == obs.unseen()  # exactly the unseen cards, none played or mine
            for s in range(4):
                assert C.mask_count(hands[s]) == obs.held[s]
            broken_total.append(inference.violations(found, hands))

    for seed in range(10):
        _play_spied("classic", seed, check)
    # the sampler finds a world consistent with everything read nearly always
    assert sum(1 for b in broken_total if b == 0) >= 0.9 * len(broken_total)


@pytest.mark.parametrize("name", ["classic", "wild-jokers"])  # constraint sampler, walk
def test_montecarlo_is_deterministic_given_seed_and_playouts(name):
    def game():
        bots = [MonteCarloBot(seed=11, playouts=40), HeuristicBot(), HeuristicBot(),
                HeuristicBot()]
        return play_game(bots, preset(name), seed=5).transcript

    assert game() == game()


def test_a_forced_decision_is_answered_without_search_or_playouts():
    """Issue #32, "time where it matters": one legal move (often only pass) is played at once;
    a decision with a choice is searched with its playouts."""
    bot = MonteCarloBot(seed=3, playouts=30)
    seen = []  # (legal moves, figures before, figures after)
    play = bot.play

    def counted(obs, legal):
        before = bot.figures()
        move = play(obs, legal)
        seen.append((len(legal), before, bot.figures()))
        return move

    bot.play = counted
    play_game([bot, HeuristicBot(), HeuristicBot(), HeuristicBot()], preset("classic"), seed=5)
    forced = [(before, after) for n, before, after in seen if n == 1]
    searched = [(before, after) for n, before, after in seen
                if n > 1 and after["searches"] > before["searches"]]
    assert forced and searched
    assert all(before == after for before, after in forced)
    assert all(after["playouts"] - before["playouts"] >= 30 for before, after in searched)


def test_the_bank_spends_on_open_decisions_only_what_the_deal_saved():
    """Issue #32, "time where it matters" (``bank``): a decision that settles early or is not
    searched saves the rest of its budget; a decision still open at its budget takes more, up
    to ``bank`` budgets, never beyond what its deal saved; without a bank each searched
    decision takes its budget."""
    def decisions(bank):
        seen = []  # (game, playouts taken, budgets saved before)
        for seed in (5, 6, 7):
            bot = MonteCarloBot(seed=3, playouts=30, bank=bank)
            play = bot.play

            def counted(obs, legal, bot=bot, play=play, seed=seed):
                saved = bot.saved[1] if bot.saved[0] == obs.deal_number else 0.0
                before = bot.figures()["playouts"]
                move = play(obs, legal)
                seen.append((seed, bot.figures()["playouts"] - before, saved))
                return move

            bot.play = counted
            play_game([bot, HeuristicBot(), HeuristicBot(), HeuristicBot()], preset("classic"),
                      seed=seed)
        return seen

    banked = decisions(2)
    slack = 40  # a world plays out every candidate alive: the last one may pass the budget
    assert any(0 < done < 30 for _, done, _ in banked)  # settled early
    assert any(done > 30 + slack for _, done, _ in banked)  # an open one took more
    assert all(done <= 30 * (1 + min(saved, 2)) + slack for _, done, saved in banked)
    for deal in {d for d, _, _ in banked}:
        taken = [done for d, done, _ in banked if d == deal]
        assert sum(taken) <= 30 * len(taken) + slack
    assert all(done == 0 or 30 <= done <= 30 + slack for _, done, _ in decisions(0))


@pytest.mark.parametrize("name", ["school-scum", "friday", "classic", "modern", "wild-jokers",
                                  "presidents-deck"])
def test_the_playout_policy_plays_exactly_like_the_heuristic_bot(name):
    """BOTS.md ("a playout policy that matches the opponents is worth a lot"): the playouts'
    heuristic policy, reading the engine's Deal, picks the move the heuristic bot picks from its
    Observation at every decision of real deals."""
    compared = 0

    def check(obs, deal):
        nonlocal compared
        legal = deal.legal_moves()
        assert heuristic_policy(deal, legal, 0, None) is HeuristicBot().play(obs, legal)
        compared += 1

    for seed in range(10):
        _play_spied(name, seed, check)
    assert compared > 100


def test_seats_read_too_little_play_at_random_in_the_playouts():
    """``random_below``: a seat whose reading explains under that share of its moves (its
    constraints' weight, inference.weigh) is played at random in the playouts; a seat read in
    full, or not read, keeps the heuristic's play (issue #32, inference that reads every
    style)."""
    read = [inference.Constraint(1, 0, 0, ()), inference.Constraint(2, 0, 0, ()),
            inference.Constraint(3, 0, 0, ())]
    for c, fit in zip(read, (1.0, 0.8, 0.5), strict=True):
        c.weight = fit
    assert MonteCarloBot(random_below=0.9).random_seats(read) == 1 << 2 | 1 << 3
    assert MonteCarloBot(random_below=0.6).random_seats(read[:2]) == 0
    assert MonteCarloBot().random_seats(read) == 1 << 2 | 1 << 3  # under 1: any unexplained
    assert MonteCarloBot(random_below=0).random_seats(read) == 0


def test_school_scum_playouts_look_ahead_at_nothing_unless_asked():
    """Issue #32: school-scum's look-ahead costs more playouts than it wins (``LOOKS``), so
    its playouts look ahead at none of its own decisions; other presets at 3; a ``looks``
    setting wins on every preset."""
    bot = MonteCarloBot()
    assert bot.looks(Rules(preset("school-scum"), 4)) == 0
    assert bot.looks(Rules(preset("classic"), 4)) == 3
    assert MonteCarloBot(looks=2).looks(Rules(preset("school-scum"), 4)) == 2


def test_an_unknown_playout_policy_is_refused_by_name():
    with pytest.raises(ValueError, match="policy is one of heuristic, fast"):
        MonteCarloBot(policy="random")


def test_an_unknown_setting_is_refused_by_name():
    with pytest.raises(ValueError, match="montecarlo takes budget_ms, playouts, .*not 'bandit'"):
        make_bot("montecarlo:playouts=10,bandit=0")
    with pytest.raises(ValueError, match="montecarlo has no setting bandit; its settings are "
                                         "budget_ms, playouts, chains"):
        MonteCarloBot(bandit=0)
    assert make_bot("montecarlo:playouts=10,lean=0.2").config == SearchConfig(playouts=10,
                                                                              lean=0.2)


def test_montecarlo_needs_a_chain_of_worlds():
    with pytest.raises(ValueError, match="chains is at least 1, not 0"):
        MonteCarloBot(chains=0)


def test_montecarlo_names_the_leader_and_direction_by_playouts():
    """Seed 004: the dealer names the first leader and the direction.  A hand of four 1s goes
    out at once when it leads (four of the lowest rank beat nothing later), so montecarlo leads
    itself; every answer names a seat holding cards and a direction, the same for the same seed;
    where the leader is fixed it leaves the direction clockwise."""
    from gameplay.bots.observation import Observation
    from gameplay.engine.deal import CCW, CW

    rules = Rules(preset("presidents-deck"), 4)
    ones = C.cards_mask([1 * 4 + s for s in range(4)])
    rest = [c for c in C.mask_cards(rules.deck.mask) if c >> 2 != 1]
    random.Random(2).shuffle(rest)

    def view(hand: int) -> Observation:
        return Observation(
            seat=0, rules=rules, hand=hand, held=[C.mask_count(hand), 13, 13, 13],
            blind_held=[0] * 4, active=[0, 1, 2, 3], finishing_order=[], turn=0, last=None,
            last_seat=0, before_last=None, trick=[], moves=[], played=0, passed=[],
            direction=CW, mode=0, mode_count=0, reversed=False, opening=None)

    assert MonteCarloBot(seed=1, playouts=80).lead_and_direction(view(ones), True)[0] == 0
    hand = C.cards_mask(rest[:13])
    answers = {MonteCarloBot(seed=4, playouts=80).lead_and_direction(view(hand), True)
               for _ in range(2)}
    assert len(answers) == 1
    leader, direction = answers.pop()
    assert leader in range(4) and direction in (CW, CCW)
    assert MonteCarloBot(seed=4, playouts=80).lead_and_direction(view(hand), False) == (None, CW)


def test_a_tuned_style_leads_its_largest_group_and_keeps_more_controls():
    """The style thresholds change what ``heuristic_move`` plays (the plain style is the seeds'
    advice as the heuristic bot plays it).  Classic (seed 002, 2s high), holding a 3, three 5s,
    a pair of 9s and a King: leading, the plain style plays the 3 (lowest first), a style with
    ``lead_big=3`` the three 5s; on a single Queen the plain style plays the King (a whole
    group, not a control), a style counting the two ranks below the 2s as controls passes."""
    rules = Rules(preset("classic"), 4)
    queen = 12 * 4
    mine = [3 * 4, 5 * 4, 5 * 4 + 1, 5 * 4 + 2, 9 * 4, 9 * 4 + 1, 13 * 4]
    others = [c for c in C.mask_cards(rules.deck.mask) if c not in mine and c != queen]
    hands = [C.cards_mask(mine), C.cards_mask([queen] + others[:12]),
             C.cards_mask(others[12:24]), C.cards_mask(others[24:36])]

    def choice(leader, style):
        game = Game(rules, dealer=0, scoring=None)
        deal = game.begin(list(hands), leader=leader, direction=CCW, blind=None, opening=None)
        if leader == 1:  # seat 1 leads the Queen; seat 0 is next counter-clockwise
            deal.apply(next(m for m in deal.legal_moves() if m.cards == (queen,)))
        move = heuristic_move(rules, Observation.at(deal, 0), deal.legal_moves(), style)
        return move if move is PASS else (move.face, move.count)

    assert choice(0, PLAIN) == (3, 1)
    assert choice(0, Style(lead_big=3)) == (5, 3)
    assert choice(1, PLAIN) == (13, 1)
    assert choice(1, Style(controls_below_top=2)) is PASS


def test_montecarlo_leans_on_the_tuned_style_where_the_preset_has_one():
    """Where a tuned style is known (presidents-deck) montecarlo's own later moves follow it
    and its choice wins unless another move beats it by ``lean``: with a lean no playout can
    overcome (and no candidate dropped early), montecarlo plays exactly what the tuned style
    plays; elsewhere (classic) it uses the plain style."""
    compared = 0
    bot = MonteCarloBot(seed=3, playouts=30, lean=2, halving=0)

    def check(obs, deal):
        nonlocal compared
        legal = deal.legal_moves()
        if obs.seat == 0 and len(legal) > 1:
            tuned = heuristic_move(obs.rules, obs, legal, TUNED["presidents-deck"])
            assert bot.play(obs, legal) is tuned
            compared += 1

    for seed in range(3):
        _play_spied("presidents-deck", seed, check)
    assert compared > 20
    assert bot.style(Rules(preset("presidents-deck"), 4)) is TUNED["presidents-deck"]
    assert bot.style(Rules(preset("classic"), 4)) is PLAIN
    assert MonteCarloBot(tuned=0).style(Rules(preset("presidents-deck"), 4)) is PLAIN


class StyledBot(HeuristicBot):
    def __init__(self, style: Style):
        self.style = style

    def play(self, obs, legal):
        return heuristic_move(obs.rules, obs, legal, self.style)


OTHER_STYLE = Style(pass_jump=4, pass_total=10, pass_near_top=4, endgame_margin=2,
                    split_near_top=2, safe_groups=1, controls_below_top=1)


def test_the_model_reads_the_style_it_is_given():
    """The opponent model takes its thresholds from the heuristic's Style: players of another
    style never break what it reads with that style, and do break the plain style's reading."""
    with_style, plain_broken = [], []

    def check(obs, deal):
        found = inference.constraints(obs, OTHER_STYLE)
        with_style.extend(found)
        assert not [c for c in found if c.broken(deal.hands[c.seat])], obs.moves
        plain_broken.extend(c for c in inference.constraints(obs)
                            if c.broken(deal.hands[c.seat]))

    for seed in range(30):
        _play_spied("classic", seed, check, [StyledBot(OTHER_STYLE) for _ in range(4)])
    assert len(with_style) > 100 and plain_broken


def test_a_move_no_hand_explains_drops_out_and_its_seat_is_read_less():
    """Issue #32, inference that reads every style: seat 1 passed on a low single holding a 4
    (it played that 4 since), which no heuristic player does; its readings weigh its fit (the
    share of its moves some hand explains) and rule no card out, seat 2's stay in full."""
    four, five, nine = cardset.face_set(4), cardset.face_set(5), cardset.face_set(9)
    passed_holding_a_four = inference.Constraint(1, C.cards_mask([4 * 4]), four + five, ())
    passed = inference.Constraint(1, 0, nine, ())
    other = inference.Constraint(2, 0, five, ())
    unseen = C.cards_mask(range(5 * 4, 13 * 4))
    kept = inference.weigh([passed_holding_a_four, passed, other], [0, 3, 3, 3], unseen)
    assert kept == [passed, other]
    assert (passed.weight, other.weight) == (0.5, 1.0)
    assert inference.forbidden(kept, 4) == [0, 0, five, 0]
    hands = [0, C.cards_mask([9 * 4]), C.cards_mask([5 * 4]), 0]
    assert inference.violations(kept, hands) == 1.5


def test_readings_that_leave_a_seat_too_few_cards_do_not_read_it_in_full():
    """Each pass, read alone, is possible; together they leave seat 1 fewer unseen cards than
    it holds, so it did not play like the heuristic in one of them."""
    unseen = C.cards_mask([5 * 4, 6 * 4, 7 * 4, 8 * 4])
    passes = [inference.Constraint(1, 0, cardset.face_set(5) + cardset.face_set(6), ()),
              inference.Constraint(1, 0, cardset.face_set(7), ())]
    kept = inference.weigh(passes, [0, 2, 2, 2], unseen)
    assert kept == passes and {c.weight for c in kept} == {0.5}
    assert inference.weigh(passes[:1], [0, 2, 2, 2], unseen)[0].weight == 1.0


def test_greedy_and_random_seats_lose_their_reading_and_heuristic_seats_keep_it():
    """school-scum, seat 0 reading a heuristic, a greedy, a random and a heuristic player: the
    heuristic seat is read in full at every decision, the
    greedy and random seats lose full reading in most deals, and a seat not read in full rules
    no card out of its hand."""
    last = {}  # seat -> its fit at seat 0's latest decision of the deal
    ended = {1: [], 2: []}

    def check(obs, deal):
        if obs.seat != 0:
            return
        found = inference.constraints(obs)
        banned = inference.forbidden(found, 4)
        for c in found:
            if c.seat == 3:
                assert c.weight == 1.0, obs.moves
            if c.weight < 1:
                assert banned[c.seat] == 0
            last[c.seat] = c.weight

    for seed in range(20):
        last.clear()
        _play_spied("school-scum", seed, check,
                    [HeuristicBot(), GreedyBot(), RandomBot(seed), HeuristicBot()])
        for seat in ended:
            ended[seat].append(last.get(seat, 1.0))
    assert sum(f < 1 for f in ended[2]) >= 12  # random
    assert sum(f < 1 for f in ended[1]) >= 6  # greedy
