//! Many 7-card hands at once: [`Tables::evaluate_many`].
//!
//! One hand at a time, the any-order path costs about seventeen loads a hand (seven card
//! bytes, seven card keys, three table reads), and a core issues two or three loads a
//! cycle: that bound, about 6–8 cycles a hand, is where [`Tables::evaluate`] runs. Sixteen
//! hands to an AVX-512 vector share their loads instead:
//! - two vector loads bring the sixteen hands' 112 card bytes, and one byte permutation per
//!   card position moves card `k` of hand `j` into 32-bit lane `j`;
//! - a card's rank digit and suit count come from 16-entry in-register tables (a lane-wise
//!   permutation indexed by the rank, and by the card id's low bits for the suit), so no
//!   card key is loaded;
//! - the three table reads are three gathers of sixteen lanes.
//!
//! About three loads a hand remain. A hand with five cards of a suit (3 % of random hands,
//! so 39 % of vectors hold one) gets its flush mask from the kept card ids and its strength
//! from one masked gather, only when its vector holds a flush.
//!
//! Elsewhere, and for the last `len % 16` hands, each hand goes through
//! [`Tables::evaluate`]. Both paths give the same strengths (tested hand by hand).

use cardtables::Card;

use super::Tables;

impl Tables {
    /// The strength of every hand, into `out` (as [`Tables::evaluate`] gives it), for
    /// callers holding many hands: sixteen at a time where the CPU has AVX-512 (with its
    /// byte-permutation extension), one at a time elsewhere.
    ///
    /// # Panics
    /// When `out` is not as long as `hands`.
    pub fn evaluate_many(&self, hands: &[[Card; 7]], out: &mut [u16]) {
        assert_eq!(hands.len(), out.len(), "one strength per hand");
        #[cfg(target_arch = "x86_64")]
        if avx512::available() {
            // SAFETY: the CPU has the features the kernel is compiled for.
            let done = unsafe { avx512::evaluate(self, hands, out) };
            self.evaluate_each(&hands[done..], &mut out[done..]);
            return;
        }
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
        for set in [&random, &suited] {
            let mut out = vec![u16::MAX; set.len()];
            t.evaluate_many(set, &mut out);
            assert_eq!(out, one_by_one(set));
        }
        for len in 0..40 {
            let mut out = vec![u16::MAX; len];
            t.evaluate_many(&suited[..len], &mut out);
            assert_eq!(out, one_by_one(&suited[..len]), "{len} hands");
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
        let mut check = |batch: &mut Vec<[Card; 7]>| {
            let out = &mut out[..batch.len()];
            t.evaluate_many(batch, out);
            for (hand, &strength) in batch.iter().zip(out.iter()) {
                assert_eq!(strength, t.evaluate(hand), "{hand:?}");
                counts[super::super::category(strength)] += 1;
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
        let mut out = vec![0; set.len()];
        tables().evaluate_many(&set, &mut out);
        assert!(out[..16].iter().all(|&s| s == 7461), "{out:?}");
        assert!(
            out[16..].iter().all(|&s| s == tables().evaluate(&low)),
            "{out:?}"
        );
    }
}
