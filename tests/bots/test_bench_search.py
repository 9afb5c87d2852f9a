"""bench/search.py: montecarlo's search at fixed playouts, whose moves digest tells two versions
of the code apart. It counts each searched decision's playouts through MonteCarloBot.spent, so
it must follow that method's signature (it once lagged behind the time bank's ``extra``)."""

from bench.search import measure
from gameplay.bots.montecarlo import MonteCarloBot
from gameplay.bots.worlds import Worlds


def test_the_search_bench_counts_each_searched_decisions_playouts_and_repeats():
    spent, walk = MonteCarloBot.spent, Worlds.walk
    first = measure("presidents-deck", "montecarlo:playouts=12", 1)
    again = measure("presidents-deck", "montecarlo:playouts=12", 1)

    assert first["searched"] > 0
    # the halving drops candidates, so a search stops at 12 playouts or a few over
    assert 12 <= first["playouts_per_decision"] <= 20
    assert first["moves"] == again["moves"]  # fixed playouts: the same moves
    assert (MonteCarloBot.spent, Worlds.walk) == (spent, walk)  # put back
