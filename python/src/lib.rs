//! `cardtables._native`: the Python face of the `cardtables` runtime. The package's
//! `__init__.py` re-exports these classes and wraps the vectorised lookups so they take
//! and return NumPy arrays; `__init__.pyi` types them.
//!
//! Errors are Python exceptions carrying the Rust message: `TableError` (a file that is
//! missing, corrupt, truncated, of another game or another version), `CardError` (card
//! text or ids that are not the cards a question needs) and `QueryError` (a question the
//! table does not cover), all subclasses of `CardtablesError` (a `ValueError`).
//! A table never changes once open, so one table object serves any number of threads.

use std::sync::OnceLock;

use pyo3::buffer::PyBuffer;
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use cardtables::blackjack::{parse_hand, parse_rank, Action};

create_exception!(
    _native,
    CardtablesError,
    PyValueError,
    "Any error of the cardtables package."
);
create_exception!(
    _native,
    TableError,
    CardtablesError,
    "A table file that cannot be read or is not a valid table of its game and version."
);
create_exception!(
    _native,
    CardError,
    CardtablesError,
    "Card text or ids that are not the cards the question needs."
);
create_exception!(
    _native,
    QueryError,
    CardtablesError,
    "A question the table does not cover."
);

fn table_error(e: cardtables::TableError) -> PyErr {
    TableError::new_err(e.to_string())
}

fn card_error(e: impl ToString) -> PyErr {
    CardError::new_err(e.to_string())
}

fn query_error(e: impl ToString) -> PyErr {
    QueryError::new_err(e.to_string())
}

/// The input of a vectorised lookup: a C-contiguous buffer of `T` (a NumPy array).
fn input<'a, T: pyo3::buffer::Element>(
    py: Python<'a>,
    buffer: &'a PyBuffer<T>,
) -> PyResult<&'a [pyo3::buffer::ReadOnlyCell<T>]> {
    buffer
        .as_slice(py)
        .ok_or_else(|| PyValueError::new_err("the input array must be C-contiguous"))
}

/// The output of a vectorised lookup: a writable C-contiguous buffer of `len` `T`.
fn output<'a, T: pyo3::buffer::Element>(
    py: Python<'a>,
    buffer: &'a PyBuffer<T>,
    len: usize,
) -> PyResult<&'a [std::cell::Cell<T>]> {
    let out = buffer.as_mut_slice(py).ok_or_else(|| {
        PyValueError::new_err("the output array must be writable and C-contiguous")
    })?;
    if out.len() != len {
        return Err(PyValueError::new_err(format!(
            "the output array holds {} values for {len} inputs",
            out.len()
        )));
    }
    Ok(out)
}

/// How a field of an answer shows in its `__repr__`: as Python writes the value.
trait ReprField {
    fn repr(&self) -> String;
}

macro_rules! display_repr {
    ($($t:ty),*) => {$(
        impl ReprField for $t {
            fn repr(&self) -> String {
                self.to_string()
            }
        }
    )*};
}
display_repr!(u8, u16, u32, u64, usize, i32);

impl ReprField for f64 {
    fn repr(&self) -> String {
        // Debug keeps the point of a whole number (1.0, not 1), as Python does.
        format!("{self:?}")
    }
}

impl ReprField for String {
    fn repr(&self) -> String {
        format!("{self:?}")
    }
}

impl ReprField for bool {
    fn repr(&self) -> String {
        if *self { "True" } else { "False" }.to_string()
    }
}

impl<T: ReprField> ReprField for Vec<T> {
    fn repr(&self) -> String {
        let items: Vec<String> = self.iter().map(ReprField::repr).collect();
        format!("[{}]", items.join(", "))
    }
}

impl<T: ReprField> ReprField for Option<T> {
    fn repr(&self) -> String {
        self.as_ref().map_or("None".to_string(), ReprField::repr)
    }
}

/// An answer class's `__repr__`: `Name(field=value, ...)` over the fields listed.
macro_rules! py_repr {
    ($class:ident { $($field:ident),* }) => {
        #[pymethods]
        impl $class {
            fn __repr__(&self) -> String {
                let fields = [$(format!("{}={}", stringify!($field), ReprField::repr(&self.$field))),*];
                format!("{}({})", stringify!($class), fields.join(", "))
            }
        }
    };
}

/// The `#[pymethods]` block of a table class: `open(path)` and `from_bytes(data)`, which
/// make the class from its runtime table with `$make`, the `rules` property, then the
/// class's own methods.
macro_rules! table_class {
    ($class:ident, $table:ty, $make:expr; $($methods:tt)*) => {
        #[pymethods]
        impl $class {
            /// Opens a table file.
            #[staticmethod]
            fn open(path: std::path::PathBuf) -> PyResult<$class> {
                Ok(($make)(<$table>::open(path).map_err(table_error)?))
            }

            /// Reads a table from bytes.
            #[staticmethod]
            fn from_bytes(bytes: &[u8]) -> PyResult<$class> {
                Ok(($make)(<$table>::from_bytes(bytes).map_err(table_error)?))
            }

            /// The rules the table was computed under, as TOML.
            #[getter]
            fn rules(&self) -> &str {
                self.table.rules()
            }

            $($methods)*
        }
    };
}

/// Everything a Niuniu table says about one hand of five cards.
#[pyclass(frozen, get_all, module = "cardtables")]
struct NiuniuHand {
    /// Colex index among the 2,598,960 hands.
    index: u32,
    /// Category name, e.g. "bull_9".
    category: String,
    /// Category rank, 0 = weakest.
    category_rank: u8,
    /// Strength: the larger hand wins.
    strength: u16,
    /// The tie-break card, as text.
    tie_break: String,
    /// Payout multiplier of the category.
    multiplier: u32,
    /// Opponent hands beaten, of 1,533,939.
    wins: u32,
    /// Exact probability of beating one opponent.
    win_probability: f64,
    /// Exact EV per stake as banker against one player.
    banker_ev: f64,
}

py_repr!(NiuniuHand {
    index,
    category,
    win_probability,
    banker_ev
});

/// A Niuniu table (`niuniu.bin`, job kind `niuniu.hands`).
#[pyclass(frozen, module = "cardtables")]
struct Niuniu {
    table: cardtables::Niuniu,
    /// Per hand index, built on the first vectorised call (2.6 M values, 20.8 MB each):
    /// a vectorised lookup is then one array read per hand.
    win_probability: OnceLock<Box<[f64]>>,
    banker_ev: OnceLock<Box<[f64]>>,
}

impl Niuniu {
    fn new(table: cardtables::Niuniu) -> Niuniu {
        Niuniu {
            table,
            win_probability: OnceLock::new(),
            banker_ev: OnceLock::new(),
        }
    }

    /// `value` of every hand, in colex index order.
    fn per_hand(&self, value: impl Fn(&cardtables::niuniu::NiuniuHand) -> f64) -> Box<[f64]> {
        let mut out = Vec::with_capacity(cardtables::niuniu::HANDS);
        let mut ids = [0u8, 1, 2, 3, 4];
        for _ in 0..cardtables::niuniu::HANDS {
            let cards = ids.map(|id| cardtables::Card::from_id(id).expect("id < 52"));
            let hand = self.table.lookup(&cards).expect("five distinct cards");
            out.push(value(&hand));
            // The next five ids in colex order: raise the lowest id that can rise and
            // reset the ones below it.
            for i in 0..5 {
                let limit = if i == 4 { 52 } else { ids[i + 1] };
                if ids[i] + 1 < limit {
                    ids[i] += 1;
                    for (j, id) in ids.iter_mut().enumerate().take(i) {
                        *id = j as u8;
                    }
                    break;
                }
            }
        }
        out.into_boxed_slice()
    }

    /// Fills `out` with `values[indices[i]]`, or says which index is out of range.
    fn gather(
        py: Python<'_>,
        values: &[f64],
        indices: PyBuffer<u32>,
        out: PyBuffer<f64>,
    ) -> PyResult<()> {
        let indices = input(py, &indices)?;
        let out = output(py, &out, indices.len())?;
        for (i, (index, slot)) in indices.iter().zip(out).enumerate() {
            let index = index.get();
            slot.set(*values.get(index as usize).ok_or_else(|| {
                query_error(format!(
                    "hand index {index} (position {i}) is out of range: indices run from 0 to 2598959"
                ))
            })?);
        }
        Ok(())
    }
}

table_class!(Niuniu, cardtables::Niuniu, Niuniu::new;

    /// Category names, weakest first.
    #[getter]
    fn categories(&self) -> Vec<String> {
        self.table
            .categories()
            .iter()
            .map(|c| c.name.clone())
            .collect()
    }

    /// Everything about five cards given as text ("Ks Qh Jd Tc 9s") or card ids.
    fn lookup(&self, cards: &Bound<'_, PyAny>) -> PyResult<NiuniuHand> {
        let cards = cards_of(cards)?;
        let h = self.table.lookup(&cards).map_err(card_error)?;
        Ok(NiuniuHand {
            index: h.index,
            category: h.category.to_string(),
            category_rank: h.category_rank,
            strength: h.strength,
            tie_break: h.tie_break.to_string(),
            multiplier: h.multiplier,
            wins: h.wins,
            win_probability: h.win_probability,
            banker_ev: h.banker_ev,
        })
    }

    /// Fills `out[i]` with the exact win probability of the hand with colex index
    /// `indices[i]` (uint32 in, float64 out).
    fn _win_probability_many(
        &self,
        py: Python<'_>,
        indices: PyBuffer<u32>,
        out: PyBuffer<f64>,
    ) -> PyResult<()> {
        let values = self
            .win_probability
            .get_or_init(|| self.per_hand(|h| h.win_probability));
        Niuniu::gather(py, values, indices, out)
    }

    /// Fills `out[i]` with the exact banker EV of the hand with colex index `indices[i]`.
    fn _banker_ev_many(
        &self,
        py: Python<'_>,
        indices: PyBuffer<u32>,
        out: PyBuffer<f64>,
    ) -> PyResult<()> {
        let values = self
            .banker_ev
            .get_or_init(|| self.per_hand(|h| h.banker_ev));
        Niuniu::gather(py, values, indices, out)
    }
);

/// Cards from text or from a sequence of card ids.
fn cards_of(cards: &Bound<'_, PyAny>) -> PyResult<Vec<cardtables::Card>> {
    if let Ok(text) = cards.extract::<&str>() {
        return cardtables::parse_cards(text).map_err(card_error);
    }
    let ids: Vec<i64> = cards
        .extract()
        .map_err(|_| card_error("cards are text such as \"As Kd\" or a sequence of card ids"))?;
    ids.iter()
        .map(|&id| {
            u8::try_from(id)
                .ok()
                .and_then(cardtables::Card::from_id)
                .ok_or_else(|| {
                    card_error(format!("card id {id} is out of range (ids are 0 to 51)"))
                })
        })
        .collect()
}

/// A Zhajinhua hand's result against some number of opponents.
#[pyclass(frozen, get_all, module = "cardtables")]
struct ZhajinhuaHand {
    index: u32,
    category: String,
    /// Category rank, 0 = weakest.
    category_rank: u8,
    strength: u16,
    opponents: usize,
    win: f64,
    tie: f64,
    loss: f64,
    equity: f64,
    std_error: f64,
}

py_repr!(ZhajinhuaHand {
    index,
    category,
    opponents,
    win,
    tie,
    equity
});

/// A Zhajinhua table (`zhajinhua.bin`, job kind `zhajinhua.hands`).
#[pyclass(frozen, module = "cardtables")]
struct Zhajinhua {
    table: cardtables::Zhajinhua,
}

table_class!(Zhajinhua, cardtables::Zhajinhua, |table| Zhajinhua { table };

    /// Opponent counts covered: 1 to this.
    #[getter]
    fn max_opponents(&self) -> usize {
        self.table.max_opponents()
    }

    /// Win / tie / loss of three cards against `opponents`.
    fn win_rate(&self, cards: &Bound<'_, PyAny>, opponents: usize) -> PyResult<ZhajinhuaHand> {
        let cards = cards_of(cards)?;
        let h = self
            .table
            .win_rate(&cards, opponents)
            .map_err(|e| match e {
                cardtables::ZhajinhuaQueryError::Cards(e) => card_error(e),
                e => query_error(e),
            })?;
        Ok(ZhajinhuaHand {
            index: h.index,
            category: h.category.to_string(),
            category_rank: h.category_rank,
            strength: h.strength,
            opponents,
            win: h.win,
            tie: h.tie,
            loss: h.loss,
            equity: h.equity,
            std_error: h.std_error,
        })
    }

    /// Fills `win[i]`, `tie[i]` and `equity[i]` with the figures of the hand with colex
    /// index `indices[i]` against `opponents` (uint32 in, float64 out).
    fn _win_rate_many(
        &self,
        py: Python<'_>,
        indices: PyBuffer<u32>,
        opponents: usize,
        win: PyBuffer<f64>,
        tie: PyBuffer<f64>,
        equity: PyBuffer<f64>,
    ) -> PyResult<()> {
        let indices = input(py, &indices)?;
        let n = indices.len();
        let (win, tie, equity) = (
            output(py, &win, n)?,
            output(py, &tie, n)?,
            output(py, &equity, n)?,
        );
        for (i, index) in indices.iter().enumerate() {
            let h = self
                .table
                .win_rate_at(index.get(), opponents)
                .map_err(|e| query_error(format!("position {i}: {e}")))?;
            win[i].set(h.win);
            tie[i].set(h.tie);
            equity[i].set(h.equity);
        }
        Ok(())
    }

    /// 1 when hand `a` beats disjoint hand `b`, -1 when it loses, 0 for a tie.
    fn compare(&self, a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<i32> {
        let (a, b) = (cards_of(a)?, cards_of(b)?);
        if a.iter().any(|c| b.contains(c)) {
            return Err(card_error("the two hands share a card"));
        }
        Ok(self.table.compare(&a, &b).map_err(card_error)? as i32)
    }
);

/// A Hold'em starting class's result against some number of random opponents.
#[pyclass(frozen, get_all, module = "cardtables")]
struct HoldemEquity {
    class_index: usize,
    opponents: usize,
    win: f64,
    tie: f64,
    equity: f64,
    std_error: f64,
}

py_repr!(HoldemEquity {
    class_index,
    opponents,
    win,
    tie,
    equity
});

/// A Hold'em preflop table (`holdem.bin`, job kinds `holdem.preflop`, `holdem.multiway`).
#[pyclass(frozen, module = "cardtables")]
struct Holdem {
    table: cardtables::Holdem,
}

table_class!(Holdem, cardtables::Holdem, |table| Holdem { table };

    #[getter]
    fn max_opponents(&self) -> usize {
        self.table.max_opponents()
    }

    /// A class ("AKs", "QQ", "T9o") or two cards ("As Kd") against `opponents` hands.
    fn preflop(&self, hand: &str, opponents: usize) -> PyResult<HoldemEquity> {
        use cardtables::HoldemQueryError as E;
        let class = cardtables::holdem::class_of_text(hand).map_err(card_error)?;
        let p = self.table.preflop(class, opponents).map_err(|e| match e {
            E::Cards(_) | E::NotAHand(_) => card_error(e),
            e => query_error(e),
        })?;
        Ok(HoldemEquity {
            class_index: p.class_index,
            opponents: p.opponents,
            win: p.win,
            tie: p.tie,
            equity: p.equity,
            std_error: p.std_error,
        })
    }
);

/// Advice for a blackjack hand.
#[pyclass(frozen, get_all, module = "cardtables")]
struct BlackjackAdvice {
    /// "stand", "hit", "double", "split" or "surrender".
    action: String,
    /// Its exact EV for a two-card hand; None for longer hands (from the chart).
    ev: Option<f64>,
    /// Every allowed action's exact EV for a two-card hand (empty for longer hands).
    evs: std::collections::BTreeMap<String, f64>,
}

py_repr!(BlackjackAdvice { action, ev });

/// A blackjack table (`blackjack.bin`, job kind `blackjack.strategy`).
#[pyclass(frozen, module = "cardtables")]
struct Blackjack {
    table: cardtables::Blackjack,
}

table_class!(Blackjack, cardtables::Blackjack, |table| Blackjack { table };
    /// The rule set ids, in table order.
    #[getter]
    fn rule_sets(&self) -> Vec<String> {
        self.table
            .rule_sets()
            .iter()
            .map(|s| s.id.clone())
            .collect()
    }

    /// The best action for `hand` ("8 8", "A 7", "T 2 4") against `upcard` ("T") under
    /// the rule set with id `rules` (e.g. "6d-s17-das").
    fn best_action(&self, rules: &str, hand: &str, upcard: &str) -> PyResult<BlackjackAdvice> {
        let set = self.table.rule_set(rules).map_err(query_error)?;
        let hand = parse_hand(hand).map_err(card_error)?;
        let upcard = parse_rank(upcard).map_err(card_error)?;
        let advice = self
            .table
            .best_action(set, &hand, upcard)
            .map_err(card_error)?;
        let evs = if hand.len() == 2 {
            let evs = self.table.evs(set, &hand, upcard).map_err(card_error)?;
            Action::ALL
                .iter()
                .zip(evs)
                .filter(|(_, v)| !v.is_nan())
                .map(|(a, v)| (a.name().to_string(), v))
                .collect()
        } else {
            Default::default()
        };
        Ok(BlackjackAdvice {
            action: advice.action.name().to_string(),
            ev: advice.ev,
            evs,
        })
    }
);

/// The exact all-in result of one Hold'em hand against another over every board (Rust
/// `HeadsUpResult`, C `ct_headsup_result`).
#[pyclass(frozen, get_all, module = "cardtables")]
struct HeadsUpResult {
    wins: u32,
    ties: u32,
    losses: u32,
    /// Boards counted: C(48, 5).
    boards: u32,
    /// Wins plus half the ties, over all boards.
    equity: f64,
}

py_repr!(HeadsUpResult {
    wins,
    ties,
    losses,
    boards,
    equity
});

/// The exact all-in result of one stud starting hand against another over every deal
/// (Rust `StartingHands`, C `ct_stud_result`).
#[pyclass(frozen, get_all, module = "cardtables")]
struct StartingHands {
    wins: u64,
    ties: u64,
    losses: u64,
    /// Deals counted.
    deals: u64,
    /// Wins plus half the ties, over all deals.
    equity: f64,
}

py_repr!(StartingHands {
    wins,
    ties,
    losses,
    deals,
    equity
});

/// Two cards from text.
fn two_cards(text: &str) -> PyResult<[cardtables::Card; 2]> {
    let cards = cardtables::card::parse_exact(text, 2).map_err(card_error)?;
    Ok([cards[0], cards[1]])
}

/// Three classes' exact equities against each other, in the order asked (Rust
/// `ThreeWayResult`, C `ct_threeway_result`).
#[pyclass(frozen, get_all, module = "cardtables")]
struct ThreeWayResult {
    equity_a: f64,
    equity_b: f64,
    equity_c: f64,
    /// Deals of the three classes' holdings that share no card.
    combos: u32,
}

py_repr!(ThreeWayResult {
    equity_a,
    equity_b,
    equity_c,
    combos
});

/// A Hold'em three-way table (`holdem_threeway.bin`, job kind `holdem.threeway`).
#[pyclass(frozen, module = "cardtables")]
struct HoldemThreeWay {
    table: cardtables::HoldemThreeWay,
}

table_class!(HoldemThreeWay, cardtables::HoldemThreeWay, |table| HoldemThreeWay { table };
    /// Classes `a`, `b` and `c` ("AKs", "QQ", "JTs") all in against each other, in any
    /// order: their three equities, in the order given.
    fn equity(&self, a: &str, b: &str, c: &str) -> PyResult<ThreeWayResult> {
        let class = |t: &str| cardtables::holdem::class_of_text(t).map_err(card_error);
        let r = self
            .table
            .equity(class(a)?, class(b)?, class(c)?)
            .map_err(query_error)?;
        Ok(ThreeWayResult {
            equity_a: r.equity_a,
            equity_b: r.equity_b,
            equity_c: r.equity_c,
            combos: r.combos,
        })
    }
);

/// A Hold'em heads-up table (`holdem_headsup.bin`, job kind `holdem.headsup`).
#[pyclass(frozen, module = "cardtables")]
struct HoldemHeadsUp {
    table: cardtables::HoldemHeadsUp,
}

table_class!(HoldemHeadsUp, cardtables::HoldemHeadsUp, |table| HoldemHeadsUp { table };
    /// Hand `a` against hand `b`, two cards each ("As Ks", "Qd Qc"), over every board.
    fn cards(&self, a: &str, b: &str) -> PyResult<HeadsUpResult> {
        let r = self
            .table
            .cards(two_cards(a)?, two_cards(b)?)
            .map_err(|e| match e {
                cardtables::HeadsUpQueryError::SharedCard => card_error(e),
                e => query_error(e),
            })?;
        Ok(HeadsUpResult {
            wins: r.wins,
            ties: r.ties,
            losses: r.losses,
            boards: r.boards,
            equity: r.equity,
        })
    }

    /// Equity of class `a` against class `b` ("AKs", "QQ"), averaged over the combos
    /// that share no card.
    fn classes(&self, a: &str, b: &str) -> PyResult<f64> {
        let class = |t: &str| cardtables::holdem::class_of_text(t).map_err(card_error);
        self.table.classes(class(a)?, class(b)?).map_err(query_error)
    }

    /// Range `a` against range `b` in the range notation ("QQ+, AKs", "random"), exact
    /// over every board: each pair of holdings that share no card weighs the product of
    /// their weights.
    fn range_equity(&self, a: &str, b: &str) -> PyResult<RangeEquity> {
        let range = |t: &str| cardtables::Range::parse(t).map_err(card_error);
        let r = self
            .table
            .range_equity(&range(a)?, &range(b)?)
            .map_err(query_error)?;
        Ok(RangeEquity {
            equity: r.equity,
            win: r.win,
            tie: r.tie,
            matchups: r.matchups,
        })
    }

    /// Fills position `i` of each row of `figures` (equity, win, tie: 3 × n float64) and
    /// of `matchups` (uint64) with range `a[i]` against range `b[i]`. The same range text
    /// is read once.
    fn _range_equity_many(
        &self,
        py: Python<'_>,
        a: Vec<String>,
        b: Vec<String>,
        figures: PyBuffer<f64>,
        matchups: PyBuffer<u64>,
    ) -> PyResult<()> {
        if a.len() != b.len() {
            return Err(PyValueError::new_err(format!(
                "{} ranges against {}: give as many of each",
                a.len(),
                b.len()
            )));
        }
        let n = a.len();
        let (figures, matchups) = (output(py, &figures, 3 * n)?, output(py, &matchups, n)?);
        let (equity, rest) = figures.split_at(n);
        let (win, tie) = rest.split_at(n);
        let mut parsed: std::collections::HashMap<&str, cardtables::Range> =
            std::collections::HashMap::new();
        for (i, (x, y)) in a.iter().zip(&b).enumerate() {
            for text in [x, y] {
                if !parsed.contains_key(text.as_str()) {
                    let range = cardtables::Range::parse(text)
                        .map_err(|e| card_error(format!("position {i}: {e}")))?;
                    parsed.insert(text, range);
                }
            }
            let r = self
                .table
                .range_equity(&parsed[x.as_str()], &parsed[y.as_str()])
                .map_err(|e| query_error(format!("position {i}: {e}")))?;
            equity[i].set(r.equity);
            win[i].set(r.win);
            tie[i].set(r.tie);
            matchups[i].set(r.matchups);
        }
        Ok(())
    }
);

/// Two ranges against each other over every board (Rust `RangeEquity`, C
/// `ct_range_equity`).
#[pyclass(frozen, get_all, module = "cardtables")]
struct RangeEquity {
    /// The first range's equity: wins plus half the ties.
    equity: f64,
    /// Its share of boards won outright, and tied.
    win: f64,
    tie: f64,
    /// Pairs of holdings that share no card.
    matchups: u64,
}

py_repr!(RangeEquity {
    equity,
    win,
    tie,
    matchups
});

/// One player's push/fold equilibrium play of one class at one stack.
#[pyclass(frozen, get_all, module = "cardtables")]
struct PushFoldPlay {
    /// The grid stack answered (the nearest at or below the one asked), in big blinds.
    stack: f64,
    /// How often the class pushes (small blind) or calls a push (big blind).
    frequency: f64,
    /// EV of pushing or calling, and of folding, in big blinds.
    ev: f64,
    ev_fold: f64,
}

py_repr!(PushFoldPlay {
    stack,
    frequency,
    ev,
    ev_fold
});

/// A heads-up push/fold table (`pushfold.bin`, job kind `holdem.pushfold`).
#[pyclass(frozen, module = "cardtables")]
struct PushFold {
    table: cardtables::PushFold,
}

impl PushFold {
    fn class(hand: &str) -> PyResult<usize> {
        cardtables::holdem::class_of_text(hand).map_err(card_error)
    }
}

table_class!(PushFold, cardtables::PushFold, |table| PushFold { table };
    /// The ante each player posts, in big blinds.
    #[getter]
    fn ante(&self) -> f64 {
        self.table.ante()
    }

    /// The grid's stacks, in big blinds.
    #[getter]
    fn stacks(&self) -> Vec<f64> {
        self.table.stacks().to_vec()
    }

    /// The small blind's play of a hand ("K9o", "Ah 7c") at `stack` big blinds.
    fn push(&self, hand: &str, stack: f64) -> PyResult<PushFoldPlay> {
        let p = self.table.push(PushFold::class(hand)?, stack).map_err(query_error)?;
        Ok(PushFoldPlay {
            stack: p.stack,
            frequency: p.frequency,
            ev: p.ev,
            ev_fold: p.ev_fold,
        })
    }

    /// The big blind's play of a hand facing a push at `stack` big blinds.
    fn call(&self, hand: &str, stack: f64) -> PyResult<PushFoldPlay> {
        let c = self.table.call(PushFold::class(hand)?, stack).map_err(query_error)?;
        Ok(PushFoldPlay {
            stack: c.stack,
            frequency: c.frequency,
            ev: c.ev,
            ev_fold: c.ev_fold,
        })
    }

    /// The small blind's expected net per hand at the equilibrium at `stack`.
    fn value(&self, stack: f64) -> PyResult<f64> {
        self.table.value(stack).map_err(query_error)
    }

    /// What both players together could gain by best-responding at `stack`.
    fn exploitability(&self, stack: f64) -> PyResult<f64> {
        self.table.exploitability(stack).map_err(query_error)
    }
);

/// One class's play at one decision of a three-handed push/fold spot.
#[pyclass(frozen, get_all, module = "cardtables")]
struct PushFold3Play {
    /// The decision: "btn_push", "sb_push", "sb_call", "bb_call_sb", "bb_call_btn",
    /// "bb_call_both".
    decision: String,
    /// The spot's stacks, BTN, SB, BB, in big blinds.
    stacks: Vec<f64>,
    /// True for an ICM spot (EVs in shares of the prize pool), false for chip EV (bb).
    icm: bool,
    /// How often the class pushes or calls.
    frequency: f64,
    /// EV of acting and of folding; None where no deal reaches the decision.
    ev: Option<f64>,
    ev_fold: Option<f64>,
    /// The chance that a seat dealt the class faces the decision.
    p_faced: f64,
}

py_repr!(PushFold3Play {
    decision,
    stacks,
    icm,
    frequency,
    ev,
    ev_fold,
    p_faced
});

/// A three-handed push/fold table (`pushfold3.bin`, job kind `holdem.pushfold3`).
#[pyclass(frozen, module = "cardtables")]
struct PushFold3 {
    table: cardtables::PushFold3,
}

table_class!(PushFold3, cardtables::PushFold3, |table| PushFold3 { table };
    /// The ante each player posts, in big blinds.
    #[getter]
    fn ante(&self) -> f64 {
        self.table.ante()
    }

    /// The ICM spots' payouts (empty if every spot is chip EV).
    #[getter]
    fn payouts(&self) -> Vec<f64> {
        self.table.payouts().to_vec()
    }

    /// Number of spots.
    #[getter]
    fn spots(&self) -> usize {
        self.table.spots()
    }

    /// The spot of `stacks` (BTN, SB, BB in big blinds; equal stacks are answered at the
    /// grid stack at or below them, unequal ones must be a spot of the table), chip EV
    /// without `payouts`, else ICM for the table's payouts.
    #[pyo3(signature = (stacks, payouts=None))]
    fn spot(&self, stacks: Vec<f64>, payouts: Option<Vec<f64>>) -> PyResult<usize> {
        let [a, b, c] = stacks[..] else {
            return Err(PyValueError::new_err(format!(
                "{} stacks: give the BTN's, SB's and BB's",
                stacks.len()
            )));
        };
        let payouts = payouts.as_deref();
        if a == b && b == c {
            self.table.equal_spot(a, payouts)
        } else {
            self.table.spot([a, b, c], payouts)
        }
        .map_err(query_error)
    }

    /// How a hand ("AKo", "Ah Kd") plays at `decision` ("sb_call", ...) of `spot`.
    fn play(&self, spot: usize, decision: &str, hand: &str) -> PyResult<PushFold3Play> {
        use cardtables::pushfold3::Decision;
        let d = Decision::ALL
            .into_iter()
            .find(|d| d.name() == decision)
            .ok_or_else(|| {
                let names: Vec<&str> = Decision::ALL.iter().map(|d| d.name()).collect();
                query_error(format!("{decision:?} is not a decision: {}", names.join(", ")))
            })?;
        let p = self.table.play(spot, d, hand).map_err(query_error)?;
        Ok(PushFold3Play {
            decision: d.name().to_string(),
            stacks: p.stacks.to_vec(),
            icm: p.icm,
            frequency: p.frequency,
            ev: p.ev,
            ev_fold: p.ev_fold,
            p_faced: p.p_faced,
        })
    }

    /// The spot's exploitability in its unit (bb, or shares of the prize pool).
    fn exploitability(&self, spot: usize) -> PyResult<f64> {
        self.table
            .exploitability(spot)
            .map(|(x, _)| x)
            .ok_or_else(|| query_error(format!("spot {spot}: the table has {} spots", self.table.spots())))
    }
);

/// A five-card stud table (`stud.bin`, job kind `stud.tables`).
#[pyclass(frozen, module = "cardtables")]
struct Stud {
    table: cardtables::Stud,
}

table_class!(Stud, cardtables::Stud, |table| Stud { table };
    /// The deck sizes covered.
    #[getter]
    fn decks(&self) -> Vec<u32> {
        // Not Vec<u8>, which Python would receive as bytes.
        self.table.decks().into_iter().map(u32::from).collect()
    }

    /// Starting hand `a` against `b` (two cards each) in the `deck`-card deck.
    fn starting_hands(
        &self,
        deck: u8,
        a: &Bound<'_, PyAny>,
        b: &Bound<'_, PyAny>,
    ) -> PyResult<StartingHands> {
        let r = self
            .table
            .starting_hands(deck, &cards_of(a)?, &cards_of(b)?)
            .map_err(|e| match e {
                cardtables::StudQueryError::NoDeck(_) => query_error(e),
                e => card_error(e),
            })?;
        Ok(StartingHands {
            wins: r.wins,
            ties: r.ties,
            losses: r.losses,
            deals: r.deals,
            equity: r.equity,
        })
    }
);

/// The strength of one Hold'em state against one random hand.
#[pyclass(frozen, get_all, module = "cardtables")]
struct HandStrength {
    street: usize,
    index: u64,
    runouts: u64,
    ehs: f64,
    ehs2: f64,
    score_sum: u64,
    score_sq_sum: u64,
    wins: u32,
    ties: u32,
    losses: u32,
}

/// A Hold'em strength table of one street (`strength_<street>.bin`, job kind
/// `holdem.postflop`).
#[pyclass(frozen, module = "cardtables")]
struct HoldemStrength {
    table: cardtables::HoldemStrength,
}

/// A strength question's error: bad cards are a `CardError`, another street a `QueryError`.
fn strength_error(e: cardtables::StrengthQueryError) -> PyErr {
    match e {
        cardtables::StrengthQueryError::State(e) => card_error(e),
        e => query_error(e),
    }
}

table_class!(HoldemStrength, cardtables::HoldemStrength, |table| HoldemStrength { table };
    /// The street: 0 preflop, 1 flop, 2 turn, 3 river.
    #[getter]
    fn street(&self) -> usize {
        self.table.street()
    }

    /// Histogram bins (0 on the river).
    #[getter]
    fn bins(&self) -> usize {
        self.table.bins()
    }

    /// The strength of `hole` (two cards) on `board` (as many cards as the street).
    #[pyo3(signature = (hole, board = None))]
    fn strength(&self, hole: &Bound<'_, PyAny>, board: Option<&Bound<'_, PyAny>>) -> PyResult<HandStrength> {
        let board = match board {
            Some(b) => cards_of(b)?,
            None => Vec::new(),
        };
        let s = self.table.strength(&cards_of(hole)?, &board).map_err(strength_error)?;
        Ok(HandStrength {
            street: s.street,
            index: s.index,
            runouts: s.runouts,
            ehs: s.ehs,
            ehs2: s.ehs2,
            score_sum: s.score_sum,
            score_sq_sum: s.score_sq_sum,
            wins: s.wins,
            ties: s.ties,
            losses: s.losses,
        })
    }

    /// Runouts per HS bin, lowest first.
    #[pyo3(signature = (hole, board = None))]
    fn histogram(&self, hole: &Bound<'_, PyAny>, board: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<u64>> {
        let board = match board {
            Some(b) => cards_of(b)?,
            None => Vec::new(),
        };
        let mut out = vec![0u64; self.table.bins()];
        self.table
            .histogram(&cards_of(hole)?, &board, &mut out)
            .map_err(strength_error)?;
        Ok(out)
    }
);

/// Everything a bidding table says about four seen cards.
#[pyclass(frozen, get_all, module = "cardtables")]
struct BiddingAnswer {
    index: u32,
    rank_class: u16,
    /// Fifth cards (of 48) giving each category, weakest first (`NiuniuBidding.categories`).
    fifth_cards: Vec<u32>,
    player_ev: f64,
    banker_ev: f64,
    banker_ev_table: f64,
    /// The suggested bid: a banker multiplier, or 0 for no bid.
    bid: u32,
    /// Exact EV of each bid level (0 = no bid, then each bid) against the other seats
    /// playing the equilibrium, and the share of the time the equilibrium bids each level.
    bid_evs: Vec<f64>,
    bid_shares: Vec<f64>,
}

py_repr!(BiddingAnswer {
    index,
    player_ev,
    banker_ev,
    bid
});

/// A Niuniu bidding table (`niuniu_bidding.bin`, job kind `niuniu.bidding`).
#[pyclass(frozen, module = "cardtables")]
struct NiuniuBidding {
    table: cardtables::NiuniuBidding,
}

table_class!(NiuniuBidding, cardtables::NiuniuBidding, |table| NiuniuBidding { table };
    /// Category names, weakest first.
    #[getter]
    fn categories(&self) -> Vec<String> {
        self.table.categories().iter().map(|c| c.name.clone()).collect()
    }

    /// Players the banker faces.
    #[getter]
    fn players(&self) -> u8 {
        self.table.players()
    }

    /// The banker multipliers a player may bid, increasing.
    #[getter]
    fn bids(&self) -> Vec<u32> {
        self.table.bids().to_vec()
    }

    /// Four seen cards, as text ("Ks Qh Jd Tc") or card ids.
    fn lookup(&self, cards: &Bound<'_, PyAny>) -> PyResult<BiddingAnswer> {
        let a = self.table.lookup(&cards_of(cards)?).map_err(card_error)?;
        Ok(BiddingAnswer {
            index: a.index,
            rank_class: a.rank_class,
            fifth_cards: a.fifth_cards.iter().copied().map(u32::from).collect(),
            player_ev: a.player_ev,
            banker_ev: a.banker_ev,
            banker_ev_table: a.banker_ev_table,
            bid: a.bid,
            bid_evs: a.bid_evs.to_vec(),
            bid_shares: a.bid_shares.to_vec(),
        })
    }
);

/// The play of a blackjack hand at a count.
#[pyclass(frozen, get_all, module = "cardtables")]
struct CountAdvice {
    /// What to do, and what the basic strategy chart does.
    action: String,
    chart: String,
    /// The index play that changed the chart's action: its count, whether it applies at
    /// or below it (else at or above), and the EV it adds per 100 rounds; None without.
    index: Option<i32>,
    below: Option<bool>,
    gain_per_100: Option<f64>,
}

py_repr!(CountAdvice {
    action,
    chart,
    index
});

/// A blackjack count-index table (`blackjack_indices.bin`, job kind `blackjack.indices`).
#[pyclass(frozen, module = "cardtables")]
struct BlackjackIndices {
    table: cardtables::BlackjackIndices,
}

table_class!(BlackjackIndices, cardtables::BlackjackIndices, |table| BlackjackIndices { table };
    /// The rule set ids, in table order.
    #[getter]
    fn rule_sets(&self) -> Vec<String> {
        self.table.rule_sets().iter().map(|s| s.id.clone()).collect()
    }

    /// The play for `hand` ("T 6") against `upcard` ("T") at `count` (the table's count:
    /// the true count of a balanced system, the running count of KO).
    fn best_action_at_count(
        &self,
        rules: &str,
        hand: &str,
        upcard: &str,
        count: i32,
    ) -> PyResult<CountAdvice> {
        let set = self.table.rule_set(rules).map_err(query_error)?;
        let hand = parse_hand(hand).map_err(card_error)?;
        let upcard = parse_rank(upcard).map_err(card_error)?;
        let a = self
            .table
            .best_action_at_count(set, &hand, upcard, count)
            .map_err(|e| match e {
                cardtables::BlackjackQueryError::CountOutOfRange(_) => query_error(e),
                e => card_error(e),
            })?;
        Ok(CountAdvice {
            action: a.action.name().to_string(),
            chart: a.chart.name().to_string(),
            index: a.index.map(|x| x.index),
            below: a.index.map(|x| x.below),
            gain_per_100: a.index.map(|x| x.gain_per_100),
        })
    }

    /// Whether to take insurance at `count`.
    fn insure(&self, rules: &str, count: i32) -> PyResult<bool> {
        let set = self.table.rule_set(rules).map_err(query_error)?;
        self.table.insure(set, count).map_err(query_error)
    }
);

/// The canonical index of Hold'em states up to suit permutation (no table file): 169
/// preflop, 1,286,792 flop, 13,960,050 turn and 123,156,254 river states, the board a set.
#[pyclass(frozen, module = "cardtables")]
struct HoldemIndexer {
    indexer: cardtables::indexer::HoldemIndexer,
}

#[pymethods]
impl HoldemIndexer {
    #[new]
    fn new() -> Self {
        HoldemIndexer {
            indexer: cardtables::indexer::HoldemIndexer::new(),
        }
    }

    /// States after `street` (0 preflop, 1 flop, 2 turn, 3 river).
    fn states(&self, street: usize) -> PyResult<u64> {
        if street >= cardtables::indexer::STREETS {
            return Err(query_error(cardtables::indexer::IndexError::Street(street)));
        }
        Ok(self.indexer.states(street))
    }

    /// The index of two hole cards and a board of 0, 3, 4 or 5 cards (text or ids).
    #[pyo3(signature = (hole, board = None))]
    fn index(&self, hole: &Bound<'_, PyAny>, board: Option<&Bound<'_, PyAny>>) -> PyResult<u64> {
        let hole = cards_of(hole)?;
        let board = match board {
            Some(b) => cards_of(b)?,
            None => Vec::new(),
        };
        self.indexer.index(&hole, &board).map_err(card_error)
    }

    /// The canonical state of `index` after `street`: (hole cards, board) as card text.
    fn unindex(&self, street: usize, index: u64) -> PyResult<(String, String)> {
        let state = self.indexer.unindex(street, index).map_err(query_error)?;
        let text = |cards: &[cardtables::Card]| {
            cards
                .iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        Ok((text(&state.hole), text(state.board())))
    }
}

/// The colex index of five distinct cards (text or ids), as Niuniu tables and
/// `hands.parquet` number hands.
#[pyfunction]
fn niuniu_hand_index(cards: &Bound<'_, PyAny>) -> PyResult<u32> {
    cardtables::niuniu::hand_index(&cards_of(cards)?).map_err(card_error)
}

/// The colex index of three distinct cards (text or ids), as Zhajinhua tables and
/// `hands.parquet` number hands.
#[pyfunction]
fn zhajinhua_hand_index(cards: &Bound<'_, PyAny>) -> PyResult<u32> {
    cardtables::zhajinhua::hand_index(&cards_of(cards)?).map_err(card_error)
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("CardtablesError", py.get_type::<CardtablesError>())?;
    m.add("TableError", py.get_type::<TableError>())?;
    m.add("CardError", py.get_type::<CardError>())?;
    m.add("QueryError", py.get_type::<QueryError>())?;
    m.add_class::<Niuniu>()?;
    m.add_class::<NiuniuHand>()?;
    m.add_class::<Zhajinhua>()?;
    m.add_class::<ZhajinhuaHand>()?;
    m.add_class::<Holdem>()?;
    m.add_class::<HoldemEquity>()?;
    m.add_class::<Blackjack>()?;
    m.add_class::<BlackjackAdvice>()?;
    m.add_class::<HoldemHeadsUp>()?;
    m.add_class::<HoldemThreeWay>()?;
    m.add_class::<ThreeWayResult>()?;
    m.add_class::<HeadsUpResult>()?;
    m.add_class::<RangeEquity>()?;
    m.add_class::<HoldemIndexer>()?;
    m.add_class::<HoldemStrength>()?;
    m.add_class::<HandStrength>()?;
    m.add_class::<StartingHands>()?;
    m.add_class::<PushFold>()?;
    m.add_class::<PushFoldPlay>()?;
    m.add_class::<PushFold3>()?;
    m.add_class::<PushFold3Play>()?;
    m.add_class::<Stud>()?;
    m.add_class::<NiuniuBidding>()?;
    m.add_class::<BiddingAnswer>()?;
    m.add_class::<BlackjackIndices>()?;
    m.add_class::<CountAdvice>()?;
    m.add_function(wrap_pyfunction!(niuniu_hand_index, m)?)?;
    m.add_function(wrap_pyfunction!(zhajinhua_hand_index, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
