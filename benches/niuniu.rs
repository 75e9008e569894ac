//! Niuniu benchmarks: the evaluator over all hands, the exact head-to-head units, and the
//! whole job up to (not including) the disk writes. `scripts/bench.sh` adds end-to-end
//! timings of `pipeline run`.

use std::hint::black_box;

use cardtables::colex::binomial;
use cardtables::Card;
use criterion::{criterion_group, criterion_main, Criterion};
use pipeline::engine::{Job, JobMeta, Progress, Stash};
use pipeline::games::niuniu::eval::{category_table, multiset_index, multiset_ranks, MULTISETS};
use pipeline::games::niuniu::job::HandsJob;
use pipeline::games::niuniu::rules::{NiuniuRules, Ranking, CODES};
use rayon::prelude::*;

/// Category counts by evaluating every one of the 2,598,960 hands (what the tutorial's
/// `exactProbability()` does), in colex order with the rank-multiset index built up one
/// card at a time: the innermost loop does one add and one table read per hand.
fn count_by_hand(table: &[u8]) -> [u32; CODES] {
    let mut counts = [0u32; CODES];
    // Position i of a sorted hand contributes C(rank + i, i + 1) to the multiset index.
    let part = |id: usize, i: usize| binomial(id / 4 + i, i + 1) as usize;
    for e in 4..52 {
        let se = part(e, 4);
        for d in 3..e {
            let sd = se + part(d, 3);
            for c in 2..d {
                let sc = sd + part(c, 2);
                for b in 1..c {
                    let sb = sc + part(b, 1);
                    for a in 0..b {
                        counts[usize::from(table[sb + a / 4])] += 1;
                    }
                }
            }
        }
    }
    let card = |id: u8| Card::from_id(id).expect("id < 52");
    debug_assert_eq!(
        part(51, 4) + part(50, 3) + part(49, 2) + part(48, 1) + 47 / 4,
        multiset_index(&[card(47), card(48), card(49), card(50), card(51)])
    );
    counts
}

/// Category counts by rank multiset: Σ Π C(4, k_r) over the 6,175 possible multisets.
fn count_by_multiset(table: &[u8]) -> [u32; CODES] {
    let mut counts = [0u32; CODES];
    for (m, &code) in table.iter().enumerate().take(MULTISETS) {
        if code == u8::MAX {
            continue;
        }
        let ranks = multiset_ranks(m);
        let mut ways = 1u32;
        let mut i = 0;
        while i < 5 {
            let mut j = i;
            while j < 5 && ranks[j] == ranks[i] {
                j += 1;
            }
            ways *= binomial(4, j - i);
            i = j;
        }
        counts[usize::from(code)] += ways;
    }
    counts
}

fn benches(c: &mut Criterion) {
    let ranking = Ranking::new(NiuniuRules::default()).expect("default rules are valid");
    let table = category_table(&ranking);
    assert_eq!(count_by_hand(&table), count_by_multiset(&table));

    let mut group = c.benchmark_group("niuniu");
    group.sample_size(20);
    group.bench_function("category_table_build", |b| {
        b.iter(|| category_table(black_box(&ranking)))
    });
    group.bench_function("category_counts_every_hand", |b| {
        b.iter(|| count_by_hand(black_box(&table)))
    });
    group.bench_function("category_counts_by_rank_multiset", |b| {
        b.iter(|| count_by_multiset(black_box(&table)))
    });

    let job = HandsJob::from_ranking(ranking.clone());
    let meta = JobMeta::named("bench", "niuniu.hands");
    group.sample_size(10);
    group.bench_function("headsup_all_units_one_thread", |b| {
        b.iter(|| {
            (0..job.unit_count())
                .map(|u| job.run_unit(u))
                .collect::<Vec<_>>()
        })
    });
    let run_job = || {
        let units: Vec<_> = (0..job.unit_count())
            .into_par_iter()
            .map(|u| job.run_unit(u))
            .collect();
        job.finish(&meta, units, &Progress::hidden(), &Stash::none())
            .expect("finish")
    };
    group.bench_function("full_job_in_memory_all_threads", |b| b.iter(run_job));

    // The runtime table an app loads: open (header, checksum, decode, validation) and one
    // lookup from five unsorted cards.
    let bytes = run_job().tables.swap_remove(0).bytes;
    group.sample_size(50);
    group.bench_function("runtime_open", |b| {
        b.iter(|| cardtables::Niuniu::from_bytes(black_box(&bytes)).expect("valid table"))
    });
    let table = cardtables::Niuniu::from_bytes(&bytes).expect("valid table");
    let hands: Vec<Vec<Card>> = (0..1024u32)
        .map(|i| {
            let mut cards = [Card::from_id(0).expect("card 0"); 5];
            cardtables::colex::unrank(i.wrapping_mul(2_538_161) % 2_598_960, 5, &mut cards);
            cards.reverse();
            cards.to_vec()
        })
        .collect();
    group.bench_function("runtime_lookup_1024_unsorted_hands", |b| {
        b.iter(|| {
            hands
                .iter()
                .map(|h| table.lookup(black_box(h)).expect("five cards").banker_ev)
                .sum::<f64>()
        })
    });
    // The same, every field of the answer kept (the C ABI below must fill them all).
    group.bench_function("runtime_lookup_1024_unsorted_hands_every_field", |b| {
        b.iter(|| {
            hands
                .iter()
                .map(|h| black_box(table.lookup(black_box(h)).expect("five cards")).banker_ev)
                .sum::<f64>()
        })
    });
    // The same lookups through the C ABI (card ids in, a struct out), for its overhead.
    let mut handle: *mut cardtables_ffi::CtNiuniu = std::ptr::null_mut();
    // SAFETY: a valid buffer and out-pointer.
    let status =
        unsafe { cardtables_ffi::ct_niuniu_from_bytes(bytes.as_ptr(), bytes.len(), &mut handle) };
    assert_eq!(status, cardtables_ffi::CT_OK);
    let ids: Vec<[u8; 5]> = hands
        .iter()
        .map(|h| std::array::from_fn(|i| h[i].id()))
        .collect();
    group.bench_function("runtime_lookup_1024_unsorted_hands_c_abi", |b| {
        let mut out = std::mem::MaybeUninit::<cardtables_ffi::CtNiuniuHand>::uninit();
        b.iter(|| {
            ids.iter()
                .map(|h| {
                    // SAFETY: a live handle, five readable ids, a writable output.
                    let status = unsafe {
                        cardtables_ffi::ct_niuniu_lookup_ids(
                            handle,
                            black_box(h.as_ptr()),
                            5,
                            out.as_mut_ptr(),
                        )
                    };
                    assert_eq!(status, cardtables_ffi::CT_OK);
                    // SAFETY: written by the successful call.
                    unsafe { out.assume_init_ref() }.banker_ev
                })
                .sum::<f64>()
        })
    });
    // All 1,024 in one call.
    let flat: Vec<u8> = ids.concat();
    group.bench_function("runtime_lookup_1024_unsorted_hands_c_abi_one_call", |b| {
        let mut out: Vec<std::mem::MaybeUninit<cardtables_ffi::CtNiuniuHand>> = (0..ids.len())
            .map(|_| std::mem::MaybeUninit::uninit())
            .collect();
        b.iter(|| {
            // SAFETY: a live handle, 5 · 1,024 readable ids, 1,024 writable answers.
            let status = unsafe {
                cardtables_ffi::ct_niuniu_lookup_ids_many(
                    handle,
                    black_box(flat.as_ptr()),
                    ids.len(),
                    out.as_mut_ptr().cast(),
                )
            };
            assert_eq!(status, cardtables_ffi::CT_OK);
            out.iter()
                // SAFETY: every answer written by the successful call.
                .map(|h| unsafe { h.assume_init_ref() }.banker_ev)
                .sum::<f64>()
        })
    });
    // SAFETY: the handle is live and freed once.
    unsafe { cardtables_ffi::ct_niuniu_free(handle) };
    group.finish();
}

criterion_group!(niuniu, benches);
criterion_main!(niuniu);
