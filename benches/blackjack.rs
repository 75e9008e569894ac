//! Blackjack: the exact analysis of one rule set (every action for every starting hand and
//! upcard, splits with resplits to 4 hands, the basic strategy chart and its EV), one
//! dealer outcome evaluation, and simulated rounds (plain, and a Hi-Lo counter's).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use pipeline::engine::stream;
use pipeline::games::blackjack::analysis::analyze;
use pipeline::games::blackjack::count::{CountSettings, Counter};
use pipeline::games::blackjack::counting::BettingSettings;
use pipeline::games::blackjack::dealer::{DealerTable, Shoe};
use pipeline::games::blackjack::rules::{BlackjackRules, Decks, InfiniteWord};
use pipeline::games::blackjack::sim::{Counting, Player, Shuffle};

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("blackjack");
    group.sample_size(20);
    let six = BlackjackRules::default();
    group.bench_function("analyze_6_decks_s17_das_resplit_to_4", |b| {
        b.iter(|| black_box(analyze(black_box(&six)).optimal_ev))
    });
    let one = BlackjackRules {
        decks: Decks::Finite(1),
        ..six
    };
    group.bench_function("analyze_1_deck", |b| {
        b.iter(|| black_box(analyze(black_box(&one)).optimal_ev))
    });
    let infinite = BlackjackRules {
        decks: Decks::Infinite(InfiniteWord::Infinite),
        ..six
    };
    group.bench_function("analyze_infinite_shoe", |b| {
        b.iter(|| black_box(analyze(black_box(&infinite)).optimal_ev))
    });
    let table = DealerTable::get(false);
    let mut shoe = [24u32; 10];
    shoe[9] = 96;
    shoe[1] -= 1;
    group.bench_function("dealer_outcomes_upcard_2", |b| {
        b.iter(|| black_box(table.outcomes(black_box(&Shoe::Finite(shoe)), 1)))
    });
    group.bench_function("dealer_outcomes_upcard_2_two_lanes", |b| {
        let mut other = shoe;
        other[3] -= 1;
        b.iter(|| black_box(table.outcomes_lanes(black_box(&[shoe, other]), 1)))
    });
    group.bench_function("dealer_outcomes_upcard_2_four_lanes", |b| {
        let mut other = shoe;
        other[3] -= 1;
        b.iter(|| black_box(table.outcomes_lanes(black_box(&[shoe, other, shoe, other]), 1)))
    });
    group.bench_function("dealer_outcomes_upcard_2_eight_lanes", |b| {
        let mut other = shoe;
        other[3] -= 1;
        b.iter(|| {
            black_box(table.outcomes_lanes(
                black_box(&[shoe, other, shoe, other, shoe, other, shoe, other]),
                1,
            ))
        })
    });
    let chart = analyze(&six).chart;
    group.throughput(Throughput::Elements(1_000_000));
    group.bench_function("simulate_1M_rounds_6_decks", |b| {
        b.iter(|| {
            let mut rng = stream(1, 0);
            black_box(Player::new(&six, &chart).simulate(1_000_000, Shuffle::EveryRound, &mut rng))
        })
    });
    let counter = Counter::new(&CountSettings::default()).expect("Hi-Lo");
    let charts = vec![chart.clone(); counter.counts()];
    let ramps = BettingSettings::default().ramps();
    let counting = Counting {
        rules: &six,
        counter: &counter,
        chart: &chart,
        charts: &charts,
        insure_from: Some(3),
        ramps: &ramps,
        penetration: 0.75,
        hands: 1,
        others: 0,
        wong_out: None,
        bankroll: 1_000.0,
        trip_rounds: 100_000,
        ruin_goal: 5.0,
        session_rounds: 2_000_000,
    };
    group.bench_function("count_1M_rounds_6_decks_hi_lo_ramp", |b| {
        b.iter(|| black_box(counting.simulate(1_000_000, &mut stream(1, 0)).trips))
    });
    group.finish();
}

criterion_group!(blackjack, benches);
criterion_main!(blackjack);
