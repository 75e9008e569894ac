//! The Independent Chip Model (Malmuth–Harville): what a tournament stack is worth in
//! prize money, for jam-or-fold spots where the chips a hand wins are not the money.
//!
//! Harville's order of finish: the player who finishes first is drawn with chances in
//! proportion to the stacks; each later place goes to one of the players left, again in
//! proportion to their stacks. A player's equity is the sum over places of the chance of
//! finishing there times that place's payout. Players with no chips finish after every
//! player with chips; among themselves (several busted in one hand) they share the places
//! left equally here, a caller that knows their order (the larger starting stack places
//! higher) pays them itself.
//!
//! The sum runs over the sets of players already placed, not over orders: a set's chance
//! is reached once whatever the order within it, so the work is 2ⁿ · n, not n!.

/// Most players [`equities`] takes (2¹⁰ sets of placed players).
pub const MAX_PLAYERS: usize = 10;

/// Why a stack or payout list is refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum IcmError {
    #[error("payouts: at least one is needed (winner takes all: [1])")]
    NoPayouts,
    #[error("payouts[{0}] = {1}: each payout must be a finite share of the prize pool in [0, 1]")]
    Payout(usize, f64),
    #[error(
        "payouts[{0}] = {1} is above payouts[{2}] = {3}: a place must not pay more than the place before it"
    )]
    Increasing(usize, f64, usize, f64),
    #[error("payouts sum to {0}: they must sum to at most 1 (shares of the prize pool)")]
    Sum(f64),
    #[error("{0} players: ICM takes 1 to {MAX_PLAYERS}")]
    Players(usize),
    #[error("stacks[{0}] = {1}: each stack must be a finite number of chips, at least 0")]
    Stack(usize, f64),
    #[error("every stack is 0: at least one player must hold chips")]
    NoChips,
}

/// Checks a payout list: at least one payout, each a finite share in `[0, 1]`, none above
/// the one before, summing to at most 1 (the sum may be below 1 where the house keeps a
/// share, or where the places paid so far are not all the places).
pub fn validate_payouts(payouts: &[f64]) -> Result<(), IcmError> {
    if payouts.is_empty() {
        return Err(IcmError::NoPayouts);
    }
    for (i, &p) in payouts.iter().enumerate() {
        if !p.is_finite() || !(0.0..=1.0).contains(&p) {
            return Err(IcmError::Payout(i, p));
        }
        if i > 0 && p > payouts[i - 1] {
            return Err(IcmError::Increasing(i, p, i - 1, payouts[i - 1]));
        }
    }
    let sum: f64 = payouts.iter().sum();
    // Shares written with decimals (0.5, 0.3, 0.2) may sum to 1 plus a rounding error.
    if sum > 1.0 + 1e-9 {
        return Err(IcmError::Sum(sum));
    }
    Ok(())
}

/// Each player's prize equity (in the payouts' unit, shares of the prize pool) for the
/// given stacks, by Malmuth–Harville. Places past the payout list pay 0; payouts past
/// the number of players are never reached.
pub fn equities(stacks: &[f64], payouts: &[f64]) -> Result<Vec<f64>, IcmError> {
    validate_payouts(payouts)?;
    let n = stacks.len();
    if n == 0 || n > MAX_PLAYERS {
        return Err(IcmError::Players(n));
    }
    for (i, &s) in stacks.iter().enumerate() {
        if !s.is_finite() || s < 0.0 {
            return Err(IcmError::Stack(i, s));
        }
    }
    let total: f64 = stacks.iter().sum();
    if total <= 0.0 {
        return Err(IcmError::NoChips);
    }
    let pay = |place: usize| payouts.get(place).copied().unwrap_or(0.0);
    let mut equity = vec![0.0; n];
    // chance[set]: the chance that the players in `set` take the first |set| places.
    let mut chance = vec![0.0; 1 << n];
    chance[0] = 1.0;
    for set in 0..1usize << n {
        let reach = chance[set];
        if reach == 0.0 {
            continue;
        }
        let placed = set.count_ones() as usize;
        let left: f64 = (0..n)
            .filter(|&i| set >> i & 1 == 0)
            .map(|i| stacks[i])
            .sum();
        if left <= 0.0 {
            // Only busted players are left: they share the places left equally.
            let rest = n - placed;
            if rest > 0 {
                let share = (placed..n).map(pay).sum::<f64>() / rest as f64;
                for (i, e) in equity.iter_mut().enumerate() {
                    if set >> i & 1 == 0 {
                        *e += reach * share;
                    }
                }
            }
            continue;
        }
        for i in (0..n).filter(|&i| set >> i & 1 == 0 && stacks[i] > 0.0) {
            let next = reach * stacks[i] / left;
            equity[i] += next * pay(placed);
            chance[set | 1 << i] += next;
        }
    }
    Ok(equity)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The oracle: every order of finish, its Harville chance as a product of shares of
    /// the chips left (an order that puts a busted player before one with chips has
    /// chance 0; once only busted players are left, each of their orders is equally
    /// likely).
    fn by_every_order(stacks: &[f64], payouts: &[f64]) -> Vec<f64> {
        fn orders(rest: &mut Vec<usize>, prefix: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
            if rest.is_empty() {
                out.push(prefix.clone());
            }
            for k in 0..rest.len() {
                let p = rest.remove(k);
                prefix.push(p);
                orders(rest, prefix, out);
                prefix.pop();
                rest.insert(k, p);
            }
        }
        let n = stacks.len();
        let mut all = Vec::new();
        orders(&mut (0..n).collect(), &mut Vec::new(), &mut all);
        let mut equity = vec![0.0; n];
        for order in all {
            let mut chance = 1.0;
            let mut left: f64 = stacks.iter().sum();
            let mut busted_left = stacks.iter().filter(|&&s| s == 0.0).count();
            for &p in &order {
                if left > 0.0 {
                    chance *= stacks[p] / left;
                    left -= stacks[p];
                } else {
                    chance /= busted_left as f64;
                    busted_left -= 1;
                }
            }
            for (place, &p) in order.iter().enumerate() {
                equity[p] += chance * payouts.get(place).copied().unwrap_or(0.0);
            }
        }
        equity
    }

    fn close(a: &[f64], b: &[f64]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-12)
    }

    #[test]
    fn equities_equal_the_sum_over_every_order_of_finish() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for round in 0..300 {
            let n = 1 + round % 6;
            // Stacks of 0 to 40 chips, some busted.
            let stacks: Vec<f64> = (0..n).map(|_| (next() % 41) as f64).collect();
            if stacks.iter().sum::<f64>() == 0.0 {
                continue;
            }
            let places = 1 + (next() % 4) as usize;
            let mut payouts: Vec<f64> = (0..places).map(|_| (next() % 100) as f64).collect();
            payouts.sort_by(|a, b| b.total_cmp(a));
            let sum: f64 = payouts.iter().sum::<f64>().max(1.0);
            payouts.iter_mut().for_each(|p| *p /= sum);
            let fast = equities(&stacks, &payouts).unwrap();
            let slow = by_every_order(&stacks, &payouts);
            assert!(
                close(&fast, &slow),
                "{stacks:?} {payouts:?}: {fast:?} vs {slow:?}"
            );
            // The prize money paid is the payouts of the places that exist.
            let paid: f64 = payouts.iter().take(n).sum();
            assert!((fast.iter().sum::<f64>() - paid).abs() < 1e-12);
        }
    }

    #[test]
    fn winner_take_all_is_the_chip_share_and_two_players_are_linear() {
        let stacks = [10.0, 15.0, 20.0];
        let wta = equities(&stacks, &[1.0]).unwrap();
        assert!(close(&wta, &[10.0 / 45.0, 15.0 / 45.0, 20.0 / 45.0]));
        // Heads-up: second place for sure, plus the difference times the chip share.
        let two = equities(&[30.0, 10.0], &[0.65, 0.35]).unwrap();
        assert!(close(&two, &[0.35 + 0.3 * 0.75, 0.35 + 0.3 * 0.25]));
    }

    #[test]
    fn the_worked_example_of_the_rules_doc() {
        // docs/rules/holdem.md: stacks 10, 15, 20 and payouts 0.5, 0.3, 0.2, by hand.
        let (a, b, c) = (10.0, 15.0, 20.0);
        let t = a + b + c;
        let second = |x: f64| {
            // The chance of second place for x: someone else first, then x first of the rest.
            [a, b, c]
                .iter()
                .filter(|&&y| y != x)
                .map(|&y| y / t * x / (t - y))
                .sum::<f64>()
        };
        let by_hand: Vec<f64> = [a, b, c]
            .iter()
            .map(|&x| {
                let first = x / t;
                let second = second(x);
                0.5 * first + 0.3 * second + 0.2 * (1.0 - first - second)
            })
            .collect();
        let got = equities(&[a, b, c], &[0.5, 0.3, 0.2]).unwrap();
        assert!(close(&got, &by_hand), "{got:?} vs {by_hand:?}");
        // The figures the doc prints, to six places.
        let printed = [0.295_556, 0.336_190, 0.368_254];
        for (g, p) in got.iter().zip(printed) {
            assert!((g - p).abs() < 5e-7, "{got:?}");
        }
    }

    #[test]
    fn bad_stacks_and_payouts_are_named() {
        let ok = [0.5, 0.3, 0.2];
        assert_eq!(equities(&[1.0], &[]), Err(IcmError::NoPayouts));
        assert_eq!(
            equities(&[1.0, 2.0], &[0.3, 0.5]),
            Err(IcmError::Increasing(1, 0.5, 0, 0.3))
        );
        assert_eq!(
            equities(&[1.0, 2.0], &[0.7, 0.4]),
            Err(IcmError::Sum(0.7 + 0.4))
        );
        assert!(matches!(
            equities(&[1.0], &[f64::NAN]),
            Err(IcmError::Payout(0, _))
        ));
        assert_eq!(equities(&[1.0], &[1.5]), Err(IcmError::Payout(0, 1.5)));
        assert_eq!(equities(&[1.0], &[-0.1]), Err(IcmError::Payout(0, -0.1)));
        assert_eq!(equities(&[], &ok), Err(IcmError::Players(0)));
        assert_eq!(equities(&[1.0; 11], &ok), Err(IcmError::Players(11)));
        assert_eq!(equities(&[1.0, -2.0], &ok), Err(IcmError::Stack(1, -2.0)));
        assert!(matches!(
            equities(&[f64::INFINITY], &ok),
            Err(IcmError::Stack(0, _))
        ));
        assert_eq!(equities(&[0.0, 0.0], &ok), Err(IcmError::NoChips));
        // Decimal shares that sum to 1 up to rounding pass.
        assert!(validate_payouts(&[0.5, 0.3, 0.2]).is_ok());
        assert!(validate_payouts(&[0.4, 0.3, 0.2, 0.1]).is_ok());
    }
}
