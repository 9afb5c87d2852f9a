"""What beats the last play: count and rank (RULES.md, each preset's first lines).

- same count as the lead (seeds 000, 003, 004); at least the last count (seed 001);
  a single taken by any count, a group by the same count (seed 002);
- strictly higher rank, or equal with `equal_rank_allowed`;
- `any_larger_set`: more cards beat fewer, whatever the rank (seed 002 modern);
- seed 001: a single of the top non-joker rank (2, or 3 under revolution), or a single joker,
  beats any group of 2+ cards of lower rank.
"""

from gameplay.engine.cards import JOKER_FACE
from gameplay.engine.options import AT_LEAST, SAME_COUNT


def count_allows(count_rule: str, count: int, last_count: int) -> bool:
    if count_rule == SAME_COUNT:
        return count == last_count
    if count_rule == AT_LEAST:
        return count >= last_count
    return count == last_count or last_count == 1


def count_window(count_rule: str, last_count: int) -> tuple[int, int]:
    """The counts ``count_allows`` accepts after ``last_count``, as (lowest, highest)."""
    if count_rule == SAME_COUNT:
        return last_count, last_count
    if count_rule == AT_LEAST or last_count == 1:
        return last_count, 1 << 30
    return last_count, last_count


def beats(rules, strength: list[int], reversed_: bool, face: int, count: int,
          last_face: int, last_count: int) -> bool:
    o = rules.options
    if o.any_larger_set and count > last_count:
        return True
    higher = strength[face] > strength[last_face]
    if not count_allows(o.count_rule, count, last_count):
        return (o.single_top_beats_groups and count == 1 and last_count >= 2 and higher
                and face in (JOKER_FACE, rules.top_natural_face(reversed_)))
    return higher or (o.equal_rank_allowed and strength[face] == strength[last_face])
