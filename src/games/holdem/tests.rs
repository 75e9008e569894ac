//! Tests of the Hold'em jobs as a whole: the matchup classes of the full deck and the
//! class matrix against published figures and the runtime table. The solvers' own tests
//! sit beside them (`eval`, `sweep`, `matchup`, `two_opponents`, `sampler`).

use cardtables::holdem_headsup::HeadsUpPayload;
use cardtables::{Card, HoldemHeadsUp};

use super::classes::{class_of, combos, parse_class, CLASSES};
use super::eval::tables;
use super::matchup::{brute_force, solve, ClassMatrix, MatchupResult, Scratch, BOARDS, FULL_DECK};
use super::pushfold::{range_share, solve_stacks, Equilibrium, PushFoldGame, Stakes};
use crate::cards::matchups::{matchups, two_cards, Matchup};

/// A runtime heads-up table of some solved matchups (class cells left at 0.5).
fn headsup_table(chosen: &[Matchup], results: &[MatchupResult]) -> HoldemHeadsUp {
    let payload = HeadsUpPayload {
        rules: String::new(),
        boards: BOARDS as u32,
        rep_a: chosen.iter().map(|m| m.a).collect(),
        rep_b: chosen.iter().map(|m| m.b).collect(),
        wins: results.iter().map(|r| r.wins as u32).collect(),
        ties: results.iter().map(|r| r.ties as u32).collect(),
        class_equity: vec![0.5; CLASSES * CLASSES],
    };
    HoldemHeadsUp::from_bytes(HoldemHeadsUp::to_bytes(0, &payload).unwrap()).unwrap()
}

#[test]
fn matchup_classes_of_the_full_deck() {
    let m = matchups(FULL_DECK);
    assert_eq!(m.len(), 47_008);
    // Unordered pairs of disjoint 2-card hands: C(52,2) · C(50,2) / 2.
    let raw: u64 = m.iter().map(|c| u64::from(c.weight)).sum();
    assert_eq!(raw, 1326 * 1225 / 2);
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "solves a few matchup classes: run with --release"
)]
fn class_cells_are_complementary_and_match_published_figures() {
    let t = tables();
    let mut scratch = Scratch::default();
    let (aa, kk) = (parse_class("AA").unwrap(), parse_class("KK").unwrap());
    let class = |i: u16| {
        let [x, y] = two_cards(i);
        class_of(x, y)
    };
    let chosen: Vec<Matchup> = matchups(FULL_DECK)
        .into_iter()
        .filter(|m| {
            let (a, b) = (class(m.a), class(m.b));
            (a, b) == (aa, kk) || (a, b) == (kk, aa)
        })
        .collect();
    // 6 × 6 raw matchups of aces against kings.
    assert_eq!(chosen.iter().map(|m| u32::from(m.weight)).sum::<u32>(), 36);
    let results: Vec<MatchupResult> = chosen
        .iter()
        .map(|m| solve(t, two_cards(m.a), two_cards(m.b), &mut scratch))
        .collect();
    let matrix = ClassMatrix::build(&chosen, &results);
    let (ab, ba) = (matrix.equity(aa, kk), matrix.equity(kk, aa));
    assert!((ab + ba - 1.0).abs() < 1e-15);
    assert_eq!(matrix.deals[aa * CLASSES + kk], 36 * BOARDS);
    // Aces against kings: the widely published 81.9 % (82 % rounded).
    assert!((ab - 0.8195).abs() < 5e-5, "{ab}");
    // The runtime table finds any aces-against-kings matchup by renaming suits and
    // swapping sides, and answers like dealing every board.
    let table = headsup_table(&chosen, &results);
    let two = |s: &str| -> [Card; 2] { cardtables::parse_cards(s).unwrap().try_into().unwrap() };
    for (a, b) in [("Ks Kd", "Ah Ac"), ("Ah Ad", "Kh Kc"), ("Ac As", "Kd Ks")] {
        let (a, b) = (two(a), two(b));
        let got = table.cards(a, b).unwrap();
        let want = brute_force(t, a, b);
        assert_eq!(
            (
                u64::from(got.wins),
                u64::from(got.ties),
                u64::from(got.losses)
            ),
            (want.wins, want.ties, want.losses()),
            "{a:?} vs {b:?}"
        );
    }
    assert!(
        table.cards(two("Ks Kd"), two("Ks Ah")).is_err(),
        "shared card"
    );
    assert!(
        table.cards(two("Qs Qd"), two("Ah Ac")).is_err(),
        "not in this table"
    );
}

/// The heads-up class matrix of the full deck: every matchup class solved (about 25 s of
/// CPU, once for all the tests that need it).
fn class_matrix() -> &'static ClassMatrix {
    use rayon::prelude::*;
    static MATRIX: std::sync::OnceLock<ClassMatrix> = std::sync::OnceLock::new();
    MATRIX.get_or_init(|| {
        let t = tables();
        let m = matchups(FULL_DECK);
        let results: Vec<MatchupResult> = m
            .par_iter()
            .map_init(Scratch::default, |scratch, c| {
                solve(t, two_cards(c.a), two_cards(c.b), scratch)
            })
            .collect();
        ClassMatrix::build(&m, &results)
    })
}

/// The push/fold game of the full deck.
fn pushfold_game() -> &'static PushFoldGame {
    static GAME: std::sync::OnceLock<PushFoldGame> = std::sync::OnceLock::new();
    GAME.get_or_init(|| PushFoldGame::new(class_matrix()))
}

/// Each player's strategy is a best response to the other's: a class played always
/// gains at least as much as the other action, one never played at most as much, and a
/// mixed one is indifferent (to `tol` bb).
fn assert_best_responses(e: &Equilibrium, tol: f64) {
    let s = &e.stakes;
    let check = |who: &str, c: usize, freq: f64, act: f64, fold: f64| {
        let name = super::classes::class_name(c);
        if freq == 1.0 {
            assert!(
                act >= fold - tol,
                "{who} {name} at {}: {act} < {fold}",
                s.stack
            );
        } else if freq == 0.0 {
            assert!(
                act <= fold + tol,
                "{who} {name} at {}: {act} > {fold}",
                s.stack
            );
        } else {
            assert!(
                (act - fold).abs() <= tol,
                "{who} {name} mixes at {}: {act} vs {fold}",
                s.stack
            );
        }
    };
    for c in 0..CLASSES {
        check("SB", c, e.push[c], e.evaluation.ev_push[c], s.sb_fold());
        check("BB", c, e.call[c], e.evaluation.ev_call[c], s.bb_fold());
    }
    assert!(e.evaluation.exploitability() <= 1e-12, "{:?}", e.evaluation);
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "solves all 47,008 matchup classes: run with --release"
)]
fn push_fold_equilibria_are_mutual_best_responses() {
    let game = pushfold_game();
    let stacks = [1.0, 1.5, 3.0, 10.0, 20.0];
    let solved = solve_stacks(game, 0.0, &stacks).unwrap();
    for e in &solved {
        assert_best_responses(e, 1e-9);
        let (aa, k72) = (parse_class("AA").unwrap(), parse_class("72o").unwrap());
        assert_eq!(
            (e.push[aa], e.call[aa]),
            (1.0, 1.0),
            "AA at {}",
            e.stakes.stack
        );
        if e.stakes.stack >= 10.0 {
            assert_eq!((e.push[k72], e.call[k72]), (0.0, 0.0));
        }
    }
    // With the big blind all-in already posted, it calls everything; at 1.5 bb the small
    // blind still pushes nearly every hand.
    assert_eq!(range_share(&solved[0].call), 1.0);
    assert!(
        range_share(&solved[1].push) > 0.95,
        "{}",
        range_share(&solved[1].push)
    );
    // The ante widens the pushing range.
    let ante = solve_stacks(game, 0.125, &[10.0]).unwrap();
    assert_best_responses(&ante[0], 1e-9);
    assert!(range_share(&ante[0].push) > range_share(&solved[3].push));
    // The same results on one thread and on three.
    let on = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| solve_stacks(game, 0.0, &stacks).unwrap())
    };
    assert_eq!(on(1), solved);
    assert_eq!(on(3), solved);
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "solves all 47,008 matchup classes: run with --release"
)]
fn the_chart_convention_and_the_uniqueness_certificate() {
    use super::pushfold::charted;
    let game = pushfold_game();
    let class = |name: &str| parse_class(name).unwrap();
    let stacks: Vec<f64> = (0..=8).map(|k| 17.9 + 0.1 * f64::from(k)).collect();
    let solved = solve_stacks(game, 0.0, &stacks).unwrap();
    let k8o = class("K8o");
    for e in &solved {
        assert!(e.unique(game), "{} bb", e.stakes.stack);
        let f = e.push[k8o];
        // Always pushed to 18.0 bb, then mixed at 12–38 %: the chart stops at 18.0.
        if e.stakes.stack < 18.05 {
            assert_eq!(f, 1.0, "{} bb", e.stakes.stack);
        } else if e.stakes.stack < 18.65 {
            assert!(
                f > 0.1 && f < 0.4 && !charted(f),
                "{} bb: {f}",
                e.stakes.stack
            );
            assert!(e.push_margin(k8o).abs() <= 1e-9);
        } else {
            assert_eq!(f, 0.0, "{} bb", e.stakes.stack);
            assert!(e.push_margin(k8o) < 0.0);
        }
    }
    // T3s mixed at 77 % at 7.7 bb is charted (the published 7.7); T7o at 12 % at 9.9 bb is
    // not (its chart stops at 9.0, with pushing losing money in between).
    let solved = solve_stacks(game, 0.0, &[7.7, 9.5, 9.9]).unwrap();
    let (t3s, t7o) = (class("T3s"), class("T7o"));
    assert!(charted(solved[0].push[t3s]) && solved[0].push[t3s] < 1.0);
    assert_eq!(solved[1].push[t7o], 0.0);
    assert!(solved[1].push_margin(t7o) < -1e-3);
    assert!(solved[2].push[t7o] > 0.0 && !charted(solved[2].push[t7o]));
    // The certificate is a real test: it fails for strategies that are not the equilibrium,
    // and moving a mixed frequency away from the certified one makes it exploitable.
    let e = &solved[2];
    let mut folded = e.clone();
    folded.push[t7o] = 0.0;
    folded.evaluation = game.evaluate(&e.stakes, &folded.push, &folded.call);
    assert!(!folded.unique(game));
    let mut moved = e.push.clone();
    moved[t7o] += 0.01;
    assert!(game.evaluate(&e.stakes, &moved, &e.call).exploitability() > 1e-9);
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "solves all 47,008 matchup classes: run with --release"
)]
fn push_and_call_evs_equal_sums_over_every_opposing_combo() {
    let game = pushfold_game();
    let t = tables();
    let mut scratch = Scratch::default();
    let deck: Vec<[Card; 2]> = (0..52u8)
        .flat_map(|a| (a + 1..52).map(move |b| (a, b)))
        .map(|(a, b)| [Card::from_id(a).unwrap(), Card::from_id(b).unwrap()])
        .collect();
    let two = |s: &str| -> [Card; 2] { cardtables::parse_cards(s).unwrap().try_into().unwrap() };
    for (stack, ante) in [(10.0, 0.0), (4.5, 0.125)] {
        let s = Stakes { stack, ante };
        let e = game.solve(&s).unwrap();
        for hand in ["As Kd", "7h 2c", "5s 5h", "Jc Tc"] {
            let mine = two(hand);
            let class = class_of(mine[0], mine[1]);
            let (mut push_sum, mut call_gain, mut call_weight, mut n) = (0.0, 0.0, 0.0, 0);
            for other in deck.iter().filter(|o| !o.iter().any(|c| mine.contains(c))) {
                let oc = class_of(other[0], other[1]);
                // SB holds `mine` and pushes; the BB holds `other`.
                let eq = solve(t, mine, *other, &mut scratch).equity();
                let c = e.call[oc];
                push_sum += c * (2.0 * stack * eq - stack) + (1.0 - c) * -s.bb_fold();
                // BB holds `mine` and faces a push from `other`'s pushing frequency.
                let p = e.push[oc];
                call_gain += p * (stack - 2.0 * stack * (1.0 - eq));
                call_weight += p;
                n += 1;
            }
            assert_eq!(n, 1225);
            let direct_push = push_sum / 1225.0;
            assert!(
                (direct_push - e.evaluation.ev_push[class]).abs() < 1e-12,
                "{hand} at {stack}: {direct_push} vs {}",
                e.evaluation.ev_push[class]
            );
            let direct_call = call_gain / call_weight;
            assert!(
                (direct_call - e.evaluation.ev_call[class]).abs() < 1e-12,
                "{hand} at {stack}: {direct_call} vs {}",
                e.evaluation.ev_call[class]
            );
        }
        // Disjoint pairs: every combo meets 1,225 others.
        for a in 0..CLASSES {
            let pairs: f64 = (0..CLASSES).map(|b| game.pairs(a, b)).sum();
            assert_eq!(pairs, f64::from(combos(a)) * 1225.0);
        }
    }
}

/// The heads-up game that `holdem.pushfold3`'s report checks against, built from the pair
/// counts its three-handed card data holds, is the game built from the class matrix: the
/// same pairs, the same EVs and the same equilibrium.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "solves all 47,008 matchup classes: run with --release"
)]
fn the_heads_up_game_from_three_handed_pair_counts_is_the_class_matrix_game() {
    use super::pushfold3::{PairCounts, Showdowns, TripleCounts};
    let matrix = class_matrix();
    let game = pushfold_game();
    let mut pairs = Vec::new();
    for b in 0..CLASSES {
        for a in 0..=b {
            let (ab, ba) = (a * CLASSES + b, b * CLASSES + a);
            pairs.push(PairCounts {
                showdowns: matrix.deals[ab],
                wins: [matrix.wins[ab], matrix.wins[ba]],
                ties: matrix.ties[ab],
            });
        }
    }
    // The triples play no part in the heads-up game: every one is left without a deal
    // but the first (AA AA AA), given one deal that seat 0 always wins, so that the
    // counts make a game.
    let boards = super::threeway::BOARDS;
    let triples: Vec<TripleCounts> = (0..CLASSES * (CLASSES + 1) * (CLASSES + 2) / 6)
        .map(|i| TripleCounts {
            deals: u32::from(i == 0),
            wins: [if i == 0 { boards } else { 0 }, 0, 0],
            ties: [0; 3],
            sixtieths: [if i == 0 { 60 * boards } else { 0 }, 0, 0],
            orders: None,
        })
        .collect();
    let showdowns = Showdowns::new((0..CLASSES as u8).collect(), &triples, &pairs).unwrap();
    let from_pairs = PushFoldGame::from_pairs(&showdowns);
    for a in 0..CLASSES {
        for b in 0..CLASSES {
            assert_eq!(from_pairs.pairs(a, b), game.pairs(a, b));
        }
    }
    for stack in [2.0, 10.0, 17.5] {
        let s = Stakes { stack, ante: 0.0 };
        let (want, got) = (game.solve(&s).unwrap(), from_pairs.solve(&s).unwrap());
        let close = |x: &[f64], y: &[f64]| {
            x.iter()
                .zip(y)
                .all(|(x, y)| (x - y).abs() <= 1e-12 || (x.is_nan() && y.is_nan()))
        };
        assert!(close(&want.push, &got.push), "pushes at {stack} bb");
        assert!(close(&want.call, &got.call), "calls at {stack} bb");
        assert!(close(&want.evaluation.ev_push, &got.evaluation.ev_push));
        assert!(close(&want.evaluation.ev_call, &got.evaluation.ev_call));
        assert!((want.evaluation.value - got.evaluation.value).abs() <= 1e-12);
    }
}

/// `top N%` ranges follow the classes by exact equity against one random hand: the order
/// the runtime ships is the one the `holdem.preflop` counts give.
#[test]
#[cfg_attr(debug_assertions, ignore = "counts every board: run with --release")]
fn the_runtime_preflop_order_is_the_exact_equity_order() {
    let counts = super::sweep::all_class_counts();
    let mut order: Vec<usize> = (0..CLASSES).collect();
    // Equity ∝ (2·wins + ties) / combos: every combo meets the same number of deals.
    let score = |c: usize| (2 * counts.wins[c] + counts.ties[c]) as f64 / f64::from(combos(c));
    order.sort_by(|&a, &b| score(b).total_cmp(&score(a)));
    let names: Vec<String> = order
        .iter()
        .map(|&c| super::classes::class_name(c))
        .collect();
    let shipped: Vec<&str> = cardtables::range::PREFLOP_ORDER
        .split_whitespace()
        .collect();
    assert_eq!(names, shipped);
}

/// Two ranges against each other from the heads-up table (the runtime's
/// `range_equity`, one lookup per pair of holdings) equal the enumeration of every board.
#[test]
#[cfg_attr(debug_assertions, ignore = "solves matchups: run with --release")]
fn range_equity_from_the_table_equals_enumeration() {
    let t = tables();
    let mut scratch = Scratch::default();
    let class = |i: u16| {
        let [x, y] = two_cards(i);
        class_of(x, y)
    };
    let wanted = ["AA", "KK", "QQ", "AKs"].map(|c| parse_class(c).unwrap());
    let chosen: Vec<Matchup> = matchups(FULL_DECK)
        .into_iter()
        .filter(|m| wanted.contains(&class(m.a)) && wanted.contains(&class(m.b)))
        .collect();
    let results: Vec<MatchupResult> = chosen
        .iter()
        .map(|m| solve(t, two_cards(m.a), two_cards(m.b), &mut scratch))
        .collect();
    let table = headsup_table(&chosen, &results);
    for (a, b) in [("AA", "KK, QQ:0.5"), ("AKs, QQ", "AA, KK"), ("AsAx", "AKs")] {
        let (ra, rb) = (
            cardtables::Range::parse(a).unwrap(),
            cardtables::Range::parse(b).unwrap(),
        );
        let from_table = table.range_equity(&ra, &rb).unwrap();
        let enumerated = super::equity::equity(&super::equity::Question {
            ranges: vec![ra, rb],
            board: vec![],
            dead: vec![],
            std_error: 1e-3,
            max_trials: 0,
            max_draws: 0,
            seed: 1,
            exact_budget: u64::MAX,
        })
        .unwrap();
        assert!(enumerated.exact);
        for (x, y) in [
            (from_table.equity, enumerated.equity[0]),
            (from_table.win, enumerated.win[0]),
            (from_table.tie, enumerated.tie[0]),
        ] {
            assert!((x - y).abs() < 1e-14, "{a} vs {b}: {x} against {y}");
        }
        assert_eq!(
            from_table.matchups * u64::from(table.boards()),
            enumerated.showdowns
        );
    }
    // Ranges that cannot meet.
    let aa = cardtables::Range::parse("AsAh").unwrap();
    assert_eq!(
        table.range_equity(&aa, &aa),
        Err(cardtables::HeadsUpQueryError::NoMatchup)
    );
}

/// Writes `results` as a `holdem.threeway` job writes `threeway.parquet` (with `kind` as
/// its job kind), returning the file's bytes.
fn threeway_file(
    path: &std::path::Path,
    results: &[super::threeway::TripleResult],
    kind: &str,
) -> Vec<u8> {
    use crate::sink::parquet::{write, ParquetOutput};
    let output = ParquetOutput {
        file: "threeway.parquet".into(),
        batches: vec![super::tables::threeway_batch(results).unwrap()].into(),
        plain_columns: vec![],
    };
    let meta = vec![("pipeline.kind".to_string(), kind.to_string())];
    let (staged, _) = write(path, &output, &meta).unwrap();
    staged.commit().unwrap();
    std::fs::read(path).unwrap()
}

/// `holdem.pushfold3` reads from a finished `threeway.parquet` exactly the counts it would
/// compute, and refuses a table of another job, a missing, doubled or impossible triple,
/// and damaged bytes, with an error (never a panic).
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "solves 20 triples exactly: run with --release"
)]
fn pushfold3_reads_the_threeway_counts_it_would_compute() {
    use super::tables::read_threeway;
    use super::threeway::{solve as solve_triple, triples};
    let class = |n: &str| parse_class(n).unwrap() as u8;
    let classes = [class("AA"), class("KK"), class("AKs"), class("72o")];
    let wanted = triples(&classes);
    let results: Vec<_> = wanted.iter().map(|&t| solve_triple(t)).collect();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("threeway.parquet");
    let bytes = threeway_file(&path, &results, "holdem.threeway");
    assert_eq!(read_threeway(&path, &wanted, true).unwrap(), results);
    // A subset of the classes reads the subset of the triples, in its own order.
    let few = triples(&[class("AA"), class("72o")]);
    let got = read_threeway(&path, &few, true).unwrap();
    assert_eq!(got.len(), 4);
    for (r, t) in got.iter().zip(&few) {
        assert_eq!(r.classes, *t);
        assert_eq!(Some(r), results.iter().find(|x| x.classes == *t));
    }

    let refused = |results: &[super::threeway::TripleResult], kind: &str, words: &str| {
        let p = dir.path().join("bad.parquet");
        threeway_file(&p, results, kind);
        let e = format!("{:#}", read_threeway(&p, &wanted, true).unwrap_err());
        assert!(e.contains(words) && e.contains("bad.parquet"), "{e}");
    };
    refused(&results, "holdem.pushfold", "not holdem.threeway");
    refused(&results[..19], "holdem.threeway", "no row for");
    let mut twice = results.clone();
    twice.push(results[7].clone());
    refused(&twice, "holdem.threeway", "a second time");
    let mut deals = results.clone();
    deals[5].deals += 1;
    refused(&deals, "holdem.threeway", "deals for");
    let mut counts = results.clone();
    counts[9].wins[0] = u64::from(counts[9].deals) * super::threeway::BOARDS + 1;
    refused(&counts, "holdem.threeway", "out of bounds");
    // Order counts that do not give the wins and ties are refused.
    let mut orders = results.clone();
    if let Some(o) = &mut orders[5].orders {
        o.swap(0, 2);
    }
    refused(&orders, "holdem.threeway", "out of bounds");
    // A table written before the order counts: read for equal stacks, refused for
    // unequal ones.
    let old = dir.path().join("old.parquet");
    {
        use crate::sink::parquet::{write, ParquetOutput};
        let batch = super::tables::threeway_batch(&results).unwrap();
        let keep: Vec<usize> = (0..batch.num_columns())
            .filter(|&i| !batch.schema().field(i).name().starts_with("order_"))
            .collect();
        let output = ParquetOutput {
            file: "threeway.parquet".into(),
            batches: vec![batch.project(&keep).unwrap()].into(),
            plain_columns: vec![],
        };
        let meta = vec![("pipeline.kind".to_string(), "holdem.threeway".to_string())];
        let (staged, _) = write(&old, &output, &meta).unwrap();
        staged.commit().unwrap();
    }
    let without: Vec<_> = results
        .iter()
        .map(|r| super::threeway::TripleResult {
            orders: None,
            ..r.clone()
        })
        .collect();
    assert_eq!(read_threeway(&old, &wanted, false).unwrap(), without);
    let e = format!("{:#}", read_threeway(&old, &wanted, true).unwrap_err());
    assert!(e.contains("no order counts"), "{e}");
    // Every truncation and scattered bit flips: an error or a reading, never a panic; a
    // reading that passes the checks is still validated by the solver's exact counts.
    let damaged = dir.path().join("damaged.parquet");
    for cut in (0..bytes.len()).step_by(97) {
        std::fs::write(&damaged, &bytes[..cut]).unwrap();
        assert!(
            read_threeway(&damaged, &wanted, true).is_err(),
            "cut at {cut}"
        );
    }
    let mut rng = rand_pcg::Pcg64::new(7, 11);
    for _ in 0..300 {
        use rand::RngExt;
        let mut b = bytes.clone();
        let at = rng.random_range(0..b.len());
        b[at] ^= 1 << rng.random_range(0..8u32);
        std::fs::write(&damaged, &b).unwrap();
        let _ = read_threeway(&damaged, &wanted, true);
    }
}

/// A `threeway` source that is empty or not a file is refused at its field and line.
#[test]
fn pushfold3_refuses_a_missing_threeway_table() {
    use crate::job::JobSpec;
    let job = |path: &str| {
        let spec = JobSpec::parse(
            "p.toml",
            format!(
                "[job]\nkind = \"holdem.pushfold3\"\nname = \"p\"\n\n[pushfold3]\nthreeway = {path:?}\n"
            ),
        )
        .unwrap();
        super::job::PushFold3Job::new(&spec).err().unwrap()
    };
    for (path, words) in [
        ("", "an empty path"),
        ("no/such/threeway.parquet", "is not a file"),
    ] {
        let e = job(path);
        assert_eq!(e.field.as_deref(), Some("pushfold3.threeway"), "{e}");
        assert_eq!(e.location.map(|l| l.0), Some(6), "{e}");
        assert!(e.message.contains(words), "{e}");
    }
}
