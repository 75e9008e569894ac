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
//! With AVX2 (eight hands a vector) the keys are built the same way in more instructions:
//! four 16-byte loads hold two hands each, two in-lane byte shuffles per card position
//! bring card `k` of the eight hands into eight lanes (in the order 0 1 4 5 2 3 6 7, put
//! right when stored), and the rank digit is read from two 8-entry permutations. The three
//! table reads are then the core's own loads, lane by lane: an 8-lane gather costs more
//! than eight loads on AMD Zen 2 and 3, so the saving is the fourteen card loads a hand.
//!
//! A hand with five cards of a suit (3 % of random hands) gets its flush mask from the
//! kept card ids and its strength from one masked gather, only when its vector holds a
//! flush. The last hands that fill no vector go through [`Tables::evaluate`]. Every path
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
    /// Eight hands a vector (AVX2).
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
    /// byte-permutation extension), eight where it has AVX2, one at a time elsewhere (or
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

    use super::super::{Tables, FLUSH_BITS, FLUSH_PROBE, LOW_BITS};

    /// Hands to a vector.
    const LANES: usize = 8;
    /// Bytes of one vector's hands.
    const SPAN: usize = 7 * LANES;
    /// The hand each lane holds: the in-lane shuffles leave hands 0 1 4 5 2 3 6 7.
    const HAND_OF_LANE: [usize; LANES] = [0, 1, 4, 5, 2, 3, 6, 7];

    /// Whether this CPU runs [`evaluate`].
    pub(super) fn available() -> bool {
        is_x86_feature_detected!("avx2")
    }

    /// Evaluates the whole vectors of `hands` into `out` and returns how many hands that
    /// was (a multiple of eight); the caller evaluates the rest.
    ///
    /// # Safety
    /// The CPU must have AVX2 ([`available`]); `out` is as long as `hands`.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn evaluate(t: &Tables, hands: &[[Card; 7]], out: &mut [u16]) -> usize {
        debug_assert_eq!(hands.len(), out.len());
        let vectors = hands.len() / LANES;
        let bytes = hands.as_ptr().cast::<u8>();
        let rank_keys = t.rank_keys();
        let rank_low = _mm256_loadu_si256(rank_keys.as_ptr().cast());
        let rank_high = _mm256_loadu_si256(rank_keys[8..].as_ptr().cast());
        let seven = _mm256_set1_epi32(7);
        let suit_count = _mm256_setr_epi32(1, 16, 256, 4096, 1, 16, 256, 4096);
        // For card position k: the in-lane byte shuffle that puts byte k of each 16-byte
        // half (the first hand of the pair) into dword `first` and byte 7 + k (the second)
        // into dword `first + 1`, zeroing every other byte.
        let pick = |k: usize, first: usize| {
            let mut index = [0x80u8; 32];
            for half in 0..2 {
                index[16 * half + 4 * first] = k as u8;
                index[16 * half + 4 * (first + 1)] = (7 + k) as u8;
            }
            _mm256_loadu_si256(index.as_ptr().cast())
        };
        let pick_a: [__m256i; 7] = std::array::from_fn(|k| pick(k, 0));
        let pick_b: [__m256i; 7] = std::array::from_fn(|k| pick(k, 2));
        let low_field = _mm256_set1_epi32((1 << LOW_BITS) - 1);
        let probe = _mm256_set1_epi32(FLUSH_PROBE as i32);
        let flush_bits = _mm256_set1_epi32(FLUSH_BITS as i32);
        let one = _mm256_set1_epi32(1);
        let zero = _mm256_setzero_si256();
        // The last vector's 16-byte loads would read two bytes past the hands: it is
        // copied into a padded buffer first.
        let mut tail = [0u8; SPAN + 16];
        for v in 0..vectors {
            let mut p = bytes.add(SPAN * v);
            if v + 1 == vectors {
                // SAFETY: the vector's SPAN bytes lie inside `hands`.
                std::ptr::copy_nonoverlapping(p, tail.as_mut_ptr(), SPAN);
                p = tail.as_ptr();
            }
            // SAFETY: bytes p .. p + 58 are readable: inside `hands` (a vector before the
            // last is followed by at least SPAN more bytes) or inside `tail`.
            let load = |at: usize| _mm_loadu_si128(p.add(at).cast());
            let pairs_a = _mm256_set_m128i(load(14), load(0));
            let pairs_b = _mm256_set_m128i(load(42), load(28));
            let mut ids = [zero; 7];
            let mut suits = [zero; 7];
            let mut ranks_key = zero;
            let mut suits_key = zero;
            for k in 0..7 {
                let id = _mm256_or_si256(
                    _mm256_shuffle_epi8(pairs_a, pick_a[k]),
                    _mm256_shuffle_epi8(pairs_b, pick_b[k]),
                );
                let rank = _mm256_srli_epi32::<2>(id);
                let rank_key = _mm256_blendv_epi8(
                    _mm256_permutevar8x32_epi32(rank_low, rank),
                    _mm256_permutevar8x32_epi32(rank_high, rank),
                    _mm256_cmpgt_epi32(rank, seven),
                );
                let suit = _mm256_permutevar8x32_epi32(suit_count, id);
                ranks_key = _mm256_add_epi32(ranks_key, rank_key);
                suits_key = _mm256_add_epi32(suits_key, suit);
                ids[k] = id;
                suits[k] = suit;
            }
            // The table reads are the core's own loads, not gathers: an 8-lane gather
            // costs more than eight loads on AMD's Zen 2 and 3.
            let mut low = [0u32; LANES];
            let mut high = [0u32; LANES];
            _mm256_storeu_si256(
                low.as_mut_ptr().cast(),
                _mm256_and_si256(ranks_key, low_field),
            );
            _mm256_storeu_si256(
                high.as_mut_ptr().cast(),
                _mm256_srli_epi32::<{ LOW_BITS as i32 }>(ranks_key),
            );
            let mut strength = [0u16; LANES];
            for lane in 0..LANES {
                strength[lane] = t.by_ranks(t.rank_index_of(low[lane], high[lane]));
            }
            let flush = _mm256_and_si256(_mm256_add_epi32(suits_key, probe), flush_bits);
            if _mm256_testz_si256(flush, flush) == 0 {
                let flush_suit = _mm256_srli_epi32::<3>(flush);
                let mut mask = zero;
                for k in 0..7 {
                    let in_suit = _mm256_cmpgt_epi32(_mm256_and_si256(suits[k], flush_suit), zero);
                    let rank_bit = _mm256_sllv_epi32(one, _mm256_srli_epi32::<2>(ids[k]));
                    mask = _mm256_or_si256(mask, _mm256_and_si256(in_suit, rank_bit));
                }
                let mut masks = [0u32; LANES];
                _mm256_storeu_si256(masks.as_mut_ptr().cast(), mask);
                let mut flushes =
                    _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(flush, zero))) as u32;
                while flushes != 0 {
                    let lane = flushes.trailing_zeros() as usize;
                    strength[lane] = t.flush(masks[lane] as u16);
                    flushes &= flushes - 1;
                }
            }
            let out = &mut out[LANES * v..LANES * (v + 1)];
            for (lane, &hand) in HAND_OF_LANE.iter().enumerate() {
                out[hand] = strength[lane];
            }
        }
        vectors * LANES
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use std::arch::x86_64::*;

    use cardtables::Card;

    use super::super::{
        Tables, BY_FLUSH_AT, FLUSH_BITS, FLUSH_PROBE, HIGH_TERMS_AT, INDEX_SPAN, LOW_BITS,
        LOW_TERMS_AT,
    };

    /// Hands to a vector.
    const LANES: usize = 16;
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
        let one = _mm512_set1_epi32(1);
        for v in 0..vectors {
            // SAFETY (all pointer arithmetic and loads below): vector v's bytes
            // 7·16·v .. 7·16·(v + 1) lie inside `hands`; the second load reads only the
            // 48 bytes its mask names (masked-off bytes are never touched); prefetches
            // never fault.
            let p = bytes.add(SPAN * v);
            _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(PREFETCH_AHEAD).cast());
            _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(PREFETCH_AHEAD + 64).cast());
            let first = _mm512_loadu_si512(p.cast());
            let second = _mm512_maskz_loadu_epi8((1 << (SPAN - 64)) - 1, p.add(64).cast());
            let mut ids = [_mm512_setzero_si512(); 7];
            let mut suits = [_mm512_setzero_si512(); 7];
            let mut ranks_key = _mm512_setzero_si512();
            let mut suits_key = _mm512_setzero_si512();
            for k in 0..7 {
                let id = _mm512_maskz_permutex2var_epi8(low_bytes, first, pick[k], second);
                let suit = _mm512_permutexvar_epi32(id, suit_count);
                let rank = _mm512_srli_epi32::<2>(id);
                ranks_key = _mm512_add_epi32(ranks_key, _mm512_permutexvar_epi32(rank, rank_key));
                suits_key = _mm512_add_epi32(suits_key, suit);
                ids[k] = id;
                suits[k] = suit;
            }
            // The rank fields are read as in `Tables::rank_index`: one gather per field
            // (32-bit lanes at 16-bit steps, so each keeps its low half), then the strength.
            let low = _mm512_add_epi32(_mm512_and_si512(ranks_key, low_field), low_terms_at);
            let high = _mm512_add_epi32(_mm512_srli_epi32::<LOW_BITS>(ranks_key), high_terms_at);
            let low_term = _mm512_and_si512(_mm512_i32gather_epi32::<2>(low, words), word);
            let high_term = _mm512_and_si512(_mm512_i32gather_epi32::<2>(high, words), word);
            let index = _mm512_and_si512(_mm512_add_epi32(low_term, high_term), index_mask);
            let mut strength = _mm512_i32gather_epi32::<2>(index, words);
            let flush = _mm512_and_si512(_mm512_add_epi32(suits_key, probe), flush_bits);
            let flushes = _mm512_test_epi32_mask(flush, flush);
            if flushes != 0 {
                // The flush suit's count bit, moved down to its suit's increment bit: a card
                // of that suit shares a bit with it.
                let flush_suit = _mm512_srli_epi32::<3>(flush);
                let mut mask = _mm512_set1_epi32(BY_FLUSH_AT as i32);
                for k in 0..7 {
                    let in_suit = _mm512_test_epi32_mask(suits[k], flush_suit);
                    let rank_bit = _mm512_sllv_epi32(one, _mm512_srli_epi32::<2>(ids[k]));
                    mask = _mm512_mask_or_epi32(mask, in_suit, mask, rank_bit);
                }
                strength = _mm512_mask_i32gather_epi32::<2>(strength, flushes, mask, words);
            }
            let strength = _mm512_cvtepi32_epi16(_mm512_and_si512(strength, word));
            _mm256_storeu_si256(out.as_mut_ptr().add(LANES * v).cast(), strength);
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
