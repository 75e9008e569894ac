"""O(1) answers from the exact card-game tables that `pipeline` writes.

    >>> import cardtables
    >>> table = cardtables.Niuniu.open("tables/niuniu/niuniu.bin")
    >>> hand = table.lookup("Ks Qh Jd Tc 9s")
    >>> hand.category, hand.win_probability, hand.banker_ev

Vectorised lookups take and return NumPy arrays of hand indices (colex indices, as the
Parquet tables' `hand_index` column and `niuniu_hand_index` / `zhajinhua_hand_index`
number hands):

    >>> import numpy as np
    >>> table.win_probability_many(np.arange(1_000_000, dtype=np.uint32))
    >>> zjh = cardtables.Zhajinhua.open("tables/zhajinhua/zhajinhua.bin")
    >>> zjh.win_rate_many(np.arange(22_100), opponents=2).equity

Errors are exceptions carrying the runtime's message, all subclasses of
`CardtablesError` (itself a `ValueError`): `TableError` (a file missing, corrupt,
truncated, of another game or version), `CardError` (cards that are not what the question
needs) and `QueryError` (a question the table does not cover). A table never changes once
open, so one table object may serve any number of threads.
"""

from typing import NamedTuple

import numpy as np

from ._native import (
    BiddingAnswer,
    Blackjack,
    BlackjackAdvice,
    BlackjackIndices,
    CardError,
    CardtablesError,
    CountAdvice,
    Holdem,
    HoldemEquity,
    HoldemHeadsUp,
    HoldemIndexer,
    HoldemThreeWay,
    HoldemStrength,
    HandStrength,
    HeadsUpResult,
    Niuniu,
    NiuniuBidding,
    NiuniuHand,
    PushFold,
    PushFold3,
    PushFold3Play,
    PushFoldPlay,
    QueryError,
    RangeEquity,
    StartingHands,
    Stud,
    TableError,
    ThreeWayResult,
    Zhajinhua,
    ZhajinhuaHand,
    __version__,
    niuniu_hand_index,
    zhajinhua_hand_index,
)

__all__ = [
    "BiddingAnswer",
    "Blackjack",
    "BlackjackAdvice",
    "BlackjackIndices",
    "CardError",
    "CardtablesError",
    "CountAdvice",
    "Holdem",
    "HoldemEquity",
    "HoldemHeadsUp",
    "HoldemIndexer",
    "HoldemThreeWay",
    "HoldemStrength",
    "HandStrength",
    "HeadsUpResult",
    "Niuniu",
    "NiuniuBidding",
    "NiuniuHand",
    "PushFold",
    "PushFold3",
    "PushFold3Play",
    "PushFoldPlay",
    "QueryError",
    "RangeEquities",
    "RangeEquity",
    "StartingHands",
    "Stud",
    "TableError",
    "ThreeWayResult",
    "Zhajinhua",
    "ZhajinhuaHand",
    "WinRates",
    "__version__",
    "niuniu_hand_index",
    "zhajinhua_hand_index",
]


def _indices(indices, hands=2_598_960):
    a = np.asarray(indices)
    if a.dtype.kind not in "iu":
        raise CardError(f"hand indices must be integers, not {a.dtype}")
    if a.size and (a.min() < 0 or a.max() > np.iinfo(np.uint32).max):
        raise QueryError(f"hand indices run from 0 to {hands - 1}")
    return np.ascontiguousarray(a, dtype=np.uint32).reshape(-1), a.shape


def _win_probability_many(self, indices):
    """Exact win probability of every hand in `indices` (colex indices, any shape)."""
    flat, shape = _indices(indices)
    out = np.empty(flat.shape, dtype=np.float64)
    self._win_probability_many(flat, out)
    return out.reshape(shape)


def _banker_ev_many(self, indices):
    """Exact banker EV of every hand in `indices` (colex indices, any shape)."""
    flat, shape = _indices(indices)
    out = np.empty(flat.shape, dtype=np.float64)
    self._banker_ev_many(flat, out)
    return out.reshape(shape)


class WinRates(NamedTuple):
    """Zhajinhua figures of many hands, arrays of the indices' shape."""

    win: np.ndarray
    tie: np.ndarray
    equity: np.ndarray


def _win_rate_many(self, indices, opponents):
    """Win, tie and equity of every hand in `indices` (colex indices, any shape)
    against `opponents`."""
    flat, shape = _indices(indices, hands=22_100)
    win, tie, equity = (np.empty(flat.shape, dtype=np.float64) for _ in range(3))
    self._win_rate_many(flat, opponents, win, tie, equity)
    return WinRates(win.reshape(shape), tie.reshape(shape), equity.reshape(shape))


class RangeEquities(NamedTuple):
    """Heads-up range-against-range figures, arrays of the broadcast shape of the ranges."""

    equity: np.ndarray
    win: np.ndarray
    tie: np.ndarray
    matchups: np.ndarray


def _range_equity_many(self, a, b):
    """Range `a` against range `b`, exact over every board, for many pairs at once.

    `a` and `b` are range strings or arrays of them, broadcast against each other as
    NumPy does: `range_equity_many(["QQ+", "AKs"], "random")` gives two answers, and
    `range_equity_many(np.array(mine)[:, None], np.array(theirs)[None, :])` a matrix.
    """
    a, b = np.broadcast_arrays(np.asarray(a, dtype=object), np.asarray(b, dtype=object))
    shape = a.shape
    flat_a, flat_b = a.reshape(-1), b.reshape(-1)
    for flat in (flat_a, flat_b):
        for i, text in enumerate(flat):
            if not isinstance(text, str):
                raise CardError(f"position {i}: a range is text, not {type(text).__name__}")
    n = flat_a.size
    figures = np.empty((3, n), dtype=np.float64)
    matchups = np.empty(n, dtype=np.uint64)
    self._range_equity_many(list(flat_a), list(flat_b), figures, matchups)
    equity, win, tie = (row.reshape(shape) for row in figures)
    return RangeEquities(equity, win, tie, matchups.reshape(shape))


Niuniu.win_probability_many = _win_probability_many
Niuniu.banker_ev_many = _banker_ev_many
Zhajinhua.win_rate_many = _win_rate_many
HoldemHeadsUp.range_equity_many = _range_equity_many
