/* The playout kernel: montecarlo's playouts (the heuristic policy for every seat) on a compact
 * state, in C.  It mirrors gameplay/engine/deal.py (legal moves, applying a move) and
 * gameplay/bots/heuristic.py (heuristic_move) line by line, in the same move order, so a
 * playout here ends exactly as the engine's does; tests/bots/test_kernel.py holds it to that.
 *
 * State: each seat's hand is the engine's hand mask cut into 17 face chunks of 32 bits (a
 * byte per suit, the count of that card), seat sets are bit masks.  A move is one 64-bit
 * integer (the layout below); nothing is allocated while a playout runs.
 *
 * The Python side (gameplay/bots/kernel/__init__.py) builds the rules and states from the
 * engine's objects; the names here follow the engine's, and its constants are the engine's
 * (_engine.h, written by build.py).  The Python side refuses what the kernel does not play
 * (supports(): an option the engine's OPTIONS does not give the kernel, at another value than
 * its default, such as blind piles; an unknown count rule; more than MAXP seats), and the
 * caller falls back to the engine.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "_engine.h" /* the engine's constants, written by build.py */

#define MAXP 32
#define MAXMOVES 4096
#define PLAYOUT_MOVES 2000
#define HAND_BYTES (FACES * 4)

/* _engine.h has the faces and suits, the move kinds (K_PASS and K_BLIND are the whole move; a
 * play's kind is the engine's kind + PLAY_KINDS of build.py), the trick modes, the count rules,
 * RULE_FLAGS (the rules' flags in the order rules() takes them) and the heuristic's style. */
#define MIX_FACE 31 /* the engine's face -1; strength[31] is strength[16], as Python's st[-1] */

/* Move layout: kind 0-2, face 3-7, count 8-12, wilds 13-16, reverses 17-20, then the cards
 * taken: for a group, bomb or lone doppelgängers, the face's 32-bit chunk of naturals from bit
 * 21 (the wild cards are `wilds` copies of the wild card); for a mixed play, three slots of
 * 13 bits from bit 21: a face (5 bits) and its four suits' counts (2 bits each). */
#define KIND(m) ((int)((m) & 7))
#define FACE(m) ((int)(((m) >> 3) & 31))
#define COUNT(m) ((int)(((m) >> 8) & 31))
#define WILDS(m) ((int)(((m) >> 13) & 15))
#define REVERSES(m) ((int)(((m) >> 17) & 15))
#define DELTA(m) ((uint32_t)(((m) >> 21) & 0xFFFFFFFFu))
#define SLOT(m, i) ((int)(((m) >> (21 + 13 * (i))) & 0x1FFF))

static inline uint64_t move_code(int kind, int face, int count, int wilds, int reverses,
                                 uint64_t taken) {
    return (uint64_t)kind | (uint64_t)face << 3 | (uint64_t)count << 8 | (uint64_t)wilds << 13
           | (uint64_t)reverses << 17 | taken << 21;
}

typedef struct {
    int players;
    int n_naturals;
    int naturals[FACES];
    int st[2][32];      /* rank strength by face, normal and reversed; -1 for no rank */
    int order_len;
    int top_face[2];    /* top rank of the current order (top_rank_ends_trick) */
    int top_natural[2]; /* top non-joker rank */
    int wild_face;      /* face of the wild card (suit 0), -1 without */
    int jokers_alone;   /* wild jokers may be played alone, declaring a rank */
    int max_play;       /* 0: no limit */
    int count_rule;
#define FLAG_FIELD(name) int name;
    RULE_FLAGS(FLAG_FIELD) /* named as the engine's options */
#undef FLAG_FIELD
} Rules;

typedef struct {
    int held[MAXP];
    int order[MAXP];
    int n_out;
    uint32_t active, passed;
    int turn, direction, last_seat, over, mode, mode_count, reversed, opening;
    uint64_t last, before_last; /* 0: none (0 is PASS, never on the pile) */
    uint32_t hand[MAXP][FACES]; /* last: breaks() copies the rest and one hand */
} State;

typedef struct {
#define STYLE_FIELD(name) int name;
    STYLE_FIELDS(STYLE_FIELD) /* heuristic.Style's, in its order */
#undef STYLE_FIELD
} Style;

static inline int chunk_count(uint32_t c) { return (int)(((c * 0x01010101u) >> 24) & 0xFF); }

/* the first n cards of a chunk in suit order (black suits first), as a chunk */
static uint32_t take_lowest(uint32_t chunk, int n) {
    uint32_t taken = 0;
    for (int s = 0; s < 4 && n > 0; s++) {
        int c = (int)((chunk >> (8 * s)) & 0xFF);
        int t = c < n ? c : n;
        taken |= (uint32_t)t << (8 * s);
        n -= t;
    }
    return taken;
}

static uint32_t expand_slot(int slot) { /* four 2-bit counts to a chunk */
    uint32_t chunk = 0;
    for (int s = 0; s < 4; s++) chunk |= (uint32_t)((slot >> (5 + 2 * s)) & 3) << (8 * s);
    return chunk;
}

static inline int wilds_in(const Rules *r, const uint32_t *hand) {
    return r->wild_face < 0 ? 0 : (int)(hand[r->wild_face] & 0xFF);
}

/* --- what is legal (Deal.legal_moves) ------------------------------------------------- */
static int count_allows(int rule, int count, int last_count) {
    if (rule == SAME_COUNT) return count == last_count;
    if (rule == AT_LEAST) return count >= last_count;
    return count == last_count || last_count == 1;
}

static int beats(const Rules *r, const int *st, int rev, int face, int count, int lf, int lc) {
    if (r->any_larger_set && count > lc) return 1;
    int higher = st[face] > st[lf];
    if (!count_allows(r->count_rule, count, lc))
        return r->single_top_beats_groups && count == 1 && lc >= 2 && higher
               && (face == JOKER_FACE || face == r->top_natural[rev]);
    return higher || (r->equal_rank_allowed && st[face] == st[lf]);
}

/* may a group of (face, count) follow the pile (Deal._answers)? */
static int follows(const Rules *r, const State *s, int face, int count) {
    const int *st = r->st[s->reversed];
    int lf = FACE(s->last), lc = COUNT(s->last), ls = st[lf];
    if (s->mode == CONSEC) return count == lc && st[face] == ls + 1;
    if (s->mode == EIGHT_BELOW) return st[face] < st[EIGHT] && count_allows(r->count_rule, count, lc);
    if (r->any_larger_set || r->single_top_beats_groups) return beats(r, st, s->reversed, face, count, lf, lc);
    return count_allows(r->count_rule, count, lc) && (st[face] > ls || (r->equal_rank_allowed && st[face] == ls));
}

static int group_plays(const Rules *r, const State *s, const uint32_t *hand, uint64_t *out,
                       int n, int following) {
    int wilds = wilds_in(r, hand);
    int alone = wilds && r->jokers_alone;
    for (int i = 0; i < r->n_naturals; i++) {
        int face = r->naturals[i];
        uint32_t chunk = hand[face];
        if (!chunk && !alone) continue;
        int naturals = chunk_count(chunk);
        for (int k = r->jokers_alone ? 0 : 1; k <= naturals; k++) {
            for (int w = 0; w <= wilds; w++) {
                int count = k + w;
                if (count == 0 || (r->max_play && count > r->max_play)) continue;
                if (following && !follows(r, s, face, count)) continue;
                if (n < MAXMOVES)
                    out[n++] = move_code(K_GROUP, face, count, w, 0, take_lowest(chunk, k));
            }
        }
    }
    return n;
}

/* a mixed play from up to three faces' takings, or a group when they are all one face
 * (ruleset.mix_play) */
static uint64_t mix_play(int nf, const int *faces, const uint32_t *taken, int count) {
    int distinct = 0, only = -1;
    for (int i = 0; i < nf; i++)
        if (taken[i]) { distinct += faces[i] != only; only = faces[i]; }
    if (distinct == 1) {
        uint32_t all = 0;
        for (int i = 0; i < nf; i++) all += taken[i];
        return move_code(K_GROUP, only, count, 0, 0, all);
    }
    uint64_t slots = 0;
    int at = 0;
    for (int i = 0; i < nf; i++) {
        if (!taken[i]) continue;
        uint64_t slot = (uint64_t)faces[i];
        for (int su = 0; su < 4; su++) slot |= (uint64_t)((taken[i] >> (8 * su)) & 3) << (5 + 2 * su);
        slots |= slot << (13 * at++);
    }
    return move_code(K_MIX, MIX_FACE, count, 0, 0, slots);
}

static int sixty_nine_answers(const State *s, const uint32_t *hand, uint64_t *out, int n) {
    static const int faces[3] = {JACK, QUEEN, KING};
    int have[3];
    for (int i = 0; i < 3; i++) have[i] = chunk_count(hand[faces[i]]);
    int want = 2 * s->mode_count;
    for (int a = 0; a <= have[0]; a++)
        for (int b = 0; b <= have[1]; b++)
            for (int c = 0; c <= have[2]; c++) {
                if (a + b + c != want) continue;
                uint32_t taken[3] = {take_lowest(hand[JACK], a), take_lowest(hand[QUEEN], b),
                                     take_lowest(hand[KING], c)};
                if (n < MAXMOVES) out[n++] = mix_play(3, faces, taken, want);
            }
    return n;
}

static int kkk_answers(const uint32_t *hand, uint64_t *out, int n) {
    int held_face[13], held_d[13], held_h[13], m = 0;
    for (int face = TWO; face <= ACE; face++) {
        int d = (int)((hand[face] >> (8 * DIAMONDS)) & 0xFF), h = (int)((hand[face] >> (8 * HEARTS)) & 0xFF);
        if (d + h) { held_face[m] = face; held_d[m] = d; held_h[m] = h; m++; }
    }
    /* the first k red cards of a face, diamonds first, as a chunk */
#define RED(i, k) (take_lowest((uint32_t)held_d[i] << 16 | (uint32_t)held_h[i] << 24, k))
    for (int i = 0; i < m; i++)
        for (int j = i; j < m; j++)
            for (int k = j; k < m; k++) {
                int faces[3];
                uint32_t taken[3];
                int nf;
                if (i == j && j == k) {
                    if (held_d[i] + held_h[i] < 3) continue;
                    faces[0] = held_face[i]; taken[0] = RED(i, 3); nf = 1;
                } else if (i == j || j == k) {
                    int pair = j, single = i == j ? k : i;
                    if (held_d[pair] + held_h[pair] < 2) continue;
                    faces[0] = held_face[pair]; taken[0] = RED(pair, 2);
                    faces[1] = held_face[single]; taken[1] = RED(single, 1); nf = 2;
                } else {
                    faces[0] = held_face[i]; taken[0] = RED(i, 1);
                    faces[1] = held_face[j]; taken[1] = RED(j, 1);
                    faces[2] = held_face[k]; taken[2] = RED(k, 1); nf = 3;
                }
                if (n < MAXMOVES) out[n++] = mix_play(nf, faces, taken, 3);
            }
#undef RED
    return n;
}

static int legal_moves(const Rules *r, const State *s, uint64_t *out) {
    const uint32_t *hand = s->hand[s->turn];
    int n = 0;
    if (!s->last) {
        n = group_plays(r, s, hand, out, 0, 0);
        if (s->opening >= 0) {
            int of = s->opening >> 2, os = s->opening & 3, kept = 0;
            for (int i = 0; i < n; i++)
                if (FACE(out[i]) == of && ((DELTA(out[i]) >> (8 * os)) & 0xFF)) out[kept++] = out[i];
            n = kept;
        } else if (r->doppelgangers) {
            int dg = (int)(hand[DOPPELGANGER_FACE] & 0xFF);
            for (int k = 1; k <= dg && n < MAXMOVES; k++)
                out[n++] = move_code(K_LONE, DOPPELGANGER_FACE, k, 0, 0, (uint64_t)k);
        }
    } else if (s->mode == SIXTY_NINE) {
        n = sixty_nine_answers(s, hand, out, 0);
    } else if (s->mode == KKK) {
        n = kkk_answers(hand, out, 0);
    } else {
        n = group_plays(r, s, hand, out, 0, 1);
    }
    if (r->bombs && hand[BOMB_FACE]) {
        int bombs = (int)(hand[BOMB_FACE] & 0xFF), reverses = (int)((hand[BOMB_FACE] >> 8) & 0xFF);
        for (int b = 0; b <= bombs; b++)
            for (int v = 0; v <= reverses; v++)
                if (b + v && n < MAXMOVES)
                    out[n++] = move_code(K_BOMB, 0, b + v, 0, v, (uint64_t)b | (uint64_t)v << 8);
    }
    if (s->last && n < MAXMOVES) out[n++] = K_PASS;
    return n;
}

/* --- moving (Deal.apply) -------------------------------------------------------------- */
static int next_seat(const Rules *r, const State *s, int seat) {
    int n = r->players;
    uint32_t blocked = r->pass_is_final ? s->passed : 0;
    for (int i = 0; i < n; i++) {
        seat = (seat + s->direction + n) % n;
        if ((s->active >> seat & 1) && !(blocked >> seat & 1)) return seat;
    }
    return seat;
}

static int next_active(const Rules *r, const State *s, int seat) {
    int n = r->players;
    for (int i = 0; i < n; i++) {
        seat = (seat + s->direction + n) % n;
        if (s->active >> seat & 1) return seat;
    }
    return seat;
}

static void end_trick(const Rules *r, State *s, int seat) {
    s->last = s->before_last = 0;
    s->passed = 0;
    s->mode = NORMAL;
    s->last_seat = (s->active >> seat & 1) ? seat : next_active(r, s, seat);
    s->turn = s->last_seat;
}

static void take_cards(const Rules *r, uint32_t *hand, uint64_t m) {
    if (KIND(m) == K_MIX) {
        for (int i = 0; i < 3; i++) {
            int slot = SLOT(m, i);
            hand[slot & 31] -= expand_slot(slot);
        }
    } else {
        hand[FACE(m)] -= DELTA(m);
        if (WILDS(m)) hand[r->wild_face] -= (uint32_t)WILDS(m);
    }
}

static int next_mode(const Rules *r, State *s, const int *st, uint64_t last, uint64_t play) {
    int mode = s->mode, kind = KIND(play), face = FACE(play);
    if (mode == SIXTY_NINE || mode == KKK || kind == K_MIX) return mode;
    if (r->kkk && face == KING && COUNT(play) == 3 && !WILDS(play)) return KKK;
    if (r->sixty_nine && last && FACE(last) == 6 && face == 9 && !WILDS(play)) {
        s->mode_count = COUNT(play);
        return SIXTY_NINE;
    }
    if (r->consec) {
        if (mode == CONSEC) return CONSEC;
        uint64_t bl = s->before_last;
        if (bl && last) {
            int a = st[FACE(bl)], b = st[FACE(last)], c = st[face];
            if (a >= 0 && b == a + 1 && c == b + 1) return CONSEC;
        }
    }
    if (r->eight_below && face == 8) return EIGHT_BELOW;
    return NORMAL;
}

static void play_move(const Rules *r, State *s, int seat, uint64_t play) {
    int kind = KIND(play), face = FACE(play);
    take_cards(r, s->hand[seat], play);
    s->held[seat] -= COUNT(play);
    s->opening = -1;
    if (!s->held[seat]) {
        s->active &= ~(1u << seat);
        s->order[s->n_out++] = seat;
        if ((s->active & (s->active - 1)) == 0) { /* one player holds cards: the deal ends */
            for (int i = 0; i < r->players; i++)
                if (s->active >> i & 1) s->order[s->n_out++] = i;
            s->over = 1;
            return;
        }
    }
    if (kind == K_BOMB) {
        if (REVERSES(play) % 2) s->direction = -s->direction;
        end_trick(r, s, seat);
        return;
    }
    uint64_t last = s->last;
    if (r->revolution && COUNT(play) >= 4 && kind != K_MIX) s->reversed = !s->reversed;
    const int *st = r->st[s->reversed];
    if (kind != K_MIX && r->top_rank_ends_trick && face == r->top_face[s->reversed]) {
        s->last_seat = seat;
        end_trick(r, s, seat);
        return;
    }
    s->mode = next_mode(r, s, st, last, play);
    int skipped = kind != K_MIX && r->skip_on_equal && last && st[face] == st[FACE(last)];
    s->before_last = last;
    s->last = play;
    s->last_seat = seat;
    if (!r->pass_is_final) s->passed = 0;
    int after = seat;
    if (skipped) {
        after = next_seat(r, s, seat);
        s->passed |= 1u << after;
    }
    if ((s->active & ~s->passed & ~(1u << seat)) == 0) end_trick(r, s, seat);
    else s->turn = next_seat(r, s, after);
}

static void apply_move(const Rules *r, State *s, uint64_t m) {
    int seat = s->turn;
    if (m == K_PASS) {
        s->passed |= 1u << seat;
        if ((s->active & ~s->passed & ~(1u << s->last_seat)) == 0) end_trick(r, s, s->last_seat);
        else s->turn = next_seat(r, s, seat);
    } else {
        play_move(r, s, seat, m);
    }
}

/* --- the heuristic policy (heuristic.heuristic_move) ----------------------------------- */
typedef struct {
    const Rules *r;
    const int *st;
    int leading, controls_from, counts[FACES];
} View;

static int is_control(const View *v, uint64_t p) {
    int kind = KIND(p);
    if (kind == K_BOMB) return 1;
    if (kind == K_MIX) {
        for (int i = 0; i < 3; i++) {
            int slot = SLOT(p, i);
            if (expand_slot(slot) && v->st[slot & 31] >= v->controls_from) return 1;
        }
        return 0;
    }
    return WILDS(p) > 0 || (kind == K_GROUP && v->st[FACE(p)] >= v->controls_from);
}

static int splits(const View *v, uint64_t p) {
    return KIND(p) == K_GROUP && COUNT(p) - WILDS(p) < v->counts[FACE(p)];
}

static int play_rank(const View *v, uint64_t p) {
    int kind = KIND(p);
    if (kind == K_BOMB) return 100 + COUNT(p);
    if (kind == K_MIX) {
        int best = -1000;
        for (int i = 0; i < 3; i++) {
            int slot = SLOT(p, i);
            if (expand_slot(slot) && v->st[slot & 31] > best) best = v->st[slot & 31];
        }
        return best;
    }
    if (kind == K_LONE) return -1;
    return v->st[FACE(p)];
}

/* low_key(p) < low_key(q), the heuristic's order from low to high */
static int lower(const View *v, uint64_t p, uint64_t q) {
    int a = play_rank(v, p), b = play_rank(v, q);
    if (a != b) return a < b;
    if (WILDS(p) != WILDS(q)) return WILDS(p) < WILDS(q);
    int cp = v->leading ? -COUNT(p) : COUNT(p), cq = v->leading ? -COUNT(q) : COUNT(q);
    return cp < cq;
}

static int hand_value(const Rules *r, const uint32_t *hand, int rev) {
    int top = r->order_len, total = 0;
    for (int face = 0; face < FACES; face++) {
        uint32_t chunk = hand[face];
        for (int su = 0; su < 4; su++) {
            int n = (int)((chunk >> (8 * su)) & 0xFF);
            if (!n) continue;
            int value;
            if (face == r->wild_face && su == 0) value = top + 1;
            else if (r->bombs && face == BOMB_FACE) value = top + 2;
            else value = r->st[rev][face];
            total += n * value;
        }
    }
    return total;
}

/* What the seat to move reads off its hand, as heuristic.py does: the view of it, its
 * controls and its other groups, whether an opponent is near out (`danger`) and whether it is
 * in its endgame */
static void size_up(const Rules *r, const State *s, const Style *style, View *v,
                    int *controls, int *groups, int *danger, int *endgame) {
    int seat = s->turn;
    const uint32_t *hand = s->hand[seat];
    v->r = r;
    v->st = r->st[s->reversed];
    v->leading = !s->last;
    v->controls_from = r->order_len - 1 - r->jokers_on_top - style->controls_below_top;
    memset(v->counts, 0, sizeof v->counts);
    *controls = wilds_in(r, hand);
    *groups = 0;
    for (int i = 0; i < r->n_naturals; i++) {
        int f = r->naturals[i], n = chunk_count(hand[f]);
        v->counts[f] = n;
        if (!n) continue;
        if (v->st[f] >= v->controls_from) *controls += n;
        else (*groups)++;
    }
    if (r->bombs) *controls += chunk_count(hand[BOMB_FACE]);
    int fewest = -1;
    for (int o = 0; o < r->players; o++)
        if (o != seat && (s->active >> o & 1) && (fewest < 0 || s->held[o] < fewest)) fewest = s->held[o];
    *danger = fewest >= 0 && fewest <= style->danger;
    *endgame = *groups <= *controls + style->endgame_margin;
}

/* `unseen`: the cards the seat to move cannot see, or NULL for the other seats' hands (a
 * playout's view) */
static uint64_t heuristic_move(const Rules *r, const State *s, const Style *style,
                               const uint64_t *legal, int nl, const uint32_t *unseen) {
    uint64_t plays[MAXMOVES];
    int np = 0;
    for (int i = 0; i < nl; i++)
        if (KIND(legal[i]) >= K_GROUP) plays[np++] = legal[i];
    if (!np) return K_PASS;
    int seat = s->turn;
    const uint32_t *hand = s->hand[seat];
    int total = s->held[seat];
    for (int i = 0; i < np; i++) /* going out wins everything */
        if (COUNT(plays[i]) == total && KIND(plays[i]) != K_LONE) return plays[i];
    View v;
    int controls, groups, danger, endgame, top = r->order_len - 1;
    size_up(r, s, style, &v, &controls, &groups, &danger, &endgame);
    uint64_t best = 0;
    int found = 0;
#define KEEP_LOWEST(p) do { if (!found || lower(&v, (p), best)) { best = (p); found = 1; } } while (0)
    if (v.leading) {
        if (r->revolution) {
            for (int i = 0; i < np; i++) {
                uint64_t p = plays[i];
                if (COUNT(p) == 4 && !WILDS(p) && KIND(p) == K_GROUP) {
                    if (hand_value(r, hand, !s->reversed) > hand_value(r, hand, s->reversed)) return p;
                }
            }
        }
        uint64_t whole[MAXMOVES];
        int nw = 0;
        for (int i = 0; i < np; i++)
            if (KIND(plays[i]) == K_GROUP && !splits(&v, plays[i]) && !WILDS(plays[i]))
                whole[nw++] = plays[i];
        if (groups <= style->safe_groups) {
            uint32_t others[FACES] = {0};
            if (!unseen) {
                for (int o = 0; o < r->players; o++)
                    if (o != seat)
                        for (int f = 0; f < FACES; f++) others[f] += s->hand[o][f];
                unseen = others;
            }
            int wild_unseen = wilds_in(r, unseen);
            for (int i = 0; i < nw; i++) {
                uint64_t p = whole[i];
                int safe = 1;
                for (int j = 0; j < r->n_naturals && safe; j++) {
                    int f = r->naturals[j];
                    if (v.st[f] > v.st[FACE(p)] && chunk_count(unseen[f]) + wild_unseen >= COUNT(p))
                        safe = 0;
                }
                if (safe && r->bombs && chunk_count(unseen[BOMB_FACE])) safe = 0;
                if (safe) KEEP_LOWEST(p);
            }
            if (found) return best;
        }
        for (int i = 0; i < nw; i++)
            if (!is_control(&v, whole[i]) && style->lead_big && COUNT(whole[i]) >= style->lead_big) {
                uint64_t p = whole[i];
                if (!found || COUNT(p) > COUNT(best) || (COUNT(p) == COUNT(best) && lower(&v, p, best))) {
                    best = p;
                    found = 1;
                }
            }
        if (found) return best;
        for (int i = 0; i < nw; i++)
            if (!is_control(&v, whole[i])) KEEP_LOWEST(whole[i]);
        if (found) return best;
        int best_bomb = 0, best_control = 0;
        for (int i = 0; i < np; i++) {
            uint64_t p = plays[i];
            int bomb = KIND(p) == K_BOMB, control = is_control(&v, p);
            if (!found || bomb < best_bomb || (bomb == best_bomb && (control < best_control
                    || (control == best_control && lower(&v, p, best))))) {
                best = p;
                best_bomb = bomb;
                best_control = control;
                found = 1;
            }
        }
        return best;
    }
    /* following */
    for (int i = 0; i < np; i++)
        if (!is_control(&v, plays[i]) && !splits(&v, plays[i])) KEEP_LOWEST(plays[i]);
    if (found) {
        int rank = play_rank(&v, best);
        int jump = rank - (KIND(s->last) == K_MIX ? 0 : v.st[FACE(s->last)]);
        if (s->mode == NORMAL && jump >= style->pass_jump && total > style->pass_total && !danger
            && rank >= top - style->pass_near_top)
            return K_PASS;
        return best;
    }
    if (danger || total <= style->split_total) {
        for (int i = 0; i < np; i++) {
            uint64_t p = plays[i];
            if (splits(&v, p) && !is_control(&v, p) && COUNT(p) == 1
                && v.st[FACE(p)] >= top - style->split_near_top)
                KEEP_LOWEST(p);
        }
        if (found) return best;
    }
    if (danger || endgame) {
        for (int i = 0; i < np; i++)
            if (KIND(plays[i]) != K_BOMB) KEEP_LOWEST(plays[i]);
        if (!found)
            for (int i = 0; i < np; i++) KEEP_LOWEST(plays[i]);
        return best;
    }
#undef KEEP_LOWEST
    return K_PASS;
}

static uint64_t policy_move(const Rules *r, const State *s, const Style *style) {
    uint64_t legal[MAXMOVES];
    int n = legal_moves(r, s, legal);
    if (n == 1) return legal[0];
    return heuristic_move(r, s, style, legal, n, NULL);
}

static const Style PLAIN = PLAIN_STYLE;

/* --- the learned playout policy (issue #32) ---------------------------------------------
 * A softmax over features of each legal move, its weights fitted by
 * scripts/train_playout_policy.py to montecarlo's searched choices.  features() below is the
 * one definition the training data and the playouts share. */
#define N_FEATURES 17

/* How a playout's seats play other than by the heuristic (NULL: every seat by it), and the
 * draws that play takes */
typedef struct {
    const double *w; /* N_FEATURES weights; NULL: the heuristic policy */
    uint64_t rng;    /* splitmix64's state: a playout's draws follow from its seed */
    int all;         /* every seat plays the learned policy, not only the searching one */
    uint64_t random_seats; /* seats that play a uniformly random legal move (bit per seat) */
} Playing;

static inline uint64_t next_random(Playing *l) {
    uint64_t z = (l->rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* each legal move's features into f (n rows of N_FEATURES): pass, the heuristic's choice
 * (``style``), going out, rank, the jump over the pile, size, size when leading, splitting a
 * group, spending a control, wild cards spent, cards left, playing a whole group, the lowest
 * play, passing with an opponent near out, rank with one near out, a control in the endgame,
 * a bomb */
static void features(const Rules *r, const State *s, const Style *style, const uint64_t *legal,
                     int n, double *f) {
    int held = s->held[s->turn];
    View v;
    int controls, groups, danger, endgame, top = r->order_len - 1;
    size_up(r, s, style, &v, &controls, &groups, &danger, &endgame);
    uint64_t chosen = heuristic_move(r, s, style, legal, n, NULL);
    int lowest = -1;
    for (int i = 0; i < n; i++)
        if (KIND(legal[i]) >= K_GROUP && (lowest < 0 || lower(&v, legal[i], legal[lowest]))) lowest = i;
    double pile = s->last ? play_rank(&v, s->last) : 0, scale = top > 0 ? top : 1;
    for (int i = 0; i < n; i++) {
        uint64_t m = legal[i];
        double *x = f + (size_t)i * N_FEATURES;
        memset(x, 0, sizeof(double) * N_FEATURES);
        x[1] = m == chosen;
        if (KIND(m) < K_GROUP) {
            x[0] = 1;
            x[10] = held / 13.0;
            x[13] = danger;
            continue;
        }
        int kind = KIND(m), count = COUNT(m), control = is_control(&v, m);
        double rank = kind == K_BOMB ? scale : play_rank(&v, m) < 0 ? 0 : play_rank(&v, m);
        x[2] = count == held && kind != K_LONE;
        x[3] = rank / scale;
        x[4] = s->last ? (rank - pile) / scale : 0;
        x[5] = count / 4.0;
        x[6] = v.leading ? count / 4.0 : 0;
        x[7] = splits(&v, m);
        x[8] = control;
        x[9] = WILDS(m) / 2.0;
        x[10] = (held - count) / 13.0;
        x[11] = kind == K_GROUP && !splits(&v, m) && !control;
        x[12] = i == lowest;
        x[14] = danger * rank / scale;
        x[15] = endgame && control;
        x[16] = kind == K_BOMB;
    }
}

/* one of n moves drawn by the softmax of the weights times their features `f`: its index;
 * `p` gets each move's unnormalised probability and `total` their sum */
static int softmax_draw(Playing *l, const double *f, int n, double *p, double *total) {
    double most = -1e300;
    for (int i = 0; i < n; i++) {
        double z = 0;
        for (int k = 0; k < N_FEATURES; k++) z += l->w[k] * f[i * N_FEATURES + k];
        p[i] = z;
        if (z > most) most = z;
    }
    *total = 0;
    for (int i = 0; i < n; i++) *total += p[i] = exp(p[i] - most);
    double u = (double)(next_random(l) >> 11) * (1.0 / 9007199254740992.0) * *total;
    for (int i = 0; i < n; i++)
        if ((u -= p[i]) < 0) return i;
    return n - 1;
}

static uint64_t learned_move(const Rules *r, const State *s, const Style *style, Playing *l) {
    uint64_t legal[MAXMOVES];
    static double f[MAXMOVES * N_FEATURES], p[MAXMOVES];
    int n = legal_moves(r, s, legal);
    if (n == 1) return legal[0];
    features(r, s, style, legal, n, f);
    double total;
    return legal[softmax_draw(l, f, n, p, &total)];
}

/* the move of the seat to move in a playout for `seat` */
static uint64_t playout_move(const Rules *r, const State *s, int seat, const Style *own,
                             Playing *l) {
    const Style *style = s->turn == seat ? own : &PLAIN;
    if (l && (l->random_seats >> s->turn & 1)) {
        uint64_t legal[MAXMOVES];
        int n = legal_moves(r, s, legal);
        return legal[n == 1 ? 0 : next_random(l) % (uint64_t)n];
    }
    if (l && l->w && (l->all || s->turn == seat)) return learned_move(r, s, style, l);
    return policy_move(r, s, style);
}

/* montecarlo.playout: play to the end (or until `seat` is out); 1 for first out … 0 for last */
static double playout(const Rules *r, State *s, int seat, const Style *own, Playing *l) {
    for (int i = 0; i < PLAYOUT_MOVES; i++) {
        if (s->over || !(s->active >> seat & 1)) break;
        apply_move(r, s, playout_move(r, s, seat, own, l));
    }
    int n = r->players, position = n - 1;
    for (int i = 0; i < s->n_out; i++)
        if (s->order[i] == seat) { position = i; break; }
    return (double)(n - 1 - position) / (n - 1);
}

/* A playout for the policy gradient: `seat` on the learned policy, the others on the
 * heuristic; adds to `grad` the gradient of the log-probability of `seat`'s draws (each
 * decision's chosen features less their mean under the softmax) */
static double playout_gradient(const Rules *r, State *s, int seat, const Style *own,
                               Playing *l, double *grad) {
    uint64_t legal[MAXMOVES];
    static double f[MAXMOVES * N_FEATURES], p[MAXMOVES];
    for (int i = 0; i < PLAYOUT_MOVES; i++) {
        if (s->over || !(s->active >> seat & 1)) break;
        if (s->turn != seat) {
            apply_move(r, s, policy_move(r, s, &PLAIN));
            continue;
        }
        int n = legal_moves(r, s, legal);
        if (n == 1) {
            apply_move(r, s, legal[0]);
            continue;
        }
        features(r, s, own, legal, n, f);
        double total;
        int pick = softmax_draw(l, f, n, p, &total);
        for (int k = 0; k < n; k++)
            for (int j = 0; j < N_FEATURES; j++)
                grad[j] += ((k == pick) - p[k] / total) * f[k * N_FEATURES + j];
        apply_move(r, s, legal[pick]);
    }
    int n = r->players, position = n - 1;
    for (int i = 0; i < s->n_out; i++)
        if (s->order[i] == seat) { position = i; break; }
    return (double)(n - 1 - position) / (n - 1);
}

/* A playout in which `seat` looks ahead at its first `looks` decisions with a choice: each of
 * its first LOOK_WIDTH legal moves is played out plainly and the best kept (the policy's move
 * on ties).  The policy alone plays its own later moves badly where the search would not. */
#define LOOK_WIDTH 24
static double playout_looking(const Rules *r, State *s, int seat, const Style *own, int looks,
                              Playing *l) {
    uint64_t legal[MAXMOVES];
    for (int i = 0; i < PLAYOUT_MOVES && looks > 0; i++) {
        if (s->over || !(s->active >> seat & 1)) break;
        if (s->turn != seat) {
            apply_move(r, s, playout_move(r, s, seat, own, l));
            continue;
        }
        int n = legal_moves(r, s, legal);
        uint64_t pick = n == 1 ? legal[0] : heuristic_move(r, s, own, legal, n, NULL);
        if (n > 1) {
            looks--;
            State t = *s;
            Playing tl = l ? *l : (Playing){0}; /* every move tried on the same draws */
            apply_move(r, &t, pick);
            double best = playout(r, &t, seat, own, l ? &tl : NULL);
            for (int k = 0; k < n && k < LOOK_WIDTH; k++) {
                if (legal[k] == pick) continue;
                t = *s;
                if (l) tl = *l;
                apply_move(r, &t, legal[k]);
                double v = playout(r, &t, seat, own, l ? &tl : NULL);
                if (v > best) { best = v; pick = legal[k]; }
            }
            if (l) next_random(l);
        }
        apply_move(r, s, pick);
    }
    return playout(r, s, seat, own, l);
}

/* --- the other seats' past choices (worlds.History): would a guessed hand have made them? -
 * A position is the state when a seat chose (that seat to move), the cards it has played since,
 * the cards not yet put down then and the move it made.  A hidden hand now, plus the cards
 * played since, is the hand it held then; the heuristic with that hand, seeing what that seat
 * could see then, makes the same play but for suits, or the hand breaks the position. */
typedef struct {
    State past;
    uint32_t later[FACES], notdown[FACES];
    uint64_t what;
} Position;

/* Play.key: the same play but for suits (a mixed play: the same ranks) */
static int same_play(uint64_t a, uint64_t b) {
    if (KIND(a) != KIND(b)) return 0;
    if (KIND(a) < K_GROUP) return 1;
    if (KIND(a) != K_MIX) return ((a ^ b) & ((1u << 21) - 1)) == 0;
    int faces[32] = {0};
    for (int i = 0; i < 3; i++) {
        int sa = SLOT(a, i), sb = SLOT(b, i);
        faces[sa & 31] += chunk_count(expand_slot(sa));
        faces[sb & 31] -= chunk_count(expand_slot(sb));
    }
    for (int f = 0; f < 32; f++)
        if (faces[f]) return 0;
    return COUNT(a) == COUNT(b);
}

static int breaks(const Rules *r, const Position *p, const uint32_t *hidden) {
    State s; /* the position with the guessed hand: the others' hands are not read (the seat's
              * legal moves, the heuristic with `unseen` given) */
    memcpy(&s, &p->past, offsetof(State, hand));
    int seat = s.turn;
    uint32_t unseen[FACES];
    for (int f = 0; f < FACES; f++) {
        s.hand[seat][f] = hidden[f] + p->later[f];
        unseen[f] = p->notdown[f] - s.hand[seat][f];
    }
    uint64_t legal[MAXMOVES];
    int n = legal_moves(r, &s, legal);
    uint64_t m = n == 1 ? legal[0] : heuristic_move(r, &s, &PLAIN, legal, n, unseen);
    return !same_play(m, p->what);
}

/* --- the exact endgame: two players left, every card known (montecarlo's `endgame`) ------
 * Who of the two goes out first under best play by both: a win/loss search over the legal
 * moves (apply_move above, so every rule the playouts know), a transposition table of proven
 * positions and a node limit that bounds the work. */
#define SOLVE_UNKNOWN (-1)
#define SOLVE_MOVES (1 << 17) /* moves held by the search's path at once */
#define SOLVE_TABLE (1 << 18) /* positions remembered (one size whatever the limit: the same
                               * search, node for node, under any limit) */

typedef struct {
    const Rules *r;
    uint64_t *table, mask; /* entries: the position's hash with its result in the low bit */
    uint64_t *moves;
    int used;
    long nodes, limit;
} Solver;

static inline uint64_t mix64(uint64_t h, uint64_t v) {
    uint64_t z = h ^ (v + 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t position_hash(const Rules *r, const State *s) {
    uint64_t h = mix64(0, s->active);
    for (int seat = 0; seat < r->players; seat++) {
        if (!(s->active >> seat & 1)) continue;
        for (int f = 0; f < FACES; f++)
            if (s->hand[seat][f]) h = mix64(h, (uint64_t)s->hand[seat][f] << 16 | (uint64_t)f << 8 | (uint64_t)seat);
    }
    h = mix64(h, s->last);
    h = mix64(h, s->before_last);
    h = mix64(h, (uint64_t)s->passed << 32 | (uint64_t)(uint32_t)s->opening);
    return mix64(h, (uint64_t)s->turn | (uint64_t)s->last_seat << 8 | (uint64_t)(s->direction + 1) << 16
                        | (uint64_t)s->mode << 20 | (uint64_t)s->mode_count << 24
                        | (uint64_t)s->reversed << 32);
}

#define PROBES 4

static int table_get(const Solver *v, uint64_t h) {
    uint64_t key = (h & ~1ull) | 2;
    for (int i = 0; i < PROBES; i++) {
        uint64_t e = v->table[(h + i) & v->mask];
        if (!e) return SOLVE_UNKNOWN;
        if ((e & ~1ull) == key) return (int)(e & 1);
    }
    return SOLVE_UNKNOWN;
}

static void table_put(Solver *v, uint64_t h, int won) {
    uint64_t key = (h & ~1ull) | 2, *slot = &v->table[h & v->mask];
    for (int i = 0; i < PROBES; i++) {
        uint64_t *e = &v->table[(h + i) & v->mask];
        if (!*e || (*e & ~1ull) == key) { slot = e; break; }
    }
    *slot = key | (uint64_t)won;
}

/* does the seat to move at `s` (two players left) go out first?  1, 0, or SOLVE_UNKNOWN once
 * the node limit is passed; `best` (when not NULL) gets a winning move */
static int solve(Solver *v, const State *s, uint64_t *best) {
    if (++v->nodes > v->limit) return SOLVE_UNKNOWN;
    uint64_t h = position_hash(v->r, s);
    if (!best) {
        int known = table_get(v, h);
        if (known != SOLVE_UNKNOWN) return known;
    }
    if (v->used + MAXMOVES > SOLVE_MOVES) return SOLVE_UNKNOWN;
    uint64_t *moves = v->moves + v->used;
    int n = legal_moves(v->r, s, moves);
    v->used += n;
    int mover = s->turn, result = 0;
    State c, *child = &c;
    /* moves that empty the hand first: they end the search at once */
    for (int pass = 0; pass < 2 && result == 0; pass++) {
        for (int i = 0; i < n; i++) {
            uint64_t m = moves[i];
            int out = KIND(m) >= K_GROUP && COUNT(m) == s->held[mover];
            if (out != (pass == 0)) continue;
            *child = *s;
            apply_move(v->r, child, m);
            int won;
            if (!(child->active >> mover & 1)) won = 1;
            else if (child->over) won = 0;
            else {
                int sub = solve(v, child, NULL);
                if (sub == SOLVE_UNKNOWN) { result = SOLVE_UNKNOWN; break; }
                won = child->turn == mover ? sub : !sub;
            }
            if (won) {
                result = 1;
                if (best) *best = m;
                break;
            }
        }
    }
    v->used -= n;
    if (result != SOLVE_UNKNOWN) table_put(v, h, result);
    return result;
}

/* --- the Python interface --------------------------------------------------------------- */
#define RULES_CAPSULE "president kernel rules"

static void free_rules(PyObject *capsule) {
    PyMem_Free(PyCapsule_GetPointer(capsule, RULES_CAPSULE));
}

static const Rules *get_rules(PyObject *capsule) {
    return (const Rules *)PyCapsule_GetPointer(capsule, RULES_CAPSULE);
}

static int read_bytes(PyObject *obj, const char *what, Py_ssize_t size, const uint8_t **out) {
    if (!PyBytes_Check(obj) || PyBytes_GET_SIZE(obj) != size) {
        PyErr_Format(PyExc_ValueError, "%s must be %zd bytes", what, size);
        return -1;
    }
    *out = (const uint8_t *)PyBytes_AS_STRING(obj);
    return 0;
}

static const State *get_state(PyObject *obj) {
    const uint8_t *data;
    if (read_bytes(obj, "a kernel state", sizeof(State), &data) < 0) return NULL;
    return (const State *)data;
}

static PyObject *state_bytes(const State *s) {
    return PyBytes_FromStringAndSize((const char *)s, sizeof(State));
}

/* a hand mask's 68 bytes (little-endian: a card's count in its code's byte) as face chunks */
static void chunks_of(const uint8_t *data, uint32_t *hand) {
    for (int f = 0; f < FACES; f++)
        hand[f] = (uint32_t)data[4 * f] | (uint32_t)data[4 * f + 1] << 8
                  | (uint32_t)data[4 * f + 2] << 16 | (uint32_t)data[4 * f + 3] << 24;
}

static int read_hand(PyObject *obj, uint32_t *hand) {
    const uint8_t *data;
    if (read_bytes(obj, "a hand", HAND_BYTES, &data) < 0) return -1;
    chunks_of(data, hand);
    return 0;
}

static int read_style(PyObject *obj, Style *style) {
#define STYLE_ADDRESS(name) &style->name,
    int *fields[N_STYLE_FIELDS] = {STYLE_FIELDS(STYLE_ADDRESS)};
#undef STYLE_ADDRESS
    if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != N_STYLE_FIELDS) {
        PyErr_Format(PyExc_ValueError, "a style is %d ints", N_STYLE_FIELDS);
        return -1;
    }
    for (int i = 0; i < N_STYLE_FIELDS; i++) {
        *fields[i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(obj, i));
        if (PyErr_Occurred()) return -1;
    }
    return 0;
}

/* rules(players, naturals, strength, reversed_strength, order_len, top_faces, top_naturals,
 *       wild_face, jokers_alone, max_play, count_rule, flags) -> capsule
 * naturals: bytes of faces; strengths: 17 bytes of strength + 1 (0: no rank);
 * flags: bytes of N_FLAGS booleans in the order of RULE_FLAGS */
static PyObject *k_rules(PyObject *self, PyObject *args) {
    int players, order_len, top0, top1, nat0, nat1, wild_face, alone, max_play, rule;
    const char *naturals, *strength, *rstrength, *flags;
    Py_ssize_t n_nat, n_st, n_rst, n_flags;
    if (!PyArg_ParseTuple(args, "iy#y#y#i(ii)(ii)iiiiy#", &players, &naturals, &n_nat, &strength,
                          &n_st, &rstrength, &n_rst, &order_len, &top0, &top1, &nat0, &nat1,
                          &wild_face, &alone, &max_play, &rule, &flags, &n_flags))
        return NULL;
    if (players < 2 || players > MAXP || n_nat > FACES || n_st != FACES || n_rst != FACES
        || n_flags != N_FLAGS) {
        PyErr_SetString(PyExc_ValueError, "rules the kernel cannot take");
        return NULL;
    }
    Rules *r = PyMem_Calloc(1, sizeof(Rules));
    if (!r) return PyErr_NoMemory();
    r->players = players;
    r->n_naturals = (int)n_nat;
    for (int i = 0; i < n_nat; i++) r->naturals[i] = (uint8_t)naturals[i];
    for (int rev = 0; rev < 2; rev++) {
        const char *table = rev ? rstrength : strength;
        for (int f = 0; f < 32; f++) r->st[rev][f] = -1;
        for (int f = 0; f < FACES; f++) r->st[rev][f] = (int)(uint8_t)table[f] - 1;
        r->st[rev][MIX_FACE] = r->st[rev][FACES - 1];
    }
    r->order_len = order_len;
    r->top_face[0] = top0; r->top_face[1] = top1;
    r->top_natural[0] = nat0; r->top_natural[1] = nat1;
    r->wild_face = wild_face;
    r->jokers_alone = alone;
    r->max_play = max_play;
    r->count_rule = rule;
#define FLAG_ADDRESS(name) &r->name,
    int *fields[N_FLAGS] = {RULE_FLAGS(FLAG_ADDRESS)};
#undef FLAG_ADDRESS
    for (int i = 0; i < N_FLAGS; i++) *fields[i] = flags[i] != 0;
    PyObject *capsule = PyCapsule_New(r, RULES_CAPSULE, free_rules);
    if (!capsule) PyMem_Free(r);
    return capsule;
}

/* state(rules, hands, active, finishing_order, turn, direction, last, last_seat, before_last,
 *       passed, mode, mode_count, reversed, opening) -> bytes
 * hands: a tuple of 68-byte hand masks (little-endian); finishing_order: bytes of seats */
static PyObject *k_state(PyObject *self, PyObject *args) {
    PyObject *capsule, *hands;
    const char *order;
    Py_ssize_t n_order;
    unsigned long active, passed;
    unsigned long long last, before_last;
    int turn, direction, last_seat, mode, mode_count, reversed, opening;
    if (!PyArg_ParseTuple(args, "OO!ky#iiKiKkiiii", &capsule, &PyTuple_Type, &hands, &active,
                          &order, &n_order, &turn, &direction, &last, &last_seat, &before_last,
                          &passed, &mode, &mode_count, &reversed, &opening))
        return NULL;
    const Rules *r = get_rules(capsule);
    if (!r) return NULL;
    if (PyTuple_GET_SIZE(hands) != r->players || n_order > r->players) {
        PyErr_SetString(PyExc_ValueError, "a state needs a hand per seat");
        return NULL;
    }
    State s;
    memset(&s, 0, sizeof s);
    for (int seat = 0; seat < r->players; seat++) {
        if (read_hand(PyTuple_GET_ITEM(hands, seat), s.hand[seat]) < 0) return NULL;
        int held = 0;
        for (int f = 0; f < FACES; f++) held += chunk_count(s.hand[seat][f]);
        s.held[seat] = held;
    }
    for (int i = 0; i < n_order; i++) s.order[i] = (uint8_t)order[i];
    s.n_out = (int)n_order;
    s.active = (uint32_t)active;
    s.passed = (uint32_t)passed;
    s.turn = turn;
    s.direction = direction;
    s.last = last;
    s.last_seat = last_seat;
    s.before_last = before_last;
    s.mode = mode;
    s.mode_count = mode_count;
    s.reversed = reversed;
    s.opening = opening;
    return state_bytes(&s);
}

/* with_hands(rules, state, hands) -> bytes: the state with these hands (a tuple of 68-byte
 * hand masks, one a seat) and their card counts */
static PyObject *k_with_hands(PyObject *self, PyObject *args) {
    PyObject *capsule, *obj, *hands;
    if (!PyArg_ParseTuple(args, "OOO!", &capsule, &obj, &PyTuple_Type, &hands)) return NULL;
    const Rules *r = get_rules(capsule);
    const State *from = r ? get_state(obj) : NULL;
    if (!from) return NULL;
    if (PyTuple_GET_SIZE(hands) != r->players) {
        PyErr_SetString(PyExc_ValueError, "a state needs a hand per seat");
        return NULL;
    }
    State s = *from;
    for (int seat = 0; seat < r->players; seat++) {
        if (read_hand(PyTuple_GET_ITEM(hands, seat), s.hand[seat]) < 0) return NULL;
        int held = 0;
        for (int f = 0; f < FACES; f++) held += chunk_count(s.hand[seat][f]);
        s.held[seat] = held;
    }
    return state_bytes(&s);
}

/* view(rules, state) -> (hands, active, finishing_order, turn, direction, last, last_seat,
 *                        before_last, passed, mode, mode_count, reversed, opening, over) */
static PyObject *k_view(PyObject *self, PyObject *args) {
    PyObject *capsule, *obj;
    if (!PyArg_ParseTuple(args, "OO", &capsule, &obj)) return NULL;
    const Rules *r = get_rules(capsule);
    const State *s = r ? get_state(obj) : NULL;
    if (!s) return NULL;
    PyObject *hands = PyTuple_New(r->players);
    if (!hands) return NULL;
    for (int seat = 0; seat < r->players; seat++) {
        uint8_t data[HAND_BYTES];
        for (int f = 0; f < FACES; f++)
            for (int b = 0; b < 4; b++) data[4 * f + b] = (uint8_t)(s->hand[seat][f] >> (8 * b));
        PyTuple_SET_ITEM(hands, seat, PyBytes_FromStringAndSize((const char *)data, HAND_BYTES));
    }
    PyObject *order = PyList_New(s->n_out);
    for (int i = 0; i < s->n_out; i++) PyList_SET_ITEM(order, i, PyLong_FromLong(s->order[i]));
    return Py_BuildValue("(NkNiiKiKkiiiii)", hands, (unsigned long)s->active, order, s->turn,
                         s->direction, (unsigned long long)s->last, s->last_seat,
                         (unsigned long long)s->before_last, (unsigned long)s->passed, s->mode,
                         s->mode_count, s->reversed, s->opening, s->over);
}

static PyObject *k_legal(PyObject *self, PyObject *args) {
    PyObject *capsule, *obj;
    if (!PyArg_ParseTuple(args, "OO", &capsule, &obj)) return NULL;
    const Rules *r = get_rules(capsule);
    const State *s = r ? get_state(obj) : NULL;
    if (!s) return NULL;
    uint64_t moves[MAXMOVES];
    int n = s->over ? 0 : legal_moves(r, s, moves);
    PyObject *out = PyList_New(n);
    for (int i = 0; i < n; i++) PyList_SET_ITEM(out, i, PyLong_FromUnsignedLongLong(moves[i]));
    return out;
}

static PyObject *k_apply(PyObject *self, PyObject *args) {
    PyObject *capsule, *obj;
    unsigned long long move;
    if (!PyArg_ParseTuple(args, "OOK", &capsule, &obj, &move)) return NULL;
    const Rules *r = get_rules(capsule);
    const State *s = r ? get_state(obj) : NULL;
    if (!s) return NULL;
    State copy = *s;
    apply_move(r, &copy, move);
    return state_bytes(&copy);
}

/* the (rules, state, style) arguments of choose() and features() */
static int rules_state_style(PyObject *args, const Rules **r, const State **s, Style *style) {
    PyObject *capsule, *obj, *style_obj;
    if (!PyArg_ParseTuple(args, "OOO", &capsule, &obj, &style_obj)) return -1;
    *r = get_rules(capsule);
    *s = *r ? get_state(obj) : NULL;
    return !*s || read_style(style_obj, style) < 0 ? -1 : 0;
}

static PyObject *k_choose(PyObject *self, PyObject *args) {
    const Rules *r;
    const State *s;
    Style style;
    if (rules_state_style(args, &r, &s, &style) < 0) return NULL;
    return PyLong_FromUnsignedLongLong(policy_move(r, s, &style));
}

/* playout(rules, state, move, seat, own_style[, looks[, weights, seed, all, random_seats]])
 * -> float: apply `move` (all ones: none), then play out, `seat` looking ahead at its first
 * `looks` decisions; with `weights` (N_FEATURES doubles) `seat`'s moves (every seat's with
 * `all`) follow the learned policy; the seats of `random_seats` (a bit each) play a random
 * legal move; both draw from `seed` */
static PyObject *k_playout(PyObject *self, PyObject *args) {
    PyObject *capsule, *obj, *style_obj, *weights = Py_None;
    unsigned long long move, seed = 0, random_seats = 0;
    int seat, looks = 0, all = 0;
    if (!PyArg_ParseTuple(args, "OOKiO|iOKpK", &capsule, &obj, &move, &seat, &style_obj, &looks,
                          &weights, &seed, &all, &random_seats))
        return NULL;
    const Rules *r = get_rules(capsule);
    const State *s = r ? get_state(obj) : NULL;
    Style style;
    if (!s || read_style(style_obj, &style) < 0) return NULL;
    Playing playing = {NULL, seed, all, random_seats}, *l = random_seats ? &playing : NULL;
    if (weights != Py_None) {
        const uint8_t *data;
        if (read_bytes(weights, "the weights", sizeof(double) * N_FEATURES, &data) < 0)
            return NULL;
        playing.w = (const double *)data;
        l = &playing;
    }
    State copy = *s;
    if (move != ~0ULL) apply_move(r, &copy, move);
    return PyFloat_FromDouble(looks > 0 ? playout_looking(r, &copy, seat, &style, looks, l)
                                        : playout(r, &copy, seat, &style, l));
}

/* features(rules, state, style) -> (legal moves, features): each legal move's N_FEATURES
 * features (a tuple of floats a move) at a state, the moves in legal()'s order */
static PyObject *k_features(PyObject *self, PyObject *args) {
    const Rules *r;
    const State *s;
    Style style;
    if (rules_state_style(args, &r, &s, &style) < 0) return NULL;
    uint64_t legal[MAXMOVES];
    static double f[MAXMOVES * N_FEATURES];
    int n = s->over ? 0 : legal_moves(r, s, legal);
    if (n) features(r, s, &style, legal, n, f);
    PyObject *moves = PyList_New(n), *rows = PyList_New(n);
    if (!moves || !rows) {
        Py_XDECREF(moves);
        Py_XDECREF(rows);
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        PyList_SET_ITEM(moves, i, PyLong_FromUnsignedLongLong(legal[i]));
        PyObject *row = PyTuple_New(N_FEATURES);
        for (int k = 0; k < N_FEATURES; k++)
            PyTuple_SET_ITEM(row, k, PyFloat_FromDouble(f[i * N_FEATURES + k]));
        PyList_SET_ITEM(rows, i, row);
    }
    return Py_BuildValue("(NN)", moves, rows);
}

/* reinforce(rules, state, seat, style, weights, seed) -> (result, gradient): a playout with
 * `seat` on the learned policy (the others on the heuristic) and the gradient of the
 * log-probability of its moves in the weights (scripts/train_playout_policy.py) */
static PyObject *k_reinforce(PyObject *self, PyObject *args) {
    PyObject *capsule, *obj, *style_obj;
    const char *wdata;
    Py_ssize_t wsize;
    int seat;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "OOiOy#K", &capsule, &obj, &seat, &style_obj, &wdata, &wsize,
                          &seed))
        return NULL;
    const Rules *r = get_rules(capsule);
    const State *s = r ? get_state(obj) : NULL;
    Style style;
    if (!s || read_style(style_obj, &style) < 0) return NULL;
    if (wsize != (Py_ssize_t)sizeof(double) * N_FEATURES) {
        PyErr_SetString(PyExc_ValueError, "weights of the wrong size");
        return NULL;
    }
    Playing l = {(const double *)wdata, seed, 0};
    double grad[N_FEATURES] = {0};
    State copy = *s;
    double result = playout_gradient(r, &copy, seat, &style, &l, grad);
    PyObject *g = PyTuple_New(N_FEATURES);
    for (int j = 0; j < N_FEATURES; j++) PyTuple_SET_ITEM(g, j, PyFloat_FromDouble(grad[j]));
    return Py_BuildValue("(dN)", result, g);
}

/* logit(data, weights, l2) -> (log-likelihood, gradient, hessian): the conditional logit's
 * fit (a softmax over each decision's moves) of decisions packed as doubles, each
 * [moves, chosen, features of each move], less l2/2·|w|²; the training's Newton steps */
static PyObject *k_logit(PyObject *self, PyObject *args) {
    const char *data, *wdata;
    Py_ssize_t size, wsize;
    double l2;
    if (!PyArg_ParseTuple(args, "y#y#d", &data, &size, &wdata, &wsize, &l2)) return NULL;
    if (wsize != (Py_ssize_t)sizeof(double) * N_FEATURES || size % sizeof(double)) {
        PyErr_SetString(PyExc_ValueError, "weights or data of the wrong size");
        return NULL;
    }
    const double *d = (const double *)data, *w = (const double *)wdata;
    size_t len = (size_t)size / sizeof(double), at = 0;
    double ll = 0, g[N_FEATURES] = {0}, h[N_FEATURES][N_FEATURES] = {{0}};
    static double p[MAXMOVES];
    while (at + 2 <= len) {
        int n = (int)d[at], chosen = (int)d[at + 1];
        const double *x = d + at + 2;
        if (n < 1 || n > MAXMOVES || chosen < 0 || chosen >= n
            || at + 2 + (size_t)n * N_FEATURES > len) {
            PyErr_SetString(PyExc_ValueError, "a decision out of its data");
            return NULL;
        }
        double most = -1e300, total = 0, mean[N_FEATURES] = {0};
        for (int i = 0; i < n; i++) {
            double z = 0;
            for (int k = 0; k < N_FEATURES; k++) z += w[k] * x[i * N_FEATURES + k];
            p[i] = z;
            if (z > most) most = z;
        }
        for (int i = 0; i < n; i++) total += p[i] = exp(p[i] - most);
        ll += p[chosen] > 0 ? log(p[chosen] / total) : -700;
        for (int i = 0; i < n; i++) {
            p[i] /= total;
            for (int k = 0; k < N_FEATURES; k++) mean[k] += p[i] * x[i * N_FEATURES + k];
        }
        for (int k = 0; k < N_FEATURES; k++) g[k] += x[chosen * N_FEATURES + k] - mean[k];
        for (int i = 0; i < n; i++)
            for (int a = 0; a < N_FEATURES; a++) {
                double da = x[i * N_FEATURES + a] - mean[a];
                if (da == 0) continue;
                for (int b = 0; b < N_FEATURES; b++)
                    h[a][b] -= p[i] * da * (x[i * N_FEATURES + b] - mean[b]);
            }
        at += 2 + (size_t)n * N_FEATURES;
    }
    PyObject *grad = PyList_New(N_FEATURES), *hess = PyList_New(N_FEATURES);
    for (int a = 0; a < N_FEATURES; a++) {
        ll -= l2 / 2 * w[a] * w[a];
        PyList_SET_ITEM(grad, a, PyFloat_FromDouble(g[a] - l2 * w[a]));
        PyObject *row = PyList_New(N_FEATURES);
        for (int b = 0; b < N_FEATURES; b++)
            PyList_SET_ITEM(row, b, PyFloat_FromDouble(h[a][b] - (a == b ? l2 : 0)));
        PyList_SET_ITEM(hess, a, row);
    }
    return Py_BuildValue("(dNN)", ll, grad, hess);
}

/* playouts(rules, state, plays) -> list of floats: for each (seat, own_style) of `plays`, the
 * state played out from the start, as playout(rules, state, none, seat, own_style) */
static PyObject *k_playouts(PyObject *self, PyObject *args) {
    PyObject *capsule, *obj, *plays;
    if (!PyArg_ParseTuple(args, "OOO", &capsule, &obj, &plays)) return NULL;
    const Rules *r = get_rules(capsule);
    const State *s = r ? get_state(obj) : NULL;
    if (!s) return NULL;
    PyObject *seq = PySequence_Fast(plays, "plays are (seat, style) pairs");
    if (!seq) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject *out = PyList_New(n);
    for (Py_ssize_t i = 0; out && i < n; i++) {
        PyObject *pair = PySequence_Fast_GET_ITEM(seq, i);
        Style style;
        int seat;
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
            PyErr_SetString(PyExc_ValueError, "a play is a (seat, style) pair");
            Py_CLEAR(out);
            break;
        }
        seat = (int)PyLong_AsLong(PyTuple_GET_ITEM(pair, 0));
        if ((seat == -1 && PyErr_Occurred()) || read_style(PyTuple_GET_ITEM(pair, 1), &style) < 0) {
            Py_CLEAR(out);
            break;
        }
        if (seat < 0 || seat >= r->players) {
            PyErr_Format(PyExc_ValueError, "no seat %d", seat);
            Py_CLEAR(out);
            break;
        }
        State copy = *s;
        PyList_SET_ITEM(out, i, PyFloat_FromDouble(playout(r, &copy, seat, &style, NULL)));
    }
    Py_DECREF(seq);
    return out;
}

/* solve(rules, state, limit) -> (result, move, nodes): with two players left, does the seat to
 * move go out first under best play (1, with a winning move; 0: it cannot) or is it not known
 * within `limit` nodes (-1)? */
static PyObject *k_solve(PyObject *self, PyObject *args) {
    PyObject *capsule, *obj;
    long limit;
    if (!PyArg_ParseTuple(args, "OOl", &capsule, &obj, &limit)) return NULL;
    const Rules *r = get_rules(capsule);
    const State *s = r ? get_state(obj) : NULL;
    if (!s) return NULL;
    uint32_t rest = s->active & (s->active - 1);
    if (s->over || !rest || (rest & (rest - 1))) {
        PyErr_SetString(PyExc_ValueError, "the endgame search takes two players left");
        return NULL;
    }
    Solver v = {r, PyMem_Calloc(SOLVE_TABLE, sizeof(uint64_t)), SOLVE_TABLE - 1,
                PyMem_Malloc(SOLVE_MOVES * sizeof(uint64_t)), 0, 0, limit};
    if (!v.table || !v.moves) {
        PyMem_Free(v.table);
        PyMem_Free(v.moves);
        return PyErr_NoMemory();
    }
    uint64_t best = 0;
    int result = solve(&v, s, &best);
    PyMem_Free(v.table);
    PyMem_Free(v.moves);
    return Py_BuildValue("(iKl)", result, (unsigned long long)(result == 1 ? best : 0),
                         v.nodes < limit ? v.nodes : limit);
}

/* position(state, later, notdown, move) -> bytes: a past choice of the seat to move in `state`
 * (later, notdown: hand masks) */
static PyObject *k_position(PyObject *self, PyObject *args) {
    PyObject *obj, *later, *notdown;
    unsigned long long move;
    if (!PyArg_ParseTuple(args, "OOOK", &obj, &later, &notdown, &move)) return NULL;
    const State *s = get_state(obj);
    if (!s) return NULL;
    Position p;
    memset(&p, 0, sizeof p);
    p.past = *s;
    p.what = move;
    if (read_hand(later, p.later) < 0 || read_hand(notdown, p.notdown) < 0) return NULL;
    return PyBytes_FromStringAndSize((const char *)&p, sizeof p);
}

/* how many of `positions` (a list of position() bytes, one seat's) a hidden hand breaks,
 * counting up to `enough`; the position that reached `enough` moves to the front of the list
 * (most guesses break the same few); -1 on an error */
static long count_broken(const Rules *r, PyObject *positions, const uint32_t *hidden,
                         long enough) {
    long bad = 0;
    Py_ssize_t n = PyList_GET_SIZE(positions);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyList_GET_ITEM(positions, i);
        const uint8_t *data;
        if (read_bytes(item, "a position", sizeof(Position), &data) < 0) return -1;
        if (!breaks(r, (const Position *)data, hidden)) continue;
        if (++bad >= enough) {
            for (Py_ssize_t j = i; j > 0; j--)
                PyList_SET_ITEM(positions, j, PyList_GET_ITEM(positions, j - 1));
            PyList_SET_ITEM(positions, 0, item);
            break;
        }
    }
    return bad;
}

/* broken(rules, positions, hidden, enough) -> int: count_broken */
static PyObject *k_broken(PyObject *self, PyObject *args) {
    PyObject *capsule, *positions, *hidden_obj;
    long enough;
    if (!PyArg_ParseTuple(args, "OO!Ol", &capsule, &PyList_Type, &positions, &hidden_obj,
                          &enough))
        return NULL;
    const Rules *r = get_rules(capsule);
    uint32_t hidden[FACES];
    if (!r || read_hand(hidden_obj, hidden) < 0) return NULL;
    long bad = count_broken(r, positions, hidden, enough);
    return bad < 0 ? NULL : PyLong_FromLong(bad);
}

/* --- dealing and walking worlds (montecarlo.sample, Worlds.walk): Python's draws, in C ---
 * The draws of random.Random.shuffle and randrange, made through the generator's getrandbits,
 * so a world dealt or walked here is the very one Python deals or walks from the same
 * generator. */
static int randbelow(PyObject *getrandbits, long n, long *out) { /* Random._randbelow */
    int k = 0;
    while ((n >> k) != 0) k++;
    PyObject *bits = PyLong_FromLong(k);
    if (!bits) return -1;
    for (;;) {
        PyObject *r = PyObject_CallOneArg(getrandbits, bits);
        if (!r) { Py_DECREF(bits); return -1; }
        long v = PyLong_AsLong(r);
        Py_DECREF(r);
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(bits); return -1; }
        if (v < n) { Py_DECREF(bits); *out = v; return 0; }
    }
}

/* shuffle(getrandbits, list): random.Random.shuffle, in place */
static PyObject *k_shuffle(PyObject *self, PyObject *args) {
    PyObject *getrandbits, *list;
    if (!PyArg_ParseTuple(args, "OO!", &getrandbits, &PyList_Type, &list)) return NULL;
    for (Py_ssize_t i = PyList_GET_SIZE(list) - 1; i > 0; i--) {
        long j;
        if (randbelow(getrandbits, (long)i + 1, &j) < 0) return NULL;
        PyObject *a = PyList_GET_ITEM(list, i);
        PyList_SET_ITEM(list, i, PyList_GET_ITEM(list, j));
        PyList_SET_ITEM(list, j, a);
    }
    Py_RETURN_NONE;
}

/* montecarlo._deal_around: deal `pool` (card codes in dealing order) by `need` (changed) into
 * `hands`, each card to a seat whose `banned` mask lacks it, the most constrained cards first
 * (fewest seats allowed, in pool order among equals), weighted by the room left; a card no
 * seat with room may hold goes to any seat with room.  -1 on an error. */
static int deal_around(PyObject *getrandbits, const uint8_t *pool, int n_pool, int *need,
                       int n_seats, uint8_t (*banned)[HAND_BYTES], uint8_t (*hands)[HAND_BYTES]) {
    int seats[MAXP], n_open = 0;
    for (int s = 0; s < n_seats; s++)
        if (need[s]) seats[n_open++] = s;
    for (int width = 0; width <= n_open; width++)
        for (int i = 0; i < n_pool; i++) {
            int card = pool[i], allowed[MAXP], n_allowed = 0;
            for (int k = 0; k < n_open; k++)
                if (!banned[seats[k]][card]) allowed[n_allowed++] = seats[k];
            if (n_allowed != width) continue;
            int room[MAXP], n_room = 0;
            long total = 0;
            for (int k = 0; k < n_allowed; k++)
                if (need[allowed[k]]) { room[n_room++] = allowed[k]; total += need[allowed[k]]; }
            if (!n_room)
                for (int k = 0; k < n_open; k++)
                    if (need[seats[k]]) { room[n_room++] = seats[k]; total += need[seats[k]]; }
            if (!total) {
                PyErr_SetString(PyExc_ValueError, "more cards than room");
                return -1;
            }
            long r;
            if (randbelow(getrandbits, total, &r) < 0) return -1;
            int s = room[0];
            for (int k = 0; k < n_room; k++) {
                s = room[k];
                r -= need[s];
                if (r < 0) break;
            }
            hands[s][card]++;
            need[s]--;
        }
    return 0;
}

/* walk(rules, getrandbits, hands, pinned, bad, positions, steps) -> (hands, bad):
 * worlds.Worlds.walk, drawing from the generator as random.Random.sample and choice do.
 * hands, pinned: 68-byte hands, each other seat's then the undealt cards (this seat's empty);
 * bad: the positions each breaks; positions: each seat's position() list. */

static int mask_holds(const uint8_t *hand, const uint8_t *cards) {
    for (int i = 0; i < HAND_BYTES; i++)
        if (cards[i] > hand[i]) return 0;
    return 1;
}

/* the card at `index` of a hand's cards listed lowest code first (mask_cards) */
static int card_at(const uint8_t *hand, long index) {
    for (int c = 0; c < HAND_BYTES; c++) {
        if (index < hand[c]) return c;
        index -= hand[c];
    }
    return -1;
}

static PyObject *k_walk(PyObject *self, PyObject *args) {
    PyObject *capsule, *getrandbits, *hands_obj, *pinned_obj, *bad_obj, *positions;
    int steps;
    if (!PyArg_ParseTuple(args, "OOO!O!O!O!i", &capsule, &getrandbits, &PyTuple_Type, &hands_obj,
                          &PyTuple_Type, &pinned_obj, &PyTuple_Type, &bad_obj, &PyList_Type,
                          &positions, &steps))
        return NULL;
    const Rules *r = get_rules(capsule);
    if (!r) return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(hands_obj);
    if (n < 1 || n > MAXP + 1 || PyTuple_GET_SIZE(pinned_obj) != n
        || PyTuple_GET_SIZE(bad_obj) != n || PyList_GET_SIZE(positions) < n - 1) {
        PyErr_SetString(PyExc_ValueError, "a hand, pinned cards, a count and positions a holder");
        return NULL;
    }
    uint8_t hands[MAXP + 1][HAND_BYTES], pinned[MAXP + 1][HAND_BYTES];
    long bad[MAXP + 1];
    int holders[MAXP + 1], n_holders = 0, last = (int)n - 1;
    for (int s = 0; s < n; s++) {
        const uint8_t *data;
        if (read_bytes(PyTuple_GET_ITEM(hands_obj, s), "a hand", HAND_BYTES, &data) < 0) return NULL;
        memcpy(hands[s], data, HAND_BYTES);
        if (read_bytes(PyTuple_GET_ITEM(pinned_obj, s), "a hand", HAND_BYTES, &data) < 0) return NULL;
        memcpy(pinned[s], data, HAND_BYTES);
        bad[s] = PyLong_AsLong(PyTuple_GET_ITEM(bad_obj, s));
        if (bad[s] == -1 && PyErr_Occurred()) return NULL;
        for (int i = 0; i < HAND_BYTES; i++)
            if (hands[s][i]) { holders[n_holders++] = s; break; }
        if (s != last && !PyList_Check(PyList_GET_ITEM(positions, s))) {
            PyErr_SetString(PyExc_ValueError, "positions: a list a seat");
            return NULL;
        }
    }
    for (int step = 0; step < steps && n_holders >= 2; step++) {
        /* a, b = rng.sample(holders, 2) */
        long i, j;
        int a, b;
        if (n_holders <= 21) {
            if (randbelow(getrandbits, n_holders, &i) < 0) return NULL;
            a = holders[i];
            int rest = i == n_holders - 1 ? a : holders[n_holders - 1];
            if (randbelow(getrandbits, n_holders - 1, &j) < 0) return NULL;
            b = j == i ? rest : holders[j];
        } else {
            if (randbelow(getrandbits, n_holders, &i) < 0) return NULL;
            do {
                if (randbelow(getrandbits, n_holders, &j) < 0) return NULL;
            } while (j == i);
            a = holders[i];
            b = holders[j];
        }
        uint8_t free_a[HAND_BYTES], free_b[HAND_BYTES];
        long count_a = 0, count_b = 0;
        int keep_a = mask_holds(hands[a], pinned[a]), keep_b = mask_holds(hands[b], pinned[b]);
        for (int c = 0; c < HAND_BYTES; c++) {
            free_a[c] = hands[a][c] - (keep_a ? pinned[a][c] : 0);
            free_b[c] = hands[b][c] - (keep_b ? pinned[b][c] : 0);
            count_a += free_a[c];
            count_b += free_b[c];
        }
        if (!count_a || !count_b) continue;
        long xi, yi;
        if (randbelow(getrandbits, count_a, &xi) < 0) return NULL;
        if (randbelow(getrandbits, count_b, &yi) < 0) return NULL;
        int x = card_at(free_a, xi), y = card_at(free_b, yi);
        if (x >> 2 == y >> 2) continue; /* the same rank: the same world to the rules */
        uint8_t new_a[HAND_BYTES], new_b[HAND_BYTES];
        memcpy(new_a, hands[a], HAND_BYTES);
        memcpy(new_b, hands[b], HAND_BYTES);
        new_a[x]--; new_a[y]++;
        new_b[y]--; new_b[x]++;
        long allowed = bad[a] + bad[b], ba = 0, bb = 0;
        uint32_t hidden[FACES];
        if (a != last) {
            chunks_of(new_a, hidden);
            ba = count_broken(r, PyList_GET_ITEM(positions, a), hidden, allowed + 1);
            if (ba < 0) return NULL;
            if (ba > allowed) continue;
        }
        if (b != last) {
            chunks_of(new_b, hidden);
            bb = count_broken(r, PyList_GET_ITEM(positions, b), hidden, allowed - ba + 1);
            if (bb < 0) return NULL;
            if (ba + bb > allowed) continue;
        }
        memcpy(hands[a], new_a, HAND_BYTES);
        memcpy(hands[b], new_b, HAND_BYTES);
        bad[a] = ba;
        bad[b] = bb;
    }
    PyObject *out_hands = PyTuple_New(n), *out_bad = PyTuple_New(n);
    if (!out_hands || !out_bad) { Py_XDECREF(out_hands); Py_XDECREF(out_bad); return NULL; }
    for (int s = 0; s < n; s++) {
        PyTuple_SET_ITEM(out_hands, s, PyBytes_FromStringAndSize((const char *)hands[s], HAND_BYTES));
        PyTuple_SET_ITEM(out_bad, s, PyLong_FromLong(bad[s]));
    }
    return Py_BuildValue("(NN)", out_hands, out_bad);
}

/* --- inference.py's constraints: how many a dealt world breaks ------------------------- */
#define MAX_POOL 1024 /* cards dealt at once */
#define MAX_CHECKS 20 /* a check per rank at most, and one more */
enum { PLAIN_CONSTRAINT, FOLLOW_CONSTRAINT, LEAD_CONSTRAINT }; /* inference.Constraint's kinds */

typedef struct {
    int seat, kind, margin, n_checks; /* margin: the follow's endgame margin, the lead's safe groups */
    uint32_t later[FACES], zero[FACES];
    uint32_t low, high; /* faces (bits): the follow's low groups and controls, the lead's groups */
    int face[MAX_CHECKS], inside[MAX_CHECKS];
    long long lo[MAX_CHECKS], hi[MAX_CHECKS];
    double weight; /* its seat's fit (inference.py), what breaking it costs a world */
} Constraint;

static int constraint_broken(const Constraint *c, const uint32_t *hidden) {
    uint32_t hand[FACES];
    int broken = 0;
    for (int f = 0; f < FACES; f++) {
        hand[f] = hidden[f] + c->later[f];
        if (hand[f] & c->zero[f]) broken = 1;
    }
    for (int i = 0; i < c->n_checks && !broken; i++) {
        long long n = chunk_count(hand[c->face[i]]);
        if ((c->lo[i] <= n && n <= c->hi[i]) != c->inside[i]) broken = 1;
    }
    if (!broken || c->kind == PLAIN_CONSTRAINT) return broken;
    int groups = 0, controls = 0;
    for (int f = 0; f < FACES; f++) {
        if ((c->low >> f & 1) && hand[f]) groups++;
        if (c->high >> f & 1) controls += chunk_count(hand[f]);
    }
    if (c->kind == FOLLOW_CONSTRAINT) return groups > controls + c->margin;
    return groups > c->margin;
}

/* the weight of the `size` bytes of constraint()s the hands break, summed in order as
 * inference.violations sums it; -1 on an error */
static double violations(const char *data, Py_ssize_t size, uint32_t (*hands)[FACES], int n_seats) {
    double broken = 0;
    for (Py_ssize_t at = 0; at < size; at += sizeof(Constraint)) {
        const Constraint *c = (const Constraint *)(data + at);
        if (c->seat >= n_seats) {
            PyErr_SetString(PyExc_ValueError, "a constraint on a seat with no hand");
            return -1;
        }
        if (constraint_broken(c, hands[c->seat])) broken += c->weight;
    }
    return broken;
}

/* constraint(seat, kind, later, zero, checks, low, high, margin, weight) -> bytes: later,
 * zero: hand masks; checks: ((face, lo, hi, inside), ...); low, high: face bits */
static PyObject *k_constraint(PyObject *self, PyObject *args) {
    Constraint c;
    memset(&c, 0, sizeof c);
    PyObject *later, *zero, *checks;
    unsigned long low, high;
    if (!PyArg_ParseTuple(args, "iiOOO!kkid", &c.seat, &c.kind, &later, &zero, &PyTuple_Type,
                          &checks, &low, &high, &c.margin, &c.weight))
        return NULL;
    c.low = (uint32_t)low;
    c.high = (uint32_t)high;
    c.n_checks = (int)PyTuple_GET_SIZE(checks);
    if (c.seat < 0 || c.seat >= MAXP || c.n_checks > MAX_CHECKS) {
        PyErr_SetString(PyExc_ValueError, "a constraint the kernel cannot take");
        return NULL;
    }
    if (read_hand(later, c.later) < 0 || read_hand(zero, c.zero) < 0) return NULL;
    for (int i = 0; i < c.n_checks; i++) {
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(checks, i), "iLLp", &c.face[i], &c.lo[i], &c.hi[i],
                              &c.inside[i]))
            return NULL;
        if (c.face[i] < 0 || c.face[i] >= FACES) {
            PyErr_SetString(PyExc_ValueError, "a face out of range");
            return NULL;
        }
    }
    return PyBytes_FromStringAndSize((const char *)&c, sizeof c);
}

/* violations(constraints, hands) -> float: constraints: constraint() bytes joined; hands: a
 * 68-byte hand per seat */
static PyObject *k_violations(PyObject *self, PyObject *args) {
    const char *data;
    Py_ssize_t size;
    PyObject *hands_obj;
    if (!PyArg_ParseTuple(args, "y#O!", &data, &size, &PyTuple_Type, &hands_obj)) return NULL;
    Py_ssize_t n_seats = PyTuple_GET_SIZE(hands_obj);
    if (size % sizeof(Constraint) || n_seats > MAXP) {
        PyErr_SetString(PyExc_ValueError, "constraints and hands the kernel cannot take");
        return NULL;
    }
    uint32_t hands[MAXP][FACES];
    for (Py_ssize_t s = 0; s < n_seats; s++)
        if (read_hand(PyTuple_GET_ITEM(hands_obj, s), hands[s]) < 0) return NULL;
    double broken = violations(data, size, hands, (int)n_seats);
    return broken < 0 ? NULL : PyFloat_FromDouble(broken);
}

/* deal(getrandbits, cards, need, gave, banned, constraints, tries) -> list of 68-byte hands:
 * montecarlo's dealer (MonteCarloBot.dealer with sample), drawing from the generator as it
 * does.  Each try shuffles `cards` (bytes of card codes, lowest first), gives each seat the
 * cards this seat gave it that are still unseen (`gave`: bytes of (seat, card) pairs, in
 * order) while it needs cards, deals the rest by `need` (bytes, a count a seat) around the
 * `banned` masks (or in turn when none is banned) and counts the `constraints` (constraint()
 * bytes joined) the hands break; the first world that breaks none, else the first that breaks
 * the least weight of them, after `tries`. */
static PyObject *k_deal(PyObject *self, PyObject *args) {
    PyObject *getrandbits, *banned_obj;
    const uint8_t *cards, *need_in, *gave;
    const char *constraints;
    Py_ssize_t n_cards, n_seats, n_gave, size;
    int tries;
    if (!PyArg_ParseTuple(args, "Oy#y#y#O!y#i", &getrandbits, &cards, &n_cards, &need_in,
                          &n_seats, &gave, &n_gave, &PyTuple_Type, &banned_obj, &constraints,
                          &size, &tries))
        return NULL;
    if (n_seats > MAXP || PyTuple_GET_SIZE(banned_obj) != n_seats || n_gave % 2
        || n_cards > MAX_POOL || size % sizeof(Constraint)) {
        PyErr_SetString(PyExc_ValueError, "a dealing the kernel cannot take");
        return NULL;
    }
    uint8_t banned[MAXP][HAND_BYTES], hands[MAXP][HAND_BYTES], best[MAXP][HAND_BYTES];
    int any_banned = 0;
    for (int s = 0; s < n_seats; s++) {
        const uint8_t *data;
        if (read_bytes(PyTuple_GET_ITEM(banned_obj, s), "a banned mask", HAND_BYTES, &data) < 0)
            return NULL;
        memcpy(banned[s], data, HAND_BYTES);
        for (int c = 0; c < HAND_BYTES; c++) any_banned |= banned[s][c];
    }
    for (Py_ssize_t i = 0; i < n_cards; i++)
        if (cards[i] >= HAND_BYTES) {
            PyErr_SetString(PyExc_ValueError, "a card code out of range");
            return NULL;
        }
    for (Py_ssize_t i = 0; i < n_gave; i += 2)
        if (gave[i] >= n_seats) {
            PyErr_SetString(PyExc_ValueError, "a card given to no seat");
            return NULL;
        }
    double fewest = -1;
    for (int t = 0; t < (tries > 1 ? tries : 1); t++) {
        uint8_t pool[MAX_POOL];
        int n_pool = (int)n_cards, need[MAXP];
        memcpy(pool, cards, n_cards);
        for (int i = n_pool - 1; i > 0; i--) { /* random.Random.shuffle */
            long j;
            if (randbelow(getrandbits, i + 1, &j) < 0) return NULL;
            uint8_t a = pool[i];
            pool[i] = pool[j];
            pool[j] = a;
        }
        memset(hands, 0, sizeof hands);
        for (int s = 0; s < n_seats; s++) need[s] = need_in[s];
        for (Py_ssize_t g = 0; g < n_gave; g += 2) {
            int seat = gave[g], card = gave[g + 1];
            if (!need[seat]) continue;
            for (int i = 0; i < n_pool; i++)
                if (pool[i] == card) { /* list.remove: the first copy */
                    memmove(pool + i, pool + i + 1, (size_t)(n_pool - i - 1));
                    n_pool--;
                    hands[seat][card]++;
                    need[seat]--;
                    break;
                }
        }
        if (any_banned) {
            if (deal_around(getrandbits, pool, n_pool, need, (int)n_seats, banned, hands) < 0)
                return NULL;
        } else {
            int at = 0;
            for (int s = 0; s < n_seats; s++)
                for (; need[s] > 0 && at < n_pool; need[s]--) hands[s][pool[at++]]++;
        }
        uint32_t held[MAXP][FACES];
        for (int s = 0; s < n_seats; s++) chunks_of(hands[s], held[s]);
        double broken = violations(constraints, size, held, (int)n_seats);
        if (broken < 0) return NULL;
        if (fewest < 0 || broken < fewest) {
            memcpy(best, hands, sizeof hands);
            fewest = broken;
            if (!broken) break;
        }
    }
    PyObject *out = PyList_New(n_seats);
    if (!out) return NULL;
    for (int s = 0; s < n_seats; s++) {
        PyObject *hand = PyBytes_FromStringAndSize((const char *)best[s], HAND_BYTES);
        if (!hand) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, s, hand);
    }
    return out;
}

/* unpack(rules, move) -> (kind, face, count, wilds, reverses, 68-byte mask of the cards) */
static PyObject *k_unpack(PyObject *self, PyObject *args) {
    PyObject *capsule;
    unsigned long long m;
    if (!PyArg_ParseTuple(args, "OK", &capsule, &m)) return NULL;
    const Rules *r = get_rules(capsule);
    if (!r) return NULL;
    uint32_t hand[FACES] = {0};
    int kind = KIND(m);
    if (kind >= K_GROUP) { /* the cards taken, as a hand that loses them from all-255 */
        for (int f = 0; f < FACES; f++) hand[f] = 0xFFFFFFFFu;
        take_cards(r, hand, m);
        for (int f = 0; f < FACES; f++) hand[f] = 0xFFFFFFFFu - hand[f];
    }
    uint8_t data[HAND_BYTES];
    for (int f = 0; f < FACES; f++)
        for (int b = 0; b < 4; b++) data[4 * f + b] = (uint8_t)(hand[f] >> (8 * b));
    return Py_BuildValue("(iiiiiy#)", kind, kind == K_MIX ? -1 : FACE(m), COUNT(m), WILDS(m),
                         REVERSES(m), (const char *)data, (Py_ssize_t)HAND_BYTES);
}

/* pack(rules, kind, face, count, wilds, reverses, mask) -> move: an engine play as a move */
static PyObject *k_pack(PyObject *self, PyObject *args) {
    PyObject *capsule;
    int kind, face, count, wilds, reverses;
    const char *mask;
    Py_ssize_t n_mask;
    if (!PyArg_ParseTuple(args, "Oiiiiiy#", &capsule, &kind, &face, &count, &wilds, &reverses,
                          &mask, &n_mask))
        return NULL;
    const Rules *r = get_rules(capsule);
    if (!r) return NULL;
    if (n_mask != HAND_BYTES || kind < K_PASS || kind > K_LONE || count > 31 || wilds > 15
        || reverses > 15) {
        PyErr_SetString(PyExc_ValueError, "a move the kernel cannot encode");
        return NULL;
    }
    if (kind < K_GROUP) return PyLong_FromLong(kind);
    uint32_t chunk[FACES];
    for (int f = 0; f < FACES; f++)
        chunk[f] = (uint32_t)(uint8_t)mask[4 * f] | (uint32_t)(uint8_t)mask[4 * f + 1] << 8
                   | (uint32_t)(uint8_t)mask[4 * f + 2] << 16 | (uint32_t)(uint8_t)mask[4 * f + 3] << 24;
    if (kind != K_MIX)
        return PyLong_FromUnsignedLongLong(move_code(kind, face, count, wilds, reverses, chunk[face]));
    uint64_t slots = 0;
    int at = 0;
    for (int f = 0; f < FACES; f++) {
        if (!chunk[f]) continue;
        uint64_t slot = (uint64_t)f;
        for (int su = 0; su < 4; su++) {
            uint32_t c = (chunk[f] >> (8 * su)) & 0xFF;
            if (c > 3 || at == 3) {
                PyErr_SetString(PyExc_ValueError, "a mixed play the kernel cannot encode");
                return NULL;
            }
            slot |= (uint64_t)c << (5 + 2 * su);
        }
        slots |= slot << (13 * at++);
    }
    return PyLong_FromUnsignedLongLong(move_code(K_MIX, MIX_FACE, count, 0, 0, slots));
}

static PyMethodDef methods[] = {
    {"rules", k_rules, METH_VARARGS, "compile a ruleset for the kernel"},
    {"state", k_state, METH_VARARGS, "a kernel state from a position"},
    {"with_hands", k_with_hands, METH_VARARGS, "a state with other hands"},
    {"view", k_view, METH_VARARGS, "a kernel state's fields"},
    {"legal", k_legal, METH_VARARGS, "the legal moves, in the engine's order"},
    {"apply", k_apply, METH_VARARGS, "the state after a move"},
    {"choose", k_choose, METH_VARARGS, "the heuristic policy's move"},
    {"playout", k_playout, METH_VARARGS, "apply a move, play out, score a seat's finish"},
    {"playouts", k_playouts, METH_VARARGS, "play a state out for each (seat, style)"},
    {"features", k_features, METH_VARARGS, "the learned policy's features of the legal moves"},
    {"reinforce", k_reinforce, METH_VARARGS, "a learned playout and its policy gradient"},
    {"logit", k_logit, METH_VARARGS, "the learned policy's fit: likelihood and its slopes"},
    {"position", k_position, METH_VARARGS, "a past choice of the seat to move"},
    {"broken", k_broken, METH_VARARGS, "how many past choices a hidden hand breaks"},
    {"walk", k_walk, METH_VARARGS, "Worlds.walk: swaps that keep to the history"},
    {"shuffle", k_shuffle, METH_VARARGS, "random.Random.shuffle through its getrandbits"},
    {"deal", k_deal, METH_VARARGS, "montecarlo's dealer: a world by the constraints"},
    {"constraint", k_constraint, METH_VARARGS, "an inference constraint"},
    {"violations", k_violations, METH_VARARGS, "how many constraints a world breaks"},
    {"solve", k_solve, METH_VARARGS, "the exact endgame of two players left"},
    {"unpack", k_unpack, METH_VARARGS, "a move's fields and cards"},
    {"pack", k_pack, METH_VARARGS, "a move from an engine play's fields"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_kernel", NULL, -1, methods};

PyMODINIT_FUNC PyInit__kernel(void) {
    PyObject *m = PyModule_Create(&module);
    if (m && (PyModule_AddIntConstant(m, "STATE_BYTES", (long)sizeof(State)) < 0
              || PyModule_AddIntConstant(m, "MAX_PLAYERS", MAXP) < 0
              || PyModule_AddIntConstant(m, "HAND_BYTES", HAND_BYTES) < 0
              || PyModule_AddIntConstant(m, "N_FEATURES", N_FEATURES) < 0
              || PyModule_AddStringConstant(m, "ENGINE_DIGEST", ENGINE_DIGEST) < 0)) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
