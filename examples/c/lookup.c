/*
 * lookup.c: the cardtables C ABI from C. Opens four tables the pipeline wrote, asks each
 * one question by card text and the same question by card ids, shows what an error looks
 * like, and prints every answer as one "key value" line.
 *
 * Build (from the repository root, after `cargo build --release -p cardtables-ffi`):
 *   cc -std=c99 -Wall -Wextra -Werror -Iffi/include examples/c/lookup.c \
 *      target/release/libcardtables_ffi.a -lpthread -ldl -lm -o lookup
 * Run:
 *   ./lookup tables/niuniu/niuniu.bin tables/zhajinhua/zhajinhua.bin \
 *            tables/holdem_preflop/holdem.bin tables/blackjack_6d_s17/blackjack.bin
 */
#include <stdio.h>
#include <string.h>

#include "cardtables.h"

/* Reports a failed call with the library's message and leaves main with 1. */
#define CHECK(call)                                                                  \
    do {                                                                             \
        ct_status status_ = (call);                                                  \
        if (status_ != CT_OK) {                                                      \
            fprintf(stderr, "%s failed (status %d): %s\n", #call, (int)status_,      \
                    ct_last_error());                                                \
            return 1;                                                                \
        }                                                                            \
    } while (0)

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: %s NIUNIU.bin ZHAJINHUA.bin HOLDEM.bin BLACKJACK.bin\n", argv[0]);
        return 2;
    }
    printf("version %s\n", ct_version());

    /* Niuniu: Ks Qs Qh Jd Tc, by text and by card ids (id = 4 * rank + suit). */
    ct_niuniu *niuniu = NULL;
    CHECK(ct_niuniu_open(argv[1], &niuniu));
    ct_niuniu_hand hand, by_ids;
    CHECK(ct_niuniu_lookup(niuniu, "Ks Qh Jd Tc Qs", &hand));
    const uint8_t ids[5] = {4 * 11 + 3, 4 * 10 + 2, 4 * 9 + 0, 4 * 8 + 1, 4 * 10 + 3};
    CHECK(ct_niuniu_lookup_ids(niuniu, ids, 5, &by_ids));
    if (by_ids.index != hand.index || by_ids.banker_ev != hand.banker_ev) {
        fprintf(stderr, "niuniu: the same hand by ids gave another answer\n");
        return 1;
    }
    printf("niuniu.index %u\n", hand.index);
    printf("niuniu.category %s\n", hand.category);
    printf("niuniu.category_rank %u\n", (unsigned)hand.category_rank);
    printf("niuniu.strength %u\n", (unsigned)hand.strength);
    printf("niuniu.wins %u\n", hand.wins);
    printf("niuniu.win_probability %.6f\n", hand.win_probability);
    printf("niuniu.banker_ev %+.6f\n", hand.banker_ev);
    /* An error: a card given twice. */
    ct_status status = ct_niuniu_lookup(niuniu, "Ks Ks Qh Jd Tc", &hand);
    printf("niuniu.duplicate_status %d\n", (int)status);
    printf("niuniu.duplicate_error %s\n", ct_last_error());
    ct_niuniu_free(niuniu);

    /* Zhajinhua: Ks Kh Qd against one opponent. */
    ct_zhajinhua *zhajinhua = NULL;
    CHECK(ct_zhajinhua_open(argv[2], &zhajinhua));
    ct_zhajinhua_hand z, z_ids;
    CHECK(ct_zhajinhua_win_rate(zhajinhua, "Ks Kh Qd", 1, &z));
    const uint8_t three[3] = {4 * 11 + 3, 4 * 11 + 2, 4 * 10 + 0};
    CHECK(ct_zhajinhua_win_rate_ids(zhajinhua, three, 3, 1, &z_ids));
    if (z_ids.index != z.index || z_ids.equity != z.equity) {
        fprintf(stderr, "zhajinhua: the same hand by ids gave another answer\n");
        return 1;
    }
    printf("zhajinhua.category %s\n", z.category);
    printf("zhajinhua.strength %u\n", (unsigned)z.strength);
    printf("zhajinhua.win %.6f\n", z.win);
    printf("zhajinhua.tie %.6f\n", z.tie);
    printf("zhajinhua.loss %.6f\n", z.loss);
    printf("zhajinhua.equity %.6f\n", z.equity);
    ct_zhajinhua_free(zhajinhua);

    /* Hold'em: AKs against one random hand, as a class and as two cards. */
    ct_holdem *holdem = NULL;
    CHECK(ct_holdem_open(argv[3], &holdem));
    ct_holdem_equity p, p_ids;
    CHECK(ct_holdem_preflop(holdem, "AKs", 1, &p));
    CHECK(ct_holdem_preflop_ids(holdem, 4 * 12 + 3, 4 * 11 + 3, 1, &p_ids));
    if (p_ids.class_index != p.class_index || p_ids.equity != p.equity) {
        fprintf(stderr, "holdem: As Ks and AKs gave different answers\n");
        return 1;
    }
    printf("holdem.win %.4f\n", p.win);
    printf("holdem.tie %.4f\n", p.tie);
    printf("holdem.equity %.4f\n", p.equity);
    ct_holdem_free(holdem);

    /* Blackjack: 8-8 against a ten under 6d-s17-das. */
    ct_blackjack *blackjack = NULL;
    CHECK(ct_blackjack_open(argv[4], &blackjack));
    size_t rule_set = 0;
    CHECK(ct_blackjack_rule_set(blackjack, "6d-s17-das", &rule_set));
    ct_blackjack_advice advice;
    CHECK(ct_blackjack_best_action(blackjack, rule_set, "8 8", "T", &advice));
    printf("blackjack.best %s\n", ct_blackjack_action_name(advice.action));
    printf("blackjack.best_ev %+.4f\n", advice.ev);
    for (uint32_t a = 0; a < 5; a++) {
        if (advice.evs[a] == advice.evs[a]) { /* not NaN: the rules allow it */
            printf("blackjack.ev.%s %+.4f\n", ct_blackjack_action_name(a), advice.evs[a]);
        }
    }
    const uint8_t ranks[3] = {8, 0, 2}; /* T 2 4: from the chart */
    CHECK(ct_blackjack_best_action_ranks(blackjack, rule_set, ranks, 3, 8, &advice));
    printf("blackjack.t24_vs_t %s\n", ct_blackjack_action_name(advice.action));
    ct_blackjack_free(blackjack);
    return 0;
}
