"""Type stubs of the cardtables package (the classes live in cardtables._native)."""

from collections.abc import Sequence
from os import PathLike
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

__version__: str

Cards = str | Sequence[int]
"""Card text ("As Kh Td") or card ids (4 * rank + suit, rank 0 = 2 ... 12 = A,
suit 0..3 = diamonds, clubs, hearts, spades)."""

class CardtablesError(ValueError): ...
class TableError(CardtablesError): ...
class CardError(CardtablesError): ...
class QueryError(CardtablesError): ...

class NiuniuHand:
    index: int
    category: str
    category_rank: int
    strength: int
    tie_break: str
    multiplier: int
    wins: int
    win_probability: float
    banker_ev: float

class Niuniu:
    @staticmethod
    def open(path: str | PathLike[str]) -> Niuniu: ...
    @staticmethod
    def from_bytes(data: bytes) -> Niuniu: ...
    @property
    def rules(self) -> str: ...
    @property
    def categories(self) -> list[str]: ...
    def lookup(self, cards: Cards) -> NiuniuHand: ...
    def win_probability_many(self, indices: npt.ArrayLike) -> npt.NDArray[np.float64]: ...
    def banker_ev_many(self, indices: npt.ArrayLike) -> npt.NDArray[np.float64]: ...

class ZhajinhuaHand:
    index: int
    category: str
    category_rank: int
    strength: int
    opponents: int
    win: float
    tie: float
    loss: float
    equity: float
    std_error: float

class Zhajinhua:
    @staticmethod
    def open(path: str | PathLike[str]) -> Zhajinhua: ...
    @staticmethod
    def from_bytes(data: bytes) -> Zhajinhua: ...
    @property
    def rules(self) -> str: ...
    @property
    def max_opponents(self) -> int: ...
    def win_rate(self, cards: Cards, opponents: int) -> ZhajinhuaHand: ...
    def win_rate_many(self, indices: npt.ArrayLike, opponents: int) -> WinRates: ...
    def compare(self, a: Cards, b: Cards) -> int: ...

class WinRates(NamedTuple):
    win: npt.NDArray[np.float64]
    tie: npt.NDArray[np.float64]
    equity: npt.NDArray[np.float64]

class HoldemEquity:
    class_index: int
    opponents: int
    win: float
    tie: float
    equity: float
    std_error: float

class Holdem:
    @staticmethod
    def open(path: str | PathLike[str]) -> Holdem: ...
    @staticmethod
    def from_bytes(data: bytes) -> Holdem: ...
    @property
    def rules(self) -> str: ...
    @property
    def max_opponents(self) -> int: ...
    def preflop(self, hand: str, opponents: int) -> HoldemEquity: ...

class BlackjackAdvice:
    action: str
    ev: float | None
    evs: dict[str, float]

class Blackjack:
    @staticmethod
    def open(path: str | PathLike[str]) -> Blackjack: ...
    @staticmethod
    def from_bytes(data: bytes) -> Blackjack: ...
    @property
    def rules(self) -> str: ...
    @property
    def rule_sets(self) -> list[str]: ...
    def best_action(self, rules: str, hand: str, upcard: str) -> BlackjackAdvice: ...

class HeadsUpResult:
    wins: int
    ties: int
    losses: int
    boards: int
    equity: float

class StartingHands:
    wins: int
    ties: int
    losses: int
    deals: int
    equity: float

class HoldemHeadsUp:
    @staticmethod
    def open(path: str | PathLike[str]) -> HoldemHeadsUp: ...
    @staticmethod
    def from_bytes(data: bytes) -> HoldemHeadsUp: ...
    @property
    def rules(self) -> str: ...
    def cards(self, a: str, b: str) -> HeadsUpResult: ...
    def classes(self, a: str, b: str) -> float: ...
    def range_equity(self, a: str, b: str) -> RangeEquity: ...
    def range_equity_many(self, a: str | npt.ArrayLike, b: str | npt.ArrayLike) -> RangeEquities: ...

class HoldemThreeWay:
    @staticmethod
    def open(path: str | PathLike[str]) -> HoldemThreeWay: ...
    @staticmethod
    def from_bytes(data: bytes) -> HoldemThreeWay: ...
    @property
    def rules(self) -> str: ...
    def equity(self, a: str, b: str, c: str) -> ThreeWayResult: ...

class ThreeWayResult:
    equity_a: float
    equity_b: float
    equity_c: float
    combos: int

class RangeEquities(NamedTuple):
    equity: npt.NDArray[np.float64]
    win: npt.NDArray[np.float64]
    tie: npt.NDArray[np.float64]
    matchups: npt.NDArray[np.uint64]

class RangeEquity:
    equity: float
    win: float
    tie: float
    matchups: int

class PushFoldPlay:
    stack: float
    frequency: float
    ev: float
    ev_fold: float

class PushFold:
    @staticmethod
    def open(path: str | PathLike[str]) -> PushFold: ...
    @staticmethod
    def from_bytes(data: bytes) -> PushFold: ...
    @property
    def rules(self) -> str: ...
    @property
    def ante(self) -> float: ...
    @property
    def stacks(self) -> list[float]: ...
    def push(self, hand: str, stack: float) -> PushFoldPlay: ...
    def call(self, hand: str, stack: float) -> PushFoldPlay: ...
    def value(self, stack: float) -> float: ...
    def exploitability(self, stack: float) -> float: ...

class PushFold3Play:
    decision: str
    stacks: list[float]
    icm: bool
    frequency: float
    ev: float | None
    ev_fold: float | None
    p_faced: float

class PushFold3:
    @staticmethod
    def open(path: str | PathLike[str]) -> PushFold3: ...
    @staticmethod
    def from_bytes(data: bytes) -> PushFold3: ...
    @property
    def rules(self) -> str: ...
    @property
    def ante(self) -> float: ...
    @property
    def payouts(self) -> list[float]: ...
    @property
    def spots(self) -> int: ...
    def spot(self, stacks: Sequence[float], payouts: Sequence[float] | None = None) -> int: ...
    def play(self, spot: int, decision: str, hand: str) -> PushFold3Play: ...
    def exploitability(self, spot: int) -> float: ...

class Stud:
    @staticmethod
    def open(path: str | PathLike[str]) -> Stud: ...
    @staticmethod
    def from_bytes(data: bytes) -> Stud: ...
    @property
    def rules(self) -> str: ...
    @property
    def decks(self) -> list[int]: ...
    def starting_hands(self, deck: int, a: Cards, b: Cards) -> StartingHands: ...

class BiddingAnswer:
    index: int
    rank_class: int
    fifth_cards: list[int]
    player_ev: float
    banker_ev: float
    banker_ev_table: float
    bid: int
    bid_evs: list[float]
    bid_shares: list[float]

class NiuniuBidding:
    @staticmethod
    def open(path: str | PathLike[str]) -> NiuniuBidding: ...
    @staticmethod
    def from_bytes(data: bytes) -> NiuniuBidding: ...
    @property
    def rules(self) -> str: ...
    @property
    def categories(self) -> list[str]: ...
    @property
    def players(self) -> int: ...
    @property
    def bids(self) -> list[int]: ...
    def lookup(self, cards: Cards) -> BiddingAnswer: ...

class CountAdvice:
    action: str
    chart: str
    index: int | None
    below: bool | None
    gain_per_100: float | None

class BlackjackIndices:
    @staticmethod
    def open(path: str | PathLike[str]) -> BlackjackIndices: ...
    @staticmethod
    def from_bytes(data: bytes) -> BlackjackIndices: ...
    @property
    def rules(self) -> str: ...
    @property
    def rule_sets(self) -> list[str]: ...
    def best_action_at_count(self, rules: str, hand: str, upcard: str, count: int) -> CountAdvice: ...
    def insure(self, rules: str, count: int) -> bool: ...

class HoldemIndexer:
    def __init__(self) -> None: ...
    def states(self, street: int) -> int: ...
    def index(self, hole: Cards, board: Cards | None = None) -> int: ...
    def unindex(self, street: int, index: int) -> tuple[str, str]: ...

class HandStrength:
    street: int
    index: int
    runouts: int
    ehs: float
    ehs2: float
    score_sum: int
    score_sq_sum: int
    wins: int
    ties: int
    losses: int

class HoldemStrength:
    @staticmethod
    def open(path: str | PathLike[str]) -> HoldemStrength: ...
    @staticmethod
    def from_bytes(data: bytes) -> HoldemStrength: ...
    @property
    def rules(self) -> str: ...
    @property
    def street(self) -> int: ...
    @property
    def bins(self) -> int: ...
    def strength(self, hole: Cards, board: Cards | None = None) -> HandStrength: ...
    def histogram(self, hole: Cards, board: Cards | None = None) -> list[int]: ...

def niuniu_hand_index(cards: Cards) -> int: ...
def zhajinhua_hand_index(cards: Cards) -> int: ...
