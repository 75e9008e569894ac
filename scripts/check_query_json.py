#!/usr/bin/env python3
"""Asks every `pipeline query` with --json and checks each answer against the Parquet
table that holds the same figures, read with DuckDB: one JSON object per answer, and
every field named as a Parquet column carries that column's value in the matching row.

Usage: check_query_json.py PIPELINE_BIN OUT_ROOT

OUT_ROOT holds the tables of the quick jobs (scripts/quick_jobs.sh). Exits non-zero on
the first disagreement, and prints how many fields it compared.
"""

import json
import math
import os
import subprocess
import sys

import duckdb

BIN, OUT = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
TABLES = f"{OUT}/tables"
compared = 0


def ask(*args):
    """The JSON answer of one query: exactly one object on stdout."""
    got = subprocess.run([BIN, "query", *args, "--json"], capture_output=True, text=True)
    if got.returncode != 0:
        sys.exit(f"FAILED: pipeline query {' '.join(args)} --json exited {got.returncode}: {got.stderr}")
    lines = got.stdout.strip().splitlines()
    if len(lines) != 1:
        sys.exit(f"FAILED: query {' '.join(args)} --json printed {len(lines)} lines:\n{got.stdout}")
    answer = json.loads(lines[0])
    if not isinstance(answer, dict) or answer.get("query") != args[0]:
        sys.exit(f"FAILED: query {' '.join(args)} --json is not one object naming its query: {answer}")
    return answer


def rows(sql, *params):
    """Rows of a DuckDB query as dicts."""
    cur = duckdb.execute(sql, list(params))
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r)) for r in cur.fetchall()]


def one_row(sql, *params):
    found = rows(sql, *params)
    if len(found) != 1:
        sys.exit(f"FAILED: {len(found)} rows for {sql} {params}")
    return found[0]


def same(a, b):
    if isinstance(a, float) or isinstance(b, float):
        if a is None or b is None:
            return a is None and b is None
        return math.isclose(float(a), float(b), rel_tol=1e-12, abs_tol=1e-15)
    return a == b


def agree(what, answer, row, expected_fields):
    """Every field of the answer that the row has as a column must equal it, and the
    fields the query promises must be there."""
    global compared
    shared = [k for k in answer if k in row]
    missing = [k for k in expected_fields if k not in shared]
    if missing:
        sys.exit(f"FAILED: {what}: fields {missing} missing or not Parquet columns; answer {answer}")
    for k in shared:
        if not same(answer[k], row[k]):
            sys.exit(f"FAILED: {what}: {k} = {answer[k]!r} in the answer, {row[k]!r} in the table")
        compared += 1


# Hold'em: one class against random hands, exact and Monte Carlo.
a = ask("holdem", "AKs", "--table", f"{TABLES}/holdem_preflop/holdem.bin")
agree("holdem AKs", a, one_row(f"SELECT * FROM '{TABLES}/holdem_preflop/preflop.parquet' WHERE class = 'AKs'"),
      ["class", "opponents", "win", "tie", "equity", "std_error", "method"])
a = ask("holdem", "AKs", "--opponents", "3", "--table", f"{TABLES}/holdem_multiway_quick/holdem.bin")
agree("holdem AKs vs 3", a,
      one_row(f"SELECT * FROM '{TABLES}/holdem_multiway_quick/multiway.parquet' WHERE class = 'AKs' AND opponents = 3"),
      ["class", "opponents", "win", "tie", "equity", "std_error", "method"])
assert a["method"] == "monte_carlo" and a["std_error"] > 0, a
assert a["best_ev"] == max(x["ev"] for x in a["actions"]), a

# Hold'em heads-up: two named hands (the matchup class's row) and two classes.
a = ask("holdem", "As Ks", "Qd Qc", "--table", f"{TABLES}/holdem_headsup/holdem_headsup.bin")
# The table holds each matchup class once, in one order: read it from the other side.
row = one_row(f"SELECT class_b AS class_a, class_a AS class_b, losses AS wins, ties, wins AS losses, boards, "
              f"1 - equity_a AS equity_a FROM '{TABLES}/holdem_headsup/matchups.parquet' "
              "WHERE class_a = 'QQ' AND class_b = 'AKs' AND losses = ? AND ties = ? AND wins = ?",
              a["wins"], a["ties"], a["losses"])
agree("holdem As Ks vs Qd Qc", a, row, ["class_a", "class_b", "wins", "ties", "losses", "boards", "equity_a"])
a = ask("holdem", "AKs", "QQ", "--table", f"{TABLES}/holdem_headsup/holdem_headsup.bin")
agree("holdem AKs vs QQ", a,
      one_row(f"SELECT * FROM '{TABLES}/holdem_headsup/headsup.parquet' WHERE class_a = 'AKs' AND class_b = 'QQ'"),
      ["class_a", "class_b", "equity_a"])

# Three-handed push/fold: one decision's row, every decision of a seat, and the summary.
pf3 = f"{TABLES}/holdem_pushfold3_quick"
for payoff, extra in [("chip_ev", []), ("icm", ["--payouts", "0.5,0.3,0.2"])]:
    a = ask("pushfold", "AKo", "--stack", "11", "--players", "3", "--position", "sb", "--facing", "push", *extra,
            "--table", f"{pf3}/pushfold3.bin")
    assert a["btn_stack_bb"] == 10 and a["payoff"] == payoff and a["decision"] == "sb_call", a
    stacks = ["btn_stack_bb", "sb_stack_bb", "bb_stack_bb"]
    agree(f"pushfold3 AKo sb_call {payoff}", a,
          one_row(f"SELECT * FROM '{pf3}/pushfold3.parquet' WHERE class = 'AKo' AND btn_stack_bb = 10 "
                  "AND sb_stack_bb = 10 AND bb_stack_bb = 10 AND payoff = ? AND decision = 'sb_call'", payoff),
          ["class", *stacks, "payoff", "seat", "decision", "frequency", "ev_act", "ev_fold", "p_faced"])
    agree(f"pushfold3 summary {payoff}", a,
          one_row(f"SELECT * FROM '{pf3}/summary.parquet' WHERE btn_stack_bb = 10 AND sb_stack_bb = 10 "
                  "AND bb_stack_bb = 10 AND payoff = ?", payoff),
          ["exploitability", "exploitability_bb", "value_btn", "value_sb", "value_bb"])
    # A spot at unequal stacks, every decision of the small blind.
    a = ask("pushfold", "AKs", "--stacks", "15,10,20", "--players", "3", "--position", "sb", *extra,
            "--table", f"{pf3}/pushfold3.bin")
    assert [a[s] for s in stacks] == [15, 10, 20] and len(a["decisions"]) == 2, a
    for d in a["decisions"]:
        agree(f"pushfold3 AKs 15/10/20 {d['decision']} {payoff}", {**d, "class": a["class"]},
              one_row(f"SELECT * FROM '{pf3}/pushfold3.parquet' WHERE class = 'AKs' AND btn_stack_bb = 15 "
                      "AND sb_stack_bb = 10 AND bb_stack_bb = 20 AND payoff = ? AND decision = ?",
                      payoff, d["decision"]),
              ["class", "decision", "frequency", "ev_act", "ev_fold", "p_faced"])
    a = ask("pushfold", "T9s", "--stack", "4", "--players", "3", "--position", "bb", *extra,
            "--table", f"{pf3}/pushfold3.bin")
    assert [d["decision"] for d in a["decisions"]] == ["bb_call_sb", "bb_call_btn", "bb_call_both"], a
    for d in a["decisions"]:
        agree(f"pushfold3 T9s {d['decision']} {payoff}", {**d, "class": a["class"], "bb_stack_bb": a["bb_stack_bb"]},
              one_row(f"SELECT * FROM '{pf3}/pushfold3.parquet' WHERE class = 'T9s' AND btn_stack_bb = 4 "
                      "AND sb_stack_bb = 4 AND bb_stack_bb = 4 AND payoff = ? AND decision = ?", payoff, d["decision"]),
              ["class", "bb_stack_bb", "decision", "frequency", "ev_act", "ev_fold", "p_faced"])

# Hold'em strength on a board: the state's row by its index. The answer's `hole` and
# `board` are the cards asked, the row's a representative of the state: asked again with
# the representative, every field agrees.
flop_table = f"{TABLES}/holdem_postflop_quick/strength_flop.bin"
flop_rows = f"'{TABLES}/holdem_postflop_quick/flop.parquet'"
a = ask("holdem", "Ah Kh", "--board", "Qh Jh 2c", "--table", flop_table)
row = one_row(f"SELECT * FROM {flop_rows} WHERE \"index\" = ?", a["index"])
figures = ["index", "runouts", "score_sum", "score_sq_sum", "ehs", "ehs2", "histogram"]
agree("holdem Ah Kh on Qh Jh 2c", {k: v for k, v in a.items() if k not in ("hole", "board")}, row, figures)
a = ask("holdem", row["hole"], "--board", row["board"], "--table", flop_table)
agree("holdem on the representative flop state", a, row, ["hole", "board"] + figures)

# Push/fold: the class's row at the grid stack, and the stack's summary.
for table, stack, ante in [("holdem_pushfold", "8.5", []), ("holdem_pushfold_ante_quick", "10", ["--ante", "0.125"])]:
    a = ask("pushfold", "QJo", "--stack", stack, *ante, "--table", f"{TABLES}/{table}/pushfold.bin")
    agree(f"pushfold QJo {stack}", a,
          one_row(f"SELECT * FROM '{TABLES}/{table}/pushfold.parquet' WHERE class = 'QJo' AND stack = ?", a["stack"]),
          ["class", "stack", "ante", "push_freq", "call_freq", "ev_push_bb", "ev_fold_bb", "ev_call_bb",
           "push_margin_bb", "call_margin_bb"])
    agree(f"pushfold summary {stack}", a,
          one_row(f"SELECT sb_value_bb, exploitability_bb FROM '{TABLES}/{table}/summary.parquet' WHERE stack = ?",
                  a["stack"]),
          ["sb_value_bb", "exploitability_bb"])

# Zhajinhua: the hand's row against one and two opponents.
for opponents in ["1", "2"]:
    a = ask("zhajinhua", "Kh Qd Ks", "--opponents", opponents, "--table", f"{TABLES}/zhajinhua/zhajinhua.bin")
    agree(f"zhajinhua vs {opponents}", a,
          one_row(f"SELECT * FROM '{TABLES}/zhajinhua/hands.parquet' WHERE cards = 'Ks Kh Qd' AND opponents = ?",
                  int(opponents)),
          ["cards", "category", "strength", "opponents", "win", "tie", "loss", "equity", "std_error", "method"])
    assert [x["action"] for x in a["actions"]][:2] == ["fold", "call"] and a["actions"][-1]["action"] == "compare", a

# Niuniu: five cards (the hand's row) and four (the bidding tables' rows).
a = ask("niuniu", "10s Qh Jd Ks 9s", "--table", f"{TABLES}/niuniu/niuniu.bin")
agree("niuniu five cards", a, one_row(f"SELECT * FROM '{TABLES}/niuniu/hands.parquet' WHERE cards = ?", a["cards"]),
      ["hand_index", "cards", "category", "category_rank", "bull", "point_total", "grouping", "high_card", "strength",
       "multiplier", "wins", "win_probability", "banker_ev"])
assert a["cards"] == "Ks Qh Jd Ts 9s", a
bidding = f"{TABLES}/niuniu_bidding_quick"
a = ask("niuniu", "Tc Jd Qh Ks", "--table", f"{bidding}/niuniu_bidding.bin")
agree("niuniu four cards", a, one_row(f"SELECT * FROM '{bidding}/four_cards.parquet' WHERE cards = ?", a["cards"]),
      ["hand_index", "cards", "rank_class", "player_ev", "banker_ev", "banker_ev_table", "suggested_bid", "p_no_bull"])
levels = rows(f"SELECT level, bid, ev_bid, share FROM '{bidding}/bidding.parquet' WHERE rank_class = ? ORDER BY level",
              a["rank_class"])
if len(levels) != len(a["bids"]):
    sys.exit(f"FAILED: niuniu four cards: {len(a['bids'])} bid levels, the table has {len(levels)}")
for got, row in zip(a["bids"], levels):
    agree("niuniu bid level", got, row, ["level", "bid", "ev_bid", "share"])

# Blackjack: a two-card hand's row (tens merged), a hand of more cards (the chart's
# play), and the play at a count (the indices table's row, where an index decides it).
table = f"{TABLES}/blackjack_6d_s17"
for hand, up in [("8 8", "T"), ("K 6", "10"), ("A 7", "11"), ("A K", "9")]:
    a = ask("blackjack", hand, up, "--rules", "6d-s17-das", "--table", f"{table}/blackjack.bin")
    agree(f"blackjack {hand} v {up}", a,
          one_row(f"SELECT * FROM '{table}/hands.parquet' WHERE rule_set = ? AND cards = ? AND upcard = ?",
                  a["rule_set"], a["cards"], a["upcard"]),
          ["rule_set", "cards", "hand_label", "hand_kind", "total", "upcard", "upcard_label", "ev_stand", "ev_hit",
           "ev_double", "ev_split", "ev_surrender", "best_action", "best_ev", "conditioned_on_no_blackjack"])
a = ask("blackjack", "T 4 2", "T", "--rules", "6d-s17-das", "--table", f"{table}/blackjack.bin")
row = one_row(f"SELECT * FROM '{table}/strategy.parquet' WHERE rule_set = ? AND hand_label = 'hard 16' AND upcard = 10",
              a["rule_set"])
assert a["source"] == "chart" and a["best_action"] == row["first_choice"] and a["best_ev"] is None, (a, row)
a = ask("blackjack", "--rules", "list", "T", "T", "--table", f"{table}/blackjack.bin")
for s in a["rule_sets"]:
    agree("blackjack rule sets", s,
          one_row(f"SELECT rule_set, house_edge FROM '{table}/summary.parquet' WHERE rule_set = ?", s["rule_set"]),
          ["rule_set", "house_edge"])
indices = f"{TABLES}/blackjack_indices_quick"
plays = rows(f"SELECT * FROM '{indices}/indices.parquet' WHERE hand_label LIKE 'hard %' ORDER BY rank LIMIT 3")
if not plays:
    sys.exit("FAILED: the quick indices job found no hard-total index play to ask about")
for play in plays:
    total = int(play["hand_label"].split()[1])
    hand = "T " + str(total - 10) if total >= 12 else f"2 {total - 2}"
    count = play["index"] + (-1 if play["direction"] == "at_or_below" else 1)
    a = ask("blackjack", hand, play["upcard_label"], "--count", str(count), "--rules", play["rule_set"],
            "--table", f"{indices}/blackjack_indices.bin")
    agree(f"blackjack {hand} v {play['upcard_label']} at {count}", a, play,
          ["rule_set", "system", "hand_label", "upcard", "upcard_label", "chart_play", "play", "direction", "index",
           "gain_per_100"])

# Stud: the exact answer is one of the heads-up table's matchups (same deals and counts).
deck = one_row(f"SELECT min(deck) AS deck FROM '{TABLES}/showhand_quick/headsup.parquet'")["deck"]
low = {28: "8", 32: "7"}.get(deck, "2")
a = ask("stud", "As Ah", "Ks Qs", "--deck", str(deck))
wins, ties = round(a["win"] * a["deals"]), round(a["tie"] * a["deals"])
found = one_row(f"SELECT count(*) AS n FROM '{TABLES}/showhand_quick/headsup.parquet' WHERE deck = ? AND deals = ? "
                "AND ties = ? AND ((wins = ? AND losses = ?) OR (losses = ? AND wins = ?))",
                deck, a["deals"], ties, wins, a["deals"] - wins - ties, wins, a["deals"] - wins - ties)
if found["n"] == 0 or not same(a["equity"], (wins + ties / 2) / a["deals"]):
    sys.exit(f"FAILED: stud As Ah vs Ks Qs: {a} is no matchup of the heads-up table")
compared += 4
a = ask("stud", "As Ks Qs Js", f"{low}c {low}d", "--deck", str(deck))
hit = one_row(f"SELECT exact FROM '{TABLES}/showhand_quick/hit_probability.parquet' "
              "WHERE outs = ? AND unseen = ? AND cards_to_come = 1", a["outs"], a["unseen"])
if not same(a["hit_probability"], hit["exact"]):
    sys.exit(f"FAILED: stud hit probability {a['hit_probability']} against {hit['exact']}")
compared += 1

# pipeline equity: one object, `equity` / `win` / `tie` one per player; two classes from
# the heads-up table equal the class matrix's cell, and two hands enumerated without the
# table equal the matchup's row.
def equity(*args):
    got = subprocess.run([BIN, "equity", *args, "--json"], capture_output=True, text=True, cwd="/")
    if got.returncode != 0:
        sys.exit(f"FAILED: pipeline equity {' '.join(args)} --json exited {got.returncode}: {got.stderr}")
    return json.loads(got.stdout)


e = equity("AKs", "QQ", "--table", f"{TABLES}/holdem_headsup/holdem_headsup.bin")
row = one_row(f"SELECT equity_a FROM '{TABLES}/holdem_headsup/headsup.parquet' WHERE class_a = 'AKs' AND class_b = 'QQ'")
if not (e["exact"] and math.isclose(e["equity"][0], row["equity_a"], rel_tol=1e-12)
        and math.isclose(e["equity"][0] + e["equity"][1], 1.0, rel_tol=1e-12) and e["std_error"] == 0):
    sys.exit(f"FAILED: equity AKs QQ {e} against {row}")
e = equity("As Ks", "Qd Qc")
row = one_row(f"SELECT * FROM '{TABLES}/holdem_headsup/matchups.parquet' WHERE class_a = 'QQ' AND class_b = 'AKs' "
              "AND losses = 787966")
if not (e["exact"] and e["showdowns"] == row["boards"] and e["win"][0] == row["losses"] / row["boards"]
        and e["tie"][0] == row["ties"] / row["boards"]):
    sys.exit(f"FAILED: equity As Ks vs Qd Qc {e} against {row}")
e = equity("QQ+, AKs", "random", "random", "--std-error", "0.002")
if e["exact"] or "trials" not in e or not 0 < e["std_error"] <= 0.002 or len(e["equity"]) != 3:
    sys.exit(f"FAILED: a sampled three-way equity {e}")
compared += 8

# query holdem with three classes: the three-way table's row of the same triple, whose
# classes are stored in increasing class index (QQ, AKs, JTs), the answer in the order asked.
q = ask("holdem", "JTs", "AKs", "QQ", "--table", f"{TABLES}/holdem_threeway_quick/holdem_threeway.bin")
row = one_row(f"SELECT * FROM '{TABLES}/holdem_threeway_quick/threeway.parquet' "
              "WHERE class_a = 'QQ' AND class_b = 'AKs' AND class_c = 'JTs'")
if not (q["method"] == "exact" and q["classes"] == ["JTs", "AKs", "QQ"]
        and q["equity"] == [row["equity_c"], row["equity_b"], row["equity_a"]]
        and q["combos"] == row["combos"]):
    sys.exit(f"FAILED: query holdem JTs AKs QQ {q} against {row}")
compared += 3

# pipeline cards: any way of writing a hand finds its row by `cards`, with its ids and index.
def cards(text):
    got = subprocess.run([BIN, "cards", text, "--json"], capture_output=True, text=True, check=True)
    return json.loads(got.stdout)


for text, parquet, size in [("9s 10c Jd Qh Ks", "niuniu/hands.parquet", 5),
                            ("♠K ♥Q ♦J ♣10", "niuniu_bidding_quick/four_cards.parquet", 4),
                            ("Qd Ks Kh", "zhajinhua/hands.parquet", 3)]:
    c = cards(text)
    ids = [f"c{i}" for i in range(1, size + 1)] if size != 4 else []
    agree(f"cards {text}", c, rows(f"SELECT * FROM '{TABLES}/{parquet}' WHERE cards = ?", c["cards"])[0],
          ["cards", "hand_index", *ids])
c = cards("Kh Ah")
agree("cards Kh Ah", c, one_row(f"SELECT * FROM '{TABLES}/holdem_preflop/preflop_combos.parquet' WHERE cards = ?",
                               c["cards"]), ["cards", "class"])

print(f"query --json: {compared} fields agree with their Parquet rows")
