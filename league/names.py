"""When two names look the same: a player's name clashes with another's in the club when they
look alike (league.services.player_name_check; docs/league.md "Player names"), a user's or a
bot's with any other user's or bot's, looked up by their keys (look_alike_keys); and when a
name mixes alphabets to pose as another (posing_letter)."""

import re
import unicodedata
from collections import Counter
from functools import cache

from confusable_homoglyphs.categories import alias, unique_aliases
from confusable_homoglyphs.confusables import confusables_data, is_confusable


def look_alike(name: str, other: str) -> bool:
    """Whether the two names read the same to the eye, in lower case, in capitals or as
    written (a capital "I" is a small "l" in many fonts)."""
    return any(a == b for a, b in zip(_skeletons(name), _skeletons(other), strict=True))


def look_alike_keys(name: str) -> dict[str, str]:
    """The name's three skeletons as the columns that hold them (accounts.models.NameKeys,
    outside_bots.models.OutsideBot): two names look alike when one column is equal, so the
    names like a new one are ``Q(**look_alike_keys(name), _connector=Q.OR)``, three indexed
    lookups. Stricter than look_alike, for users and bots, who must not pose as each other:
    a small "rn" is "m" ("rnodem" for "modem"), where a club may have a Marnie and a Mamie."""
    casefolded, upper, written = _skeletons(name)
    return {"look_casefolded": _letters_as_one(casefolded), "look_upper": upper,
            "look_written": _letters_as_one(written)}


def keys_alike(name: str, other: str) -> bool:
    """Whether the two names share a look-alike key (look_alike_keys)."""
    return any(a == b for a, b in zip(look_alike_keys(name).values(),
                                      look_alike_keys(other).values(), strict=True))


def posing_letter(name: str) -> tuple[str, str, str] | None:
    """A letter with which ``name`` mixes alphabets to read as another name, as (letter, its
    alphabet, the alphabet it looks like), or None: in "\u0430da" the Cyrillic "\u0430" reads
    as the Latin "a" beside it. Names in one alphabet, and mixes whose letters do not look like
    each other's ("\u7530\u4e2d\u3055\u304f\u3089", "\u7530\u4e2dken"), are None. Digits and
    signs (Unicode's Common script) are left to look_alike: "l" and "1" are one alphabet."""
    letters = "".join(c for c in name if alias(c) != "COMMON")
    if len(unique_aliases(letters)) < 2:
        return None
    # The name's main alphabet first, so the letter named is the one posing in it.
    alphabets = Counter(alias(c) for c in letters)
    for alphabet, _ in sorted(alphabets.items(), key=lambda a: (-a[1], a[0])):
        found = is_confusable(letters, preferred_aliases=[alphabet])
        if found:
            return found[0]["character"], found[0]["alias"].title(), alphabet.title()
    return None


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


def _letters_as_one(skeleton: str) -> str:
    # Two letters that read as one: the one such pair of Latin letters in Unicode's
    # confusables table.
    return skeleton.replace("rn", "m")


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
