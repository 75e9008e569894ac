//! Random-order 7-card evaluation, timed as OMPEval's own benchmark times it (the
//! "Random order evaluation (card arrays)" line of its `test` program): ten million
//! random hands of seven card bytes, evaluated fifty times over in a timed loop, the
//! rate printed in millions of evaluations a second, with the sum of the strengths so
//! that no evaluation can be skipped. `scripts/bench_peers.py` runs it alternately with
//! that peer, so the two programs do the same work in separate processes.
//!
//! Usage: `eval_random one|batch`
//! - `one`: [`Tables::evaluate`], one hand a call;
//! - `batch`: [`Tables::evaluate_many`], 4,096 hands a call, by the path this CPU takes
//!   or `PIPELINE_EVAL_BATCH` forces (`avx512`, `avx2`, `scalar`); the path is printed.

use std::process::ExitCode;
use std::time::Instant;

use cardtables::Card;
use pipeline::games::holdem::eval::{tables, BatchPath, Tables};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;

/// Hands, and passes over them: OMPEval's figures (10⁷ hands, 50 passes).
const HANDS: usize = 10_000_000;
const PASSES: usize = 50;
/// Hands a batch call (a buffer of strengths that stays in the first-level cache).
const CHUNK: usize = 4096;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let batch = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["one"] => false,
        ["batch"] => true,
        _ => {
            eprintln!("usage: eval_random one|batch (batch: the path PIPELINE_EVAL_BATCH forces, else the fastest)");
            return ExitCode::from(2);
        }
    };
    let t = tables();
    let hands = random_hands(HANDS);
    let start = Instant::now();
    let sum = if batch {
        passes_batched(t, &hands)
    } else {
        passes_one(t, &hands)
    };
    let seconds = start.elapsed().as_secs_f64();
    let path = if batch {
        BatchPath::chosen().name()
    } else {
        "one hand a call"
    };
    println!(
        "{path}: {} evals {:.3} M/s {seconds:.3} s sum {sum}",
        HANDS * PASSES,
        (HANDS * PASSES) as f64 / seconds / 1e6
    );
    ExitCode::SUCCESS
}

/// `n` hands of seven distinct cards, uniformly at random from a fixed seed (the hands
/// of `cargo bench --bench holdem`'s random-order benchmarks).
fn random_hands(n: usize) -> Vec<[Card; 7]> {
    let mut rng = Pcg64::seed_from_u64(1);
    let mut ids: [u8; 52] = std::array::from_fn(|i| i as u8);
    let deck: [Card; 52] =
        std::array::from_fn(|i| Card::from_id(i as u8).expect("ids 0..52 are cards"));
    (0..n)
        .map(|_| {
            for i in 0..7 {
                let j = rng.random_range(i..52);
                ids.swap(i, j);
            }
            std::array::from_fn(|i| deck[usize::from(ids[i])])
        })
        .collect()
}

fn passes_one(t: &Tables, hands: &[[Card; 7]]) -> u64 {
    let mut sum = 0u64;
    for _ in 0..PASSES {
        for h in hands {
            sum += u64::from(t.evaluate(h));
        }
    }
    sum
}

fn passes_batched(t: &Tables, hands: &[[Card; 7]]) -> u64 {
    let mut out = [0u16; CHUNK];
    let mut sum = 0u64;
    for _ in 0..PASSES {
        for chunk in hands.chunks(CHUNK) {
            let out = &mut out[..chunk.len()];
            t.evaluate_many(chunk, out);
            sum += out.iter().map(|&s| u64::from(s)).sum::<u64>();
        }
    }
    sum
}
