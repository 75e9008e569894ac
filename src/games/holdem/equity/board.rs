//! Exact enumeration with a board of 3, 4 or 5 cards.
//!
//! The runouts still to come are few (at most C(47, 2) = 1,081 after a flop), so every
//! holding any player may hold is evaluated once per runout, into a row of strengths in
//! runout order, with [`BLOCKED`] where the runout shares one of its cards. A combination
//! of holdings then costs one pass over its players' rows, [`LANES`] runouts at a time
//! and with no branch: the compiler turns the pass into vector instructions. Showdowns
//! evaluated: the distinct holdings times the runouts, instead of the players times the
//! combinations times the runouts.

use cardtables::{colex, Card};
use rayon::prelude::*;

use super::{mask, Counts, Hand, Holdings, Sums, MAX_PLAYERS, SHARE};
use crate::games::holdem::eval::Tables;

/// The strength of a holding on a runout that shares one of its cards: above every real
/// strength, so a blocked runout is the best in its lane and is then masked out.
const BLOCKED: u16 = u16::MAX;
/// Runouts per step of the combination kernel.
const LANES: usize = 16;
/// Steps of the kernel that 16-bit lane counters hold: a lane gains at most [`SHARE`]
/// per step.
const MAX_STEPS: usize = u16::MAX as usize / SHARE as usize;

/// Below this many strengths to compute and compare, a question runs on the calling
/// thread.
const PARALLEL_FROM: usize = 1 << 21;

/// One player's holdings as rows: the row, the two cards as a mask, the weight.
type Seats = Vec<(usize, u64, f64)>;

/// Every disjoint combination of holdings with every runout of `board` from `deck` (the
/// cards neither on the board nor dead).
pub(super) fn enumerate(t: &Tables, holdings: &[Holdings], board: &[Card], deck: &[Card]) -> Sums {
    let players = holdings.len();
    let runouts = runouts(t, board, deck);
    let width = runouts.len().div_ceil(LANES) * LANES;
    assert!(width / LANES <= MAX_STEPS, "runouts fit the lane counters");
    // Distinct holdings across the players, by their colex index.
    let mut row_of = vec![usize::MAX; colex::binomial(52, 2) as usize];
    let mut distinct: Vec<[Card; 2]> = Vec::new();
    let seats: Vec<Seats> = holdings
        .iter()
        .map(|h| {
            h.iter()
                .map(|&(hole, w)| {
                    let i = colex::index_of(&hole) as usize;
                    if row_of[i] == usize::MAX {
                        row_of[i] = distinct.len();
                        distinct.push(hole);
                    }
                    (row_of[i], mask(&hole), w)
                })
                .collect()
        })
        .collect();
    // Handing small questions to the thread pool costs more than it saves.
    let parallel = distinct.len() * width + seats.iter().map(Vec::len).product::<usize>() * width
        > PARALLEL_FROM;
    let mut strengths = vec![BLOCKED; distinct.len() * width];
    let fill = |(row, hole): (&mut [u16], &[Card; 2])| {
        let held = mask(hole);
        let hand = Hand::of(t, hole);
        for (s, &(full, cards)) in row.iter_mut().zip(&runouts) {
            if held & cards == 0 {
                *s = full.join(hand).strength(t);
            }
        }
    };
    if parallel {
        strengths
            .par_chunks_mut(width)
            .zip(&distinct)
            .for_each(fill);
    } else {
        strengths.chunks_mut(width).zip(&distinct).for_each(fill);
    }
    let rows: Vec<&[u16]> = strengths.chunks_exact(width).collect();
    let first = |&(row, held, w): &(usize, u64, f64)| {
        let mut sums = Sums::new(players);
        let mut chosen = [rows[row]; MAX_PLAYERS];
        combine(&seats, &rows, 1, held, w, &mut chosen, &mut sums);
        sums
    };
    let parts: Vec<Sums> = if parallel {
        seats[0].par_iter().map(first).collect()
    } else {
        seats[0].iter().map(first).collect()
    };
    // Summed in a fixed order, so the answer does not depend on the thread count.
    parts
        .iter()
        .fold(Sums::new(players), |acc, part| acc.add(part))
}

/// Every completion of the board from `deck`: the five cards as a [`Hand`], and the new
/// ones as a mask.
fn runouts(t: &Tables, board: &[Card], deck: &[Card]) -> Vec<(Hand, u64)> {
    fn fill(
        t: &Tables,
        full: Hand,
        new: u64,
        left: usize,
        deck: &[Card],
        out: &mut Vec<(Hand, u64)>,
    ) {
        if left == 0 {
            out.push((full, new));
            return;
        }
        for (i, &c) in deck.iter().enumerate() {
            fill(
                t,
                full.with(t, c),
                new | 1 << c.id(),
                left - 1,
                &deck[i + 1..],
                out,
            );
        }
    }
    let mut out = Vec::new();
    fill(t, Hand::of(t, board), 0, 5 - board.len(), deck, &mut out);
    out
}

/// Seats players `p` onwards with every holding that avoids `used`; a full table is
/// counted over every runout at the product of its weights.
fn combine<'a>(
    seats: &[Seats],
    rows: &[&'a [u16]],
    p: usize,
    used: u64,
    weight: f64,
    chosen: &mut [&'a [u16]; MAX_PLAYERS],
    sums: &mut Sums,
) {
    if p == seats.len() {
        sums.add_counts(&count(p, chosen), weight, 1);
        return;
    }
    for &(row, held, w) in &seats[p] {
        if used & held == 0 {
            chosen[p] = rows[row];
            combine(seats, rows, p + 1, used | held, weight * w, chosen, sums);
        }
    }
}

/// Counts the showdowns of the first `players` chosen rows, with the CPU's widest vectors.
fn count(players: usize, chosen: &[&[u16]; MAX_PLAYERS]) -> Counts {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, checked just above (the check is cached).
        return unsafe {
            match players {
                2 => heads_up_avx2(chosen),
                3 => kernel_avx2::<3>(chosen),
                4 => kernel_avx2::<4>(chosen),
                5 => kernel_avx2::<5>(chosen),
                _ => kernel_avx2::<6>(chosen),
            }
        };
    }
    match players {
        2 => heads_up(chosen),
        3 => kernel::<3>(chosen),
        4 => kernel::<4>(chosen),
        5 => kernel::<5>(chosen),
        _ => kernel::<6>(chosen),
    }
}

/// [`kernel`] compiled for AVX2: 16 lanes of 16 bits per instruction instead of 8.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn kernel_avx2<const N: usize>(chosen: &[&[u16]; MAX_PLAYERS]) -> Counts {
    kernel::<N>(chosen)
}

/// [`heads_up`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn heads_up_avx2(chosen: &[&[u16]; MAX_PLAYERS]) -> Counts {
    heads_up(chosen)
}

/// [`kernel`] for two players, with less to count: the first player's wins, the ties
/// and the real showdowns give everything else.
#[inline(always)]
fn heads_up(chosen: &[&[u16]; MAX_PLAYERS]) -> Counts {
    let (a, b) = (chosen[0], chosen[1]);
    let mut valid = [0u16; LANES];
    let mut first = [0u16; LANES];
    let mut tied = [0u16; LANES];
    for (a, b) in a.chunks_exact(LANES).zip(b.chunks_exact(LANES)) {
        for l in 0..LANES {
            let real = u16::from(a[l].max(b[l]) != BLOCKED);
            valid[l] += real;
            first[l] += real & u16::from(a[l] > b[l]);
            tied[l] += real & u16::from(a[l] == b[l]);
        }
    }
    let total = |lanes: &[u16; LANES]| lanes.iter().map(|&x| u64::from(x)).sum::<u64>();
    let (showdowns, win, tie) = (total(&valid), total(&first), total(&tied));
    let mut c = Counts {
        showdowns,
        ..Counts::default()
    };
    c.win[..2].copy_from_slice(&[win, showdowns - win - tie]);
    c.tie[..2].copy_from_slice(&[tie, tie]);
    for p in 0..2 {
        c.equity[p] = SHARE * c.win[p] + SHARE / 2 * tie;
    }
    c
}

/// Counts the showdowns of `N` chosen rows over every runout: per lane, the best
/// strength, how many hold it, and each player's share, all as masks and adds.
#[inline(always)]
fn kernel<const N: usize>(chosen: &[&[u16]; MAX_PLAYERS]) -> Counts {
    let rows: [&[u16]; N] = std::array::from_fn(|p| chosen[p]);
    let steps = rows[0].len() / LANES;
    let mut equity = [[0u16; LANES]; N];
    let mut win = [[0u16; LANES]; N];
    let mut tie = [[0u16; LANES]; N];
    let mut valid = [0u16; LANES];
    for step in 0..steps {
        let lanes: [&[u16; LANES]; N] = std::array::from_fn(|p| {
            rows[p][step * LANES..][..LANES]
                .try_into()
                .expect("rows are whole steps")
        });
        let mut top = [0u16; LANES];
        for row in &lanes {
            for l in 0..LANES {
                top[l] = top[l].max(row[l]);
            }
        }
        // All ones in the lanes of real showdowns; per player, all ones where it holds
        // the best hand of one. Every loop runs over the lanes innermost, to vectorize.
        let mut real = [0u16; LANES];
        for l in 0..LANES {
            real[l] = 0u16.wrapping_sub(u16::from(top[l] != BLOCKED));
            valid[l] += real[l] & 1;
        }
        let mut best = [[0u16; LANES]; N];
        let mut winners = [0u16; LANES];
        for p in 0..N {
            for l in 0..LANES {
                best[p][l] = real[l] & 0u16.wrapping_sub(u16::from(lanes[p][l] == top[l]));
                winners[l] += best[p][l] & 1;
            }
        }
        let mut share = [0u16; LANES];
        for k in 1..=N {
            let part = (SHARE / k as u64) as u16;
            for l in 0..LANES {
                share[l] |= part & 0u16.wrapping_sub(u16::from(winners[l] == k as u16));
            }
        }
        for p in 0..N {
            for l in 0..LANES {
                equity[p][l] += share[l] & best[p][l];
                win[p][l] += best[p][l] & u16::from(winners[l] == 1);
                tie[p][l] += best[p][l] & u16::from(winners[l] > 1);
            }
        }
    }
    let total = |lanes: &[u16; LANES]| lanes.iter().map(|&x| u64::from(x)).sum::<u64>();
    let mut c = Counts {
        showdowns: total(&valid),
        ..Counts::default()
    };
    for p in 0..N {
        c.equity[p] = total(&equity[p]);
        c.win[p] = total(&win[p]);
        c.tie[p] = total(&tie[p]);
    }
    c
}
