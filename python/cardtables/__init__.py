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
    HoldemStrength,
    HandStrength,
    HeadsUpResult,
    Niuniu,
    NiuniuBidding,
    NiuniuHand,
    PushFold,
    PushFoldPlay,
    QueryError,
    RangeEquity,
    StartingHands,
    Stud,
    TableError,
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
    "HoldemStrength",
    "HandStrength",
    "HeadsUpResult",
    "Niuniu",
    "NiuniuBidding",
    "NiuniuHand",
    "PushFold",
    "PushFoldPlay",
    "QueryError",
    "RangeEquity",
    "StartingHands",
    "Stud",
    "TableError",
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


Niuniu.win_probability_many = _win_probability_many
Niuniu.banker_ev_many = _banker_ev_many
Zhajinhua.win_rate_many = _win_rate_many
