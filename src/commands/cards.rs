//! `pipeline cards`: a hand as the tables write it, so a SQL user can find its row.
//!
//! Reads cards in any form the queries take (`10c`, `Tc`, `♣10`, `c10`, any order) and
//! prints the table's `cards` text (high to low by rank, A highest, then suit ♠ ♥ ♣ ♦;
//! `T` for ten), the ids `c1..ck` and the `hand_index` (colex index among hands of its
//! size), and for two cards the Hold'em `class`.

use cardtables::card::quote;
use serde_json::{Map, Value};

use crate::commands::UsageError;

/// Most cards a colex index covers (a Hold'em hand and board).
const MAX_CARDS: usize = cardtables::colex::MAX_K;

pub fn cards(hand: &str, json: bool) -> anyhow::Result<()> {
    let cards = cardtables::parse_cards(hand)
        .map_err(|e| UsageError::error(format!("cannot read the cards {}: {e}", quote(hand))))?;
    if cards.is_empty() || cards.len() > MAX_CARDS {
        return Err(UsageError::error(format!(
            "{} holds {} cards: give 1 to {MAX_CARDS}",
            quote(hand),
            cards.len()
        )));
    }
    let mut ids: Vec<u8> = cards.iter().map(|c| c.id()).collect();
    ids.sort_unstable();
    let text = crate::cards::text(&cards);
    let index = cardtables::colex::index_of(&cards);
    let class = match cards.as_slice() {
        [a, b] => Some(crate::games::holdem::classes::class_name(
            cardtables::holdem::class_of(*a, *b),
        )),
        _ => None,
    };
    if json {
        let mut out = Map::new();
        out.insert("cards".into(), text.into());
        for (i, id) in ids.iter().enumerate() {
            out.insert(format!("c{}", i + 1), (*id).into());
        }
        out.insert("hand_index".into(), index.into());
        if let Some(class) = class {
            out.insert("class".into(), class.into());
        }
        println!("{}", Value::Object(out));
    } else {
        println!("cards:      {text}");
        let columns: Vec<String> = ids
            .iter()
            .enumerate()
            .map(|(i, id)| format!("c{} = {id}", i + 1))
            .collect();
        println!("ids:        {}", columns.join(", "));
        println!(
            "hand_index: {index} (colex, among the hands of {} cards)",
            cards.len()
        );
        if let Some(class) = class {
            println!("class:      {class}");
        }
        println!("SQL:        WHERE cards = '{text}'");
    }
    Ok(())
}
