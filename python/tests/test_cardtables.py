"""The Python package against the Parquet tables the same jobs wrote.

scripts/test.sh runs this suite with CARDTABLES_TABLES set to the `tables/` folder of the
jobs it just ran (niuniu, zhajinhua, holdem_preflop, blackjack_6d_s17).
"""

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

import cardtables


@pytest.fixture(scope="session")
def tables() -> Path:
    root = os.environ.get("CARDTABLES_TABLES")
    assert root, "set CARDTABLES_TABLES to a tables/ folder the test jobs wrote"
    return Path(root)


@pytest.fixture(scope="session")
def niuniu(tables):
    return cardtables.Niuniu.open(tables / "niuniu" / "niuniu.bin")


@pytest.fixture(scope="session")
def niuniu_rows(tables):
    return pq.read_table(
        tables / "niuniu" / "hands.parquet",
        columns=["hand_index", "cards", "category", "strength", "wins", "win_probability", "banker_ev"],
    )


def test_niuniu_lookups_equal_the_parquet_rows(niuniu, niuniu_rows):
    rng = np.random.default_rng(20261202)
    for row in niuniu_rows.take(rng.integers(0, niuniu_rows.num_rows, 3000)).to_pylist():
        hand = niuniu.lookup(row["cards"])
        assert hand.index == row["hand_index"]
        assert (hand.category, hand.strength, hand.wins) == (row["category"], row["strength"], row["wins"])
        assert hand.win_probability == row["win_probability"]
        assert hand.banker_ev == row["banker_ev"]
        # The same hand by card ids, in another order.
        ids = [card_id(text) for text in row["cards"].split()][::-1]
        assert niuniu.lookup(ids).index == row["hand_index"]
        assert cardtables.niuniu_hand_index(row["cards"]) == row["hand_index"]


def test_niuniu_vectorised_lookups_equal_every_parquet_row(niuniu, niuniu_rows):
    index = niuniu_rows.column("hand_index").to_numpy()
    assert np.array_equal(index, np.arange(2_598_960))
    win = niuniu.win_probability_many(index)
    assert win.dtype == np.float64 and win.shape == index.shape
    assert np.array_equal(win, niuniu_rows.column("win_probability").to_numpy())
    ev = niuniu.banker_ev_many(index[::-1])[::-1]  # any order, any integer dtype below
    assert np.array_equal(ev, niuniu_rows.column("banker_ev").to_numpy())
    grid = niuniu.win_probability_many(index[:6].astype(np.int64).reshape(2, 3))
    assert grid.shape == (2, 3) and np.array_equal(grid.reshape(-1), win[:6])


def test_zhajinhua_win_rates_equal_the_parquet_rows(tables):
    table = cardtables.Zhajinhua.open(tables / "zhajinhua" / "zhajinhua.bin")
    rows = pq.read_table(tables / "zhajinhua" / "hands.parquet").to_pylist()
    assert len(rows) == 22_100 * table.max_opponents
    for row in rows[::37]:
        hand = table.win_rate(row["cards"], row["opponents"])
        assert (hand.index, hand.category, hand.strength) == (row["hand_index"], row["category"], row["strength"])
        assert hand.category_rank == row["category_rank"]
        assert (hand.win, hand.tie, hand.loss, hand.equity) == (row["win"], row["tie"], row["loss"], row["equity"])
    assert table.compare("As Ah Ad", "Ks Kh Kd") == 1
    assert table.compare("Ks Kh Kd", "As Ah Ad") == -1


def test_zhajinhua_vectorised_win_rates_equal_every_parquet_row(tables):
    table = cardtables.Zhajinhua.open(tables / "zhajinhua" / "zhajinhua.bin")
    rows = pq.read_table(tables / "zhajinhua" / "hands.parquet")
    for opponents in range(1, table.max_opponents + 1):
        mask = rows.column("opponents").to_numpy() == opponents
        index = rows.column("hand_index").to_numpy()[mask]
        assert np.array_equal(np.sort(index), np.arange(22_100))
        got = table.win_rate_many(index, opponents)
        for name in ("win", "tie", "equity"):
            assert np.array_equal(getattr(got, name), rows.column(name).to_numpy()[mask]), name
    assert cardtables.zhajinhua_hand_index("As Ah Ac") == 22_099
    assert cardtables.zhajinhua_hand_index([2, 0, 1]) == 0
    grid = table.win_rate_many(np.array([[0, 1], [2, 22_099]], dtype=np.int64), 1)
    assert grid.equity.shape == (2, 2) and grid.win[1, 1] == table.win_rate("As Ah Ac", 1).win
    with pytest.raises(cardtables.QueryError, match="hand index 22100 is out of range"):
        table.win_rate_many([3, 22_100], 1)
    with pytest.raises(cardtables.QueryError, match="position 0: 0 opponents is not covered"):
        table.win_rate_many([3], 0)


def test_holdem_equities_equal_the_parquet_rows(tables):
    table = cardtables.Holdem.open(tables / "holdem_preflop" / "holdem.bin")
    for row in pq.read_table(tables / "holdem_preflop" / "preflop.parquet").to_pylist():
        got = table.preflop(row["class"], row["opponents"])
        assert (got.win, got.tie, got.equity, got.std_error) == (row["win"], row["tie"], row["equity"], row["std_error"])
    assert table.preflop("As Ks", 1).equity == table.preflop("AKs", 1).equity


def test_blackjack_advice_equals_the_parquet_rows(tables):
    table = cardtables.Blackjack.open(tables / "blackjack_6d_s17" / "blackjack.bin")
    assert table.rule_sets == ["6d-s17-das"]
    rows = pq.read_table(tables / "blackjack_6d_s17" / "hands.parquet").to_pylist()
    assert len(rows) == 550
    for row in rows:
        advice = table.best_action(row["rule_set"], row["cards"], row["upcard_label"])
        assert (advice.action, advice.ev) == (row["best_action"], row["best_ev"])
        for action in ["stand", "hit", "double", "split", "surrender"]:
            assert advice.evs.get(action) == row[f"ev_{action}"], (row["cards"], row["upcard_label"], action)
    longer = table.best_action("6d-s17-das", "T 2 4", "T")
    assert longer.ev is None and longer.evs == {} and longer.action in ("hit", "stand")


def test_errors_are_exceptions_with_the_runtime_message(tables, niuniu):
    with pytest.raises(cardtables.CardError, match="Ks appears more than once"):
        niuniu.lookup("Ks Ks Qh Jd Tc")
    with pytest.raises(cardtables.CardError):
        niuniu.lookup([0, 1, 2, 3, 52])
    with pytest.raises(cardtables.QueryError, match="hand index 2598960 \\(position 1\\)"):
        niuniu.win_probability_many([7, 2_598_960])
    with pytest.raises(cardtables.QueryError):
        niuniu.banker_ev_many([-1])
    with pytest.raises(cardtables.CardError):
        niuniu.win_probability_many([0.5])
    holdem = cardtables.Holdem.open(tables / "holdem_preflop" / "holdem.bin")
    with pytest.raises(cardtables.QueryError, match="2 opponents is not covered"):
        holdem.preflop("AKs", 2)
    blackjack = cardtables.Blackjack.open(tables / "blackjack_6d_s17" / "blackjack.bin")
    with pytest.raises(cardtables.QueryError, match="6d-s17-das"):
        blackjack.best_action("8d-h17", "8 8", "T")
    with pytest.raises(cardtables.TableError, match="nowhere.bin"):
        cardtables.Niuniu.open(tables / "nowhere.bin")
    data = (tables / "niuniu" / "niuniu.bin").read_bytes()
    for broken in [data[:100], data[:40], data[:-1], data[:60] + bytes([data[60] ^ 1]) + data[61:]]:
        with pytest.raises(cardtables.TableError):
            cardtables.Niuniu.from_bytes(broken)
    with pytest.raises(cardtables.TableError):
        cardtables.Zhajinhua.from_bytes(data)  # a Niuniu file
    assert issubclass(cardtables.CardError, cardtables.CardtablesError)
    assert issubclass(cardtables.CardtablesError, ValueError)


def test_one_table_serves_many_threads(niuniu):
    index = np.arange(0, 2_598_960, 7, dtype=np.uint32)
    want = niuniu.win_probability_many(index)
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda _: niuniu.win_probability_many(index), range(8)))
    assert all(np.array_equal(r, want) for r in results)


def card_id(text: str) -> int:
    rank = "23456789TJQKA".index(text[0].upper())
    suit = "dchs".index(text[1])
    return 4 * rank + suit


def sample(rows, n, seed):
    rng = np.random.default_rng(seed)
    return rows.take(rng.integers(0, rows.num_rows, n)).to_pylist()


def test_holdem_threeway_answers_equal_the_parquet_rows_in_any_order(tables):
    table = cardtables.HoldemThreeWay.open(tables / "holdem_threeway_quick" / "holdem_threeway.bin")
    rows = pq.read_table(tables / "holdem_threeway_quick" / "threeway.parquet").to_pylist()
    assert len(rows) == 120
    for row in rows:
        a, b, c = row["class_a"], row["class_b"], row["class_c"]
        if row["combos"] == 0:
            with pytest.raises(cardtables.QueryError, match="no deal"):
                table.equity(a, b, c)
            continue
        got = table.equity(c, a, b)
        assert got.combos == row["combos"]
        assert (got.equity_a, got.equity_b, got.equity_c) == (row["equity_c"], row["equity_a"], row["equity_b"])
    with pytest.raises(cardtables.QueryError, match="does not cover"):
        table.equity("AA", "KK", "22")
    with pytest.raises(cardtables.CardError):
        table.equity("AA", "KK", "AX")


def test_holdem_headsup_answers_equal_the_parquet_rows(tables):
    table = cardtables.HoldemHeadsUp.open(tables / "holdem_headsup" / "holdem_headsup.bin")
    for row in sample(pq.read_table(tables / "holdem_headsup" / "matchups.parquet"), 500, 1):
        got = table.cards(row["cards_a"], row["cards_b"])
        assert (got.wins, got.ties, got.losses, got.boards) == (row["wins"], row["ties"], row["losses"], row["boards"])
        assert got.equity == row["equity_a"]
    for row in sample(pq.read_table(tables / "holdem_headsup" / "headsup.parquet"), 500, 2):
        assert table.classes(row["class_a"], row["class_b"]) == row["equity_a"]
    with pytest.raises(cardtables.CardError, match="share a card"):
        table.cards("As Ks", "As Qd")
    # A class is a range: class against class is the class matrix's cell.
    for row in sample(pq.read_table(tables / "holdem_headsup" / "headsup.parquet"), 50, 3):
        got = table.range_equity(row["class_a"], row["class_b"])
        assert got.equity == pytest.approx(row["equity_a"], rel=1e-12, abs=1e-15)
    wide = table.range_equity("QQ+, AKs", "random")
    assert 0.79 < wide.equity < 0.80 and wide.matchups > 0
    with pytest.raises(cardtables.CardError, match="not a range token"):
        table.range_equity("AKq", "random")
    # In batches: a matrix by broadcasting, each cell the single call's answer.
    mine, theirs = ["QQ+, AKs", "22+", "AKo:0.5, T9s"], ["random", "JJ-99", "A5s-A2s", "KQ"]
    many = table.range_equity_many(np.array(mine)[:, None], np.array(theirs)[None, :])
    assert many.equity.shape == many.matchups.shape == (3, 4)
    assert many.equity.dtype == np.float64 and many.matchups.dtype == np.uint64
    for i, a in enumerate(mine):
        for j, b in enumerate(theirs):
            one = table.range_equity(a, b)
            cell = (many.equity[i, j], many.win[i, j], many.tie[i, j], many.matchups[i, j])
            assert cell == (one.equity, one.win, one.tie, one.matchups)
    assert table.range_equity_many(["QQ+", "AKs"], "random").equity.shape == (2,)
    with pytest.raises(cardtables.CardError, match="position 1: .*not a range token"):
        table.range_equity_many(["QQ+", "AKq"], "random")
    with pytest.raises(cardtables.CardError, match="position 0: a range is text"):
        table.range_equity_many([3], "random")


def test_pushfold_answers_equal_the_parquet_rows(tables):
    table = cardtables.PushFold.open(tables / "holdem_pushfold" / "pushfold.bin")
    assert table.ante == 0.0 and len(table.stacks) > 100
    for row in sample(pq.read_table(tables / "holdem_pushfold" / "pushfold.parquet"), 1000, 3):
        push, call = table.push(row["class"], row["stack"]), table.call(row["class"], row["stack"])
        assert (push.stack, push.frequency, push.ev, push.ev_fold) == (row["stack"], row["push_freq"], row["ev_push_bb"], row["ev_fold_bb"])
        assert (call.frequency, call.ev) == (row["call_freq"], row["ev_call_bb"])
    with pytest.raises(cardtables.QueryError, match="outside this table"):
        table.push("AKo", 1e6)


def test_pushfold3_answers_equal_the_parquet_rows(tables):
    folder = tables / "holdem_pushfold3_quick"
    table = cardtables.PushFold3.open(folder / "pushfold3.bin")
    rows = pq.read_table(folder / "pushfold3.parquet").to_pylist()
    for row in rows[::7]:
        stacks = [row["btn_stack_bb"], row["sb_stack_bb"], row["bb_stack_bb"]]
        payouts = table.payouts if row["payoff"] == "icm" else None
        spot = table.spot(stacks, payouts)
        play = table.play(spot, row["decision"], row["class"])
        assert play.stacks == stacks and play.icm == (row["payoff"] == "icm")
        assert play.frequency == row["frequency"] and play.p_faced == row["p_faced"]
        assert play.ev == row["ev_act"] and play.ev_fold == row["ev_fold"]
    with pytest.raises(cardtables.QueryError, match="not a decision"):
        table.play(0, "utg_push", "AA")
    with pytest.raises(cardtables.QueryError, match="no spot with stacks"):
        table.spot([10, 20, 30])
    with pytest.raises(ValueError):
        table.spot([10, 20])


def test_stud_answers_equal_the_parquet_rows(tables):
    table = cardtables.Stud.open(tables / "showhand_quick" / "stud.bin")
    assert table.decks == [28]
    for row in sample(pq.read_table(tables / "showhand_quick" / "headsup.parquet"), 500, 4):
        got = table.starting_hands(row["deck"], row["cards_a"], row["cards_b"])
        assert (got.wins, got.ties, got.losses, got.deals) == (row["wins"], row["ties"], row["losses"], row["deals"])
        assert got.equity == row["equity_a"]
    with pytest.raises(cardtables.QueryError, match="no 52-card deck"):
        table.starting_hands(52, "As Ah", "Ks Qs")


def test_niuniu_bidding_answers_equal_the_parquet_rows(tables):
    table = cardtables.NiuniuBidding.open(tables / "niuniu_bidding_quick" / "niuniu_bidding.bin")
    names = table.categories
    for row in sample(pq.read_table(tables / "niuniu_bidding_quick" / "four_cards.parquet"), 2000, 5):
        got = table.lookup(row["cards"])
        assert (got.index, got.rank_class, got.bid) == (row["hand_index"], row["rank_class"], row["suggested_bid"])
        assert (got.player_ev, got.banker_ev, got.banker_ev_table) == (row["player_ev"], row["banker_ev"], row["banker_ev_table"])
        assert sum(got.fifth_cards) == 48
        for name, n in zip(names, got.fifth_cards):
            assert n / 48 == row[f"p_{name}"], name
        assert len(got.bid_evs) == len(table.bids) + 1 == len(got.bid_shares)
        assert abs(sum(got.bid_shares) - 1) < 1e-9


def test_blackjack_indices_answer_the_insurance_index(tables):
    table = cardtables.BlackjackIndices.open(tables / "blackjack_indices_quick" / "blackjack_indices.bin")
    rows = pq.read_table(tables / "blackjack_indices_quick" / "indices.parquet").to_pylist()
    (insurance,) = [r for r in rows if r["hand_label"] == "insurance"]
    assert insurance["direction"] == "at_or_above"
    assert table.insure(insurance["rule_set"], insurance["index"])
    assert not table.insure(insurance["rule_set"], insurance["index"] - 1)
    # Hard 16 against a ten: the job's index for standing, read back at and below it.
    (stand,) = [
        r for r in rows
        if (r["hand_label"], r["upcard_label"], r["play"]) == ("hard 16", "T", "stand")
    ]
    assert stand["direction"] == "at_or_above"
    advice = table.best_action_at_count("6d-s17-das", "T 6", "T", stand["index"])
    assert (advice.action, advice.chart, advice.index, advice.below) == ("stand", "hit", stand["index"], False)
    plain = table.best_action_at_count("6d-s17-das", "T 6", "T", stand["index"] - 1)
    assert plain.action == plain.chart == "hit" and plain.index is None
    with pytest.raises(cardtables.QueryError, match="out of range"):
        table.best_action_at_count("6d-s17-das", "T 6", "T", 5000)


def test_holdem_indexer_counts_renamings_once():
    ix = cardtables.HoldemIndexer()
    assert [ix.states(s) for s in range(4)] == [169, 1_286_792, 13_960_050, 123_156_254]
    a = ix.index("As Ks", "Qs 7h 2d")
    assert a == ix.index("Kh Ah", "2c Qh 7s") and a != ix.index("As Kh", "Qs 7h 2d")
    hole, board = ix.unindex(1, a)
    assert ix.index(hole, board) == a and len(board.split()) == 3
    for street, n in enumerate([169, 1_286_792, 13_960_050, 123_156_254]):
        hole, board = ix.unindex(street, n - 1)
        assert ix.index(hole, board or None) == n - 1
    with pytest.raises(cardtables.QueryError):
        ix.unindex(0, 169)
    with pytest.raises(cardtables.CardError):
        ix.index("As Ks", "As 7h 2d")


def test_holdem_strength_answers_any_suits_and_refuses_other_streets(tables):
    folder = tables / "holdem_postflop_quick"
    flop = cardtables.HoldemStrength.open(folder / "strength_flop.bin")
    assert (flop.street, flop.bins) == (1, 50)
    s = flop.strength("Ah Kh", "Qh Jh 2c")
    # The same state with suits renamed and cards reordered.
    t = flop.strength("Ks As", "2d Js Qs")
    assert (s.index, s.ehs, s.ehs2) == (t.index, t.ehs, t.ehs2)
    assert round(s.ehs, 6) == 0.763301 and round(s.ehs2, 6) == 0.646644
    assert s.ehs == s.score_sum / (1081 * 1980) and s.runouts == 1081
    assert sum(flop.histogram("Ah Kh", "Qh Jh 2c")) == 1081
    with pytest.raises(cardtables.QueryError):
        flop.strength("Ah Kh", "Qh Jh 2c 3d")
    with pytest.raises(cardtables.CardError):
        flop.strength("Ah Kh", "Ah Jh 2c")
    preflop = cardtables.HoldemStrength.open(folder / "strength_preflop.bin")
    aa = preflop.strength("As Ad")
    assert aa.runouts == 2_118_760 and round(aa.ehs, 5) == 0.85204
