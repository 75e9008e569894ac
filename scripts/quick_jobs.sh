#!/usr/bin/env bash
# Usage: scripts/quick_jobs.sh DIR
# Copies the shipped job files into DIR, adds quick variants of the long ones there, and
# prints (one per line, as DIR/NAME.toml) every job that scripts/test.sh and
# scripts/golden.sh run: the fast shipped jobs as they are, the long Monte Carlo jobs with
# a loose standard error or few rounds, the niuniu bidding one-deck check on 500 tables per class
# and niuniu at a full table on 200 deals per slot,
# the blackjack grid on three shoes, blackjack count indices on 4 points per count, a counter on 3e6 rounds (two other players, wonging out below -1), push/fold with an ante on a 1 bb stack grid, the three-way job on 8 classes (120 triples), three-handed push/fold on the same 8 classes at 2 to 20 bb in steps of 2, and the post-flop strength writing its preflop and flop tables only.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
dir=$1
mkdir -p "$dir"
cp "$repo"/jobs/*.toml "$dir/"
sed -e 's/^target_std_error = .*/target_std_error = 0.02/' -e 's/^name = .*/name = "zhajinhua_multiway_quick"/' \
  "$repo/jobs/zhajinhua_multiway.toml" > "$dir/zhajinhua_multiway_quick.toml"
sed -e 's/^headsup_decks = .*/headsup_decks = [28]/' -e 's/^name = .*/name = "showhand_quick"/' \
  "$repo/jobs/showhand.toml" > "$dir/showhand_quick.toml"
sed -e 's/^rounds = .*/rounds = 2_000_000/' -e 's/^name = .*/name = "blackjack_quick"/' \
  -e 's/^decks = \[.*/decks = [1, 6, "infinite"]/' "$repo/jobs/blackjack.toml" > "$dir/blackjack_quick.toml"
sed -e 's/^target_std_error = .*/target_std_error = 0.01/' -e 's/^name = .*/name = "holdem_multiway_quick"/' \
  "$repo/jobs/holdem_multiway.toml" > "$dir/holdem_multiway_quick.toml"
sed -e 's/^stack_step = .*/stack_step = 1.0/' -e 's/^name = .*/name = "holdem_pushfold_ante_quick"/' \
  "$repo/jobs/holdem_pushfold_ante.toml" > "$dir/holdem_pushfold_ante_quick.toml"
sed -e 's/^check_deals_per_class = .*/check_deals_per_class = 500/' \
  -e 's/^name = .*/name = "niuniu_bidding_quick"/' \
  "$repo/jobs/niuniu_bidding.toml" > "$dir/niuniu_bidding_quick.toml"
sed -e 's/^deals_per_slot = .*/deals_per_slot = 200/' -e 's/^name = .*/name = "niuniu_multiway_quick"/' \
  "$repo/jobs/niuniu_multiway.toml" > "$dir/niuniu_multiway_quick.toml"
sed -e 's/^points_per_count = .*/points_per_count = 4/' -e 's/^name = .*/name = "blackjack_indices_quick"/' \
  "$repo/jobs/blackjack_indices.toml" > "$dir/blackjack_indices_quick.toml"
sed -e 's/^rounds = .*/rounds = 3_000_000/' -e 's/^name = .*/name = "blackjack_counter_quick"/' \
  -e 's/^others = .*/others = 2/' -e 's/^# wong_out = .*/wong_out = -1/' -e '/^  \[\[2, 2\], \[3, 4\], \[4, 8\]\],$/d' \
  "$repo/jobs/blackjack_counter.toml" > "$dir/blackjack_counter_quick.toml"
sed -e 's/^streets = .*/streets = ["preflop", "flop"]/' -e 's/^name = .*/name = "holdem_postflop_quick"/' \
  "$repo/jobs/holdem_postflop.toml" > "$dir/holdem_postflop_quick.toml"
sed -e 's/^name = .*/name = "holdem_threeway_quick"/' "$repo/jobs/holdem_threeway.toml" > "$dir/holdem_threeway_quick.toml"
printf '[threeway]\nclasses = ["AA", "KK", "QQ", "AKs", "AKo", "JTs", "T9s", "72o"]\n' >> "$dir/holdem_threeway_quick.toml"
sed -e 's/^name = .*/name = "holdem_pushfold3_quick"/' -e 's/^stack_min = .*/stack_min = 2/' -e 's/^stack_max = .*/stack_max = 20/' \
  -e 's/^stack_step = .*/stack_step = 2/' -e 's/^payouts = .*/&\nclasses = ["AA", "KK", "QQ", "AKs", "AKo", "JTs", "T9s", "72o"]/' \
  "$repo/jobs/holdem_pushfold3.toml" > "$dir/holdem_pushfold3_quick.toml"
for name in niuniu niuniu_bidding_quick niuniu_multiway_quick holdem_preflop holdem_headsup holdem_multiway_quick holdem_pushfold \
  holdem_pushfold_ante_quick holdem_threeway_quick holdem_pushfold3_quick holdem_postflop_quick blackjack_6d_s17 \
  blackjack_quick blackjack_indices_quick blackjack_counter_quick showhand_quick zhajinhua zhajinhua_a23_none zhajinhua_a23_second \
  zhajinhua_235 zhajinhua_caller_loses zhajinhua_multiway_quick; do
  echo "$dir/$name.toml"
done
