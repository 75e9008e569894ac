"""Type stubs of the cardtables package (the classes live in cardtables._native)."""

from collections.abc import Sequence
from os import PathLike

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
    def compare(self, a: Cards, b: Cards) -> int: ...

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

def niuniu_hand_index(cards: Cards) -> int: ...
