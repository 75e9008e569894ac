//! Zhajinhua runtime lookups: the table `jobs/zhajinhua.toml` writes, built in memory, and
//! the O(1) win-rate lookup of three unsorted cards, from Rust and through the C ABI.

use std::hint::black_box;

use cardtables::Card;
use criterion::{criterion_group, criterion_main, Criterion};
use pipeline::engine::{Job, JobMeta, Progress, Stash};
use pipeline::games::zhajinhua::job::HandsJob;
use pipeline::job::JobSpec;
use rayon::prelude::*;

fn benches(c: &mut Criterion) {
    let text = std::fs::read_to_string("jobs/zhajinhua.toml").expect("jobs/zhajinhua.toml");
    let spec = JobSpec::parse("jobs/zhajinhua.toml", text).expect("a valid job");
    let job = HandsJob::new(&spec).expect("valid rules");
    let units: Vec<_> = (0..job.unit_count())
        .into_par_iter()
        .map(|u| job.run_unit(u))
        .collect();
    let outputs = job
        .finish(
            &JobMeta::of(&spec),
            units,
            &Progress::hidden(),
            &Stash::none(),
        )
        .expect("finish");
    let bytes = &outputs.tables[0].bytes;
    let table = cardtables::Zhajinhua::from_bytes(bytes).expect("valid table");
    // 1,024 three-card hands spread over all 22,100, highest card first (unsorted).
    let hands: Vec<[Card; 3]> = (0..1024u32)
        .map(|i| {
            let mut cards = [Card::from_id(0).expect("card 0"); 3];
            cardtables::colex::unrank(i.wrapping_mul(2_161) % 22_100, 3, &mut cards);
            cards.reverse();
            cards
        })
        .collect();
    let mut group = c.benchmark_group("zhajinhua");
    group.sample_size(50);
    group.bench_function("runtime_open", |b| {
        b.iter(|| cardtables::Zhajinhua::from_bytes(black_box(bytes)).expect("valid table"))
    });
    group.bench_function("runtime_win_rate_1024_unsorted_hands", |b| {
        b.iter(|| {
            hands
                .iter()
                .map(|h| black_box(table.win_rate(black_box(h), 1).expect("three cards")).equity)
                .sum::<f64>()
        })
    });
    let mut handle: *mut cardtables_ffi::CtZhajinhua = std::ptr::null_mut();
    // SAFETY: a valid buffer and out-pointer.
    let status = unsafe {
        cardtables_ffi::ct_zhajinhua_from_bytes(bytes.as_ptr(), bytes.len(), &mut handle)
    };
    assert_eq!(status, cardtables_ffi::CT_OK);
    let ids: Vec<[u8; 3]> = hands.iter().map(|h| h.map(Card::id)).collect();
    group.bench_function("runtime_win_rate_1024_unsorted_hands_c_abi", |b| {
        let mut out = std::mem::MaybeUninit::<cardtables_ffi::CtZhajinhuaHand>::uninit();
        b.iter(|| {
            ids.iter()
                .map(|h| {
                    // SAFETY: a live handle, three readable ids, a writable output.
                    let status = unsafe {
                        cardtables_ffi::ct_zhajinhua_win_rate_ids(
                            handle,
                            black_box(h.as_ptr()),
                            3,
                            1,
                            out.as_mut_ptr(),
                        )
                    };
                    assert_eq!(status, cardtables_ffi::CT_OK);
                    // SAFETY: written by the successful call.
                    unsafe { out.assume_init_ref() }.equity
                })
                .sum::<f64>()
        })
    });
    // All 1,024 in one call.
    let flat: Vec<u8> = ids.concat();
    group.bench_function("runtime_win_rate_1024_unsorted_hands_c_abi_one_call", |b| {
        let mut out: Vec<std::mem::MaybeUninit<cardtables_ffi::CtZhajinhuaHand>> = (0..ids.len())
            .map(|_| std::mem::MaybeUninit::uninit())
            .collect();
        b.iter(|| {
            // SAFETY: a live handle, 3 · 1,024 readable ids, 1,024 writable answers.
            let status = unsafe {
                cardtables_ffi::ct_zhajinhua_win_rate_ids_many(
                    handle,
                    black_box(flat.as_ptr()),
                    ids.len(),
                    1,
                    out.as_mut_ptr().cast(),
                )
            };
            assert_eq!(status, cardtables_ffi::CT_OK);
            out.iter()
                // SAFETY: every answer written by the successful call.
                .map(|h| unsafe { h.assume_init_ref() }.equity)
                .sum::<f64>()
        })
    });
    // SAFETY: the handle is live and freed once.
    unsafe { cardtables_ffi::ct_zhajinhua_free(handle) };
    group.finish();
}

criterion_group!(zhajinhua, benches);
criterion_main!(zhajinhua);
