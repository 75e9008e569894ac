//! Many 7-card hands at once: [`Tables::evaluate_many`].
//!
//! One hand at a time, the any-order path costs about seventeen loads a hand (seven card
//! bytes, seven card keys, three table reads), and a core issues two or three loads a
//! cycle: that bound, about 6–8 cycles a hand, is where [`Tables::evaluate`] runs. Hands
//! to a vector share their loads instead. With AVX-512 (sixteen hands a vector):
//! - two vector loads bring the sixteen hands' 112 card bytes, and one byte permutation per
//!   card position moves card `k` of hand `j` into 32-bit lane `j`;
//! - a card's rank digit and suit count come from 16-entry in-register tables (a lane-wise
//!   permutation indexed by the rank, and by the card id's low bits for the suit), so no
//!   card key is loaded;
//! - the three table reads are three gathers of sixteen lanes.
//!
//! With AVX2 (four hands a vector) a hand keeps its seven card ids as the bytes of one
//! 64-bit lane, and sums over them replace the per-card keys:
//! - two 16-byte loads and one in-lane byte shuffle bring four hands, two a half;
//! - a card's rank digit comes from 16-entry byte tables (an in-lane byte shuffle indexed
//!   by the rank), in four parts that each fit a byte (ranks 2–5, 6–8, 9–J, Q–A); the sum
//!   of absolute differences adds a lane's seven bytes, so each part's sum over the hand
//!   is one instruction, and two multiplies join the parts into the rank fields;
//! - the suit counts are two more such sums (suits 0 and 1, then 2 and 3, a nibble each);
//! - the three table reads are the core's own loads, lane by lane (an 8-lane gather costs
//!   more than eight loads on AMD Zen 2 and 3).
//!
//! A hand with five cards of a suit (3 % of random hands) is marked in a 64-bit word per
//! block of vectors and evaluated by [`Tables::evaluate`] after its block: a branch per
//! vector on whether it holds a flush would be taken, and mispredicted, for one vector in
//! eight (AVX2) or two in five (AVX-512), each time discarding the table reads in flight.
//! The last hands that fill no vector go through [`Tables::evaluate`] too. Every path
//! gives the same strengths (tested hand by hand); `PIPELINE_EVAL_BATCH` forces one
//! ([`BatchPath`]), for tests and benchmarks.

use std::sync::OnceLock;

use cardtables::Card;

use super::Tables;

/// A way [`Tables::evaluate_many`] evaluates hands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BatchPath {
    /// Sixteen hands a vector (AVX-512 F, BW and VBMI).
    Avx512,
    /// Four hands a vector (AVX2).
    Avx2,
    /// One hand at a time ([`Tables::evaluate`]), on any CPU.
    OneAtATime,
}

impl BatchPath {
    /// The environment variable that forces a path: `avx512`, `avx2` or `scalar` (one at a
    /// time); unset, `auto` or anything else, the fastest path this CPU has. A forced path
    /// the CPU lacks falls back to the fastest it has.
    pub const VAR: &'static str = "PIPELINE_EVAL_BATCH";

    /// Whether this CPU can run the path.
    pub fn available(self) -> bool {
        match self {
            #[cfg(target_arch = "x86_64")]
            BatchPath::Avx512 => avx512::available(),
            #[cfg(target_arch = "x86_64")]
            BatchPath::Avx2 => avx2::available(),
            BatchPath::OneAtATime => true,
            #[cfg(not(target_arch = "x86_64"))]
            _ => false,
        }
    }

    /// The path `evaluate_many` takes in this process: [`BatchPath::VAR`]'s if the CPU has
    /// it, else the fastest available. Read once.
    pub fn chosen() -> BatchPath {
        static CHOSEN: OnceLock<BatchPath> = OnceLock::new();
        *CHOSEN.get_or_init(|| {
            let forced = match std::env::var(Self::VAR).ok().as_deref() {
                Some("avx512") => Some(BatchPath::Avx512),
                Some("avx2") => Some(BatchPath::Avx2),
                Some("scalar") => Some(BatchPath::OneAtATime),
                _ => None,
            };
            forced
                .into_iter()
                .chain([BatchPath::Avx512, BatchPath::Avx2, BatchPath::OneAtATime])
                .find(|p| p.available())
                .unwrap_or(BatchPath::OneAtATime)
        })
    }

    /// The name `PIPELINE_EVAL_BATCH` gives the path.
    pub fn name(self) -> &'static str {
        match self {
            BatchPath::Avx512 => "avx512",
            BatchPath::Avx2 => "avx2",
            BatchPath::OneAtATime => "scalar",
        }
    }
}

impl Tables {
    /// The strength of every hand, into `out` (as [`Tables::evaluate`] gives it), for
    /// callers holding many hands: sixteen at a time where the CPU has AVX-512 (with its
    /// byte-permutation extension), four where it has AVX2, one at a time elsewhere (or
    /// as `PIPELINE_EVAL_BATCH` forces, see [`BatchPath`]).
    ///
    /// # Panics
    /// When `out` is not as long as `hands`.
    pub fn evaluate_many(&self, hands: &[[Card; 7]], out: &mut [u16]) {
        self.evaluate_many_by(BatchPath::chosen(), hands, out);
    }

    /// [`Tables::evaluate_many`] by a given path (one at a time where the CPU lacks it).
    ///
    /// # Panics
    /// When `out` is not as long as `hands`.
    pub fn evaluate_many_by(&self, path: BatchPath, hands: &[[Card; 7]], out: &mut [u16]) {
        assert_eq!(hands.len(), out.len(), "one strength per hand");
        #[cfg(target_arch = "x86_64")]
        if path.available() {
            let done = match path {
                // SAFETY: the CPU has the features each kernel is compiled for.
                BatchPath::Avx512 => unsafe { avx512::evaluate(self, hands, out) },
                // SAFETY: as above.
                BatchPath::Avx2 => unsafe { avx2::evaluate(self, hands, out) },
                BatchPath::OneAtATime => 0,
            };
            self.evaluate_each(&hands[done..], &mut out[done..]);
            return;
        }
        let _ = path;
        self.evaluate_each(hands, out);
    }

    /// Evaluates the hands of a block whose bits are set in `marks` (bit i: hand i), one
    /// at a time: the vector paths mark the hands they left without their flush strength.
    fn evaluate_marked(&self, hands: &[[Card; 7]], out: &mut [u16], mut marks: u64) {
        while marks != 0 {
            let i = marks.trailing_zeros() as usize;
            out[i] = self.evaluate(&hands[i]);
            marks &= marks - 1;
        }
    }

    /// One hand at a time.
    fn evaluate_each(&self, hands: &[[Card; 7]], out: &mut [u16]) {
        for (hand, strength) in hands.iter().zip(out) {
            *strength = self.evaluate(hand);
        }
    }

    /// The rank field of each rank's card key, by rank (0 past the thirteenth): a card key
    /// without its suit count.
    fn rank_keys(&self) -> [u32; 16] {
        std::array::from_fn(|rank| {
            if rank < 13 {
                // The rank fields fill the key's low 31 bits; the suit counts lie above.
                (self.card_key[rank * 4] & ((1 << super::SUIT_SHIFT) - 1)) as u32
            } else {
                0
            }
        })
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    use cardtables::Card;

    use super::super::{Tables, FLUSH_BITS, FLUSH_PROBE, LOW_RANKS};

    /// Hands to a vector: one 64-bit lane a hand, its seven card ids in the low bytes.
    const LANES: usize = 4;
    /// Bytes of one vector's hands.
    const SPAN: usize = 7 * LANES;
    /// Bytes the two 16-byte loads of a vector reach from its first hand.
    const READ: usize = 14 + 16;
    /// Vectors whose flushes are marked in one 64-bit word.
    const BLOCK: usize = 64 / LANES;

    /// Whether this CPU runs [`evaluate`].
    pub(super) fn available() -> bool {
        is_x86_feature_detected!("avx2")
    }

    /// A 16-entry byte table in both 128-bit halves, for `_mm256_shuffle_epi8`.
    fn table(f: impl Fn(usize) -> u8) -> [u8; 32] {
        std::array::from_fn(|i| f(i % 16))
    }

    /// 64-bit lanes whose top byte is `pad` and other bytes zero: the sum of absolute
    /// differences against it drops the eighth byte of a hand's lane (its id is 0 there,
    /// so its table byte is that of id or rank 0).
    fn pad(pad: u8) -> [u8; 32] {
        std::array::from_fn(|i| if i % 8 == 7 { pad } else { 0 })
    }

    /// Evaluates the whole vectors of `hands` into `out` and returns how many hands that
    /// was (a multiple of four); the caller evaluates the rest.
    ///
    /// # Safety
    /// The CPU must have AVX2 ([`available`]); `out` is as long as `hands`.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn evaluate(t: &Tables, hands: &[[Card; 7]], out: &mut [u16]) -> usize {
        debug_assert_eq!(hands.len(), out.len());
        let vectors = hands.len() / LANES;
        let bytes = hands.as_ptr().cast::<u8>();
        let load = |bytes: &[u8; 32]| _mm256_loadu_si256(bytes.as_ptr().cast());
        // Each 16-byte half holds two hands (14 bytes): hand 2j in lane 2j, hand 2j + 1 in
        // lane 2j + 1, the eighth byte of each lane zero.
        let spread = load(&table(|i| match i {
            0..=6 => i as u8,
            8..=14 => (i - 1) as u8,
            _ => 0x80,
        }));
        // A rank's base-5 digit in four parts, each sum of seven below 2^16: the low field
        // (ranks 2–8) is `low_a + 625·low_b`, the high one (9–A) `high_a + 125·high_b`.
        let digit = |first: usize, count: usize| {
            table(move |r| {
                if (first..first + count).contains(&r) {
                    5u8.pow((r - first) as u32)
                } else {
                    0
                }
            })
        };
        let low_a = load(&digit(0, 4));
        let low_b = load(&digit(4, LOW_RANKS - 4));
        let high_a = load(&digit(LOW_RANKS, 3));
        let high_b = load(&digit(LOW_RANKS + 3, 3));
        // Suit counts of suits 0 and 1 (one a nibble), then of suits 2 and 3, by the id's
        // low four bits (the suit is id % 4).
        let suits_01 = load(&table(|i| [1, 16, 0, 0][i % 4]));
        let suits_23 = load(&table(|i| [0, 0, 1, 16][i % 4]));
        // Both parts that give id 0 a nonzero byte give it 1 (rank 2's first digit, suit
        // 0's count).
        let pad_one = load(&pad(1));
        let zero = _mm256_setzero_si256();
        let rank_mask = _mm256_set1_epi8(0x3f);
        let times_625 = _mm256_set1_epi64x(625);
        let times_125 = _mm256_set1_epi64x(125);
        let probe = _mm256_set1_epi64x(i64::from(FLUSH_PROBE));
        let flush_bits = _mm256_set1_epi64x(i64::from(FLUSH_BITS));
        // The last vector's second load would read two bytes past the hands: it is
        // copied into a padded buffer first.
        let mut tail = [0u8; READ];
        // The vectors in blocks of sixteen: a block's hands with five cards of a suit (3 %
        // of random hands) are marked in one word and evaluated after it, so that the
        // block's table reads never wait behind a branch on whether a vector holds a
        // flush (taken by one vector in eight, and mispredicted about as often).
        for first in (0..vectors).step_by(BLOCK) {
            let mut flushes = 0u64;
            for v in first..vectors.min(first + BLOCK) {
                let mut p = bytes.add(SPAN * v);
                if v + 1 == vectors {
                    // SAFETY: the vector's SPAN bytes lie inside `hands`.
                    std::ptr::copy_nonoverlapping(p, tail.as_mut_ptr(), SPAN);
                    p = tail.as_ptr();
                }
                // SAFETY: bytes p .. p + READ are readable: inside `hands` (a vector
                // before the last is followed by SPAN more bytes) or inside `tail`.
                let ids = _mm256_shuffle_epi8(
                    _mm256_set_m128i(_mm_loadu_si128(p.add(14).cast()), _mm_loadu_si128(p.cast())),
                    spread,
                );
                let ranks = _mm256_and_si256(_mm256_srli_epi16::<2>(ids), rank_mask);
                let sum = |table: __m256i, of: __m256i, pad: __m256i| {
                    _mm256_sad_epu8(_mm256_shuffle_epi8(table, of), pad)
                };
                let low = _mm256_add_epi64(
                    sum(low_a, ranks, pad_one),
                    _mm256_mul_epu32(sum(low_b, ranks, zero), times_625),
                );
                let high = _mm256_add_epi64(
                    sum(high_a, ranks, zero),
                    _mm256_mul_epu32(sum(high_b, ranks, zero), times_125),
                );
                let mut fields = [0u64; LANES];
                _mm256_storeu_si256(
                    fields.as_mut_ptr().cast(),
                    _mm256_or_si256(low, _mm256_slli_epi64::<32>(high)),
                );
                let out = &mut out[LANES * v..LANES * (v + 1)];
                for (strength, &f) in out.iter_mut().zip(&fields) {
                    *strength = t.by_ranks(t.rank_index_of(f as u32, (f >> 32) as u32));
                }
                let counts = _mm256_add_epi64(
                    sum(suits_01, ids, pad_one),
                    _mm256_slli_epi64::<8>(sum(suits_23, ids, zero)),
                );
                let flush = _mm256_and_si256(_mm256_add_epi64(counts, probe), flush_bits);
                let lanes =
                    _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(flush, zero)));
                flushes |= (lanes as u64) << (LANES * (v - first));
            }
            t.evaluate_marked(&hands[LANES * first..], &mut out[LANES * first..], flushes);
        }
        vectors * LANES
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::*;

    use cardtables::Card;

    use super::super::{
        Tables, FLUSH_BITS, FLUSH_PROBE, HIGH_TERMS_AT, INDEX_SPAN, LOW_BITS, LOW_TERMS_AT,
    };

    /// Hands to a vector.
    const LANES: usize = 16;
    /// Vectors whose flushes are marked in one 64-bit word.
    const BLOCK: usize = 64 / LANES;
    /// Bytes of one vector's hands.
    const SPAN: usize = 7 * LANES;
    /// How far ahead of the hands being read the next ones are prefetched, in bytes: the
    /// gathers keep the core's own loads busy, so the hands stream in better when asked
    /// for early.
    const PREFETCH_AHEAD: usize = 2048;

    /// Whether this CPU runs [`evaluate`].
    pub(super) fn available() -> bool {
        is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512bw")
            && is_x86_feature_detected!("avx512vbmi")
    }

    /// Evaluates the whole vectors of `hands` into `out` and returns how many hands that
    /// was (a multiple of sixteen); the caller evaluates the rest.
    ///
    /// # Safety
    /// The CPU must have AVX-512 F, BW and VBMI ([`available`]); `out` is as long as
    /// `hands`.
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    pub(super) unsafe fn evaluate(t: &Tables, hands: &[[Card; 7]], out: &mut [u16]) -> usize {
        debug_assert_eq!(hands.len(), out.len());
        let vectors = hands.len() / LANES;
        // Card is one byte (`repr(transparent)` over u8), so the hands are 7·len bytes.
        let bytes = hands.as_ptr().cast::<u8>();
        let words = t.words.as_ptr().cast::<i32>();
        let rank_keys = t.rank_keys();
        let rank_key = _mm512_loadu_si512(rank_keys.as_ptr().cast());
        // A card's suit count increment by its id's low four bits (the suit is id % 4).
        let suit_count = _mm512_setr_epi32(
            1, 16, 256, 4096, 1, 16, 256, 4096, 1, 16, 256, 4096, 1, 16, 256, 4096,
        );
        // For card position k, the byte permutation that puts byte 7j + k (of the two
        // 64-byte halves) into the low byte of lane j; the other bytes are zeroed.
        let pick: [__m512i; 7] = std::array::from_fn(|k| {
            let mut index = [0u8; 64];
            for (lane, byte) in index.chunks_exact_mut(4).enumerate() {
                byte[0] = (7 * lane + k) as u8;
            }
            _mm512_loadu_si512(index.as_ptr().cast())
        });
        let low_bytes = 0x1111_1111_1111_1111u64;
        let low_field = _mm512_set1_epi32((1 << LOW_BITS) - 1);
        let low_terms_at = _mm512_set1_epi32(LOW_TERMS_AT as i32);
        let high_terms_at = _mm512_set1_epi32(HIGH_TERMS_AT as i32);
        let index_mask = _mm512_set1_epi32(INDEX_SPAN as i32 - 1);
        let word = _mm512_set1_epi32(0xffff);
        let probe = _mm512_set1_epi32(FLUSH_PROBE as i32);
        let flush_bits = _mm512_set1_epi32(FLUSH_BITS as i32);
        for start in (0..vectors).step_by(BLOCK) {
            let mut flush_lanes = 0u64;
            for v in start..vectors.min(start + BLOCK) {
                // SAFETY (all pointer arithmetic and loads below): vector v's bytes
                // 7·16·v .. 7·16·(v + 1) lie inside `hands`; the second load reads only the
                // 48 bytes its mask names (masked-off bytes are never touched); prefetches
                // never fault.
                let p = bytes.add(SPAN * v);
                _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(PREFETCH_AHEAD).cast());
                _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(PREFETCH_AHEAD + 64).cast());
                let first = _mm512_loadu_si512(p.cast());
                let second = _mm512_maskz_loadu_epi8((1 << (SPAN - 64)) - 1, p.add(64).cast());
                let mut ranks_key = _mm512_setzero_si512();
                let mut suits_key = _mm512_setzero_si512();
                for &pick in &pick {
                    let id = _mm512_maskz_permutex2var_epi8(low_bytes, first, pick, second);
                    let suit = _mm512_permutexvar_epi32(id, suit_count);
                    let rank = _mm512_srli_epi32::<2>(id);
                    ranks_key =
                        _mm512_add_epi32(ranks_key, _mm512_permutexvar_epi32(rank, rank_key));
                    suits_key = _mm512_add_epi32(suits_key, suit);
                }
                // The rank fields are read as in `Tables::rank_index`: one gather per field
                // (32-bit lanes at 16-bit steps, so each keeps its low half), then the strength.
                let low = _mm512_add_epi32(_mm512_and_si512(ranks_key, low_field), low_terms_at);
                let high =
                    _mm512_add_epi32(_mm512_srli_epi32::<LOW_BITS>(ranks_key), high_terms_at);
                let low_term = _mm512_and_si512(_mm512_i32gather_epi32::<2>(low, words), word);
                let high_term = _mm512_and_si512(_mm512_i32gather_epi32::<2>(high, words), word);
                let index = _mm512_and_si512(_mm512_add_epi32(low_term, high_term), index_mask);
                let strength = _mm512_i32gather_epi32::<2>(index, words);
                let flush = _mm512_and_si512(_mm512_add_epi32(suits_key, probe), flush_bits);
                flush_lanes |=
                    u64::from(_mm512_test_epi32_mask(flush, flush)) << (LANES * (v - start));
                let strength = _mm512_cvtepi32_epi16(_mm512_and_si512(strength, word));
                _mm256_storeu_si256(out.as_mut_ptr().add(LANES * v).cast(), strength);
            }
            t.evaluate_marked(
                &hands[LANES * start..],
                &mut out[LANES * start..],
                flush_lanes,
            );
        }
        vectors * LANES
    }
}

#[cfg(test)]
mod tests {
    use super::super::tables;
    use super::BatchPath;
    use cardtables::Card;
    use rand::{RngExt, SeedableRng};
    use rand_pcg::Pcg64;

    /// `n` hands of seven distinct cards; with `suited`, five or more share one suit.
    fn hands(n: usize, suited: bool, seed: u64) -> Vec<[Card; 7]> {
        let mut rng = Pcg64::seed_from_u64(seed);
        let mut ids: Vec<u8> = (0..52).collect();
        (0..n)
            .map(|_| loop {
                for i in 0..7 {
                    let j = rng.random_range(i..52);
                    ids.swap(i, j);
                }
                let hand: [Card; 7] =
                    std::array::from_fn(|i| Card::from_id(ids[i]).expect("id < 52"));
                let most = (0..4)
                    .map(|s| hand.iter().filter(|c| c.suit() == s).count())
                    .max()
                    .expect("four suits");
                if !suited || most >= 5 {
                    break hand;
                }
            })
            .collect()
    }

    /// Every path this CPU runs (the one-at-a-time path everywhere).
    fn paths() -> Vec<BatchPath> {
        [BatchPath::Avx512, BatchPath::Avx2, BatchPath::OneAtATime]
            .into_iter()
            .filter(|p| p.available())
            .collect()
    }

    fn one_by_one(hands: &[[Card; 7]]) -> Vec<u16> {
        let t = tables();
        hands.iter().map(|h| t.evaluate(h)).collect()
    }

    #[test]
    fn many_hands_at_once_agree_with_one_at_a_time() {
        let t = tables();
        // Random hands (a few vectors hold no flush, most hold one or more), then
        // vectors of flushes only, at lengths that leave every remainder of sixteen.
        let random = hands(20_000 + 15, false, 7);
        let suited = hands(2_000 + 9, true, 8);
        for path in paths() {
            for set in [&random, &suited] {
                let mut out = vec![u16::MAX; set.len()];
                t.evaluate_many_by(path, set, &mut out);
                assert_eq!(out, one_by_one(set), "{path:?}");
            }
            for len in 0..40 {
                let mut out = vec![u16::MAX; len];
                t.evaluate_many_by(path, &suited[..len], &mut out);
                assert_eq!(out, one_by_one(&suited[..len]), "{path:?}, {len} hands");
            }
        }
    }

    #[test]
    #[cfg_attr(debug_assertions, ignore = "all 133,784,560 hands: run with --release")]
    fn every_seven_card_hand_in_batches_agrees_with_one_at_a_time() {
        let t = tables();
        let card = |id: usize| Card::from_id(id as u8).expect("id < 52");
        let mut batch: Vec<[Card; 7]> = Vec::with_capacity(4096);
        let mut out = vec![0u16; 4096];
        let mut counts = [0u64; 9];
        // Each vector path this CPU has, on every hand.
        let vector_paths: Vec<BatchPath> = paths()
            .into_iter()
            .filter(|&p| p != BatchPath::OneAtATime)
            .collect();
        let mut check = |batch: &mut Vec<[Card; 7]>| {
            let out = &mut out[..batch.len()];
            for &path in &vector_paths {
                t.evaluate_many_by(path, batch, out);
                for (hand, &strength) in batch.iter().zip(out.iter()) {
                    assert_eq!(strength, t.evaluate(hand), "{path:?}: {hand:?}");
                }
            }
            for hand in batch.iter() {
                counts[super::super::category(t.evaluate(hand))] += 1;
            }
            batch.clear();
        };
        let mut c = [0usize; 7];
        // Every increasing 7-tuple of card ids, in lexicographic order.
        c.iter_mut().enumerate().for_each(|(i, x)| *x = i);
        loop {
            batch.push(c.map(card));
            if batch.len() == 4096 {
                check(&mut batch);
            }
            let Some(i) = (0..7).rev().find(|&i| c[i] < 45 + i) else {
                break;
            };
            c[i] += 1;
            for j in i + 1..7 {
                c[j] = c[j - 1] + 1;
            }
        }
        check(&mut batch);
        assert_eq!(
            counts,
            [
                23_294_460, 58_627_800, 31_433_400, 6_461_620, 6_180_020, 4_047_644, 3_473_184,
                224_848, 41_584
            ]
        );
    }

    #[test]
    fn whole_vectors_of_one_hand_read_its_strength() {
        let parse = |s: &str| -> [Card; 7] {
            cardtables::parse_cards(s)
                .expect("cards")
                .try_into()
                .expect("seven")
        };
        // Sixteen copies fill one vector: a royal flush (the top strength), then a high
        // card hand (no pair, no straight, no flush).
        let royal = parse("As Ks Qs Js Ts 2d 3c");
        let low = parse("7h 5d 4c 3s 2h 9c 8d");
        let mut set = vec![royal; 16];
        set.extend(vec![low; 16]);
        for path in paths() {
            let mut out = vec![0; set.len()];
            tables().evaluate_many_by(path, &set, &mut out);
            assert!(out[..16].iter().all(|&s| s == 7461), "{path:?}: {out:?}");
            assert!(
                out[16..].iter().all(|&s| s == tables().evaluate(&low)),
                "{path:?}: {out:?}"
            );
        }
    }
}
