/*
 * cardtables.h: the C ABI of cardtables-ffi, O(1) answers from every runtime table that
 * `pipeline` writes: niuniu.bin, niuniu_bidding.bin, zhajinhua.bin, holdem.bin,
 * holdem_headsup.bin, holdem_threeway.bin, pushfold.bin, pushfold3.bin, stud.bin, blackjack.bin,
 * blackjack_indices.bin.
 *
 * Link with libcardtables_ffi (static: libcardtables_ffi.a plus -lpthread -ldl -lm on
 * Linux; shared: libcardtables_ffi.so / .dylib / .dll). A test in the crate checks that
 * this header declares exactly the functions, structs and status codes the library
 * exports, with the same types.
 *
 * Conventions:
 * - Each table is an opaque handle made by ct_<table>_open (a path) or
 *   ct_<table>_from_bytes (a buffer, copied) and released by ct_<table>_free (NULL is
 *   allowed). A handle is immutable: any number of threads may query it at once.
 * - Every fallible function returns a ct_status (CT_OK = 0) and writes its results
 *   through out-pointers, which are left untouched on failure (the *_many calls, which
 *   answer many hands at once, write the answers before the first bad hand). ct_last_error() is the
 *   message of the last call that failed on the calling thread (owned by the library,
 *   valid until the next failing call on that thread).
 * - Pointers are checked for NULL and lengths and indices bound-checked: a bad argument
 *   is an error code, never a crash. A corrupt, truncated, wrong-game or wrong-version
 *   table file is refused at open. No panic crosses the boundary (CT_PANIC).
 * - Cards are text ("As Kh Td": ranks 23456789TJQKA or 10, suits shdc or the suit
 *   symbols) or card ids: id = 4 * rank + suit, rank 0 = 2 ... 12 = A, suit 0..3 =
 *   diamonds, clubs, hearts, spades.
 * - Strings and arrays the library returns (category names, rule set ids, grids) live as
 *   long as their handle; ct_version and ct_blackjack_action_name return static strings.
 */
#ifndef CARDTABLES_H
#define CARDTABLES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int32_t ct_status;

#define CT_OK 0
/* A required pointer was NULL, a length out of range or a string not UTF-8. */
#define CT_INVALID_ARGUMENT 1
/* The table file could not be read or is not a valid table of this game and version. */
#define CT_TABLE_ERROR 2
/* Card text or ids that are not the cards the question needs. */
#define CT_CARD_ERROR 3
/* A question the table does not cover (opponent count, rule set, class, ...). */
#define CT_QUERY_ERROR 4
/* An internal error: a panic was caught at the boundary. */
#define CT_PANIC 5

const char *ct_last_error(void);
const char *ct_version(void);

/* ---- Niuniu (niuniu.bin, job kind niuniu.hands) ---------------------------------- */

typedef struct ct_niuniu ct_niuniu;

typedef struct ct_niuniu_hand {
    uint32_t index;          /* colex index among the 2,598,960 hands */
    const char *category;    /* e.g. "bull_9"; lives as long as the handle */
    uint8_t category_rank;   /* 0 = weakest */
    uint8_t tie_break;       /* card id of the tie-break card */
    uint16_t strength;       /* the larger hand wins */
    uint32_t multiplier;     /* payout multiplier of the category */
    uint32_t wins;           /* opponent hands beaten, of 1,533,939 */
    double win_probability;  /* exact, against one opponent */
    double banker_ev;        /* exact EV per stake as banker against one player */
} ct_niuniu_hand;

ct_status ct_niuniu_open(const char *path, ct_niuniu **out);
ct_status ct_niuniu_from_bytes(const uint8_t *bytes, size_t len, ct_niuniu **out);
void ct_niuniu_free(ct_niuniu *handle);
ct_status ct_niuniu_lookup(const ct_niuniu *table, const char *cards, ct_niuniu_hand *out);
ct_status ct_niuniu_lookup_ids(const ct_niuniu *table, const uint8_t *ids, size_t count, ct_niuniu_hand *out);
/* Many hands in one call: ids holds 5 * hands ids, out hands answers. On failure the
   message names the first bad hand and the answers before it are written. */
ct_status ct_niuniu_lookup_ids_many(const ct_niuniu *table, const uint8_t *ids, size_t hands, ct_niuniu_hand *out);
ct_status ct_niuniu_category_count(const ct_niuniu *table, size_t *out);
/* name and multiplier may each be NULL when not wanted. */
ct_status ct_niuniu_category(const ct_niuniu *table, size_t rank, const char **name, uint32_t *multiplier);

/* ---- Zhajinhua (zhajinhua.bin, job kind zhajinhua.hands) ------------------------- */

typedef struct ct_zhajinhua ct_zhajinhua;

typedef struct ct_zhajinhua_hand {
    uint32_t index;          /* colex index among the 22,100 hands */
    const char *category;    /* e.g. "pair"; lives as long as the handle */
    uint8_t category_rank;   /* 0 = weakest */
    uint16_t strength;       /* larger wins (but see ct_zhajinhua_compare: 2-3-5) */
    uint32_t opponents;
    double win;              /* beats every opponent */
    double tie;              /* ties for best */
    double loss;             /* 1 - win - tie */
    double equity;           /* share of the pot */
    double std_error;        /* 0 where exact, else the Monte Carlo error */
} ct_zhajinhua_hand;

ct_status ct_zhajinhua_open(const char *path, ct_zhajinhua **out);
ct_status ct_zhajinhua_from_bytes(const uint8_t *bytes, size_t len, ct_zhajinhua **out);
void ct_zhajinhua_free(ct_zhajinhua *handle);
ct_status ct_zhajinhua_max_opponents(const ct_zhajinhua *table, uint32_t *out);
ct_status ct_zhajinhua_win_rate(const ct_zhajinhua *table, const char *cards, uint32_t opponents, ct_zhajinhua_hand *out);
ct_status ct_zhajinhua_win_rate_ids(const ct_zhajinhua *table, const uint8_t *ids, size_t count, uint32_t opponents, ct_zhajinhua_hand *out);
/* Many hands in one call: ids holds 3 * hands ids, out hands answers (as above). */
ct_status ct_zhajinhua_win_rate_ids_many(const ct_zhajinhua *table, const uint8_t *ids, size_t hands, uint32_t opponents, ct_zhajinhua_hand *out);
/* *out: 1 when a wins, -1 when b wins, 0 for a tie. */
ct_status ct_zhajinhua_compare(const ct_zhajinhua *table, const char *a, const char *b, int32_t *out);
/* Exact equity against 1 or 2 opponents holding the strongest share (0 < share <= 1) of hands,
   the marginal strength level in part. */
ct_status ct_zhajinhua_range_equity(const ct_zhajinhua *table, const char *cards, uint32_t opponents, double share, double *out);

/* ---- Hold'em preflop (holdem.bin, job kinds holdem.preflop and holdem.multiway) --- */

typedef struct ct_holdem ct_holdem;

typedef struct ct_holdem_equity {
    uint32_t class_index;    /* pairs AA..22 (0-12), then suited AK..32, then offsuit */
    uint32_t opponents;
    double win;
    double tie;
    double equity;
    double std_error;        /* 0 where exact, else the Monte Carlo error */
} ct_holdem_equity;

ct_status ct_holdem_open(const char *path, ct_holdem **out);
ct_status ct_holdem_from_bytes(const uint8_t *bytes, size_t len, ct_holdem **out);
void ct_holdem_free(ct_holdem *handle);
ct_status ct_holdem_max_opponents(const ct_holdem *table, uint32_t *out);
/* hand: a class ("AKs", "QQ", "T9o") or two cards ("As Kd"). */
ct_status ct_holdem_preflop(const ct_holdem *table, const char *hand, uint32_t opponents, ct_holdem_equity *out);
ct_status ct_holdem_preflop_ids(const ct_holdem *table, uint8_t a, uint8_t b, uint32_t opponents, ct_holdem_equity *out);
/* The class index of a class or two cards; no table needed. */
ct_status ct_holdem_class_index(const char *hand, uint32_t *out);

/* ---- Hold'em state indexer (no table file) ------------------------------------- */
/* The canonical index of hole cards and a board up to suit permutation: 169 preflop,
 * 1,286,792 flop, 13,960,050 turn and 123,156,254 river states (the board a set). */

typedef struct ct_holdem_indexer ct_holdem_indexer;

ct_status ct_holdem_indexer_new(ct_holdem_indexer **out);
void ct_holdem_indexer_free(ct_holdem_indexer *handle);
/* hole: two cards ("As Kd"); board: 0, 3, 4 or 5 cards ("" for none). */
ct_status ct_holdem_index(const ct_holdem_indexer *indexer, const char *hole, const char *board, uint64_t *out);
/* street: 0 preflop .. 3 river; writes 2 hole ids to hole[0..2], *board_len (0, 3, 4 or 5)
 * board ids to board[0..5]. */
ct_status ct_holdem_unindex(const ct_holdem_indexer *indexer, uint32_t street, uint64_t index, uint8_t *hole, uint8_t *board, size_t *board_len);

/* ---- Hold'em strength (strength_<street>.bin, job kind holdem.postflop) ---------- */
/* Any hole cards on any board of the table's street against one random hand: E[HS],
 * E[HS^2] and the river-HS histogram over the runouts (HS itself on the river). */

typedef struct ct_holdem_strength ct_holdem_strength;

typedef struct ct_hand_strength {
    uint32_t street;         /* 0 preflop, 1 flop, 2 turn, 3 river */
    uint64_t index;          /* the state's canonical index on its street */
    uint64_t runouts;        /* runouts averaged over (1 on the river) */
    double ehs;              /* E[HS] (HS on the river) */
    double ehs2;             /* E[HS^2] */
    uint64_t score_sum;      /* sum of 2 wins + ties over the runouts */
    uint64_t score_sq_sum;
    uint32_t wins;           /* river only (0 before): of the 990 opponent holdings */
    uint32_t ties;
    uint32_t losses;
} ct_hand_strength;

ct_status ct_holdem_strength_open(const char *path, ct_holdem_strength **out);
ct_status ct_holdem_strength_from_bytes(const uint8_t *bytes, size_t len, ct_holdem_strength **out);
void ct_holdem_strength_free(ct_holdem_strength *handle);
/* The street (0..3) and the histogram's bins (0 on the river). */
ct_status ct_holdem_strength_street(const ct_holdem_strength *table, uint32_t *street, uint32_t *bins);
/* hole: two cards ("Ah Kh"); board: as many cards as the table's street ("" preflop). */
ct_status ct_holdem_strength_lookup(const ct_holdem_strength *table, const char *hole, const char *board, ct_hand_strength *out);
/* Runouts per HS bin, lowest first, into counts[0..bins]. */
ct_status ct_holdem_strength_histogram(const ct_holdem_strength *table, const char *hole, const char *board, uint64_t *counts, size_t bins);

/* ---- Hold'em heads-up (holdem_headsup.bin, job kind holdem.headsup) -------------- */

typedef struct ct_holdem_headsup ct_holdem_headsup;

typedef struct ct_headsup_result {
    uint32_t wins;           /* boards the first hand wins */
    uint32_t ties;
    uint32_t losses;
    uint32_t boards;         /* C(48, 5) */
    double equity;           /* wins plus half the ties, over all boards */
} ct_headsup_result;

ct_status ct_holdem_headsup_open(const char *path, ct_holdem_headsup **out);
ct_status ct_holdem_headsup_from_bytes(const uint8_t *bytes, size_t len, ct_holdem_headsup **out);
void ct_holdem_headsup_free(ct_holdem_headsup *handle);
/* a, b: two cards each ("As Ks", "Qd Qc"). */
ct_status ct_holdem_headsup_cards(const ct_holdem_headsup *table, const char *a, const char *b, ct_headsup_result *out);
ct_status ct_holdem_headsup_cards_ids(const ct_holdem_headsup *table, uint8_t a1, uint8_t a2, uint8_t b1, uint8_t b2, ct_headsup_result *out);
/* Class against class (ct_holdem_class_index), averaged over combos sharing no card. */
ct_status ct_holdem_headsup_classes(const ct_holdem_headsup *table, uint32_t a, uint32_t b, double *out);

typedef struct ct_range_equity {
    double equity;           /* the first range's equity: wins plus half the ties */
    double win;              /* its share of boards won outright */
    double tie;              /* its share of boards tied */
    uint64_t matchups;       /* pairs of holdings that share no card */
} ct_range_equity;

/* a, b: ranges in the range notation ("QQ+, AKs", "A5s-A2s", "AhKh:0.5", "random"). */
ct_status ct_holdem_headsup_range_equity(const ct_holdem_headsup *table, const char *a, const char *b, ct_range_equity *out);

/* ---- Hold'em three-way (holdem_threeway.bin, job kind holdem.threeway) ---------- */

typedef struct ct_holdem_threeway ct_holdem_threeway;

typedef struct ct_threeway_result {
    double equity_a;         /* each class's equity, in the order asked */
    double equity_b;
    double equity_c;
    uint32_t combos;         /* deals of the three classes' holdings sharing no card */
} ct_threeway_result;

ct_status ct_holdem_threeway_open(const char *path, ct_holdem_threeway **out);
ct_status ct_holdem_threeway_from_bytes(const uint8_t *bytes, size_t len, ct_holdem_threeway **out);
void ct_holdem_threeway_free(ct_holdem_threeway *handle);
/* Classes (ct_holdem_class_index) in any order; CT_QUERY_ERROR for a class the table
 * does not cover or a triple no deal allows (AA AA AA). */
ct_status ct_holdem_threeway_classes(const ct_holdem_threeway *table, uint32_t a, uint32_t b, uint32_t c, ct_threeway_result *out);

/* ---- Hold'em push/fold (pushfold.bin, job kind holdem.pushfold) ------------------ */

typedef struct ct_pushfold ct_pushfold;

typedef struct ct_pushfold_play {
    double stack;            /* the grid stack answered (nearest at or below), big blinds */
    double frequency;        /* how often the class pushes (SB) or calls a push (BB) */
    double ev;               /* EV of pushing (SB) or calling (BB), big blinds */
    double ev_fold;          /* EV of folding, big blinds */
} ct_pushfold_play;

ct_status ct_pushfold_open(const char *path, ct_pushfold **out);
ct_status ct_pushfold_from_bytes(const uint8_t *bytes, size_t len, ct_pushfold **out);
void ct_pushfold_free(ct_pushfold *handle);
/* hand: a class ("K9o") or two cards ("Ah 7c"); stack in big blinds. */
ct_status ct_pushfold_push(const ct_pushfold *table, const char *hand, double stack, ct_pushfold_play *out);
ct_status ct_pushfold_call(const ct_pushfold *table, const char *hand, double stack, ct_pushfold_play *out);
/* The small blind's equilibrium value and the strategies' exploitability; either may be NULL. */
ct_status ct_pushfold_value(const ct_pushfold *table, double stack, double *value, double *exploitability);
/* The ante and the grid's stacks (*count values); any output may be NULL. */
ct_status ct_pushfold_grid(const ct_pushfold *table, double *ante, const double **stacks, size_t *count);

/* ---- Hold'em three-handed push/fold (pushfold3.bin, job kind holdem.pushfold3) -- */

typedef struct ct_pushfold3 ct_pushfold3;

typedef struct ct_pushfold3_play {
    uint32_t decision;       /* 0 btn_push, 1 sb_push, 2 sb_call, 3 bb_call_sb, 4 bb_call_btn, 5 bb_call_both */
    double stacks[3];        /* the spot's stacks, BTN, SB, BB, big blinds */
    uint8_t icm;             /* 1: an ICM spot (EVs in shares of the prize pool); 0: chip EV (big blinds) */
    double frequency;        /* how often the class pushes or calls */
    double ev;               /* EV of acting; NaN where no deal reaches the decision */
    double ev_fold;          /* EV of folding; NaN likewise */
    double p_faced;          /* the chance a seat dealt the class faces the decision */
} ct_pushfold3_play;

ct_status ct_pushfold3_open(const char *path, ct_pushfold3 **out);
ct_status ct_pushfold3_from_bytes(const uint8_t *bytes, size_t len, ct_pushfold3 **out);
void ct_pushfold3_free(ct_pushfold3 *handle);
/* stacks: 3 doubles, BTN then SB then BB; equal stacks are answered at the grid stack at
 * or below them, unequal ones must be one of the table's spots. payouts: NULL for chip EV,
 * else the table's ICM payouts, 1 to 3 of them. */
ct_status ct_pushfold3_spot(const ct_pushfold3 *table, const double *stacks, const double *payouts, size_t payout_count, size_t *spot);
/* hand: a class ("AKo") or two cards ("Ah Kd"); decision 0 to 5 as in ct_pushfold3_play. */
ct_status ct_pushfold3_hand(const ct_pushfold3 *table, size_t spot, uint32_t decision, const char *hand, ct_pushfold3_play *out);
/* The spot's exploitability in its unit and in big blinds; either may be NULL. */
ct_status ct_pushfold3_exploitability(const ct_pushfold3 *table, size_t spot, double *exploitability, double *exploitability_bb);

/* ---- Five-card stud (stud.bin, job kind stud.tables) ------------------------------ */

typedef struct ct_stud ct_stud;

typedef struct ct_stud_result {
    uint64_t wins;
    uint64_t ties;
    uint64_t losses;
    uint64_t deals;
    double equity;           /* wins plus half the ties, over all deals */
} ct_stud_result;

ct_status ct_stud_open(const char *path, ct_stud **out);
ct_status ct_stud_from_bytes(const uint8_t *bytes, size_t len, ct_stud **out);
void ct_stud_free(ct_stud *handle);
/* The deck sizes covered (*count values, e.g. 52, 32, 28). */
ct_status ct_stud_decks(const ct_stud *table, const uint8_t **decks, size_t *count);
/* a, b: two cards each; deck: one of ct_stud_decks. */
ct_status ct_stud_starting_hands(const ct_stud *table, uint8_t deck, const char *a, const char *b, ct_stud_result *out);
ct_status ct_stud_starting_hands_ids(const ct_stud *table, uint8_t deck, uint8_t a1, uint8_t a2, uint8_t b1, uint8_t b2, ct_stud_result *out);

/* ---- Niuniu bidding (niuniu_bidding.bin, job kind niuniu.bidding) ---------------- */

typedef struct ct_niuniu_bidding ct_niuniu_bidding;

typedef struct ct_niuniu_bidding_answer {
    uint32_t index;          /* colex index of the four cards */
    uint16_t rank_class;     /* the rank-multiset class the bidding model plays */
    double player_ev;        /* exact, per stake at x1 against a banker */
    double banker_ev;        /* exact, per stake as banker at x1 against one player */
    double banker_ev_table;  /* exact, as banker at x1 against the whole table */
    uint32_t bid;            /* the bid the equilibrium makes most often, or 0 for no bid */
    const uint8_t *fifth_cards; /* fifth cards (of 48) giving each category, weakest first */
    size_t categories;
    const double *bid_evs;   /* exact EV of each bid level (0 = no bid, then each bid) vs the equilibrium */
    const double *bid_shares; /* the share of the time the equilibrium bids each level */
    size_t bid_levels;
} ct_niuniu_bidding_answer;

ct_status ct_niuniu_bidding_open(const char *path, ct_niuniu_bidding **out);
ct_status ct_niuniu_bidding_from_bytes(const uint8_t *bytes, size_t len, ct_niuniu_bidding **out);
void ct_niuniu_bidding_free(ct_niuniu_bidding *handle);
ct_status ct_niuniu_bidding_lookup(const ct_niuniu_bidding *table, const char *cards, ct_niuniu_bidding_answer *out);
ct_status ct_niuniu_bidding_lookup_ids(const ct_niuniu_bidding *table, const uint8_t *ids, size_t count, ct_niuniu_bidding_answer *out);
/* name and multiplier may each be NULL when not wanted. */
ct_status ct_niuniu_bidding_category(const ct_niuniu_bidding *table, size_t rank, const char **name, uint32_t *multiplier);
/* The players the banker faces and the bids a player may make; any output may be NULL. */
ct_status ct_niuniu_bidding_game(const ct_niuniu_bidding *table, uint32_t *players, const uint32_t **bids, size_t *count);

/* ---- Blackjack (blackjack.bin, job kind blackjack.strategy) ---------------------- */

typedef struct ct_blackjack ct_blackjack;

/* Actions: 0 stand, 1 hit, 2 double, 3 split, 4 surrender. */
typedef struct ct_blackjack_advice {
    uint32_t action;         /* the best action */
    double ev;               /* its exact EV (two-card hands); NaN for longer hands */
    double evs[5];           /* every action's EV, NaN where not allowed or not tabled */
} ct_blackjack_advice;

ct_status ct_blackjack_open(const char *path, ct_blackjack **out);
ct_status ct_blackjack_from_bytes(const uint8_t *bytes, size_t len, ct_blackjack **out);
void ct_blackjack_free(ct_blackjack *handle);
ct_status ct_blackjack_rule_set_count(const ct_blackjack *table, size_t *out);
ct_status ct_blackjack_rule_set_id(const ct_blackjack *table, size_t index, const char **out);
ct_status ct_blackjack_rule_set(const ct_blackjack *table, const char *id, size_t *out);
/* hand: "8 8", "As 7d", "T 2 4"; upcard: "T". */
ct_status ct_blackjack_best_action(const ct_blackjack *table, size_t rule_set, const char *hand, const char *upcard, ct_blackjack_advice *out);
/* ranks: a card id divided by 4 (0 = 2 ... 8 = T, 9 = J, 10 = Q, 11 = K, 12 = A). */
ct_status ct_blackjack_best_action_ranks(const ct_blackjack *table, size_t rule_set, const uint8_t *ranks, size_t count, uint8_t upcard, ct_blackjack_advice *out);
/* "stand", "hit", "double", "split", "surrender", or NULL for another number. */
const char *ct_blackjack_action_name(uint32_t action);

/* ---- Blackjack count indices (blackjack_indices.bin, job kind blackjack.indices) -- */

typedef struct ct_blackjack_indices ct_blackjack_indices;

typedef struct ct_count_advice {
    uint32_t action;         /* what to do (actions as for ct_blackjack_advice) */
    uint32_t chart;          /* what the basic strategy chart does */
    uint8_t has_index;       /* 1 when an index play changed the chart's action */
    uint8_t below;           /* 1: the play applies at or below index; 0: at or above */
    int32_t index;           /* the count at which the play changes */
    double gain_per_100;     /* EV the index play adds per 100 rounds (NaN without one) */
} ct_count_advice;

ct_status ct_blackjack_indices_open(const char *path, ct_blackjack_indices **out);
ct_status ct_blackjack_indices_from_bytes(const uint8_t *bytes, size_t len, ct_blackjack_indices **out);
void ct_blackjack_indices_free(ct_blackjack_indices *handle);
ct_status ct_blackjack_indices_rule_set(const ct_blackjack_indices *table, const char *id, size_t *out);
ct_status ct_blackjack_indices_rule_set_count(const ct_blackjack_indices *table, size_t *out);
ct_status ct_blackjack_indices_rule_set_id(const ct_blackjack_indices *table, size_t index, const char **out);
/* count: the table's count (true count, or KO's running count), at the round's start. */
ct_status ct_blackjack_indices_best_action(const ct_blackjack_indices *table, size_t rule_set, const char *hand, const char *upcard, int32_t count, ct_count_advice *out);
ct_status ct_blackjack_indices_best_action_ranks(const ct_blackjack_indices *table, size_t rule_set, const uint8_t *ranks, size_t len, uint8_t upcard, int32_t count, ct_count_advice *out);
/* *out: 1 to take insurance at this count, else 0. */
ct_status ct_blackjack_indices_insure(const ct_blackjack_indices *table, size_t rule_set, int32_t count, uint8_t *out);

#ifdef __cplusplus
}
#endif

#endif /* CARDTABLES_H */
