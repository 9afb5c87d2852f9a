"""The bots' card sets: counts by card and by face, in two-pack hands too."""

from gameplay.bots import cardset as C

KING_CLUBS, KING_HEARTS, ACE_SPADES = 13 * 4, 13 * 4 + 3, 14 * 4 + 1


def test_copies_and_face_counts_in_a_two_pack_hand():
    hand = C.cards_mask([KING_CLUBS, KING_CLUBS, KING_HEARTS, ACE_SPADES])
    assert C.copies(hand, KING_CLUBS) == 2 and C.copies(hand, KING_HEARTS) == 1
    assert C.copies(hand, ACE_SPADES + 1) == 0
    assert C.face_of(KING_HEARTS) == 13
    assert C.face_count(hand, 13) == 3 and C.face_count(hand, 12) == 0
    assert list(C.face_counts(hand, [14, 13, 12]).items()) == [(14, 1), (13, 3)]


def test_holds_any_reads_a_pattern_of_faces():
    hand = C.cards_mask([KING_HEARTS])
    assert C.holds_any(hand, C.face_set(12) + C.face_set(13))
    assert not C.holds_any(hand, C.face_set(12) + C.face_set(14))
