/*
 * bench.c: times the cardtables C ABI from C itself. Opens niuniu.bin and zhajinhua.bin,
 * then looks up 1,024 hands given as unsorted card ids (the same hands as the criterion
 * benchmarks `cargo bench --bench niuniu` and `--bench zhajinhua`), one call per hand and
 * one call for all 1,024, and prints nanoseconds per lookup and per open: the best of 5
 * runs of ROUNDS passes over the hands (default 2,000), timed with CLOCK_MONOTONIC.
 *
 * It also checks that the one-call-per-hand and the one-call-for-all answers agree, and
 * exits 1 if they do not (scripts/test.sh runs it with a few rounds for that).
 *
 * Build (from the repository root, after `cargo build --release -p cardtables-ffi`):
 *   cc -O2 -std=c99 -Wall -Wextra -Werror -Iffi/include examples/c/bench.c \
 *      target/release/libcardtables_ffi.a -lpthread -ldl -lm -o bench
 * Run:
 *   ./bench tables/niuniu/niuniu.bin tables/zhajinhua/zhajinhua.bin [ROUNDS]
 */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cardtables.h"

#define HANDS 1024
#define RUNS 5

#define CHECK(call)                                                                  \
    do {                                                                             \
        ct_status status_ = (call);                                                  \
        if (status_ != CT_OK) {                                                      \
            fprintf(stderr, "%s failed (status %d): %s\n", #call, (int)status_,      \
                    ct_last_error());                                                \
            exit(1);                                                                 \
        }                                                                            \
    } while (0)

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* C(n, k) for the small n and k of a colex rank. */
static uint32_t binomial(uint32_t n, uint32_t k) {
    if (k > n) return 0;
    uint64_t r = 1;
    for (uint32_t i = 1; i <= k; i++) r = r * (n - k + i) / i;
    return (uint32_t)r;
}

/* The k card ids of colex index `index`, highest first (so the cards arrive unsorted
 * for a lookup that sorts): what the Rust benchmarks' unrank-then-reverse gives. */
static void unrank(uint32_t index, uint32_t k, uint8_t *out) {
    uint32_t n = 52;
    for (uint32_t i = k; i >= 1; i--) {
        n--;
        while (binomial(n, i) > index) n--;
        index -= binomial(n, i);
        out[k - i] = (uint8_t)n;
    }
}

/* Keeps the compiler from dropping the lookups whose answers are only summed. */
static volatile double sink;

typedef struct {
    const char *what;
    double best_ns;
} result;

static void report(result r, double per) {
    printf("%-58s %10.2f ns\n", r.what, r.best_ns / per);
}

int main(int argc, char **argv) {
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: %s NIUNIU_BIN ZHAJINHUA_BIN [ROUNDS]\n", argv[0]);
        return 2;
    }
    long rounds = argc == 4 ? strtol(argv[3], NULL, 10) : 2000;
    if (rounds < 1 || rounds > 1000000) {
        fprintf(stderr, "ROUNDS must be 1 to 1000000, not %s\n", argv[3]);
        return 2;
    }
    static uint8_t five[HANDS * 5], three[HANDS * 3];
    for (uint32_t i = 0; i < HANDS; i++) {
        unrank((uint32_t)(((uint64_t)i * 2538161u) % 2598960u), 5, &five[5 * i]);
        unrank((uint32_t)(((uint64_t)i * 2161u) % 22100u), 3, &three[3 * i]);
    }
    static ct_niuniu_hand niuniu_one[HANDS], niuniu_all[HANDS];
    static ct_zhajinhua_hand zhajinhua_one[HANDS], zhajinhua_all[HANDS];

    result open_n = {"open niuniu.bin (ct_niuniu_open)", 1e300};
    result open_z = {"open zhajinhua.bin (ct_zhajinhua_open)", 1e300};
    result one_n = {"niuniu: one ct_niuniu_lookup_ids per hand", 1e300};
    result all_n = {"niuniu: ct_niuniu_lookup_ids_many, 1,024 a call", 1e300};
    result one_z = {"zhajinhua: one ct_zhajinhua_win_rate_ids per hand", 1e300};
    result all_z = {"zhajinhua: ct_zhajinhua_win_rate_ids_many, 1,024 a call", 1e300};
    ct_niuniu *niuniu = NULL;
    ct_zhajinhua *zhajinhua = NULL;
    for (int run = 0; run < RUNS; run++) {
        double t = now_ns();
        ct_niuniu *n = NULL;
        CHECK(ct_niuniu_open(argv[1], &n));
        double dt = now_ns() - t;
        if (dt < open_n.best_ns) open_n.best_ns = dt;
        ct_niuniu_free(niuniu);
        niuniu = n;
        t = now_ns();
        ct_zhajinhua *z = NULL;
        CHECK(ct_zhajinhua_open(argv[2], &z));
        dt = now_ns() - t;
        if (dt < open_z.best_ns) open_z.best_ns = dt;
        ct_zhajinhua_free(zhajinhua);
        zhajinhua = z;
    }
    for (int run = 0; run < RUNS; run++) {
        double sum = 0, t = now_ns();
        for (long r = 0; r < rounds; r++)
            for (int i = 0; i < HANDS; i++) {
                CHECK(ct_niuniu_lookup_ids(niuniu, &five[5 * i], 5, &niuniu_one[i]));
                sum += niuniu_one[i].banker_ev;
            }
        double dt = now_ns() - t;
        if (dt < one_n.best_ns) one_n.best_ns = dt;
        t = now_ns();
        for (long r = 0; r < rounds; r++) {
            CHECK(ct_niuniu_lookup_ids_many(niuniu, five, HANDS, niuniu_all));
            for (int i = 0; i < HANDS; i++) sum += niuniu_all[i].banker_ev;
        }
        dt = now_ns() - t;
        if (dt < all_n.best_ns) all_n.best_ns = dt;
        t = now_ns();
        for (long r = 0; r < rounds; r++)
            for (int i = 0; i < HANDS; i++) {
                CHECK(ct_zhajinhua_win_rate_ids(zhajinhua, &three[3 * i], 3, 1,
                                                &zhajinhua_one[i]));
                sum += zhajinhua_one[i].equity;
            }
        dt = now_ns() - t;
        if (dt < one_z.best_ns) one_z.best_ns = dt;
        t = now_ns();
        for (long r = 0; r < rounds; r++) {
            CHECK(ct_zhajinhua_win_rate_ids_many(zhajinhua, three, HANDS, 1, zhajinhua_all));
            for (int i = 0; i < HANDS; i++) sum += zhajinhua_all[i].equity;
        }
        dt = now_ns() - t;
        if (dt < all_z.best_ns) all_z.best_ns = dt;
        sink = sum;
    }
    int mismatches = 0;
    for (int i = 0; i < HANDS; i++) {
        const ct_niuniu_hand *a = &niuniu_one[i], *b = &niuniu_all[i];
        if (a->index != b->index || a->wins != b->wins || a->banker_ev != b->banker_ev ||
            a->strength != b->strength || a->category != b->category)
            mismatches++;
        const ct_zhajinhua_hand *c = &zhajinhua_one[i], *d = &zhajinhua_all[i];
        if (c->index != d->index || c->win != d->win || c->tie != d->tie ||
            c->equity != d->equity || c->strength != d->strength)
            mismatches++;
    }
    ct_niuniu_free(niuniu);
    ct_zhajinhua_free(zhajinhua);
    if (mismatches) {
        fprintf(stderr, "%d answers differ between single and batch calls\n", mismatches);
        return 1;
    }
    printf("best of %d runs of %ld passes over %d hands; per open, per lookup:\n", RUNS,
           rounds, HANDS);
    report(open_n, 1);
    report(open_z, 1);
    double lookups = (double)rounds * HANDS;
    report(one_n, lookups);
    report(all_n, lookups);
    report(one_z, lookups);
    report(all_z, lookups);
    return 0;
}
