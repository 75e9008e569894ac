#!/usr/bin/env python3
"""Reads a job's Parquet output with DuckDB and checks it as a user would see it.

Usage: check_parquet.py OUT_ROOT JOB_NAME [JOB_NAME ...]

The job kind comes from the files' key-value metadata. For every kind: the schema, the
row counts, that category totals agree between hands.parquet and categories.parquet, the
exact head-to-head identities, and that the rules travel in the metadata. Exits non-zero
on the first failure.

Every Parquet file must also match its entry in docs/tables.md column for column (name
and DuckDB type, in order), so the data contract there is the one the writers keep.
"""

import re
import sys
from pathlib import Path

import duckdb
import pyarrow.parquet as pq

HANDS = 2_598_960
OPPONENTS = 1_533_939

EXPECTED_HANDS_SCHEMA = {
    "hand_index": "BIGINT",
    "cards": "VARCHAR",
    "c1": "SMALLINT",
    "c2": "SMALLINT",
    "c3": "SMALLINT",
    "c4": "SMALLINT",
    "c5": "SMALLINT",
    "category": "VARCHAR",
    "category_rank": "SMALLINT",
    "bull": "SMALLINT",
    "point_total": "SMALLINT",
    "grouping": "VARCHAR",
    "high_card": "VARCHAR",
    "strength": "INTEGER",
    "multiplier": "INTEGER",
    "wins": "BIGINT",
    "win_probability": "DOUBLE",
    "banker_ev": "DOUBLE",
}


def fail(message: str) -> None:
    print(f"check_parquet: FAILED: {message}", file=sys.stderr)
    sys.exit(1)


def one(con, sql: str, *params):
    return con.execute(sql, list(params)).fetchone()


def metadata_of(con, path: str) -> dict:
    return {
        (k.decode() if isinstance(k, bytes) else k): (v.decode() if isinstance(v, bytes) else v)
        for k, v in con.execute(f"SELECT key, value FROM parquet_kv_metadata('{path}')").fetchall()
    }


DOCS = Path(__file__).resolve().parent.parent / "docs" / "tables.md"


def documented_schemas() -> dict:
    """{(kind, file): [(column, duckdb type), ...]} from docs/tables.md: each table is
    introduced by a heading `### KIND: FILE` followed by a `| column | type | ... |` table."""
    schemas, current = {}, None
    for line in DOCS.read_text(encoding="utf-8").splitlines():
        heading = re.match(r"^### `([a-z0-9_.]+)`: `([a-z0-9_]+\.parquet)`", line)
        if heading:
            current = schemas.setdefault((heading.group(1), heading.group(2)), [])
            continue
        if line.startswith("#"):
            current = None
        cell = re.match(r"^\| `([a-z0-9_]+)` \| ([A-Z0-9]+(?:\([^)]*\))?(?:\[\])?) \| (.*)\|$", line)
        if current is not None and cell:
            optional = cell.group(3).startswith("Only when")
            current.append((cell.group(1), cell.group(2), optional))
    return schemas


def check_documented(con, folder: Path, kind: str, schemas: dict) -> None:
    for path in sorted(folder.glob("*.parquet")):
        got = [
            (row[0], row[1])
            for row in con.execute(f"DESCRIBE SELECT * FROM read_parquet('{path}')").fetchall()
        ]
        want = schemas.get((kind, path.name))
        if want is None:
            fail(f"{path}: no `### `{kind}`: `{path.name}`` section in docs/tables.md")
        check_float_statistics(path)
        # The contract: signed integers only, shares from 0 to 1 (no percent columns).
        unsigned = [(name, typ) for name, typ in got if typ.startswith("U") and "INT" in typ]
        if unsigned:
            fail(f"{path}: unsigned integer columns {unsigned}: every integer column is signed")
        percent = [name for name, _ in got if name.endswith("_pct") or "percent" in name]
        if percent:
            fail(f"{path}: percent columns {percent}: every share runs from 0 to 1")
        contract = metadata_of(con, str(path)).get("pipeline.contract")
        if contract != "2":
            fail(f"{path}: pipeline.contract is {contract!r}, not the documented 2")
        names = {name for name, _ in got}
        want = [(name, typ) for name, typ, optional in want if not optional or name in names]
        if got != want:
            fail(f"{path}: columns {got} differ from docs/tables.md {want}")


def check_float_statistics(path: Path) -> None:
    """pyarrow must see min/max statistics on every floating-point column chunk that holds
    a value, so pyarrow-based engines can skip row groups on EV or probability filters."""
    meta = pq.ParquetFile(path).metadata
    for g in range(meta.num_row_groups):
        group = meta.row_group(g)
        for c in range(group.num_columns):
            column = group.column(c)
            if column.physical_type not in ("FLOAT", "DOUBLE"):
                continue
            stats = column.statistics
            all_null = stats is not None and stats.null_count == column.num_values
            if not all_null and (stats is None or not stats.has_min_max):
                fail(f"{path}: pyarrow sees no min/max for {column.path_in_schema} in row group {g}")


def main() -> None:
    if len(sys.argv) < 3:
        fail("usage: check_parquet.py OUT_ROOT JOB_NAME [JOB_NAME ...]")
    con = duckdb.connect()
    schemas = documented_schemas()
    for name in sys.argv[2:]:
        folder = Path(sys.argv[1]) / "tables" / name
        hands = str(folder / "hands.parquet")
        for alternative in (
            "categories.parquet",
            "preflop.parquet",
            "headsup.parquet",
            "multiway.parquet",
            "pushfold.parquet",
            "pushfold3.parquet",
            "threeway.parquet",
            "four_cards.parquet",
            "slots.parquet",
            "by_count.parquet",
            "counter.parquet",
            "flop.parquet",
            "turn.parquet",
            "river.parquet",
        ):
            if not Path(hands).exists():
                hands = str(folder / alternative)
        kind = metadata_of(con, hands).get("pipeline.kind")
        check_documented(con, folder, kind, schemas)
        if kind == "niuniu.hands":
            check_niuniu(con, folder)
        elif kind == "niuniu.bidding":
            check_niuniu_bidding(con, folder)
        elif kind == "niuniu.multiway":
            check_niuniu_multiway(con, folder)
        elif kind in ("zhajinhua.hands", "zhajinhua.multiway"):
            check_zhajinhua(con, folder)
        elif kind == "stud.tables":
            check_stud(con, folder)
        elif kind == "holdem.preflop":
            check_holdem_preflop(con, folder)
        elif kind == "holdem.multiway":
            check_holdem_multiway(con, folder)
        elif kind == "holdem.headsup":
            check_holdem_headsup(con, folder)
        elif kind == "holdem.pushfold":
            check_holdem_pushfold(con, folder)
        elif kind == "holdem.threeway":
            check_holdem_threeway(con, folder)
        elif kind == "holdem.pushfold3":
            check_holdem_pushfold3(con, folder)
        elif kind == "holdem.postflop":
            check_holdem_postflop(con, folder)
        elif kind == "blackjack.strategy":
            check_blackjack(con, folder)
        elif kind == "blackjack.indices":
            check_blackjack_indices(con, folder)
        elif kind == "blackjack.counter":
            check_blackjack_counter(con, folder)
        else:
            fail(f"{hands}: unknown or missing pipeline.kind {kind!r}")


def check_blackjack_indices(con, folder: Path) -> None:
    by_count, indices = str(folder / "by_count.parquet"), str(folder / "indices.parquet")
    cells = str(folder / "cells.parquet")
    # Every count of the range once per rule set, frequencies summing to 1.
    rows = con.execute(
        f"SELECT rule_set, count(*), max(count) - min(count) + 1, sum(frequency), "
        f"count(DISTINCT count) FROM '{by_count}' GROUP BY rule_set"
    ).fetchall()
    if not rows:
        fail(f"{by_count}: no rows")
    for rule_set, n, span, total, distinct in rows:
        if not (n == span == distinct) or abs(total - 1) > 1e-12:
            fail(f"{by_count}: {rule_set}: {n} rows over {span} counts, frequencies sum to {total}")
    # The EV with indices is never below the chart's: an index is only played where it gains.
    (bad,) = one(
        con, f"SELECT count(*) FROM '{by_count}' WHERE indices_ev < chart_ev - 1e-12"
    )
    if bad:
        fail(f"{by_count}: {bad} counts where playing the indices loses to the chart")
    # Ranks run 1..n by gain; directions are the two words; insurance is against an ace.
    (bad,) = one(
        con,
        f"SELECT count(*) FROM (SELECT rule_set, rank, gain_per_100, lag(gain_per_100) OVER "
        f"(PARTITION BY rule_set ORDER BY rank) AS before FROM '{indices}') "
        f"WHERE before < gain_per_100 OR gain_per_100 < 0",
    )
    if bad:
        fail(f"{indices}: {bad} plays out of order by gain or with a negative gain")
    (bad,) = one(
        con,
        f"SELECT count(*) FROM '{indices}' WHERE direction NOT IN ('at_or_above', 'at_or_below') "
        f"OR (hand_label = 'insurance') <> (play = 'insure') "
        f"OR (hand_label = 'insurance' AND upcard <> 11) OR play = chart_play",
    )
    if bad:
        fail(f"{indices}: {bad} malformed plays")
    # The chart's own play gains nothing over itself.
    (bad,) = one(
        con, f"SELECT count(*) FROM '{cells}' WHERE play = chart_play AND gain <> 0"
    )
    if bad:
        fail(f"{cells}: {bad} rows where the chart's play gains over itself")
    (n,) = one(con, f"SELECT count(*) FROM '{indices}'")
    print(f"check_parquet: ok: {folder} (blackjack indices, {len(rows)} rule sets, {n} index plays)")


def check_blackjack_counter(con, folder: Path) -> None:
    counter, by_count = str(folder / "counter.parquet"), str(folder / "counter_by_count.parquet")
    # SCORE and N0 are the stated functions of the win rate and deviation; the risks are
    # probabilities; every ramp of a rule set played the same rounds and trips.
    (bad,) = one(
        con,
        f"SELECT count(*) FROM '{counter}' WHERE NOT (risk_of_ruin > 0 AND risk_of_ruin <= 1) "
        f"OR abs(score - 1e6 * (win_rate / sd) ^ 2) > 1e-9 * score "
        f"OR abs(n0 * (win_rate / sd) ^ 2 - 1) > 1e-9 OR mean_bet < hands "
        f"OR NOT (ruin_in_trip_formula BETWEEN 0 AND 1) "
        f"OR (rounds < 10000000 AND trips <> rounds // trip_rounds)",
    )
    if bad:
        fail(f"{counter}: {bad} rows whose SCORE, N0, risks or mean bet disagree")
    (bad,) = one(
        con,
        f"SELECT count(*) FROM (SELECT rule_set, count(DISTINCT rounds) AS r, "
        f"count(DISTINCT trips) AS t FROM '{counter}' GROUP BY rule_set) WHERE r <> 1 OR t <> 1",
    )
    if bad:
        fail(f"{counter}: {bad} rule sets whose ramps played different rounds")
    # By count: every count once per rule set, rounds adding up to the rule set's rounds.
    rows = con.execute(
        f"SELECT b.rule_set, sum(b.rounds), sum(b.frequency), count(*), "
        f"max(b.count) - min(b.count) + 1, any_value(c.rounds) FROM '{by_count}' b "
        f"JOIN (SELECT DISTINCT rule_set, rounds FROM '{counter}') c USING (rule_set) "
        f"GROUP BY b.rule_set"
    ).fetchall()
    if not rows:
        fail(f"{by_count}: no rows")
    for rule_set, rounds, total, n, span, played in rows:
        if rounds != played or abs(total - 1) > 1e-12 or n != span:
            fail(f"{by_count}: {rule_set}: {rounds} rounds of {played}, frequencies sum to {total}")
    (bad,) = one(con, f"SELECT count(*) FROM '{by_count}' WHERE (rounds = 0) <> (ev IS NULL)")
    if bad:
        fail(f"{by_count}: {bad} counts with an EV but no rounds, or rounds but no EV")
    (n,) = one(con, f"SELECT count(*) FROM '{counter}'")
    print(f"check_parquet: ok: {folder} (blackjack counter, {len(rows)} rule sets, {n} ramps)")


def check_blackjack(con, folder: Path) -> None:
    summary, hands = str(folder / "summary.parquet"), str(folder / "hands.parquet")
    dealer, strategy = str(folder / "dealer.parquet"), str(folder / "strategy.parquet")
    (sets,) = one(con, f"SELECT count(*) FROM '{summary}'")
    for path, per_set in ((hands, 550), (strategy, 380)):
        (rows,) = one(con, f"SELECT count(*) FROM '{path}'")
        if rows != per_set * sets:
            fail(f"{path}: {rows} rows for {sets} rule sets, expected {per_set} each")
    (worst,) = one(
        con,
        f"SELECT max(abs(total - 1)) FROM (SELECT sum(deal_probability) AS total "
        f"FROM '{hands}' GROUP BY rule_set, upcard)",
    )
    if worst > 1e-12:
        fail(f"{hands}: deal probabilities per upcard miss 1 by {worst}")
    # Upcards are numbers 2..11 with labels, and "16 against a ten" is one filter.
    labels = con.execute(
        f"SELECT DISTINCT upcard, upcard_label FROM '{hands}' ORDER BY upcard"
    ).fetchall()
    if labels != [(v, str(v)) for v in range(2, 10)] + [(10, "T"), (11, "A")]:
        fail(f"{hands}: upcards {labels}")
    (rows16,) = one(
        con,
        f"SELECT count(*) FROM '{hands}' WHERE hand_kind = 'hard' AND total = 16 AND upcard = 10 "
        f"AND rule_set = (SELECT min(rule_set) FROM '{hands}')",
    )
    if rows16 != 2:  # two-card hard 16s, tens merged: T 6 and 9 7 (8 8 is a pair)
        fail(f"{hands}: {rows16} two-card hard 16 rows against a ten, expected T 6 and 9 7")
    (bad,) = one(
        con,
        f"SELECT count(*) FROM '{hands}' WHERE deal_probability > 0 AND best_ev <> "
        f"list_max([ev_stand, ev_hit, ev_double, ev_split, ev_surrender])",
    )
    if bad:
        fail(f"{hands}: {bad} rows whose best_ev is not the best action's EV")
    (worst,) = one(
        con,
        f"SELECT max(abs(p17 + p18 + p19 + p20 + p21 + bust + blackjack - 1)) FROM '{dealer}'",
    )
    if worst > 1e-12:
        fail(f"{dealer}: outcome probabilities miss 1 by {worst}")
    rows = con.execute(
        f"SELECT rule_set, house_edge, overall_ev, basic_strategy_ev, simulated_ev, "
        f"simulated_std_error, rounds FROM '{summary}'"
    ).fetchall()
    for rule_set, edge, ev, chart, simulated, se, rounds in rows:
        if edge != -ev or chart > ev + 1e-12:
            fail(f"{summary}: {rule_set}: house edge {edge}, EV {ev}, chart EV {chart}")
        if rounds and abs(simulated - chart) > 5 * se:
            fail(f"{summary}: {rule_set}: simulated {simulated} ± {se} vs exact {chart}")
        if rule_set == "6d-s17-das" and not 0.0039 < edge < 0.0042:
            fail(f"{summary}: 6d-s17-das house edge {edge}, published about 0.40 %")
    print(f"check_parquet: ok: {folder} (blackjack, {sets} rule sets)")


def check_holdem_multiway(con, folder: Path) -> None:
    multiway = str(folder / "multiway.parquet")
    rows, exact, bad = one(
        con,
        f"SELECT count(*), count(*) FILTER (WHERE method = 'exact'), count(*) FILTER (WHERE "
        f"wins + ties + losses <> deals OR equity < 0 OR equity > 1) FROM '{multiway}'",
    )
    if rows != 169 * 9 or exact != 2 * 169 or bad:
        fail(f"{multiway}: {rows} rows, {exact} exact, {bad} inconsistent")
    # Two opponents are exact: every board and every unordered pair of opponent hands.
    (wrong,) = one(
        con,
        f"SELECT count(*) FROM '{multiway}' WHERE opponents = 2 AND (method <> 'exact' "
        f"OR deals <> combos * 2118760::BIGINT * 446985 OR std_error <> 0)",
    )
    if wrong:
        fail(f"{multiway}: {wrong} two-opponent rows are not exact over every deal")
    # Equity falls with every extra opponent, for every class (beyond sampling noise).
    (rising,) = one(
        con,
        f"SELECT count(*) FROM '{multiway}' a JOIN '{multiway}' b ON a.class = b.class "
        f"AND b.opponents = a.opponents + 1 WHERE b.equity > a.equity + 4 * (a.std_error + b.std_error)",
    )
    if rising:
        fail(f"{multiway}: {rising} cells gain equity with an extra opponent")
    # Over all 1,326 combos, a random hand's equity against n others is 1 / (n + 1).
    for n, total, se in con.execute(
        f"SELECT opponents, sum(combos * equity) / 1326, sqrt(sum(combos * combos * std_error * std_error)) / 1326 "
        f"FROM '{multiway}' GROUP BY opponents ORDER BY opponents"
    ).fetchall():
        if abs(total - 1 / (n + 1)) > 4 * se + 1e-12:
            fail(f"{multiway}: {n} opponents: mean equity {total} ± {se}, expected {1 / (n + 1)}")
    preflop = folder.parent / "holdem_preflop" / "preflop.parquet"
    if preflop.exists():
        (mismatch,) = one(
            con,
            f"SELECT count(*) FROM '{multiway}' m JOIN '{preflop}' p USING (class) "
            f"WHERE m.opponents = 1 AND (m.wins <> p.wins OR m.ties <> p.ties)",
        )
        if mismatch:
            fail(f"{multiway}: {mismatch} one-opponent rows differ from preflop.parquet")
    print(f"check_parquet: ok: {folder} (holdem multiway, 1 to 9 opponents)")


def class_index(name: str) -> int:
    """The class index of docs/tables.md: pairs AA…22, then suited AK…32, then offsuit."""
    ranks = "AKQJT98765432"
    hi, lo = ranks.index(name[0]), ranks.index(name[1])
    if hi == lo:
        return hi
    pairs = [(a, b) for a in range(13) for b in range(a + 1, 13)]
    return 13 + pairs.index((hi, lo)) + (78 if name[2] == "o" else 0)


def check_holdem_pushfold3(con, folder: Path) -> None:
    pf, su = (str(folder / f) for f in ("pushfold3.parquet", "summary.parquet"))
    spots, classes, rows = one(
        con, f"SELECT count(DISTINCT (btn_stack_bb, sb_stack_bb, bb_stack_bb, payoff)), count(DISTINCT class), "
        f"count(*) FROM '{pf}'"
    )
    (decisions,) = one(con, f"SELECT count(DISTINCT (seat, decision)) FROM '{pf}'")
    if decisions != 6 or rows != spots * 6 * classes:
        fail(f"{pf}: {rows} rows for {spots} spots, {decisions} decisions and {classes} classes")
    # Frequencies are frequencies, the button faces its decision with every hand, and
    # aces always push and call where they can face the decision (one no deal reaches,
    # as a third AA, has no EV and any frequency).
    (bad,) = one(
        con,
        f"SELECT count(*) FROM '{pf}' WHERE frequency NOT BETWEEN 0 AND 1 OR p_faced NOT BETWEEN 0 AND 1 "
        f"OR (decision = 'btn_push' AND p_faced <> 1) OR (class = 'AA' AND frequency <> 1 AND p_faced > 0) "
        f"OR (p_faced > 0 AND (ev_act IS NULL OR ev_fold IS NULL))",
    )
    if bad:
        fail(f"{pf}: {bad} rows with an impossible frequency or chance, or aces not always played")
    (summary_rows,) = one(con, f"SELECT count(*) FROM '{su}'")
    # The certificate: the gains add up to the exploitability, within the target; chip
    # EV is zero-sum and ICM shares out the prize pool (the shipped payouts sum to 1).
    (wrong,) = one(
        con,
        f"SELECT count(*) FROM '{su}' WHERE abs(gain_btn + gain_sb + gain_bb - exploitability) > 1e-12 "
        f"OR payoff NOT IN ('chip_ev', 'icm') OR exploitability_bb > 1e-4 OR least(gain_btn, gain_sb, gain_bb) < 0 "
        f"OR (payoff = 'chip_ev' AND abs(value_btn + value_sb + value_bb) > 1e-9) "
        f"OR (payoff = 'icm' AND abs(value_btn + value_sb + value_bb - 1) > 1e-9) "
        f"OR least(btn_push_share, sb_push_share, sb_call_share, bb_call_sb_share, bb_call_btn_share, bb_call_both_share) < 0 "
        f"OR greatest(btn_push_share, sb_push_share, sb_call_share, bb_call_sb_share, bb_call_btn_share, bb_call_both_share) > 1",
    )
    if wrong or summary_rows != spots:
        fail(f"{su}: {summary_rows} rows for {spots} spots, {wrong} with a broken certificate or value")


def check_holdem_threeway(con, folder: Path) -> None:
    path = str(folder / "threeway.parquet")
    triples = con.execute(f"SELECT class_a, class_b, class_c FROM '{path}'").fetchall()
    classes = {c for t in triples for c in t}
    k = len(classes)
    if len(triples) != (k + 2) * (k + 1) * k // 6:
        fail(f"{path}: {len(triples)} rows for {k} classes, expected every triple with repeats")
    keys = [tuple(class_index(c) for c in t) for t in triples]
    if any(not (a <= b <= c) for a, b, c in keys) or len(set(keys)) != len(keys):
        fail(f"{path}: a row's classes are not in increasing class index, or a triple repeats")
    # Possible triples: equities sum to 1, each between its wins and its wins plus half its
    # ties (a split pays at most half), over combos × C(46, 5) showdowns.
    (bad,) = one(
        con,
        f"SELECT count(*) FROM '{path}' WHERE combos > 0 AND (showdowns <> combos * 1370754 "
        f"OR abs(equity_a + equity_b + equity_c - 1) > 1e-12 "
        f"OR equity_a * showdowns < wins_a - 1e-6 * showdowns "
        f"OR equity_a * showdowns > wins_a + ties_a / 2 + 1e-6 * showdowns "
        f"OR equity_b * showdowns < wins_b - 1e-6 * showdowns "
        f"OR equity_b * showdowns > wins_b + ties_b / 2 + 1e-6 * showdowns "
        f"OR equity_c * showdowns < wins_c - 1e-6 * showdowns "
        f"OR equity_c * showdowns > wins_c + ties_c / 2 + 1e-6 * showdowns)",
    )
    # Impossible triples: no deal, null equities.
    (impossible, bad_impossible) = one(
        con,
        f"SELECT count(*), count(*) FILTER (WHERE equity_a IS NOT NULL OR equity_b IS NOT NULL "
        f"OR equity_c IS NOT NULL OR showdowns <> 0) FROM '{path}' WHERE combos = 0",
    )
    # Seats holding the same class are alike.
    (unequal,) = one(
        con,
        f"SELECT count(*) FROM '{path}' WHERE combos > 0 AND ("
        f"(class_a = class_b AND (wins_a <> wins_b OR ties_a <> ties_b "
        f"OR abs(equity_a - equity_b) > 1e-12)) OR "
        f"(class_b = class_c AND (wins_b <> wins_c OR ties_b <> ties_c "
        f"OR abs(equity_b - equity_c) > 1e-12)))",
    )
    # The 13 orders of the three hands add up to the showdowns and give each seat's wins
    # (alone on top) and ties (sharing the top).
    top_a = "order_a_b_c + order_a_c_b + order_a_bc"
    top_b = "order_b_a_c + order_b_c_a + order_b_ac"
    top_c = "order_c_a_b + order_c_b_a + order_c_ab"
    (orders,) = one(
        con,
        f"SELECT count(*) FROM '{path}' WHERE "
        f"{top_a} + {top_b} + {top_c} + order_ab_c + order_ac_b + order_bc_a + order_abc <> showdowns "
        f"OR {top_a} <> wins_a OR {top_b} <> wins_b OR {top_c} <> wins_c "
        f"OR order_ab_c + order_ac_b + order_abc <> ties_a OR order_ab_c + order_bc_a + order_abc <> ties_b "
        f"OR order_ac_b + order_bc_a + order_abc <> ties_c",
    )
    if bad or bad_impossible or unequal or orders:
        fail(f"{path}: {bad} bad possible rows, {bad_impossible} bad impossible rows, "
             f"{unequal} rows whose equal classes differ, {orders} rows whose orders disagree")
    print(f"check_parquet: ok: {folder} (holdem three-way, {len(triples)} triples of {k} classes, "
          f"{impossible} impossible)")


def check_holdem_headsup(con, folder: Path) -> None:
    headsup, matchups = str(folder / "headsup.parquet"), str(folder / "matchups.parquet")
    rows, raw, bad = one(
        con,
        f"SELECT count(*), sum(matchups), count(*) FILTER (WHERE boards <> 1712304 "
        f"OR wins + ties + losses <> boards) FROM '{matchups}'",
    )
    if rows != 47_008 or raw != 812_175 or bad:
        fail(f"{matchups}: {rows} classes, {raw} raw matchups, {bad} bad rows")
    cells, asym = one(
        con,
        f"SELECT count(*), count(*) FILTER (WHERE x.wins <> y.losses OR x.ties <> y.ties "
        f"OR abs(x.equity_a + y.equity_a - 1) > 1e-12) "
        f"FROM '{headsup}' x JOIN '{headsup}' y ON x.class_a = y.class_b AND x.class_b = y.class_a",
    )
    if cells != 169 * 169 or asym:
        fail(f"{headsup}: {cells} cells, {asym} not mirrored by their transpose")
    (aa_kk,) = one(con, f"SELECT equity_a FROM '{headsup}' WHERE class_a = 'AA' AND class_b = 'KK'")
    if abs(aa_kk - 0.8195) > 5e-5:
        fail(f"{headsup}: AA vs KK {aa_kk}, published 0.8195")
    preflop = folder.parent / "holdem_preflop" / "preflop.parquet"
    if preflop.exists():
        (mismatch,) = one(
            con,
            f"SELECT count(*) FROM (SELECT class_a, sum(wins) AS w, sum(ties) AS t "
            f"FROM '{headsup}' GROUP BY class_a) m JOIN '{preflop}' p ON p.class = m.class_a "
            f"WHERE m.w <> p.wins OR m.t <> p.ties",
        )
        if mismatch:
            fail(f"{headsup}: {mismatch} classes whose row sums differ from preflop.parquet")
    print(f"check_parquet: ok: {folder} (holdem heads-up, 47,008 matchups, AA v KK {aa_kk:.4f})")


def check_holdem_pushfold(con, folder: Path) -> None:
    pf, th, su = (str(folder / f) for f in ("pushfold.parquet", "thresholds.parquet", "summary.parquet"))
    stacks, rows, combos = one(con, f"SELECT count(DISTINCT stack), count(*), sum(combos) FROM '{pf}'")
    if rows != 169 * stacks or combos != 1326 * stacks:
        fail(f"{pf}: {rows} rows and {combos} combos for {stacks} stacks")
    (bad,) = one(
        con,
        f"SELECT count(*) FROM '{pf}' WHERE push_freq NOT BETWEEN 0 AND 1 OR call_freq NOT BETWEEN 0 AND 1 "
        f"OR ev_fold_bb <> -(0.5 + ante) OR (class = 'AA' AND (push_freq <> 1 OR call_freq <> 1))",
    )
    if bad:
        fail(f"{pf}: {bad} rows with an impossible frequency, a wrong fold EV, or AA not always played")
    # Each player's action is a best response: a played class gains at least the fold, a
    # folded one at most, a mixed one exactly (to 1e-9 bb).
    (not_best,) = one(
        con,
        f"SELECT count(*) FROM '{pf}' WHERE "
        f"(push_freq = 1 AND ev_push_bb < ev_fold_bb - 1e-9) OR (push_freq = 0 AND ev_push_bb > ev_fold_bb + 1e-9) "
        f"OR (push_freq > 0 AND push_freq < 1 AND abs(ev_push_bb - ev_fold_bb) > 1e-9) "
        f"OR (call_freq = 1 AND ev_call_bb < -(1 + ante) - 1e-9) OR (call_freq = 0 AND ev_call_bb > -(1 + ante) + 1e-9) "
        f"OR (call_freq > 0 AND call_freq < 1 AND abs(ev_call_bb + 1 + ante) > 1e-9)",
    )
    if not_best:
        fail(f"{pf}: {not_best} rows whose action is not a best response")
    (mismatch,) = one(
        con,
        f"SELECT count(*) FROM '{su}' s JOIN (SELECT stack, sum(combos * push_freq) / 1326 AS p, "
        f"sum(combos * call_freq) / 1326 AS c FROM '{pf}' GROUP BY stack) r USING (stack) "
        f"WHERE abs(s.sb_push_share - r.p) > 1e-11 OR abs(s.bb_call_share - r.c) > 1e-11 OR s.exploitability_bb > 1e-9",
    )
    (summary_rows,) = one(con, f"SELECT count(*) FROM '{su}'")
    if mismatch or summary_rows != stacks:
        fail(f"{su}: {summary_rows} rows, {mismatch} disagreeing with pushfold.parquet or too exploitable")
    # The chart convention: max_stack is the largest stack played at least half the time,
    # max_stack_any the largest played at all; every interval is charted throughout.
    (wrong_top,) = one(
        con,
        f"SELECT count(*) FROM (SELECT class, role, max(max_stack) AS m, max(max_stack_any) AS a FROM '{th}' "
        f"GROUP BY class, role) t FULL JOIN ("
        f"SELECT class, 'sb_push' AS role, max(stack) FILTER (WHERE push_freq >= 0.5) AS m, "
        f"max(stack) FILTER (WHERE push_freq > 0) AS a FROM '{pf}' GROUP BY class UNION ALL "
        f"SELECT class, 'bb_call', max(stack) FILTER (WHERE call_freq >= 0.5), "
        f"max(stack) FILTER (WHERE call_freq > 0) FROM '{pf}' GROUP BY class) p "
        f"USING (class, role) WHERE t.m IS DISTINCT FROM p.m OR t.a IS DISTINCT FROM p.a OR t.a < t.m",
    )
    if wrong_top:
        fail(f"{th}: {wrong_top} hands whose chart or any-frequency bound differs from pushfold.parquet")
    (uncharted,) = one(
        con,
        f"SELECT count(*) FROM '{th}' t JOIN '{pf}' p ON p.class = t.class AND p.stack BETWEEN "
        f"t.from_stack - 1e-9 AND t.to_stack + 1e-9 WHERE "
        f"CASE t.role WHEN 'sb_push' THEN p.push_freq ELSE p.call_freq END < 0.5",
    )
    if uncharted:
        fail(f"{th}: {uncharted} stacks inside a charted interval played less than half the time")
    (wrong_margin,) = one(
        con,
        f"SELECT count(*) FROM '{pf}' WHERE abs(push_margin_bb - (ev_push_bb - ev_fold_bb)) > 1e-12 "
        f"OR abs(call_margin_bb - (ev_call_bb + 1 + ante)) > 1e-12",
    )
    if wrong_margin:
        fail(f"{pf}: {wrong_margin} rows whose EV margins are not play minus fold")
    (not_unique,) = one(con, f"SELECT count(*) FILTER (WHERE NOT unique_equilibrium) FROM '{su}'")
    if not_unique:
        fail(f"{su}: {not_unique} stacks whose equilibrium is not certified unique")
    (pushed,) = one(con, f"SELECT sb_push_share FROM '{su}' ORDER BY stack DESC LIMIT 1")
    print(f"check_parquet: ok: {folder} (holdem push/fold, {stacks} stacks, SB pushes {100 * pushed:.2f} % at the top)")


# Per street of holdem.postflop: states, raw deals (C(52,2) hole cards × boards) and the
# runouts each state averages over.
POSTFLOP_STREETS = {
    "preflop": (169, 1_326, 2_118_760),
    "flop": (1_286_792, 1_326 * 19_600, 1_081),
    "turn": (13_960_050, 1_326 * 230_300, 46),
    "river": (123_156_254, 1_326 * 2_118_760, 1),
}


def check_holdem_postflop(con, folder: Path) -> None:
    """Every written street: one row per state in index order, every raw deal counted once,
    the histograms counting the runouts, E[HS] the exact ratio, and the invariant: over every
    raw deal, the mean HS is exactly 1/2 (checked in integers)."""
    written = [s for s in POSTFLOP_STREETS if (folder / f"{s}.parquet").exists()]
    if not written:
        fail(f"{folder}: no street table")
    for street in written:
        states, deals, runouts = POSTFLOP_STREETS[street]
        t = f"read_parquet('{folder / f'{street}.parquet'}')"
        n, lo, hi, total = one(
            con, f"SELECT count(*), min(\"index\"), max(\"index\"), sum(raw_deals) FROM {t}"
        )
        if (n, lo, hi, total) != (states, 0, states - 1, deals):
            fail(f"{street}: {n} rows, index {lo}..{hi}, {total} raw deals; expected {states}, 0..{states - 1}, {deals}")
        if street == "river":
            bad = one(con, f"SELECT count(*) FROM {t} WHERE wins + ties + losses != 990 "
                      f"OR hs != (wins + ties / 2) / 990")[0]
            lhs, rhs = one(con, f"SELECT sum(raw_deals::HUGEINT * (2 * wins + ties)), "
                           f"sum(raw_deals::HUGEINT) * 990 FROM {t}")
        else:
            bad = one(con, f"SELECT count(*) FROM {t} WHERE runouts != {runouts} "
                      f"OR list_sum(histogram) != runouts "
                      f"OR ehs != score_sum::DOUBLE / (runouts * 1980)::DOUBLE "
                      f"OR ehs2 != score_sq_sum::DOUBLE / (runouts * 1980 * 1980)::DOUBLE")[0]
            lhs, rhs = one(con, f"SELECT sum(raw_deals::HUGEINT * score_sum), "
                           f"sum(raw_deals::HUGEINT * runouts) * 990 FROM {t}")
        if bad:
            fail(f"{street}: {bad} rows whose figures disagree with their counts")
        if lhs != rhs:
            fail(f"{street}: the mean HS over every deal is {lhs}/{2 * rhs}, not exactly 1/2")
    if "preflop" in written:
        aa = one(con, f"SELECT ehs FROM read_parquet('{folder / 'preflop.parquet'}') WHERE class = 'AA'")[0]
        # AA against one random hand: 0.85204 (the preflop sweep's exact equity).
        if round(aa, 5) != 0.85204:
            fail(f"preflop: AA E[HS] {aa}, not its equity 0.85204 against a random hand")


def check_holdem_preflop(con, folder: Path) -> None:
    preflop = str(folder / "preflop.parquet")
    rows, combos, score, deals = one(
        con,
        f"SELECT count(*), sum(combos), sum(2 * wins::HUGEINT + ties), sum(deals::HUGEINT) "
        f"FROM '{preflop}'",
    )
    if rows != 169 or combos != 1326 or score != deals:
        fail(f"{preflop}: {rows} classes, {combos} combos, 2·wins + ties = {score} vs {deals}")
    (aa,) = one(con, f"SELECT equity FROM '{preflop}' WHERE class = 'AA'")
    if abs(aa - 0.85204) > 5e-5:
        fail(f"{preflop}: AA equity {aa}, published 0.8520")
    (n, mismatch) = one(
        con,
        f"SELECT count(*), count(*) FILTER (WHERE c.equity <> p.equity) "
        f"FROM '{folder / 'preflop_combos.parquet'}' c JOIN '{preflop}' p USING (class)",
    )
    if n != 1326 or mismatch:
        fail(f"preflop_combos.parquet: {n} combos, {mismatch} differ from their class")
    print(f"check_parquet: ok: {folder} (holdem preflop, 169 classes, AA {aa:.5f})")


def check_stud(con, folder: Path) -> None:
    categories = str(folder / "categories.parquet")
    totals = con.execute(
        f"SELECT deck, ace_low_straight, flush_beats_full_house, sum(count) "
        f"FROM '{categories}' GROUP BY ALL ORDER BY ALL"
    ).fetchall()
    hands = {52: 2_598_960, 32: 201_376, 28: 98_280}
    if len(totals) != 12 or any(total != hands[deck] for deck, _, _, total in totals):
        fail(f"{categories}: totals per variant {totals}")
    textbook = dict(
        con.execute(
            f"SELECT category, count FROM '{categories}' WHERE deck = 52 AND ace_low_straight "
            f"AND NOT flush_beats_full_house"
        ).fetchall()
    )
    expected = {"straight_flush": 40, "quads": 624, "full_house": 3744, "flush": 5108,
                "straight": 10200, "trips": 54912, "two_pair": 123552, "pair": 1098240,
                "high_card": 1302540}
    if textbook != expected:
        fail(f"{categories}: 52-card counts {textbook}")
    hit = str(folder / "hit_probability.parquet")
    (rows, bad) = one(
        con,
        f"SELECT count(*), count(*) FILTER (WHERE exact < 0 OR exact > 1 "
        f"OR abs(rule_error - (rule_of_2_and_4 - exact)) > 1e-12) FROM '{hit}'",
    )
    if rows != 20 * 28 * 2 or bad:
        fail(f"{hit}: {rows} rows, {bad} inconsistent")
    (n,) = one(con, f"SELECT count(*) FROM '{folder / 'break_even.parquet'}'")
    if n != 5 * 4 * 4 * 4 * 2:
        fail(f"break_even.parquet: {n} rows")
    headsup = folder / "headsup.parquet"
    decks = []
    if headsup.exists():
        for deck, matchups, bad in con.execute(
            f"SELECT deck, sum(matchups), count(*) FILTER (WHERE wins + ties + losses <> deals "
            f"OR equity_a < 0 OR equity_a > 1) FROM '{headsup}' GROUP BY deck ORDER BY deck"
        ).fetchall():
            hands = deck * (deck - 1) // 2
            raw = hands * (hands - 2 * deck + 3) // 2
            if matchups != raw or bad:
                fail(f"{headsup}: deck {deck} covers {matchups} of {raw} matchups, {bad} bad rows")
            decks.append(deck)
    print(
        f"check_parquet: ok: {folder} (stud, 12 deck variants, textbook 52-card counts"
        f"{', heads-up for decks ' + str(decks) if decks else ''})"
    )


ZHAJINHUA_HANDS = 22_100
ZHAJINHUA_OPPONENTS = 18_424


def check_zhajinhua(con, folder: Path) -> None:
    hands = str(folder / "hands.parquet")
    categories = str(folder / "categories.parquet")
    rows = con.execute(
        f"SELECT opponents, count(*), count(DISTINCT hand_index), min(deals), max(deals) "
        f"FROM '{hands}' WHERE method = 'exact' GROUP BY opponents ORDER BY opponents"
    ).fetchall()
    expected = [
        (1, ZHAJINHUA_HANDS, ZHAJINHUA_HANDS, ZHAJINHUA_OPPONENTS, ZHAJINHUA_OPPONENTS),
        (2, ZHAJINHUA_HANDS, ZHAJINHUA_HANDS, 18_424 * 15_180, 18_424 * 15_180),
    ]
    sampled = con.execute(
        f"SELECT opponents, count(*), min(deals), min(std_error) FROM '{hands}' "
        f"WHERE method = 'monte_carlo' GROUP BY opponents ORDER BY opponents"
    ).fetchall()
    if any(n != ZHAJINHUA_HANDS or trials < 16_384 or se < 0 for _, n, trials, se in sampled):
        fail(f"{hands}: Monte Carlo rows per opponent count {sampled}")
    # A Monte Carlo row has a standard error of 0 exactly when its value is certain: the
    # hand beats every pair of opponent hands in a showdown of three (so any number of
    # opponents), and then it wins for sure.
    (wrong_certainty,) = one(
        con,
        f"SELECT count(*) FROM '{hands}' m JOIN '{hands}' o ON o.hand_index = m.hand_index AND o.opponents = 2 "
        f"WHERE m.method = 'monte_carlo' AND ((m.std_error = 0) <> (o.wins = o.deals) "
        f"OR (m.std_error = 0 AND (m.win <> 1 OR m.equity <> 1)))",
    )
    if wrong_certainty:
        fail(f"{hands}: {wrong_certainty} Monte Carlo rows whose zero standard error does not match a certain win")
    if rows != expected:
        fail(f"{hands}: rows per opponent count {rows}, expected {expected}")
    ranges = str(folder / "range_equity.parquet")
    classes, cells, mismatch = one(
        con,
        f"SELECT count(DISTINCT r.suit_class), count(*), count(*) FILTER (WHERE r.calling_share = 1 "
        f"AND abs(r.equity - h.equity) > 1e-12) "
        f"FROM '{ranges}' r JOIN (SELECT DISTINCT ON (suit_class, opponents) * FROM '{hands}' "
        f"WHERE method = 'exact') h USING (suit_class, opponents)",
    )
    if classes != 1_755 or cells != 1_755 * 2 * 100 or mismatch:
        fail(f"{ranges}: {classes} classes, {cells} rows, {mismatch} whole-range rows unlike hands.parquet")
    (shares, outside) = one(
        con,
        f"SELECT count(DISTINCT calling_share), count(*) FILTER (WHERE calling_share <= 0 "
        f"OR calling_share > 1 OR equity < 0 OR equity > 1) FROM '{ranges}'",
    )
    if shares != 100 or outside:
        fail(f"{ranges}: {shares} distinct calling shares (expected 100), {outside} out of bounds")
    (doubled,) = one(
        con, f"SELECT sum(2 * wins::HUGEINT + ties) FROM '{hands}' WHERE opponents = 1"
    )
    if doubled != ZHAJINHUA_HANDS * ZHAJINHUA_OPPONENTS:
        fail(f"{hands}: Σ (2·wins + ties) vs 1 opponent is {doubled}, not every pair once")
    (bad,) = one(
        con,
        f"SELECT count(*) FROM '{hands}' WHERE abs(win + tie + loss - 1) > 1e-12 "
        f"OR (method = 'exact' AND (equity < win OR equity > win + tie OR std_error <> 0))",
    )
    if bad:
        fail(f"{hands}: {bad} rows with inconsistent probabilities")
    mismatches = con.execute(
        f"""
        WITH h AS (SELECT category, count(*) AS n FROM '{hands}' WHERE opponents = 1
                   GROUP BY category)
        SELECT c.category, c.count, h.n FROM '{categories}' c FULL OUTER JOIN h USING (category)
        WHERE c.count IS DISTINCT FROM h.n
        """
    ).fetchall()
    if mismatches:
        fail(f"{folder}: category counts disagree: {mismatches}")
    decisions = str(folder / "decisions.parquet")
    (n, wrong_best) = one(
        con,
        f"SELECT count(*), count(*) FILTER (WHERE greatest(ev_fold, ev_call, ev_raise, ev_compare) "
        f"<> CASE best_action WHEN 'fold' THEN ev_fold WHEN 'call' THEN ev_call "
        f"WHEN 'raise' THEN ev_raise ELSE ev_compare END) FROM '{decisions}'",
    )
    # The grid, against seen and against blind opponents (the shipped jobs keep the default
    # raise cap, so no raise is left out).
    if n != 2 * 9 * 3 * 3 * 3 * 4 or wrong_best:
        fail(f"{decisions}: {n} rows, {wrong_best} with a best action that is not the max EV")
    (cheaper,) = one(
        con,
        f"SELECT count(*) FROM '{decisions}' s JOIN '{decisions}' b USING "
        f"(equity, pot, call, raise_to, fold_rate) WHERE s.caller_view = 'seen' AND "
        f"b.caller_view = 'blind' AND (s.ev_call <> b.ev_call OR "
        f"(s.raise_to > s.call AND s.fold_rate < 1 AND b.ev_raise >= s.ev_raise AND s.equity > 0))",
    )
    if cheaper:
        fail(f"{decisions}: {cheaper} rows where a blind caller's cheaper call is not worth less to a raise")
    curve = str(folder / "raise_curve.parquet")
    (random_blind,) = one(
        con,
        f"SELECT count(*) FROM '{curve}' WHERE caller_view = 'blind' AND "
        f"(calling_share <> 1 OR ev_raise <> ev_raise_random_callers)",
    )
    if random_blind:
        fail(f"{curve}: {random_blind} blind-opponent rows whose callers are not random hands")
    print(
        f"check_parquet: ok: {folder} (zhajinhua, exact identities hold"
        f"{', ' + str(len(sampled)) + ' Monte Carlo opponent counts' if sampled else ''})"
    )


def check_niuniu_bidding(con, folder: Path) -> None:
    four = str(folder / "four_cards.parquet")
    bidding = str(folder / "bidding.parquet")
    rows, distinct, low, high = one(
        con,
        f"SELECT count(*), count(DISTINCT hand_index), min(hand_index), max(hand_index) "
        f"FROM '{four}'",
    )
    if (rows, distinct, low, high) != (270_725, 270_725, 0, 270_724):
        fail(f"four_cards hand_index: rows={rows} distinct={distinct} range={low}..{high}")
    p_columns = [
        row[0]
        for row in con.execute(f"DESCRIBE SELECT * FROM '{four}'").fetchall()
        if row[0].startswith("p_")
    ]
    total = " + ".join(p_columns)
    (off,) = one(con, f"SELECT max(abs({total} - 1)) FROM '{four}'")
    if off > 1e-12:
        fail(f"fifth-card probabilities of a hand sum to 1 ± {off}")
    (not_48ths,) = one(
        con,
        f"SELECT count(*) FROM '{four}' WHERE "
        + " OR ".join(f"abs({c} * 48 - round({c} * 48)) > 1e-9" for c in p_columns),
    )
    if not_48ths:
        fail(f"{not_48ths} hands have a fifth-card probability that is not a count of 48")
    (off,) = one(
        con,
        f"SELECT max(abs(banker_ev_table - banker_ev * {metadata_players(con, four)})) "
        f"FROM '{four}'",
    )
    if off > 1e-9:
        fail(f"banker_ev_table is not players × banker_ev (off by {off})")
    classes, suggested, hands = one(
        con,
        f"SELECT count(DISTINCT rank_class), count(*) FILTER (suggested), "
        f"sum(hands) FILTER (level = 0) FROM '{bidding}'",
    )
    if (classes, suggested, hands) != (1820, 1820, 270_725):
        fail(f"bidding.parquet: {classes} classes, {suggested} suggestions, {hands} hands")
    (disagree,) = one(
        con,
        f"SELECT count(*) FROM '{four}' f JOIN '{bidding}' b "
        f"ON b.rank_class = f.rank_class AND b.suggested WHERE b.bid <> f.suggested_bid",
    )
    if disagree:
        fail(f"{disagree} four-card hands disagree with their class's suggested bid")
    (bad_gain,) = one(con, f"SELECT count(*) FROM '{bidding}' WHERE level = 0 AND gain <> 0")
    if bad_gain:
        fail(f"{bad_gain} no-bid rows have a gain over themselves")
    # Shares are a distribution per class; the regret is the best EV less the strategy's.
    (bad_class,) = one(
        con,
        f"SELECT count(*) FROM (SELECT rank_class, sum(share) AS total, max(ev_bid) AS best, "
        f"sum(share * ev_bid) AS played, min(regret) AS lo, max(regret) AS hi "
        f"FROM '{bidding}' GROUP BY rank_class) "
        f"WHERE abs(total - 1) > 1e-9 OR lo <> hi OR abs(best - played - hi) > 1e-9",
    )
    if bad_class:
        fail(f"{bad_class} classes whose shares do not sum to 1 or whose regret is not best − played")
    certificate = str(folder / "equilibrium.parquet")
    (rows, exploitability, class_exploitability, target) = one(
        con,
        f"SELECT count(*), max(exploitability), max(class_exploitability), "
        f"max(target_exploitability) FROM '{certificate}'",
    )
    if rows != 1 or not (0 <= class_exploitability <= exploitability < 1e-3):
        fail(f"equilibrium.parquet: {rows} rows, exploitability {exploitability}, "
             f"class {class_exploitability}")
    # The hands' regrets average to the exploitability; the classes' weighted regrets to
    # the class exploitability, which the solve brought to its target.
    (mean_regret,) = one(con, f"SELECT avg(bid_regret) FROM '{four}'")
    (weighted,) = one(
        con,
        f"SELECT sum(class_weight * regret) FROM '{bidding}' WHERE level = 0",
    )
    if abs(mean_regret - exploitability) > 1e-12 or abs(weighted - class_exploitability) > 1e-12:
        fail(f"regrets average to {mean_regret} and {weighted}, not the certificate "
             f"{exploitability} and {class_exploitability}")
    if class_exploitability > target:
        print(f"check_parquet: note: {folder}: class exploitability {class_exploitability} "
              f"above the target {target} (the round limit stopped the solve)")


def check_niuniu_multiway(con, folder: Path) -> None:
    slots = str(folder / "slots.parquet")
    summary = str(folder / "summary.parquet")
    hands, rows = one(con, f"SELECT sum(hands) FILTER (opponents = 1), count(*) FROM '{slots}'")
    if hands != HANDS or rows % 5:
        fail(f"slots.parquet covers {hands} hands in {rows} rows")
    (bad,) = one(
        con,
        f"SELECT count(*) FROM '{slots}' WHERE (opponents = 1) <> (method = 'exact') "
        f"OR (method = 'exact') <> (std_error = 0) AND p_beat_all NOT IN (0, 1)",
    )
    if bad:
        fail(f"{bad} slot rows mislabel exact and sampled figures")
    (rising,) = one(
        con,
        f"SELECT count(*) FROM (SELECT ranks, tie_card, opponents, p_beat_all, "
        f"lag(p_beat_all) OVER (PARTITION BY ranks, tie_card ORDER BY opponents) AS fewer "
        f"FROM '{slots}') WHERE opponents > 2 AND p_beat_all > fewer",
    )
    if rising:  # sampled on the same deals, so never higher (N = 1 is exact, not sampled)
        fail(f"{rising} slots beat more players more often than fewer")
    (off,) = one(
        con,
        f"SELECT max(abs(s.banker_ev - s.opponents * o.banker_ev)) FROM '{slots}' s "
        f"JOIN '{slots}' o ON o.ranks = s.ranks AND o.tie_card = s.tie_card AND o.opponents = 1",
    )
    if off > 1e-9:
        fail(f"banker_ev is not linear in the players (off by {off})")
    (total,) = one(
        con, f"SELECT sum(hands) FROM '{summary}' WHERE \"group\" = 'category' AND opponents = 5"
    )
    if total != HANDS:
        fail(f"summary categories cover {total} hands")


def metadata_players(con, path: str) -> int:
    """The `players` of the job's `[bidding]` table, from the rules in the metadata."""
    rules = metadata_of(con, path).get("pipeline.rules", "")
    found = re.search(r"^players = (\d+)$", rules, re.MULTILINE)
    if not found:
        fail(f"{path}: no `players` in the pipeline.rules metadata")
    return int(found.group(1))


def check_niuniu(con, folder: Path) -> None:
    hands = str(folder / "hands.parquet")
    categories = str(folder / "categories.parquet")

    schema = {
        row[0]: row[1]
        for row in con.execute(f"DESCRIBE SELECT * FROM read_parquet('{hands}')").fetchall()
    }
    if schema != EXPECTED_HANDS_SCHEMA:
        fail(f"hands.parquet schema is {schema}")

    rows, distinct, low, high = one(
        con,
        f"SELECT count(*), count(DISTINCT hand_index), min(hand_index), max(hand_index) "
        f"FROM '{hands}'",
    )
    if (rows, distinct, low, high) != (HANDS, HANDS, 0, HANDS - 1):
        fail(f"hand_index: rows={rows} distinct={distinct} range={low}..{high}")

    (distinct_cards,) = one(con, f"SELECT count(DISTINCT cards) FROM '{hands}'")
    if distinct_cards != HANDS:
        fail(f"{distinct_cards} distinct card texts, expected {HANDS}")

    mismatches = con.execute(
        f"""
        WITH h AS (SELECT category, count(*) AS n FROM '{hands}' GROUP BY category)
        SELECT c.category, c.count, h.n
        FROM '{categories}' c FULL OUTER JOIN h USING (category)
        WHERE c.count IS DISTINCT FROM h.n
        """
    ).fetchall()
    if mismatches:
        fail(f"category counts disagree between the two files: {mismatches}")
    total, probability = one(con, f"SELECT sum(count), sum(probability) FROM '{categories}'")
    if total != HANDS or abs(probability - 1.0) > 1e-12:
        fail(f"categories sum to {total} hands, probability {probability}")

    (wins,) = one(con, f"SELECT sum(wins::HUGEINT) FROM '{hands}'")
    if 2 * wins != HANDS * OPPONENTS:
        fail(f"win counts sum to {wins}, expected {HANDS * OPPONENTS // 2}")

    (bad_bull,) = one(
        con,
        f"SELECT count(*) FROM '{hands}' "
        f"WHERE (bull IS NULL) <> (grouping IS NULL) OR bull <> point_total % 10",
    )
    if bad_bull:
        fail(f"{bad_bull} hands have a bull number inconsistent with points or grouping")

    metadata = metadata_of(con, hands)
    if "pipeline.rules" not in metadata:
        fail("pipeline.rules missing from metadata")

    print(
        f"check_parquet: ok: {folder} ({rows} hands, {len(mismatches) or 'all'} categories "
        f"agree, win counts sum to exactly half of all disjoint pairs)"
    )


if __name__ == "__main__":
    main()
