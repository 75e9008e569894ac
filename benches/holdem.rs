//! Hold'em 7-card evaluator: sequential enumeration of all 133,784,560 hands (incremental,
//! one card per loop level) and evaluation of hands in random order.

use std::hint::black_box;

use cardtables::Card;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use pipeline::games::holdem::eval::{for_each_hand, tables};
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
    let hands: Vec<[Card; 7]> = (0..1 << 20)
        .map(|_| {
            for i in 0..7 {
                let j = rng.random_range(i..52);
                ids.swap(i, j);
            }
            std::array::from_fn(|i| Card::from_id(ids[i]).expect("id < 52"))
        })
        .collect();
    group.throughput(Throughput::Elements(hands.len() as u64));
    group.bench_function("random_order_1m_hands", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for h in &hands {
                sum += u64::from(t.evaluate(h));
            }
            black_box(sum)
        })
    });
    group.finish();
}

criterion_group!(holdem, benches);
criterion_main!(holdem);
