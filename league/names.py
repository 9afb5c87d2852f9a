"""When two names look the same: a player's name clashes with another's in the club when they
look alike (league.services.player_name_check; docs/league.md "Player names")."""

import re
import unicodedata
from functools import cache

from confusable_homoglyphs.confusables import confusables_data


def look_alike(name: str, other: str) -> bool:
    """Whether the two names read the same to the eye, in lower case, in capitals or as
    written (a capital "I" is a small "l" in many fonts)."""
    return any(a == b for a, b in zip(_skeletons(name), _skeletons(other), strict=True))


# Variation selectors (and Mongolian's): after a letter they show as nothing, so "Tom" with one
# is "Tom"; after an emoji or a kanji they choose its form, which names keep.
SELECTORS = re.compile("[\u180b-\u180d\u180f\ufe00-\ufe0f\U000e0100-\U000e01ef]")


def _skeletons(name: str) -> tuple[str, str, str]:
    """The name NFKC-normalised (fullwidth "Ａ" is "A") without variation selectors,
    case-folded, in capitals and as written, each character replaced by its look-alike of the
    lowest code point in Unicode's confusables table: Cyrillic "а" is Latin "a", Armenian "ո"
    is "n", Cyrillic "Н" is "H", a capital "I" is a small "l". Each case, since letters may
    look alike in one case only (Cyrillic "н" is not "h") or across cases ("Al" and "AI")."""
    name = SELECTORS.sub("", unicodedata.normalize("NFKC", name))
    return _look_alikes(name.casefold()), _look_alikes(name.upper()), _look_alikes(name)


def _look_alikes(text: str) -> str:
    return "".join(_prototype(c) for c in text)


@cache
def _prototype(character: str) -> str:
    """The lowest code point of the characters that look like ``character``, directly or
    through others: the table lists "l" beside "I" and "1", but "I" beside "l" alone."""
    seen, todo = {character}, [character]
    while todo:
        for h in confusables_data.get(todo.pop(), ()):
            if len(h["c"]) == 1 and h["c"] not in seen:
                seen.add(h["c"])
                todo.append(h["c"])
    return min(seen)
