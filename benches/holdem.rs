//! Hold'em 7-card evaluator: sequential enumeration of all 133,784,560 hands (incremental,
//! one card per loop level) and evaluation of hands in random order, each side by side with
//! the `rs_poker` crate's evaluator on the same work (its slice ranking of seven cards for
//! both; version 4, the newest that builds on stable Rust).

use std::hint::black_box;

use cardtables::Card;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use pipeline::engine::stream;
use pipeline::games::holdem::classes::parse_class;
use pipeline::games::holdem::eval::{for_each_hand, tables, BatchPath};
use pipeline::games::holdem::sampler::{representative, sample, sample_counts};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;

fn benches(c: &mut Criterion) {
    let t = tables();
    let mut group = c.benchmark_group("holdem_eval");
    group.sample_size(10);
    group.throughput(Throughput::Elements(133_784_560));
    group.bench_function("sequential_all_7_card_hands", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for_each_hand(|s| sum += u64::from(s));
            black_box(sum)
        })
    });
    let mut rng = Pcg64::seed_from_u64(1);
    let mut ids: Vec<u8> = (0..52).collect();
    // Ten million hands, as OMPEval's own benchmark ("Random order evaluation (card
    // arrays)") uses: 70 MB, so the hands stream from memory as the peer's do.
    let hands: Vec<[Card; 7]> = (0..10_000_000)
        .map(|_| {
            for i in 0..7 {
                let j = rng.random_range(i..52);
                ids.swap(i, j);
            }
            std::array::from_fn(|i| Card::from_id(ids[i]).expect("id < 52"))
        })
        .collect();
    group.throughput(Throughput::Elements(hands.len() as u64));
    group.bench_function("random_order_10m_hands", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for h in &hands {
                sum += u64::from(t.evaluate(h));
            }
            black_box(sum)
        })
    });
    // The same hands through the batch API, a few thousand at a time into a buffer that
    // stays in the first-level cache, summed as above; the name says the path taken
    // (PIPELINE_EVAL_BATCH=avx512|avx2|scalar forces one).
    let batched = format!(
        "random_order_10m_hands_batched_{}",
        BatchPath::chosen().name()
    );
    group.bench_function(batched, |b| {
        let mut out = vec![0u16; 4096];
        b.iter(|| {
            let mut sum = 0u64;
            for chunk in hands.chunks(4096) {
                let out = &mut out[..chunk.len()];
                t.evaluate_many(chunk, out);
                sum += out.iter().map(|&s| u64::from(s)).sum::<u64>();
            }
            black_box(sum)
        })
    });
    let rs_hands: Vec<[rs_poker::core::Card; 7]> = hands
        .iter()
        .map(|h| h.map(|c| rs_poker::core::Card::from(c.suit() * 13 + c.rank())))
        .collect();
    // rs_poker's rank is an enum carrying a u32; fold both parts so nothing is skipped.
    fn fold(rank: rs_poker::core::Rank) -> u64 {
        use rs_poker::core::Rank::*;
        match rank {
            HighCard(v) | OnePair(v) | TwoPair(v) | ThreeOfAKind(v) | Straight(v) | Flush(v)
            | FullHouse(v) | FourOfAKind(v) | StraightFlush(v) => u64::from(v),
        }
    }
    group.bench_function("rs_poker_random_order_10m_hands", |b| {
        use rs_poker::core::Rankable;
        b.iter(|| {
            let mut sum = 0u64;
            for h in &rs_hands {
                sum += fold(h[..].rank());
            }
            black_box(sum)
        })
    });
    group.throughput(Throughput::Elements(133_784_560));
    group.bench_function("rs_poker_sequential_all_7_card_hands", |b| {
        use rs_poker::core::{Card as RsCard, Rankable};
        let deck: Vec<RsCard> = (0..52u8)
            .map(|id| RsCard::from((id % 4) * 13 + id / 4))
            .collect();
        b.iter(|| {
            let mut sum = 0u64;
            let mut hand = [deck[0]; 7];
            for a in 0..46 {
                hand[0] = deck[a];
                for b in a + 1..47 {
                    hand[1] = deck[b];
                    for c in b + 1..48 {
                        hand[2] = deck[c];
                        for d in c + 1..49 {
                            hand[3] = deck[d];
                            for e in d + 1..50 {
                                hand[4] = deck[e];
                                for f in e + 1..51 {
                                    hand[5] = deck[f];
                                    for &card in &deck[f + 1..] {
                                        hand[6] = card;
                                        sum += fold(hand[..].rank());
                                    }
                                }
                            }
                        }
                    }
                }
            }
            black_box(sum)
        })
    });
    group.finish();

    // Monte Carlo trials against random opponents (one deal of the board and every
    // opponent hand, evaluated), for a strong and a weak hand.
    let mut group = c.benchmark_group("holdem_multiway");
    group.sample_size(10);
    group.throughput(Throughput::Elements(1_000_000));
    for name in ["AA", "T9s", "72o"] {
        for opponents in [2usize, 3, 9] {
            let hero = representative(parse_class(name).expect("a class"));
            group.bench_function(format!("{name}_vs_{opponents}_1M_trials"), |b| {
                b.iter(|| {
                    let mut rng = stream(1, 0);
                    black_box(sample(hero, opponents, 0.0, 0, 1_000_000, &mut rng))
                })
            });
        }
    }
    // The job's way: one deal serves 3 to 9 opponents (its first n opponents for each n).
    for name in ["AA", "T9s", "72o"] {
        let hero = representative(parse_class(name).expect("a class"));
        group.bench_function(format!("{name}_vs_3_to_9_shared_1M_deals"), |b| {
            b.iter(|| {
                let mut rng = stream(1, 0);
                black_box(sample_counts(hero, 3..=9, 0.0, 0, 1_000_000, &mut rng))
            })
        });
    }
    group.finish();
}

/// The state index of a strength lookup (`HoldemStrength::strength` is this and one array
/// read), from 1,024 random deals with cards in dealt order, per street.
fn strength_index(c: &mut Criterion) {
    let ix = cardtables::indexer::HoldemIndexer::new();
    let mut rng = Pcg64::seed_from_u64(7);
    let deals: Vec<[Card; 7]> = (0..1024)
        .map(|_| {
            let mut ids: Vec<u8> = (0..52).collect();
            for i in 0..7 {
                let j = rng.random_range(i..52);
                ids.swap(i, j);
            }
            std::array::from_fn(|k| Card::from_id(ids[k]).expect("id"))
        })
        .collect();
    let mut group = c.benchmark_group("holdem_strength_index");
    group.throughput(Throughput::Elements(deals.len() as u64));
    for (street, board) in [("flop", 3), ("turn", 4), ("river", 5)] {
        group.bench_function(format!("{street}_1024_unsorted"), |b| {
            b.iter(|| {
                let mut sum = 0u64;
                for d in &deals {
                    sum += ix.index(&d[..2], &d[2..2 + board]).expect("a state");
                }
                black_box(sum)
            })
        });
    }
    // The whole lookup, where the tables of a full `holdem.postflop` run are at hand
    // (PIPELINE_STRENGTH_TABLES=tables/holdem_postflop): index, then one read of a table
    // of up to 866 MB, mostly a cache miss.
    if let Ok(dir) = std::env::var("PIPELINE_STRENGTH_TABLES") {
        for (street, board) in [("flop", 3), ("turn", 4), ("river", 5)] {
            let path = std::path::Path::new(&dir).join(format!("strength_{street}.bin"));
            let table = cardtables::HoldemStrength::open(&path).expect("a strength table");
            group.bench_function(format!("{street}_1024_unsorted_lookup"), |b| {
                b.iter(|| {
                    let mut sum = 0f64;
                    for d in &deals {
                        sum += table
                            .strength(&d[..2], &d[2..2 + board])
                            .expect("a state")
                            .ehs;
                    }
                    black_box(sum)
                })
            });
        }
    }
    group.finish();
}

/// Range-against-range equity through the library call (tables already built), for the
/// side-by-side with OMPEval's `EquityCalculator` (`docs/benchmarks.md`-style commands are
/// in `reports/BENCHMARKS.md`): exact on a flop for 2 and 3 players, exact preflop for 3,
/// and Monte Carlo rounds of 2,097,152 trials for 3 and 6 random hands and 3 ranges.
fn range_equity(c: &mut Criterion) {
    use pipeline::games::holdem::equity::{equity, Question, EXACT_BUDGET, MAX_DRAWS};
    let question = |ranges: &[&str], board: &str, exact: bool| Question {
        ranges: ranges
            .iter()
            .map(|r| cardtables::Range::parse(r).expect("a range"))
            .collect(),
        board: pipeline::cards::parse_cards(board).expect("cards"),
        dead: Vec::new(),
        std_error: 0.0,
        max_trials: 1 << 21,
        max_draws: MAX_DRAWS,
        seed: 1,
        exact_budget: if exact { EXACT_BUDGET } else { 0 },
    };
    tables();
    let mut group = c.benchmark_group("holdem_range_equity");
    group.sample_size(10);
    for (name, ranges, board, exact) in [
        (
            "exact_flop_QQ+AK_v_JJ-99",
            &["QQ+,AK", "JJ-99"][..],
            "Ks 7d 2c",
            true,
        ),
        (
            "exact_flop_TT+AQ+_v_QQ+AK_v_TT",
            &["TT+,AQs+,AQo+", "QQ+,AK", "TT"][..],
            "Ks 7d 2c",
            true,
        ),
        (
            "exact_preflop_AA_v_QQ_v_93o",
            &["AA", "QQ", "93o"][..],
            "",
            true,
        ),
        (
            "exact_preflop_TT+AQ+_v_QQ+AK_v_TT",
            &["TT+,AQs+,AQo+", "QQ+,AK", "TT"][..],
            "",
            true,
        ),
        ("mc_2M_random_x3", &["random"; 3][..], "", false),
        ("mc_2M_random_x6", &["random"; 6][..], "", false),
        (
            "mc_2M_TT+AQ+_v_QQ+AK_v_TT",
            &["TT+,AQs+,AQo+", "QQ+,AK", "TT"][..],
            "",
            false,
        ),
    ] {
        let q = question(ranges, board, exact);
        group.bench_function(name, |b| {
            b.iter(|| black_box(equity(&q).expect("an answer")))
        });
    }
    group.finish();
}

/// One evaluation of a three-handed push/fold game over all 169 classes (169³ ordered
/// triples), the step `holdem.pushfold3`'s solver repeats some thousand times a spot.
/// The counts are made up (every triple one deal the button wins, every pair split), so
/// no three-way enumeration is needed: the work per triple does not depend on them.
fn pushfold3_values(c: &mut Criterion) {
    use pipeline::games::holdem::pushfold3::{
        Game, PairCounts, Showdowns, Spot, Strategy, TripleCounts, PAIR_BOARDS,
    };
    use pipeline::games::holdem::threeway::BOARDS;
    const N: usize = 169;
    let triples: Vec<TripleCounts> = (0..N * (N + 1) * (N + 2) / 6)
        .map(|_| TripleCounts {
            deals: 1,
            wins: [BOARDS, 0, 0],
            ties: [0; 3],
            sixtieths: [60 * BOARDS, 0, 0],
            orders: None,
        })
        .collect();
    let pairs: Vec<PairCounts> = (0..N * (N + 1) / 2)
        .map(|_| PairCounts {
            showdowns: PAIR_BOARDS,
            wins: [PAIR_BOARDS / 2, PAIR_BOARDS / 2],
            ties: 0,
        })
        .collect();
    let showdowns = Showdowns::new((0..N as u8).collect(), &triples, &pairs).expect("a game");
    let mut group = c.benchmark_group("holdem_pushfold3");
    group.sample_size(10);
    group.throughput(Throughput::Elements((N * N * N) as u64));
    for (name, payouts) in [("chip_ev", None), ("icm", Some(vec![0.5, 0.3, 0.2]))] {
        let game = Game::new(&showdowns, Spot::equal(10.0, 0.0, payouts)).expect("a spot");
        let x: Strategy = std::array::from_fn(|d| {
            (0..N)
                .map(|k| ((d * 5 + k * 7) % 11) as f64 / 10.0)
                .collect()
        });
        group.bench_function(format!("values_169_classes_{name}"), |b| {
            b.iter(|| black_box(game.values(&x)))
        });
    }
    group.finish();
}

criterion_group!(
    holdem,
    benches,
    strength_index,
    range_equity,
    pushfold3_values
);
criterion_main!(holdem);
