//! The closed-form decision model shared by every game (the pipeline's
//! `docs/rules/holdem.md`, with the tutorial articles' mistakes corrected). Amounts are
//! chips; `pot` is the pot before our decision, including the opponent's bet; `equity` is
//! our share of the pot at showdown (wins plus split ties).

/// EV of folding: nothing more is lost.
pub const EV_FOLD: f64 = 0.0;

/// EV of calling `call` into `pot`: `w·(P + C) − C`.
///
/// The tutorial's `w·(P + C) − (1 − w)·C` counts our own call as winnings; it is wrong by `w·C`.
pub fn ev_call(equity: f64, pot: f64, call: f64) -> f64 {
    equity * (pot + call) - call
}

/// EV of raising to a total of `raise_to` (≥ `call`) when the opponent folds with
/// probability `fold`: `f·P + (1 − f)·(w·(P + 2R − C) − R)`. When called, the pot holds
/// the old pot, our `R` and the opponent's extra `R − C`.
pub fn ev_raise(equity: f64, pot: f64, call: f64, raise_to: f64, fold: f64) -> f64 {
    fold * pot + (1.0 - fold) * (equity * (pot + 2.0 * raise_to - call) - raise_to)
}

/// The raise EV of the tutorial article the Zhajinhua tables started from,
/// `f·P + (1 − f)·(w·(P + R) − R)`, which forgets the chips the opponent adds when calling.
/// Reported beside [`ev_raise`] only to show the gap.
pub fn ev_raise_article(equity: f64, pot: f64, raise_to: f64, fold: f64) -> f64 {
    fold * pot + (1.0 - fold) * (equity * (pot + raise_to) - raise_to)
}

/// EV of paying `cost` to compare (比牌) with one opponent and take the pot on a win:
/// `w·(P + K) − K`.
pub fn ev_compare(win: f64, pot: f64, cost: f64) -> f64 {
    win * (pot + cost) - cost
}

/// Equity needed for a call to break even: `C / (P + C)`.
pub fn required_equity(pot: f64, call: f64) -> f64 {
    call / (pot + call)
}

/// Kelly fraction `f* = (b·p − q)/b` for net odds `b` and win probability `p`; negative
/// means the bet should not be made.
pub fn kelly(net_odds: f64, p: f64) -> f64 {
    (net_odds * p - (1.0 - p)) / net_odds
}

/// Half of [`kelly`], the usual lower-variance choice.
pub fn half_kelly(net_odds: f64, p: f64) -> f64 {
    kelly(net_odds, p) / 2.0
}

/// Exact probability that at least one of `outs` cards comes among `cards` dealt from
/// `unseen`: `1 − C(unseen − outs, cards) / C(unseen, cards)`.
pub fn hit_probability(outs: u32, unseen: u32, cards: u32) -> f64 {
    if outs >= unseen || cards > unseen {
        return if outs > 0 { 1.0 } else { 0.0 };
    }
    let misses = f64::from(unseen - outs);
    let miss: f64 = (0..cards)
        .map(|i| (misses - f64::from(i)).max(0.0) / f64::from(unseen - i))
        .product();
    1.0 - miss
}

/// The "rule of 2 and 4": 2 % per out with one card to come, 4 % with two. An
/// approximation to report against, never to decide with.
pub fn rule_of_2_and_4(outs: u32, cards: u32) -> f64 {
    f64::from(outs) * 0.02 * f64::from(cards.min(2))
}

/// EV of calling with hit probability `p` when hitting wins the pot plus an implied win
/// `implied` and missing loses the call (the five-card stud rules): `p·(P + I) − (1 − p)·C`.
pub fn ev_call_implied(p: f64, pot: f64, call: f64, implied: f64) -> f64 {
    p * (pot + implied) - (1.0 - p) * call
}

/// The fewest outs that make calling profitable (EV > 0), or `None` if even every unseen
/// card would not.
pub fn break_even_outs(pot: f64, call: f64, implied: f64, unseen: u32, cards: u32) -> Option<u32> {
    (0..=unseen)
        .find(|&o| ev_call_implied(hit_probability(o, unseen, cards), pot, call, implied) > 0.0)
}

/// Playing styles of the tutorial's section 4.3, as thresholds on an action's EV.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Act only when EV exceeds 5 % of the pot.
    Tight,
    /// Act when EV exceeds −2 % of the pot.
    Loose,
    /// Act on positive EV, valuing raises with a fold rate of at most 10 %.
    Steady,
}

impl Style {
    /// Whether an action with this EV is taken in a pot of this size.
    pub fn accepts(self, ev: f64, pot: f64) -> bool {
        match self {
            Style::Tight => ev > 0.05 * pot,
            Style::Loose => ev > -0.02 * pot,
            Style::Steady => ev > 0.0,
        }
    }

    /// The fold rate this style assumes when valuing a raise.
    pub fn fold_rate(self, observed: f64) -> f64 {
        match self {
            Style::Steady => observed.min(0.1),
            _ => observed,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_example_call() {
        // Pot 100 with the opponent's 20 in it, call 20, equity 0.3: 0.3·120 − 20 = 16.
        assert!((ev_call(0.3, 100.0, 20.0) - 16.0).abs() < 1e-12);
        assert!((required_equity(100.0, 20.0) - 20.0 / 120.0).abs() < 1e-12);
        assert!(ev_call(required_equity(100.0, 20.0), 100.0, 20.0).abs() < 1e-12);
    }

    #[test]
    fn the_seeds_call_formula_is_off_by_w_times_c() {
        // Seed: w·(P + C) − (1 − w)·C. It counts our own call as winnings.
        let seed = |w: f64, p: f64, c: f64| w * (p + c) - (1.0 - w) * c;
        for (w, p, c) in [(0.3, 100.0, 20.0), (0.75, 130.0, 30.0), (0.5, 50.0, 50.0)] {
            assert!((seed(w, p, c) - ev_call(w, p, c) - w * c).abs() < 1e-12);
        }
    }

    #[test]
    fn raise_to_call_with_no_folds_is_a_call() {
        for w in [0.1, 0.5, 0.9] {
            assert!((ev_raise(w, 100.0, 30.0, 30.0, 0.0) - ev_call(w, 100.0, 30.0)).abs() < 1e-12);
        }
        // The tutorial's formula misses the opponent's R − C when called.
        let gap = ev_raise(0.6, 100.0, 30.0, 80.0, 0.25) - ev_raise_article(0.6, 100.0, 80.0, 0.25);
        assert!((gap - 0.75 * 0.6 * (80.0 - 30.0)).abs() < 1e-9);
    }

    #[test]
    fn hit_probability_matches_the_seeds_example() {
        // 15 outs, 46 unseen, two cards: 1 − 31·30/(46·45) = 0.5507; the rule says 0.60.
        assert!((hit_probability(15, 46, 2) - (1.0 - 31.0 * 30.0 / (46.0 * 45.0))).abs() < 1e-12);
        assert!((rule_of_2_and_4(15, 2) - 0.60).abs() < 1e-12);
        assert!((hit_probability(9, 46, 1) - 9.0 / 46.0).abs() < 1e-15);
        assert_eq!(hit_probability(0, 46, 2), 0.0);
        assert_eq!(hit_probability(46, 46, 1), 1.0);
    }

    #[test]
    fn break_even_outs_is_the_first_profitable_count() {
        // Pot 120, call 40, implied 80, 44 unseen, one card: need p·200 > (1 − p)·40.
        let o = break_even_outs(120.0, 40.0, 80.0, 44, 1).unwrap();
        let p = |n: u32| hit_probability(n, 44, 1);
        assert!(ev_call_implied(p(o), 120.0, 40.0, 80.0) > 0.0);
        assert!(ev_call_implied(p(o - 1), 120.0, 40.0, 80.0) <= 0.0);
        assert_eq!(o, 8);
    }

    #[test]
    fn kelly_matches_the_textbook_case() {
        // Even money with p = 0.6: f* = 0.2.
        assert!((kelly(1.0, 0.6) - 0.2).abs() < 1e-12);
        assert!((half_kelly(1.0, 0.6) - 0.1).abs() < 1e-12);
        assert!(kelly(1.0, 0.4) < 0.0);
    }

    #[test]
    fn styles_order_their_thresholds() {
        assert!(Style::Loose.accepts(-1.0, 100.0));
        assert!(!Style::Steady.accepts(-1.0, 100.0));
        assert!(Style::Steady.accepts(1.0, 100.0));
        assert!(!Style::Tight.accepts(1.0, 100.0));
        assert_eq!(Style::Steady.fold_rate(0.4), 0.1);
    }
}
