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

/// The fold curve of the raise-size analysis: an opponent folds to a raise to `raise_to`
/// with probability `f(R) = m·(R − C)/(R − C + P)`, which grows from 0 at a call towards
/// `max_fold` (m) as the raise grows.
pub fn curved_fold(raise_to: f64, call: f64, pot: f64, max_fold: f64) -> f64 {
    let extra = (raise_to - call).max(0.0);
    max_fold * extra / (extra + pot)
}

/// The best raise found by [`optimum_raise`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RaiseOptimum {
    /// The raise-to amount.
    pub raise_to: f64,
    /// Its EV.
    pub ev: f64,
    /// The fold rate there, and the calling range (the top share of hands) with our
    /// equity against it.
    pub fold: f64,
    pub calling_share: f64,
    pub equity: f64,
    /// Whether it is the largest raise allowed (the EV still rises there).
    pub at_cap: bool,
}

/// Zhajinhua's betting conventions, as they change a decision's chips: whether the
/// opponents play blind (闷牌) or seen (看牌), and what asking for a comparison (比牌) costs
/// and who pays it. We have looked at our own hand, so we bet as a seen player, and every
/// amount (pot, call, raise-to, cost) is in our chips.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Betting {
    /// What a seen player pays per chip a blind player pays for the same stake (≥ 1;
    /// usually 2: a blind player's bet counts double).
    pub seen_multiplier: f64,
    /// Whether the opponents play blind: a blind opponent matches a stake with
    /// `1 / seen_multiplier` of the chips we pay, and, not having looked, calls or folds
    /// whatever its cards, so the hands that call a raise are random hands.
    pub opponents_blind: bool,
    /// What asking for a comparison costs, as a multiple of the call.
    pub showdown_cost: f64,
    /// Whether the opponent asked pays the cost too (at its rate), not only the asker.
    pub showdown_both_pay: bool,
    /// How many opponents a raise is priced against: they call or fold together, and each
    /// caller adds its share of the raise.
    pub callers: u32,
}

impl Betting {
    /// Seen opponents, comparison at the price of a call paid by the asker: the model of
    /// [`ev_raise`] and [`ev_compare`].
    pub const SEEN: Betting = Betting {
        seen_multiplier: 2.0,
        opponents_blind: false,
        showdown_cost: 1.0,
        showdown_both_pay: false,
        callers: 1,
    };

    /// These conventions with a raise priced against `callers` opponents.
    pub fn with_callers(self, callers: u32) -> Betting {
        Betting { callers, ..self }
    }

    /// The chips an opponent puts in per chip of ours for the same stake: 1 when seen,
    /// `1 / seen_multiplier` when blind.
    pub fn opponent_rate(&self) -> f64 {
        if self.opponents_blind {
            1.0 / self.seen_multiplier
        } else {
            1.0
        }
    }

    /// The chips the callers of a raise add per chip of ours: `n·ρ` for `n` callers.
    pub fn callers_rate(&self) -> f64 {
        f64::from(self.callers) * self.opponent_rate()
    }

    /// EV of raising to `raise_to` (≥ `call`) when the opponents fold with probability
    /// `fold`: `f·P + (1 − f)·(w·(P + R + n·ρ·(R − C)) − R)`, where each of the `n` callers
    /// adds its share `ρ` ([`Betting::opponent_rate`]) of the raise `R − C`. With one seen
    /// caller this is [`ev_raise`].
    pub fn ev_raise(&self, equity: f64, pot: f64, call: f64, raise_to: f64, fold: f64) -> f64 {
        let called = pot + raise_to + self.callers_rate() * (raise_to - call);
        fold * pot + (1.0 - fold) * (equity * called - raise_to)
    }

    /// The chips a comparison costs us when the call is `call`.
    pub fn showdown_chips(&self, call: f64) -> f64 {
        self.showdown_cost * call
    }

    /// EV of paying `cost` to compare with one opponent and taking the pot on a win
    /// (`win` counts a tie as the rules settle it): `w·(P + K + ρ·K) − K` when both pay,
    /// [`ev_compare`] when only we do.
    pub fn ev_compare(&self, win: f64, pot: f64, cost: f64) -> f64 {
        let theirs = if self.showdown_both_pay {
            self.opponent_rate() * cost
        } else {
            0.0
        };
        win * (pot + cost + theirs) - cost
    }

    /// The calling range after a raise a share `fold` folds to, as the top share of
    /// hands that calls: exactly `1 − fold` when the opponents have seen their cards (the
    /// strongest hands call), every hand (1) when they play blind, and 0 when everyone
    /// folds.
    pub fn calling_share(&self, fold: f64) -> f64 {
        if fold >= 1.0 {
            0.0
        } else if self.opponents_blind {
            1.0
        } else {
            (1.0 - fold).clamp(0.0, 1.0)
        }
    }
}

/// A raise priced against the hands that call it ([`ev_raise_vs_callers`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CalledRaise {
    pub ev: f64,
    /// The fold rate, the calling range (top share of hands) and our equity against it
    /// (0 where nobody calls).
    pub fold: f64,
    pub calling_share: f64,
    pub equity: f64,
}

/// EV of raising to `raise_to` when opponents fold along [`curved_fold`] and the callers
/// hold the top [`Betting::calling_share`] of hands, our equity against that range being
/// `equity_vs(share)`: [`Betting::ev_raise`] at that equity. Where `equity_vs` says no
/// range hand can be dealt beside ours (`None`), nobody can call and the raise takes the
/// pot.
pub fn ev_raise_vs_callers(
    pot: f64,
    call: f64,
    raise_to: f64,
    max_fold: f64,
    betting: &Betting,
    equity_vs: impl Fn(f64) -> Option<f64>,
) -> CalledRaise {
    let fold = curved_fold(raise_to, call, pot, max_fold);
    let share = betting.calling_share(fold);
    let called = if share > 0.0 { equity_vs(share) } else { None };
    match called {
        Some(w) => CalledRaise {
            ev: betting.ev_raise(w, pot, call, raise_to, fold),
            fold,
            calling_share: share,
            equity: w,
        },
        None => CalledRaise {
            ev: pot,
            fold,
            calling_share: 0.0,
            equity: 0.0,
        },
    }
}

/// Samples per piece in [`optimum_raise`]'s scan before each local maximum is refined.
const SAMPLES_PER_PIECE: usize = 32;

/// The raise-to `R` in `[call, cap]` with the highest [`ev_raise_vs_callers`].
///
/// `breaks` are the calling shares where the equity's formula changes (for a
/// Zhajinhua calling range, the ends of its strength levels,
/// [`crate::zhajinhua::RangeCurve::breaks`]); between two of them the EV is a smooth
/// function of the raise. Each such piece of `[call, cap]` is scanned at
/// [`SAMPLES_PER_PIECE`] points and every sampled local maximum refined by golden-section
/// search to 1e-12 of the raise's scale; with an equity that does not depend on the
/// range (random or blind callers) the closed-form stationary point
/// `d* = −P + √(P² − P·(m·(P − A) + P·B)/((1 − m)·B))` of `g(d)` (d = R − C,
/// `A = w·(P + C) − C`, `B = (1 + n·ρ)·w − 1`) is a candidate too. The optimum is the best
/// candidate, the ends included; ties go to the smaller raise.
pub fn optimum_raise(
    pot: f64,
    call: f64,
    max_fold: f64,
    cap: f64,
    betting: &Betting,
    equity_vs: impl Fn(f64) -> Option<f64>,
    breaks: &[f64],
) -> RaiseOptimum {
    let span = (cap - call).max(0.0);
    let m = max_fold;
    let value = |d: f64| ev_raise_vs_callers(pot, call, call + d, m, betting, &equity_vs);
    // Where the calling share falls to `s`: the fold rate 1 − s = m·d / (d + P).
    let reach = |s: f64| -> Option<f64> {
        let f = 1.0 - s;
        (m > f && f > 0.0).then(|| f * pot / (m - f))
    };
    let mut edges = vec![0.0, span];
    if !betting.opponents_blind {
        edges.extend(
            breaks
                .iter()
                .filter_map(|&s| reach(s))
                .filter(|&d| d > 0.0 && d < span),
        );
    }
    edges.sort_by(f64::total_cmp);
    edges.dedup();
    let mut candidates = edges.clone();
    // Blind or random callers: the closed form, at the equity of every hand.
    if betting.opponents_blind || breaks.is_empty() {
        if let Some(w) = equity_vs(1.0) {
            let rho = betting.callers_rate();
            let (a, b) = (w * (pot + call) - call, (1.0 + rho) * w - 1.0);
            let c2 = (1.0 - m) * b;
            let disc = if c2 == 0.0 {
                -1.0
            } else {
                pot * pot - pot * (m * (pot - a) + pot * b) / c2
            };
            let d = -pot + disc.max(0.0).sqrt();
            if disc >= 0.0 && d > 0.0 && d < span {
                candidates.push(d);
            }
        }
    }
    for piece in edges.windows(2) {
        let (lo, hi) = (piece[0], piece[1]);
        let at = |k: usize| lo + (hi - lo) * k as f64 / SAMPLES_PER_PIECE as f64;
        let evs: Vec<f64> = (0..=SAMPLES_PER_PIECE).map(|k| value(at(k)).ev).collect();
        // Every sampled local maximum, the piece's ends included (the top can lie between
        // an end and its neighbour), refined between its neighbours.
        for k in 0..=SAMPLES_PER_PIECE {
            let (left, right) = (k.saturating_sub(1), (k + 1).min(SAMPLES_PER_PIECE));
            if evs[k] >= evs[left] && evs[k] >= evs[right] {
                candidates.push(golden_max(|d| value(d).ev, at(left), at(right)));
            }
        }
    }
    let mut best: Option<RaiseOptimum> = None;
    for d in candidates {
        let r = call + d;
        let c = value(d);
        let better = match &best {
            None => true,
            Some(b) => c.ev > b.ev || (c.ev == b.ev && r < b.raise_to),
        };
        if better {
            best = Some(RaiseOptimum {
                raise_to: r,
                ev: c.ev,
                fold: c.fold,
                calling_share: c.calling_share,
                equity: c.equity,
                at_cap: d >= span,
            });
        }
    }
    best.expect("the two ends are candidates")
}

/// The maximum of `g` on `[lo, hi]`, where `g` is unimodal, by golden-section search to
/// 1e-12 of the interval's scale.
fn golden_max(g: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> f64 {
    const INV_PHI: f64 = 0.618_033_988_749_894_9;
    let tolerance = 1e-12 * hi.abs().max(1.0);
    let (mut x1, mut x2) = (hi - INV_PHI * (hi - lo), lo + INV_PHI * (hi - lo));
    let (mut g1, mut g2) = (g(x1), g(x2));
    while hi - lo > tolerance {
        if g1 < g2 {
            lo = x1;
            (x1, g1) = (x2, g2);
            x2 = lo + INV_PHI * (hi - lo);
            g2 = g(x2);
        } else {
            hi = x2;
            (x2, g2) = (x1, g1);
            x1 = hi - INV_PHI * (hi - lo);
            g1 = g(x1);
        }
    }
    (lo + hi) / 2.0
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

    const SEEN: Betting = Betting::SEEN;

    /// The best raise on a grid of `step` chips.
    fn scan(
        pot: f64,
        call: f64,
        m: f64,
        cap: f64,
        betting: &Betting,
        w: &dyn Fn(f64) -> Option<f64>,
        step: f64,
    ) -> (f64, f64) {
        let n = ((cap - call) / step).round() as usize;
        (0..=n)
            .map(|i| call + i as f64 * step)
            .map(|r| (r, ev_raise_vs_callers(pot, call, r, m, betting, w).ev))
            .fold((call, f64::MIN), |b, x| if x.1 > b.1 { x } else { b })
    }

    /// A continuous calling-range equity with a kink at every 1/7 of a percent and a bump
    /// between two kinks (as a real range's equity has a new formula at each level).
    fn stepped(share: f64) -> Option<f64> {
        let frac = (share * 700.0).fract();
        Some(0.25 + 0.5 * share + 0.6 * frac * (1.0 - frac))
    }

    fn steps() -> Vec<f64> {
        (1..=700).map(|k| f64::from(k) / 700.0).collect()
    }

    #[test]
    fn the_optimum_raise_is_the_closed_form_and_beats_a_fine_scan() {
        // Constant equity 0.35 (callers hold random hands), pot 100, call 20, m = 0.6: the
        // stationary point of the closed form, checked by derivative and by scan.
        let w = |_: f64| Some(0.35);
        let o = optimum_raise(100.0, 20.0, 0.6, 500.0, &SEEN, w, &[]);
        assert!(
            !o.at_cap && o.raise_to > 20.0 && o.raise_to < 500.0,
            "{o:?}"
        );
        let g = |r: f64| ev_raise_vs_callers(100.0, 20.0, r, 0.6, &SEEN, w).ev;
        let slope = (g(o.raise_to + 1e-4) - g(o.raise_to - 1e-4)) / 2e-4;
        assert!(slope.abs() < 1e-6, "slope {slope}");
        let (at, ev) = scan(100.0, 20.0, 0.6, 500.0, &SEEN, &w, 0.01);
        assert!(
            (at - o.raise_to).abs() <= 0.01 && ev <= o.ev + 1e-12,
            "{at} {ev} {o:?}"
        );
        // Equity against callers falling as the range narrows, continuously: the optimum is
        // never beaten by a scan at 0.001 chips and sits within 0.001 of the scan's best.
        let falling = |x: f64| Some(0.2 + 0.6 * x);
        let o = optimum_raise(100.0, 30.0, 0.9, 600.0, &SEEN, falling, &[]);
        let (at, ev) = scan(100.0, 30.0, 0.9, 600.0, &SEEN, &falling, 0.001);
        assert!(
            ev <= o.ev + 1e-12 && (at - o.raise_to).abs() <= 0.001,
            "{ev} at {at} > {o:?}"
        );
        assert_eq!(o.calling_share, 1.0 - o.fold);
        // A range with breaks and a bump between each two (many near-equal local maxima):
        // no scan point beats the optimum, and the scan's best comes within 1e-4 of it.
        let o = optimum_raise(100.0, 20.0, 1.0, 500.0, &SEEN, stepped, &steps());
        let (at, ev) = scan(100.0, 20.0, 1.0, 500.0, &SEEN, &stepped, 0.001);
        assert!(
            ev <= o.ev + 1e-12 && o.ev - ev < 1e-4,
            "{ev} at {at} vs {o:?}"
        );
        // Equity above 1/2 against every range and folds capped below 1: the EV rises to
        // the cap.
        let o = optimum_raise(100.0, 20.0, 0.6, 500.0, &SEEN, |_| Some(0.9), &[]);
        assert!(o.at_cap && o.raise_to == 500.0, "{o:?}");
        // A range that cannot be dealt beside our hand: nobody calls, the raise takes the pot.
        let c = ev_raise_vs_callers(100.0, 20.0, 300.0, 1.0, &SEEN, |_| None);
        assert_eq!((c.ev, c.calling_share), (100.0, 0.0));
    }

    #[test]
    fn blind_opponents_and_showdown_costs_move_the_ev_as_a_hand_computation_says() {
        // Pot 100, call 20, raise to 60, a quarter fold, equity 0.6 against the callers.
        // Seen callers add 40: 0.25·100 + 0.75·(0.6·200 − 60) = 70.
        assert!((SEEN.ev_raise(0.6, 100.0, 20.0, 60.0, 0.25) - 70.0).abs() < 1e-12);
        assert!(
            (SEEN.ev_raise(0.6, 100.0, 20.0, 60.0, 0.25) - ev_raise(0.6, 100.0, 20.0, 60.0, 0.25))
                .abs()
                < 1e-12
        );
        // Blind callers (seen pays double) add half of it, 20: 25 + 0.75·(0.6·180 − 60) = 61.
        let blind = Betting {
            opponents_blind: true,
            ..SEEN
        };
        assert!((blind.ev_raise(0.6, 100.0, 20.0, 60.0, 0.25) - 61.0).abs() < 1e-12);
        // Blind callers hold any hand: the range is every hand unless everyone folds.
        assert_eq!(blind.calling_share(0.25), 1.0);
        assert_eq!(SEEN.calling_share(0.25), 0.75);
        assert_eq!(blind.calling_share(1.0), 0.0);
        let c = ev_raise_vs_callers(100.0, 20.0, 60.0, 0.6, &blind, |x| Some(x / 2.0));
        assert_eq!((c.calling_share, c.equity), (1.0, 0.5));
        // Comparing at twice the call: only we pay 40: 0.55·140 − 40 = 37; both paying, a
        // blind opponent adds 20: 0.55·160 − 40 = 48.
        let double = Betting {
            showdown_cost: 2.0,
            ..SEEN
        };
        let k = double.showdown_chips(20.0);
        assert_eq!(k, 40.0);
        assert!((double.ev_compare(0.55, 100.0, k) - 37.0).abs() < 1e-12);
        let both = Betting {
            showdown_both_pay: true,
            opponents_blind: true,
            ..double
        };
        assert!((both.ev_compare(0.55, 100.0, k) - 48.0).abs() < 1e-12);
        assert_eq!(
            SEEN.ev_compare(0.55, 100.0, 20.0),
            ev_compare(0.55, 100.0, 20.0)
        );
        // Two blind callers add 20 each: 25 + 0.75·(0.6·200 − 60) = 70.
        let two = blind.with_callers(2);
        assert!((two.ev_raise(0.6, 100.0, 20.0, 60.0, 0.25) - 70.0).abs() < 1e-12);
    }

    #[test]
    fn the_optimum_against_blind_callers_is_their_closed_form() {
        // Blind callers pay half: B = 1.5·w − 1. With w = 0.5, m = 0.6 the stationary point
        // (d = 44.9) is interior and no 0.01-chip scan beats it.
        let blind = Betting {
            opponents_blind: true,
            ..SEEN
        };
        let w = |x: f64| Some(if x == 1.0 { 0.5 } else { 0.1 });
        let o = optimum_raise(100.0, 20.0, 0.6, 500.0, &blind, w, &steps());
        let (p, c, m) = (100.0f64, 20.0f64, 0.6f64);
        let (a, b) = (0.5 * (p + c) - c, 1.5 * 0.5 - 1.0);
        let d = -p + (p * p - p * (m * (p - a) + p * b) / ((1.0 - m) * b)).sqrt();
        // The EV is flat at its top: the raise agrees to 1e-5, the EV to rounding.
        let closed = ev_raise_vs_callers(p, c, c + d, m, &blind, w).ev;
        assert!((o.raise_to - (c + d)).abs() < 1e-5, "{o:?} vs {}", c + d);
        assert!(o.ev >= closed - 1e-12, "{o:?} vs {closed}");
        assert!(d > 44.0 && d < 45.0 && !o.at_cap, "{d}");
        assert_eq!(o.calling_share, 1.0);
        let (at, ev) = scan(100.0, 20.0, 0.6, 500.0, &blind, &w, 0.01);
        assert!(
            (at - o.raise_to).abs() <= 0.01 && ev <= o.ev + 1e-12,
            "{at} {ev} {o:?}"
        );
        // Against seen callers the same hand's equity falls to 0.1 once anyone folds: a
        // different, smaller best raise.
        let seen = optimum_raise(100.0, 20.0, 0.6, 500.0, &SEEN, w, &steps());
        assert!(seen.ev < o.ev, "{seen:?} {o:?}");
    }

    #[test]
    fn calling_ranges_are_exactly_the_hands_that_do_not_fold() {
        assert_eq!(SEEN.calling_share(0.0), 1.0);
        assert_eq!(SEEN.calling_share(0.25), 0.75);
        assert_eq!(SEEN.calling_share(1.0), 0.0);
        assert_eq!(curved_fold(20.0, 20.0, 100.0, 0.6), 0.0);
        assert!((curved_fold(120.0, 20.0, 100.0, 0.6) - 0.3).abs() < 1e-15);
    }

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
    fn styles_order_their_thresholds() {
        assert!(Style::Loose.accepts(-1.0, 100.0));
        assert!(!Style::Steady.accepts(-1.0, 100.0));
        assert!(Style::Steady.accepts(1.0, 100.0));
        assert!(!Style::Tight.accepts(1.0, 100.0));
        assert_eq!(Style::Steady.fold_rate(0.4), 0.1);
    }
}
