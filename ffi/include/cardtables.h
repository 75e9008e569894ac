/*
 * cardtables.h: the C ABI of cardtables-ffi, O(1) answers from the exact card-game
 * tables that `pipeline` writes (niuniu.bin, zhajinhua.bin, holdem.bin, blackjack.bin).
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
 *   through out-pointers, which are left untouched on failure. ct_last_error() is the
 *   message of the last call that failed on the calling thread (owned by the library,
 *   valid until the next failing call on that thread).
 * - Pointers are checked for NULL and lengths and indices bound-checked: a bad argument
 *   is an error code, never a crash. A corrupt, truncated, wrong-game or wrong-version
 *   table file is refused at open. No panic crosses the boundary (CT_PANIC).
 * - Cards are text ("As Kh Td": ranks 23456789TJQKA or 10, suits shdc or the suit
 *   symbols) or card ids: id = 4 * rank + suit, rank 0 = 2 ... 12 = A, suit 0..3 =
 *   diamonds, clubs, hearts, spades.
 * - Strings the library returns (category names, rule set ids) live as long as their
 *   handle; ct_version and ct_blackjack_action_name return static strings.
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
/* *out: 1 when a wins, -1 when b wins, 0 for a tie. */
ct_status ct_zhajinhua_compare(const ct_zhajinhua *table, const char *a, const char *b, int32_t *out);
/* Exact equity against 1 or 2 opponents holding the top top_percent % (1..100) of hands. */
ct_status ct_zhajinhua_range_equity(const ct_zhajinhua *table, const char *cards, uint32_t opponents, uint32_t top_percent, double *out);

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

#ifdef __cplusplus
}
#endif

#endif /* CARDTABLES_H */
