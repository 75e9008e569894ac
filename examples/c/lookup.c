/*
 * lookup.c: the cardtables C ABI from C. Opens each table named on the command line
 * (GAME=PATH), asks it a question by card text and, where the ABI has one, the same
 * question by card ids, shows what an error looks like, and prints every answer as one
 * "key value" line.
 *
 * Build (from the repository root, after `cargo build --release -p cardtables-ffi`):
 *   cc -std=c99 -Wall -Wextra -Werror -Iffi/include examples/c/lookup.c \
 *      target/release/libcardtables_ffi.a -lpthread -ldl -lm -o lookup
 * Run, with any of the ten tables:
 *   ./lookup niuniu=tables/niuniu/niuniu.bin zhajinhua=tables/zhajinhua/zhajinhua.bin \
 *            holdem=tables/holdem_preflop/holdem.bin blackjack=tables/blackjack/blackjack.bin \
 *            headsup=... pushfold=... stud=... bidding=... indices=... threeway=... \
 *            flop=tables/holdem_postflop/strength_flop.bin
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

static int niuniu(const char *path) {
    ct_niuniu *niuniu = NULL;
    CHECK(ct_niuniu_open(path, &niuniu));
    ct_niuniu_hand hand, by_ids;
    CHECK(ct_niuniu_lookup(niuniu, "Ks Qh Jd Tc Qs", &hand));
    /* The same hand by card ids (id = 4 * rank + suit), in another order. */
    const uint8_t ids[5] = {4 * 11 + 3, 4 * 10 + 2, 4 * 9 + 0, 4 * 8 + 1, 4 * 10 + 3};
    CHECK(ct_niuniu_lookup_ids(niuniu, ids, 5, &by_ids));
    if (by_ids.index != hand.index || by_ids.banker_ev != hand.banker_ev) {
        fprintf(stderr, "niuniu: the same hand by ids gave another answer\n");
        return 1;
    }
    /* Many hands in one call: the same hand twice, its cards in two orders. */
    const uint8_t two_hands[10] = {ids[0], ids[1], ids[2], ids[3], ids[4],
                                   ids[4], ids[3], ids[2], ids[1], ids[0]};
    ct_niuniu_hand batch[2];
    CHECK(ct_niuniu_lookup_ids_many(niuniu, two_hands, 2, batch));
    if (batch[0].index != hand.index || batch[1].banker_ev != hand.banker_ev) {
        fprintf(stderr, "niuniu: the batch call gave another answer\n");
        return 1;
    }
    const uint8_t bad_second[10] = {ids[0], ids[1], ids[2], ids[3], ids[4],
                                    ids[0], ids[0], ids[2], ids[3], ids[4]};
    printf("niuniu.batch_status %d\n", (int)ct_niuniu_lookup_ids_many(niuniu, bad_second, 2, batch));
    printf("niuniu.batch_error %s\n", ct_last_error());
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
    return 0;
}

static int zhajinhua(const char *path) {
    ct_zhajinhua *zhajinhua = NULL;
    CHECK(ct_zhajinhua_open(path, &zhajinhua));
    ct_zhajinhua_hand z, z_ids;
    CHECK(ct_zhajinhua_win_rate(zhajinhua, "Ks Kh Qd", 1, &z));
    const uint8_t three[3] = {4 * 11 + 3, 4 * 11 + 2, 4 * 10 + 0};
    CHECK(ct_zhajinhua_win_rate_ids(zhajinhua, three, 3, 1, &z_ids));
    if (z_ids.index != z.index || z_ids.equity != z.equity) {
        fprintf(stderr, "zhajinhua: the same hand by ids gave another answer\n");
        return 1;
    }
    ct_zhajinhua_hand z_batch[1];
    CHECK(ct_zhajinhua_win_rate_ids_many(zhajinhua, three, 1, 1, z_batch));
    if (z_batch[0].win != z.win) {
        fprintf(stderr, "zhajinhua: the batch call gave another answer\n");
        return 1;
    }
    printf("zhajinhua.category %s\n", z.category);
    printf("zhajinhua.strength %u\n", (unsigned)z.strength);
    printf("zhajinhua.win %.6f\n", z.win);
    printf("zhajinhua.tie %.6f\n", z.tie);
    printf("zhajinhua.loss %.6f\n", z.loss);
    printf("zhajinhua.equity %.6f\n", z.equity);
    ct_zhajinhua_free(zhajinhua);
    return 0;
}

static int holdem(const char *path) {
    ct_holdem *holdem = NULL;
    CHECK(ct_holdem_open(path, &holdem));
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
    return 0;
}

static int headsup(const char *path) {
    ct_holdem_headsup *table = NULL;
    CHECK(ct_holdem_headsup_open(path, &table));
    ct_headsup_result r, r_ids;
    CHECK(ct_holdem_headsup_cards(table, "As Ks", "Qd Qc", &r));
    CHECK(ct_holdem_headsup_cards_ids(table, 4 * 10 + 1, 4 * 10 + 0, 4 * 11 + 3, 4 * 12 + 3, &r_ids));
    if (r_ids.wins != r.losses || r_ids.losses != r.wins || r_ids.ties != r.ties) {
        fprintf(stderr, "headsup: Qc Qd vs Ks As is not As Ks vs Qd Qc reversed\n");
        return 1;
    }
    printf("headsup.wins %u\n", r.wins);
    printf("headsup.ties %u\n", r.ties);
    printf("headsup.losses %u\n", r.losses);
    printf("headsup.boards %u\n", r.boards);
    printf("headsup.equity %.4f\n", r.equity);
    uint32_t aks = 0, qq = 0;
    CHECK(ct_holdem_class_index("AKs", &aks));
    CHECK(ct_holdem_class_index("QQ", &qq));
    double equity = 0;
    CHECK(ct_holdem_headsup_classes(table, aks, qq, &equity));
    printf("headsup.class_equity %.4f\n", equity);
    ct_range_equity range;
    CHECK(ct_holdem_headsup_range_equity(table, "QQ+, AKs", "random", &range));
    printf("headsup.range_equity %.4f\n", range.equity);
    ct_holdem_headsup_free(table);
    return 0;
}

static int threeway(const char *path) {
    ct_holdem_threeway *table = NULL;
    CHECK(ct_holdem_threeway_open(path, &table));
    uint32_t jts = 0, aks = 0, qq = 0;
    CHECK(ct_holdem_class_index("JTs", &jts));
    CHECK(ct_holdem_class_index("AKs", &aks));
    CHECK(ct_holdem_class_index("QQ", &qq));
    ct_threeway_result r, again;
    CHECK(ct_holdem_threeway_classes(table, jts, aks, qq, &r));
    CHECK(ct_holdem_threeway_classes(table, qq, jts, aks, &again));
    if (again.equity_a != r.equity_c || again.equity_b != r.equity_a || again.combos != r.combos) {
        fprintf(stderr, "threeway: QQ JTs AKs is not JTs AKs QQ reordered\n");
        return 1;
    }
    printf("threeway.equity_a %.4f\n", r.equity_a);
    printf("threeway.equity_b %.4f\n", r.equity_b);
    printf("threeway.equity_c %.4f\n", r.equity_c);
    printf("threeway.combos %u\n", r.combos);
    ct_holdem_threeway_free(table);
    return 0;
}

static int pushfold(const char *path) {
    ct_pushfold *table = NULL;
    CHECK(ct_pushfold_open(path, &table));
    ct_pushfold_play push, call;
    CHECK(ct_pushfold_push(table, "AKo", 8.5, &push));
    CHECK(ct_pushfold_call(table, "AKo", 8.5, &call));
    double value = 0, exploitability = 0;
    CHECK(ct_pushfold_value(table, 8.5, &value, &exploitability));
    printf("pushfold.stack %g\n", push.stack);
    printf("pushfold.push_frequency %.4f\n", push.frequency);
    printf("pushfold.push_ev %+.4f\n", push.ev);
    printf("pushfold.push_fold_ev %+.4f\n", push.ev_fold);
    printf("pushfold.call_ev %+.4f\n", call.ev);
    printf("pushfold.call_fold_ev %+.4f\n", call.ev_fold);
    printf("pushfold.value %+.4f\n", value);
    /* An error: a stack outside the grid. */
    printf("pushfold.off_grid_status %d\n", (int)ct_pushfold_push(table, "AKo", 1e6, &push));
    ct_pushfold_free(table);
    return 0;
}

static int stud(const char *path) {
    ct_stud *table = NULL;
    CHECK(ct_stud_open(path, &table));
    const uint8_t *decks = NULL;
    size_t count = 0;
    CHECK(ct_stud_decks(table, &decks, &count));
    ct_stud_result r, r_ids;
    CHECK(ct_stud_starting_hands(table, decks[0], "As Ah", "Ks Qs", &r));
    CHECK(ct_stud_starting_hands_ids(table, decks[0], 4 * 12 + 3, 4 * 12 + 2, 4 * 11 + 3, 4 * 10 + 3, &r_ids));
    if (r_ids.wins != r.wins || r_ids.deals != r.deals) {
        fprintf(stderr, "stud: the same hands by ids gave another answer\n");
        return 1;
    }
    printf("stud.deck %u\n", (unsigned)decks[0]);
    printf("stud.deals %llu\n", (unsigned long long)r.deals);
    printf("stud.win %.4f\n", (double)r.wins / (double)r.deals);
    printf("stud.tie %.4f\n", (double)r.ties / (double)r.deals);
    printf("stud.lose %.4f\n", (double)r.losses / (double)r.deals);
    ct_stud_free(table);
    return 0;
}

static int bidding(const char *path) {
    ct_niuniu_bidding *table = NULL;
    CHECK(ct_niuniu_bidding_open(path, &table));
    ct_niuniu_bidding_answer a;
    CHECK(ct_niuniu_bidding_lookup(table, "Ks Qh Jd Tc", &a));
    printf("bidding.index %u\n", a.index);
    printf("bidding.rank_class %u\n", (unsigned)a.rank_class);
    printf("bidding.player_ev %+.6f\n", a.player_ev);
    printf("bidding.banker_ev %+.6f\n", a.banker_ev);
    printf("bidding.banker_ev_table %+.6f\n", a.banker_ev_table);
    printf("bidding.bid %u\n", a.bid);
    unsigned fifth = 0;
    for (size_t c = 0; c < a.categories; c++) {
        fifth += a.fifth_cards[c];
    }
    printf("bidding.fifth_cards %u\n", fifth); /* 48 */
    ct_niuniu_bidding_free(table);
    return 0;
}

static int blackjack(const char *path) {
    ct_blackjack *blackjack = NULL;
    CHECK(ct_blackjack_open(path, &blackjack));
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

static int indices(const char *path) {
    ct_blackjack_indices *table = NULL;
    CHECK(ct_blackjack_indices_open(path, &table));
    size_t rule_set = 0;
    CHECK(ct_blackjack_indices_rule_set(table, "6d-s17-das", &rule_set));
    ct_count_advice advice;
    CHECK(ct_blackjack_indices_best_action(table, rule_set, "T 6", "T", 3, &advice));
    printf("indices.action %s\n", ct_blackjack_action_name(advice.action));
    printf("indices.chart %s\n", ct_blackjack_action_name(advice.chart));
    printf("indices.has_index %u\n", (unsigned)advice.has_index);
    printf("indices.index %+d\n", (int)advice.index);
    printf("indices.below %u\n", (unsigned)advice.below);
    uint8_t insure_low = 1, insure_high = 0;
    CHECK(ct_blackjack_indices_insure(table, rule_set, -5, &insure_low));
    CHECK(ct_blackjack_indices_insure(table, rule_set, 8, &insure_high));
    printf("indices.insure_at_-5 %u\n", (unsigned)insure_low);
    printf("indices.insure_at_+8 %u\n", (unsigned)insure_high);
    ct_blackjack_indices_free(table);
    return 0;
}

/* The state indexer: suit renamings share an index, and a state's canonical form
 * indexes back to it. */
static int indexer(void) {
    ct_holdem_indexer *ix = NULL;
    CHECK(ct_holdem_indexer_new(&ix));
    uint64_t a = 0, b = 0, back = 0;
    CHECK(ct_holdem_index(ix, "As Ks", "Qs 7h 2d", &a));
    CHECK(ct_holdem_index(ix, "Kh Ah", "2c Qh 7s", &b));
    uint8_t hole[2], board[5];
    size_t board_len = 0;
    CHECK(ct_holdem_unindex(ix, 1, a, hole, board, &board_len));
    char hole_text[8], board_text[16];
    snprintf(hole_text, sizeof hole_text, "%c%c %c%c", "23456789TJQKA"[hole[0] / 4], "dchs"[hole[0] % 4],
             "23456789TJQKA"[hole[1] / 4], "dchs"[hole[1] % 4]);
    int at = 0;
    for (size_t i = 0; i < board_len; i++) {
        at += snprintf(board_text + at, sizeof board_text - (size_t)at, "%s%c%c", i ? " " : "",
                       "23456789TJQKA"[board[i] / 4], "dchs"[board[i] % 4]);
    }
    CHECK(ct_holdem_index(ix, hole_text, board_text, &back));
    if (a != b || back != a || board_len != 3) {
        fprintf(stderr, "indexer: %llu %llu %llu\n", (unsigned long long)a, (unsigned long long)b,
                (unsigned long long)back);
        return 1;
    }
    printf("indexer.flop_index %llu (%s | %s)\n", (unsigned long long)a, hole_text, board_text);
    ct_holdem_indexer_free(ix);
    return 0;
}

/* Hand strength on a flop: E[HS], E[HS^2] and the histogram of Ah Kh on Qh Jh 2c, the
 * same state with suits renamed, and a board of the wrong street. */
static int flop(const char *path) {
    ct_holdem_strength *table = NULL;
    CHECK(ct_holdem_strength_open(path, &table));
    uint32_t street = 0, bins = 0;
    CHECK(ct_holdem_strength_street(table, &street, &bins));
    ct_hand_strength s, renamed;
    CHECK(ct_holdem_strength_lookup(table, "Ah Kh", "Qh Jh 2c", &s));
    CHECK(ct_holdem_strength_lookup(table, "Ks As", "2d Js Qs", &renamed));
    if (s.index != renamed.index || s.ehs != renamed.ehs) {
        fprintf(stderr, "flop: a renaming of suits changed the answer\n");
        return 1;
    }
    uint64_t counts[100] = {0}, total = 0;
    if (bins > 100) {
        fprintf(stderr, "flop: %u bins\n", bins);
        return 1;
    }
    CHECK(ct_holdem_strength_histogram(table, "Ah Kh", "Qh Jh 2c", counts, bins));
    for (uint32_t k = 0; k < bins; k++) {
        total += counts[k];
    }
    printf("flop.street %u\n", street);
    printf("flop.ehs %.6f\n", s.ehs);
    printf("flop.ehs2 %.6f\n", s.ehs2);
    printf("flop.runouts %llu\n", (unsigned long long)s.runouts);
    printf("flop.histogram_total %llu\n", (unsigned long long)total);
    printf("flop.turn_status %d\n", (int)ct_holdem_strength_lookup(table, "Ah Kh", "Qh Jh 2c 3d", &s));
    ct_holdem_strength_free(table);
    return 0;
}

int main(int argc, char **argv) {
    static const struct {
        const char *name;
        int (*run)(const char *path);
    } games[] = {
        {"niuniu", niuniu},   {"zhajinhua", zhajinhua}, {"holdem", holdem},
        {"headsup", headsup}, {"pushfold", pushfold},   {"stud", stud},
        {"bidding", bidding}, {"blackjack", blackjack}, {"indices", indices},
        {"flop", flop},       {"threeway", threeway},
    };
    if (argc < 2) {
        fprintf(stderr, "usage: %s GAME=TABLE.bin ... (games: niuniu zhajinhua holdem headsup "
                        "pushfold stud bidding blackjack indices flop threeway)\n", argv[0]);
        return 2;
    }
    printf("version %s\n", ct_version());
    if (indexer() != 0) {
        return 1;
    }
    for (int i = 1; i < argc; i++) {
        const char *eq = strchr(argv[i], '=');
        size_t k = 0, n = sizeof games / sizeof games[0];
        while (eq && k < n && !(strlen(games[k].name) == (size_t)(eq - argv[i]) &&
                                strncmp(games[k].name, argv[i], (size_t)(eq - argv[i])) == 0)) {
            k++;
        }
        if (!eq || k == n) {
            fprintf(stderr, "%s: expected GAME=PATH with a known game\n", argv[i]);
            return 2;
        }
        if (games[k].run(eq + 1) != 0) {
            return 1;
        }
    }
    return 0;
}
