//! The header against the code, and the boundary's behaviour on good and hostile input.

use std::collections::BTreeMap;
use std::ffi::{c_char, CStr, CString};
use std::ptr::{null, null_mut};

use cardtables::blackjack::{
    BlackjackPayload, RuleSet, ACTIONS, CHART_ROWS, RANKS, STARTING_HANDS,
};
use cardtables::holdem::{HoldemPayload, CLASSES};

use super::*;

const HEADER: &str = include_str!("../include/cardtables.h");
const SOURCES: [&str; 14] = [
    include_str!("lib.rs"),
    include_str!("indexer.rs"),
    include_str!("holdem_strength.rs"),
    include_str!("niuniu.rs"),
    include_str!("niuniu_bidding.rs"),
    include_str!("zhajinhua.rs"),
    include_str!("holdem.rs"),
    include_str!("holdem_headsup.rs"),
    include_str!("holdem_threeway.rs"),
    include_str!("pushfold.rs"),
    include_str!("pushfold3.rs"),
    include_str!("stud.rs"),
    include_str!("blackjack.rs"),
    include_str!("blackjack_indices.rs"),
];

/// A C prototype: return type and (type, name) of each parameter, types normalised.
type Signature = (String, Vec<(String, String)>);

/// `CtNiuniuHand` → `ct_niuniu_hand`.
fn c_name(rust: &str) -> String {
    let mut out = String::new();
    for (i, ch) in rust.chars().enumerate() {
        if ch.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(ch.to_ascii_lowercase());
        } else {
            out.push(ch);
        }
    }
    out
}

/// A Rust FFI type as the header must spell it (spaces around `*` removed).
fn c_type(rust: &str) -> String {
    let rust = rust.trim();
    if let Some(inner) = rust.strip_prefix("*const ") {
        let inner = c_type(inner);
        return if inner.ends_with('*') {
            format!("{inner}const*")
        } else {
            format!("const {inner}*")
        };
    }
    if let Some(inner) = rust.strip_prefix("*mut ") {
        return format!("{}*", c_type(inner));
    }
    match rust {
        "c_char" => "char".into(),
        "u8" => "uint8_t".into(),
        "u16" => "uint16_t".into(),
        "u32" => "uint32_t".into(),
        "u64" => "uint64_t".into(),
        "i32" => "int32_t".into(),
        "usize" => "size_t".into(),
        "f64" => "double".into(),
        "CtStatus" | "$crate::CtStatus" => "ct_status".into(),
        "::std::ffi::c_char" => "char".into(),
        "$handle" => "$handle".into(),
        other if other.starts_with("Ct") => c_name(other),
        other => panic!("no C spelling for Rust type {other}"),
    }
}

fn squash(c: &str) -> String {
    c.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace(" *", "*")
        .replace("* ", "*")
}

/// Splits `type name` (C) into its normalised type and the name.
fn c_param(param: &str) -> (String, String) {
    let param = param.trim();
    let split = param
        .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
        .expect("a C parameter has a type");
    (squash(&param[..=split]), param[split + 1..].to_string())
}

/// Every exported function of the sources: name → (C return type, [(C type, name)]),
/// with the `$handle`-generic macro expanded for each table.
fn rust_functions() -> BTreeMap<String, Signature> {
    let mut out = BTreeMap::new();
    // Each macro that makes functions, with its template names in argument order.
    const MACROS: [(&str, [&str; 3]); 2] = [
        ("handle_functions!(\n", ["$open", "$from_bytes", "$free"]),
        ("rule_set_functions!(\n", ["$count", "$id", "$find"]),
    ];
    // (handle, template, name) of every function an invocation makes.
    let mut expansions: Vec<(String, &str, String)> = Vec::new();
    for src in SOURCES {
        for (invocation, templates) in MACROS {
            let mut rest = src;
            while let Some(at) = rest.find(invocation) {
                rest = &rest[at + invocation.len()..];
                let args: Vec<&str> = rest[..rest.find(");").unwrap()]
                    .split(',')
                    .map(str::trim)
                    .collect();
                for (template, name) in templates.iter().zip(&args[1..4]) {
                    expansions.push((args[0].to_string(), template, name.to_string()));
                }
            }
        }
        let mut rest = src;
        while let Some(at) = rest.find("extern \"C\" fn ") {
            rest = &rest[at + "extern \"C\" fn ".len()..];
            let name = &rest[..rest.find('(').unwrap()];
            let close = rest.find(')').unwrap();
            let params: Vec<(String, String)> = rest[name.len() + 1..close]
                .split(',')
                .filter(|p| !p.trim().is_empty())
                .map(|p| {
                    let (n, t) = p.split_once(':').unwrap();
                    (squash(&c_type(t)), n.trim().to_string())
                })
                .collect();
            let after = &rest[close + 1..rest.find('{').unwrap()];
            let ret = match after.trim().strip_prefix("->") {
                Some(t) => squash(&c_type(t)),
                None => "void".to_string(),
            };
            out.insert(name.to_string(), (ret, params));
        }
    }
    let templates: BTreeMap<&str, Signature> = MACROS
        .iter()
        .flat_map(|(_, names)| names)
        .map(|t| (*t, out.remove(*t).expect("macro template")))
        .collect();
    for (handle, template, name) in expansions {
        let (ret, params) = &templates[template];
        let params = params
            .iter()
            .map(|(t, n)| (t.replace("$handle", &c_name(&handle)), n.clone()))
            .collect();
        out.insert(name, (ret.clone(), params));
    }
    out
}

fn header_functions() -> BTreeMap<String, Signature> {
    let mut out = BTreeMap::new();
    for line in HEADER.lines() {
        let line = line.trim();
        if line.starts_with("typedef") || line.starts_with('#') || !line.ends_with(");") {
            continue;
        }
        let open = line.find('(').unwrap();
        let (ret, name) = c_param(&line[..open]);
        let inner = &line[open + 1..line.len() - 2];
        let params = if inner.trim() == "void" {
            Vec::new()
        } else {
            inner.split(',').map(c_param).collect()
        };
        out.insert(name, (ret, params));
    }
    out
}

#[test]
fn the_header_declares_exactly_the_exported_functions_with_their_types() {
    let (rust, header) = (rust_functions(), header_functions());
    assert!(rust.len() >= 30, "found only {} functions", rust.len());
    let names = |m: &BTreeMap<String, _>| m.keys().cloned().collect::<Vec<_>>();
    assert_eq!(
        names(&rust),
        names(&header),
        "functions in the code vs the header"
    );
    for (name, (ret, params)) in &rust {
        let (h_ret, h_params) = &header[name];
        assert_eq!(ret, h_ret, "{name}: return type");
        assert_eq!(params, h_params, "{name}: parameters");
    }
}

#[test]
fn the_header_declares_the_structs_field_by_field_and_the_status_codes() {
    let mut structs = 0;
    for src in SOURCES {
        let mut rest = src;
        while let Some(at) = rest.find("#[repr(C)]\npub struct ") {
            rest = &rest[at + "#[repr(C)]\npub struct ".len()..];
            let name = &rest[..rest.find(' ').unwrap()];
            let body = &rest[rest.find('{').unwrap() + 1..rest.find("\n}").unwrap()];
            let fields: Vec<String> = body
                .lines()
                .map(str::trim)
                .filter(|l| l.starts_with("pub "))
                .map(|l| {
                    let (n, t) = l["pub ".len()..]
                        .trim_end_matches(',')
                        .split_once(':')
                        .unwrap();
                    match t.trim().strip_prefix('[') {
                        Some(array) => {
                            let (t, len) = array.trim_end_matches(']').split_once(';').unwrap();
                            let len = match len.trim() {
                                "ACTIONS" => ACTIONS.to_string(),
                                n => n.to_string(),
                            };
                            format!("{}{}[{len}]", squash(&c_type(t)), n.trim())
                        }
                        None => format!("{}{}", squash(&c_type(t)), n.trim()),
                    }
                })
                .collect();
            let c = c_name(name);
            let start = HEADER
                .find(&format!("typedef struct {c} {{"))
                .unwrap_or_else(|| panic!("{c} missing from the header"));
            let h_body = &HEADER[start..start + HEADER[start..].find(&format!("}} {c};")).unwrap()];
            let h_fields: Vec<String> = h_body
                .lines()
                .skip(1)
                .map(|l| l.split("/*").next().unwrap().trim())
                .filter(|l| !l.is_empty())
                .map(|l| squash(l.trim_end_matches(';')).replace(' ', ""))
                .collect();
            let fields: Vec<String> = fields.iter().map(|f| f.replace(' ', "")).collect();
            assert_eq!(fields, h_fields, "struct {c}");
            structs += 1;
        }
    }
    assert_eq!(structs, 13);
    for (name, value) in [
        ("CT_OK", CT_OK),
        ("CT_INVALID_ARGUMENT", CT_INVALID_ARGUMENT),
        ("CT_TABLE_ERROR", CT_TABLE_ERROR),
        ("CT_CARD_ERROR", CT_CARD_ERROR),
        ("CT_QUERY_ERROR", CT_QUERY_ERROR),
        ("CT_PANIC", CT_PANIC),
    ] {
        assert!(
            HEADER.contains(&format!("#define {name} {value}\n")),
            "{name}"
        );
    }
}

fn last_error() -> String {
    // SAFETY: the library returns a NUL-terminated string that lives until the next
    // failing call on this thread.
    unsafe { CStr::from_ptr(ct_last_error()) }
        .to_string_lossy()
        .into_owned()
}

/// An output struct to be filled.
fn empty_equity() -> CtHoldemEquity {
    CtHoldemEquity {
        class_index: 0,
        opponents: 0,
        win: 0.0,
        tie: 0.0,
        equity: 0.0,
        std_error: 0.0,
    }
}

fn holdem_bytes() -> Vec<u8> {
    let values = |offset: f64| (0..2 * CLASSES).map(|i| offset + i as f64 / 1e4).collect();
    let payload = HoldemPayload {
        rules: "test".into(),
        max_opponents: 2,
        win: values(0.1),
        tie: values(0.01),
        equity: values(0.2),
        std_error: vec![0.0; 2 * CLASSES],
    };
    cardtables::Holdem::to_bytes(7, &payload).unwrap()
}

#[test]
fn holdem_answers_equal_the_rust_runtime_by_text_and_by_ids() {
    let bytes = holdem_bytes();
    let rust = cardtables::Holdem::from_bytes(&bytes).unwrap();
    let mut handle: *mut CtHoldem = null_mut();
    // SAFETY: valid buffer and out-pointer.
    assert_eq!(
        unsafe { ct_holdem_from_bytes(bytes.as_ptr(), bytes.len(), &mut handle) },
        CT_OK
    );
    let mut out = empty_equity();
    for (text, a, b) in [("AKs", 51u8, 47u8), ("72o", 20, 1), ("QQ", 43, 42)] {
        let class = cardtables::holdem::class_of_text(text).unwrap();
        for opponents in 1..=2u32 {
            let want = rust.preflop(class, opponents as usize).unwrap();
            let c_text = CString::new(text).unwrap();
            // SAFETY: live handle, NUL-terminated text, valid out-pointer.
            let status = unsafe { ct_holdem_preflop(handle, c_text.as_ptr(), opponents, &mut out) };
            assert_eq!(status, CT_OK, "{}", last_error());
            assert_eq!(
                (out.class_index as usize, out.equity, out.win),
                (class, want.equity, want.win)
            );
            // SAFETY: as above.
            let status = unsafe { ct_holdem_preflop_ids(handle, a, b, opponents, &mut out) };
            assert_eq!(status, CT_OK, "{}", last_error());
            assert_eq!(out.class_index as usize, class, "{text} by ids");
        }
    }
    // Three opponents are not covered; the error says so and the output is untouched.
    out.equity = -1.0;
    let aks = CString::new("AKs").unwrap();
    // SAFETY: as above.
    let status = unsafe { ct_holdem_preflop(handle, aks.as_ptr(), 3, &mut out) };
    assert_eq!(status, CT_QUERY_ERROR);
    assert_eq!(out.equity, -1.0);
    assert!(last_error().contains("1 to 2"), "{}", last_error());
    // SAFETY: as above; 52 is not a card, the same card twice is not a hand.
    assert_eq!(
        unsafe { ct_holdem_preflop_ids(handle, 52, 1, 1, &mut out) },
        CT_CARD_ERROR
    );
    assert_eq!(
        unsafe { ct_holdem_preflop_ids(handle, 5, 5, 1, &mut out) },
        CT_CARD_ERROR
    );
    let bad = CString::new("AKx").unwrap();
    // SAFETY: as above.
    assert_eq!(
        unsafe { ct_holdem_preflop(handle, bad.as_ptr(), 1, &mut out) },
        CT_CARD_ERROR
    );
    // SAFETY: the handle is live and freed once.
    unsafe { ct_holdem_free(handle) };
}

fn zhajinhua_bytes() -> Vec<u8> {
    use cardtables::zhajinhua::{ZhajinhuaPayload, HANDS};
    let cells = 2 * HANDS;
    let payload = ZhajinhuaPayload {
        rules: "test".into(),
        categories: [
            "high_card",
            "pair",
            "straight",
            "flush",
            "straight_flush",
            "trips",
        ]
        .map(String::from)
        .to_vec(),
        max_opponents: 2,
        category: (0..HANDS).map(|i| (i % 6) as u8).collect(),
        strength: (0..HANDS).map(|i| (i * 7 % HANDS) as u16).collect(),
        beats_trips: (0..HANDS).map(|i| i % 11 == 0).collect(),
        win: (0..cells).map(|k| k as f64 / cells as f64 / 2.0).collect(),
        tie: (0..cells).map(|k| (k % 5) as f64 / 10.0).collect(),
        equity: (0..cells).map(|k| (k % 97) as f64 / 97.0).collect(),
        std_error: vec![0.0; cells],
        suit_class: vec![0; HANDS],
        caller_loses: false,
        simultaneous_showdown: true,
    };
    cardtables::Zhajinhua::to_bytes(7, &payload).unwrap()
}

#[test]
fn zhajinhua_answers_by_ids_equal_the_rust_runtime_one_at_a_time_and_in_batch() {
    let bytes = zhajinhua_bytes();
    let rust = cardtables::Zhajinhua::from_bytes(&bytes).unwrap();
    let mut handle: *mut CtZhajinhua = null_mut();
    // SAFETY: valid buffer and out-pointer.
    assert_eq!(
        unsafe { ct_zhajinhua_from_bytes(bytes.as_ptr(), bytes.len(), &mut handle) },
        CT_OK
    );
    let mut ids = Vec::new();
    for c in 2..52u8 {
        for b in 1..c {
            for a in 0..b {
                ids.extend([c, a, b]); // unsorted
            }
        }
    }
    let hands = ids.len() / 3;
    assert_eq!(hands, cardtables::zhajinhua::HANDS);
    let mut batch: Vec<std::mem::MaybeUninit<CtZhajinhuaHand>> = (0..hands)
        .map(|_| std::mem::MaybeUninit::uninit())
        .collect();
    for opponents in 1..=2 {
        // SAFETY: a live handle, 3 · hands ids, hands writable answers.
        let status = unsafe {
            ct_zhajinhua_win_rate_ids_many(
                handle,
                ids.as_ptr(),
                hands,
                opponents,
                batch.as_mut_ptr().cast(),
            )
        };
        assert_eq!(status, CT_OK);
        for (three, got) in ids.chunks_exact(3).zip(&batch) {
            let cards: Vec<_> = three
                .iter()
                .map(|&i| cardtables::Card::from_id(i).unwrap())
                .collect();
            let want = rust.win_rate(&cards, opponents as usize).unwrap();
            let mut one = std::mem::MaybeUninit::<CtZhajinhuaHand>::uninit();
            // SAFETY: a live handle, three ids, a writable answer.
            let status = unsafe {
                ct_zhajinhua_win_rate_ids(handle, three.as_ptr(), 3, opponents, one.as_mut_ptr())
            };
            assert_eq!(status, CT_OK);
            // SAFETY: both written by successful calls.
            for h in unsafe { [one.assume_init_ref(), got.assume_init_ref()] } {
                assert_eq!(
                    (h.index, h.category_rank, h.strength),
                    (want.index, want.category_rank, want.strength)
                );
                assert_eq!(
                    (h.win, h.tie, h.loss, h.equity),
                    (want.win, want.tie, want.loss, want.equity)
                );
                // SAFETY: the name lives as long as the handle.
                assert_eq!(
                    unsafe { CStr::from_ptr(h.category) }.to_str().unwrap(),
                    want.category
                );
            }
        }
    }
    // Calling ranges: the Rust answer, and a share outside (0, 1] is a query error.
    let ks = CString::new("Ks Kh Qd").unwrap();
    let cards = cardtables::parse_cards("Ks Kh Qd").unwrap();
    for (opponents, share) in [(1, 0.4299), (2, 0.05), (1, 1.0)] {
        let mut equity = f64::NAN;
        // SAFETY: a live handle, a NUL-terminated string, a writable answer.
        let status = unsafe {
            ct_zhajinhua_range_equity(handle, ks.as_ptr(), opponents, share, &mut equity)
        };
        assert_eq!(status, CT_OK);
        let want = rust
            .range_equity(&cards, opponents as usize, share)
            .unwrap();
        assert_eq!(equity, want);
    }
    let mut equity = -1.0;
    for share in [0.0, 1.5, f64::NAN] {
        // SAFETY: as above.
        let status =
            unsafe { ct_zhajinhua_range_equity(handle, ks.as_ptr(), 1, share, &mut equity) };
        assert_eq!(status, CT_QUERY_ERROR);
        assert!(last_error().contains("share"), "{}", last_error());
    }
    assert_eq!(equity, -1.0);
    // Bad ids, counts and outputs: the status, the message, and the output untouched.
    let mut out = std::mem::MaybeUninit::<CtZhajinhuaHand>::zeroed();
    let cases: [(&[u8], usize, &str); 4] = [
        (&[1, 2], 2, "3 cards"),
        (&[1, 52, 3], 3, "card id 52 is out of range"),
        (&[5, 9, 5], 3, "appears more than once"),
        (&[0; 53], 53, "53 card ids: a deck has 52 cards"),
    ];
    for (given, count, message) in cases {
        // SAFETY: a live handle, `count` readable ids, a writable answer.
        let status = unsafe {
            ct_zhajinhua_win_rate_ids(handle, given.as_ptr(), count, 1, out.as_mut_ptr())
        };
        assert_eq!(status, CT_CARD_ERROR, "{given:?}");
        assert!(
            last_error().contains(message),
            "{given:?}: {}",
            last_error()
        );
        // SAFETY: zeroed, and a failing call leaves it untouched.
        assert_eq!(unsafe { out.assume_init_ref() }.index, 0);
    }
    // SAFETY: a live handle, three ids; the output is NULL.
    let status =
        unsafe { ct_zhajinhua_win_rate_ids(handle, [0u8, 1, 2].as_ptr(), 3, 1, null_mut()) };
    assert_eq!(status, CT_INVALID_ARGUMENT);
    // SAFETY: a live handle, 6 ids, 2 answers; hand 1 repeats a card.
    let status = unsafe {
        ct_zhajinhua_win_rate_ids_many(
            handle,
            [0u8, 1, 2, 7, 7, 8].as_ptr(),
            2,
            1,
            batch.as_mut_ptr().cast(),
        )
    };
    assert_eq!(status, CT_CARD_ERROR);
    assert!(last_error().starts_with("hand 1: "), "{}", last_error());
    // SAFETY: made above, freed once.
    unsafe { ct_zhajinhua_free(handle) };
}

#[test]
fn null_pointers_and_bad_tables_are_errors_never_crashes() {
    let mut handle: *mut CtHoldem = null_mut();
    // SAFETY: every pointer is NULL or valid; the library must check.
    unsafe {
        assert_eq!(ct_holdem_open(null(), &mut handle), CT_INVALID_ARGUMENT);
        assert_eq!(
            ct_holdem_from_bytes(null(), 10, &mut handle),
            CT_INVALID_ARGUMENT
        );
        assert!(handle.is_null());
        let bytes = holdem_bytes();
        assert_eq!(
            ct_holdem_from_bytes(bytes.as_ptr(), bytes.len(), null_mut()),
            CT_INVALID_ARGUMENT
        );
        // Truncated at every length, one byte flipped anywhere, another game's reader.
        for len in [0, 1, 39, 40, bytes.len() / 2, bytes.len() - 1] {
            assert_eq!(
                ct_holdem_from_bytes(bytes.as_ptr(), len, &mut handle),
                CT_TABLE_ERROR,
                "{len}"
            );
        }
        // (Bytes 16..24, the rules hash, only label the file.)
        for at in [0, 9, 11, 33, 45, bytes.len() - 1] {
            let mut bad = bytes.clone();
            bad[at] ^= 0x40;
            assert_eq!(
                ct_holdem_from_bytes(bad.as_ptr(), bad.len(), &mut handle),
                CT_TABLE_ERROR,
                "{at}"
            );
        }
        // A Hold'em preflop table is no other game's table.
        macro_rules! refuses {
            ($($from_bytes:ident),*) => {$({
                let mut other = null_mut();
                assert_eq!($from_bytes(bytes.as_ptr(), bytes.len(), &mut other), CT_TABLE_ERROR);
                assert!(other.is_null(), stringify!($from_bytes));
            })*};
        }
        refuses!(
            ct_zhajinhua_from_bytes,
            ct_holdem_headsup_from_bytes,
            ct_pushfold_from_bytes,
            ct_stud_from_bytes,
            ct_niuniu_bidding_from_bytes,
            ct_blackjack_from_bytes,
            ct_blackjack_indices_from_bytes
        );
        let mut niuniu: *mut CtNiuniu = null_mut();
        assert_eq!(
            ct_niuniu_from_bytes(bytes.as_ptr(), bytes.len(), &mut niuniu),
            CT_TABLE_ERROR
        );
        assert!(
            last_error().contains("holdem") || last_error().contains("Holdem"),
            "{}",
            last_error()
        );
        let missing = CString::new("/nonexistent/niuniu.bin").unwrap();
        assert_eq!(
            ct_niuniu_open(missing.as_ptr(), &mut niuniu),
            CT_TABLE_ERROR
        );
        assert!(
            last_error().contains("/nonexistent/niuniu.bin"),
            "{}",
            last_error()
        );
        assert!(niuniu.is_null() && handle.is_null());
        // Queries on a NULL handle, or into a NULL output.
        let mut hand = std::mem::zeroed::<CtNiuniuHand>();
        let cards = CString::new("As Ks Qs Js Ts").unwrap();
        assert_eq!(
            ct_niuniu_lookup(null(), cards.as_ptr(), &mut hand),
            CT_INVALID_ARGUMENT
        );
        assert_eq!(
            ct_niuniu_lookup_ids(null(), [1u8].as_ptr(), 1, &mut hand),
            CT_INVALID_ARGUMENT
        );
        let mut n = 0u32;
        assert_eq!(
            ct_zhajinhua_max_opponents(null(), &mut n),
            CT_INVALID_ARGUMENT
        );
        assert_eq!(
            ct_blackjack_rule_set_count(null(), null_mut()),
            CT_INVALID_ARGUMENT
        );
        let mut count = 0usize;
        assert_eq!(
            ct_blackjack_indices_rule_set_count(null(), &mut count),
            CT_INVALID_ARGUMENT
        );
        assert_eq!(
            ct_pushfold_grid(null(), null_mut(), null_mut(), &mut count),
            CT_INVALID_ARGUMENT
        );
        assert_eq!(
            ct_stud_decks(null(), null_mut(), &mut count),
            CT_INVALID_ARGUMENT
        );
        let mut equity = 0.0;
        assert_eq!(
            ct_holdem_headsup_classes(null(), 0, 1, &mut equity),
            CT_INVALID_ARGUMENT
        );
        let mut class = 0u32;
        let t9o = CString::new("T9o").unwrap();
        assert_eq!(ct_holdem_class_index(t9o.as_ptr(), &mut class), CT_OK);
        assert_eq!(
            class as usize,
            cardtables::holdem::class_of_text("T9o").unwrap()
        );
        let bad = CString::new("T9x").unwrap();
        assert_eq!(
            ct_holdem_class_index(bad.as_ptr(), &mut class),
            CT_CARD_ERROR
        );
        // Freeing NULL is allowed.
        ct_niuniu_free(null_mut());
        ct_zhajinhua_free(null_mut());
        ct_holdem_free(null_mut());
        ct_blackjack_free(null_mut());
        ct_holdem_headsup_free(null_mut());
        ct_pushfold_free(null_mut());
        ct_stud_free(null_mut());
        ct_niuniu_bidding_free(null_mut());
        ct_blackjack_indices_free(null_mut());
        // A string that is not UTF-8.
        let mut h: *mut CtHoldem = null_mut();
        assert_eq!(
            ct_holdem_from_bytes(bytes.as_ptr(), bytes.len(), &mut h),
            CT_OK
        );
        let latin1 = [0xC0u8, b'K', 0];
        let mut out = empty_equity();
        assert_eq!(
            ct_holdem_preflop(h, latin1.as_ptr().cast::<c_char>(), 1, &mut out),
            CT_INVALID_ARGUMENT
        );
        assert!(last_error().contains("UTF-8"), "{}", last_error());
        ct_holdem_free(h);
    }
    let version = unsafe { CStr::from_ptr(ct_version()) }.to_str().unwrap();
    assert_eq!(version, env!("CARGO_PKG_VERSION"));
}

fn blackjack_bytes() -> Vec<u8> {
    let set = |id: &str, offset: f64| RuleSet {
        id: id.into(),
        rules: String::new(),
        conditioned_on_no_blackjack: true,
        max_split_hands: 4,
        house_edge: 0.005,
        basic_strategy_ev: -0.005,
        // Distinct EVs with the best action varying by cell; splits only on pairs.
        evs: (0..STARTING_HANDS * RANKS * ACTIONS)
            .map(|i| offset + ((i * 7919) % 1000) as f64 / 1000.0)
            .collect(),
        chart: (0..CHART_ROWS * RANKS)
            .map(|i| {
                let first = if i % 3 == 0 { 0 } else { 1 };
                [first, 2, u8::MAX, u8::MAX, u8::MAX]
            })
            .collect(),
    };
    let payload = BlackjackPayload {
        rules: String::new(),
        rule_sets: vec![set("a", 0.0), set("6d-s17-das", -0.5)],
    };
    cardtables::Blackjack::to_bytes(1, &payload).unwrap()
}

#[test]
fn blackjack_answers_equal_the_rust_runtime_for_every_hand_and_upcard() {
    let bytes = blackjack_bytes();
    let rust = cardtables::Blackjack::from_bytes(&bytes).unwrap();
    let mut handle: *mut CtBlackjack = null_mut();
    let mut out = CtBlackjackAdvice {
        action: 9,
        ev: 0.0,
        evs: [0.0; ACTIONS],
    };
    // SAFETY: every pointer valid; the handle is freed once at the end.
    unsafe {
        assert_eq!(
            ct_blackjack_from_bytes(bytes.as_ptr(), bytes.len(), &mut handle),
            CT_OK
        );
        let mut count = 0usize;
        assert_eq!(ct_blackjack_rule_set_count(handle, &mut count), CT_OK);
        assert_eq!(count, 2);
        let mut id: *const c_char = null();
        assert_eq!(ct_blackjack_rule_set_id(handle, 1, &mut id), CT_OK);
        assert_eq!(CStr::from_ptr(id).to_str().unwrap(), "6d-s17-das");
        assert_eq!(ct_blackjack_rule_set_id(handle, 2, &mut id), CT_QUERY_ERROR);
        let mut set = 0usize;
        let name = CString::new("6d-s17-das").unwrap();
        assert_eq!(
            ct_blackjack_rule_set(handle, name.as_ptr(), &mut set),
            CT_OK
        );
        assert_eq!(set, 1);
        let other = CString::new("8d-h17").unwrap();
        assert_eq!(
            ct_blackjack_rule_set(handle, other.as_ptr(), &mut set),
            CT_QUERY_ERROR
        );
        assert!(last_error().contains("6d-s17-das"), "{}", last_error());
        let symbols = "23456789TJQKA";
        for a in 0..13u8 {
            for b in 0..13u8 {
                for up in 0..13u8 {
                    let want = rust.best_action(1, &[a, b], up).unwrap();
                    assert_eq!(
                        ct_blackjack_best_action_ranks(handle, 1, [a, b].as_ptr(), 2, up, &mut out),
                        CT_OK
                    );
                    assert_eq!((out.action, out.ev), (want.action as u32, want.ev.unwrap()));
                    assert_eq!(
                        out.evs.map(f64::to_bits),
                        rust.evs(1, &[a, b], up).unwrap().map(f64::to_bits)
                    );
                    let sym = |r: u8| symbols.as_bytes()[usize::from(r)] as char;
                    let hand = CString::new(format!("{} {}", sym(a), sym(b))).unwrap();
                    let upcard = CString::new(sym(up).to_string()).unwrap();
                    assert_eq!(
                        ct_blackjack_best_action(
                            handle,
                            1,
                            hand.as_ptr(),
                            upcard.as_ptr(),
                            &mut out
                        ),
                        CT_OK
                    );
                    assert_eq!(out.action, want.action as u32);
                }
            }
        }
        // Three cards: the chart's action, no EV.
        let hand = CString::new("T 2 4").unwrap();
        let up = CString::new("9").unwrap();
        assert_eq!(
            ct_blackjack_best_action(handle, 0, hand.as_ptr(), up.as_ptr(), &mut out),
            CT_OK
        );
        assert_eq!(
            out.action,
            rust.best_action(0, &[8, 0, 2], 7).unwrap().action as u32
        );
        assert!(out.ev.is_nan() && out.evs.iter().all(|v| v.is_nan()));
        // Bust, out-of-range ranks and rule sets, too many cards.
        let bust = CString::new("T T 5").unwrap();
        assert_eq!(
            ct_blackjack_best_action(handle, 0, bust.as_ptr(), up.as_ptr(), &mut out),
            CT_CARD_ERROR
        );
        assert_eq!(
            ct_blackjack_best_action_ranks(handle, 0, [13u8, 2].as_ptr(), 2, 7, &mut out),
            CT_CARD_ERROR
        );
        assert_eq!(
            ct_blackjack_best_action_ranks(handle, 5, [3u8, 2].as_ptr(), 2, 7, &mut out),
            CT_QUERY_ERROR
        );
        assert_eq!(
            ct_blackjack_best_action_ranks(handle, 0, [0u8; 40].as_ptr(), 40, 7, &mut out),
            CT_CARD_ERROR
        );
        assert_eq!(
            ct_blackjack_best_action_ranks(handle, 0, null(), 2, 7, &mut out),
            CT_INVALID_ARGUMENT
        );
        for (code, name) in [(0, "stand"), (3, "split"), (4, "surrender")] {
            assert_eq!(
                CStr::from_ptr(ct_blackjack_action_name(code))
                    .to_str()
                    .unwrap(),
                name
            );
        }
        assert!(ct_blackjack_action_name(5).is_null());
        ct_blackjack_free(handle);
    }
}

#[test]
fn one_handle_answers_many_threads_and_errors_stay_on_their_thread() {
    struct Shared(*mut CtHoldem);
    // SAFETY: a handle is immutable after it is made; the library promises it may be
    // queried from any number of threads at once.
    unsafe impl Sync for Shared {}
    let bytes = holdem_bytes();
    let mut handle: *mut CtHoldem = null_mut();
    // SAFETY: valid buffer and out-pointer.
    assert_eq!(
        unsafe { ct_holdem_from_bytes(bytes.as_ptr(), bytes.len(), &mut handle) },
        CT_OK
    );
    let shared = Shared(handle);
    std::thread::scope(|s| {
        for t in 0..4u32 {
            let shared = &shared;
            s.spawn(move || {
                let text = CString::new("KK").unwrap();
                let mut out = empty_equity();
                for _ in 0..1000 {
                    // SAFETY: a live handle shared read-only; valid pointers.
                    let status =
                        unsafe { ct_holdem_preflop(shared.0, text.as_ptr(), 1 + t % 2, &mut out) };
                    assert_eq!(status, CT_OK);
                }
                // A failure on this thread sets this thread's message only.
                // SAFETY: as above.
                let status =
                    unsafe { ct_holdem_preflop(shared.0, text.as_ptr(), 10 + t, &mut out) };
                assert_eq!(status, CT_QUERY_ERROR);
                assert!(
                    last_error().starts_with(&format!("{} opponents", 10 + t)),
                    "{}",
                    last_error()
                );
            });
        }
    });
    // SAFETY: freed once, after every thread is done.
    unsafe { ct_holdem_free(handle) };
}

#[test]
fn strength_tables_answer_from_text_and_refuse_other_streets() {
    use crate::holdem_strength::*;
    use cardtables::holdem_strength::{StrengthPayload, RUNOUTS};
    // A preflop strength table of consistent made-up figures: every runout at score 0, so
    // in bin 0 of 2.
    let states = 169usize;
    let payload = StrengthPayload {
        rules: "x".into(),
        street: 0,
        bins: 2,
        wins: vec![],
        ties: vec![],
        sum: vec![0; states],
        sum_sq: vec![0; states],
        hist_width: 4,
        hist: (0..states)
            .flat_map(|_| {
                let mut cell = (RUNOUTS[0] as u32).to_le_bytes().to_vec();
                cell.extend(0u32.to_le_bytes());
                cell
            })
            .collect(),
    };
    let bytes = cardtables::HoldemStrength::to_bytes(1, &payload).unwrap();
    let rust = cardtables::HoldemStrength::from_bytes(&bytes).unwrap();
    let mut handle = null_mut();
    // SAFETY: valid pointers throughout; the handle is freed once.
    unsafe {
        assert_eq!(
            ct_holdem_strength_from_bytes(bytes.as_ptr(), bytes.len(), &mut handle),
            CT_OK
        );
        let (mut street, mut bins) = (9u32, 9u32);
        assert_eq!(
            ct_holdem_strength_street(handle, &mut street, &mut bins),
            CT_OK
        );
        assert_eq!((street, bins), (0, 2));
        let hole = CString::new("Kd Ac").unwrap();
        let none = CString::new("").unwrap();
        let mut out = std::mem::MaybeUninit::<CtHandStrength>::uninit();
        assert_eq!(
            ct_holdem_strength_lookup(handle, hole.as_ptr(), none.as_ptr(), out.as_mut_ptr()),
            CT_OK
        );
        let out = out.assume_init();
        let want = rust
            .strength(&cardtables::parse_cards("Ac Kd").unwrap(), &[])
            .unwrap();
        assert_eq!(
            (out.index, out.runouts, out.ehs),
            (want.index, want.runouts, want.ehs)
        );
        let mut counts = [7u64; 2];
        assert_eq!(
            ct_holdem_strength_histogram(
                handle,
                hole.as_ptr(),
                none.as_ptr(),
                counts.as_mut_ptr(),
                2
            ),
            CT_OK
        );
        assert_eq!(counts, [RUNOUTS[0], 0]);
        assert_eq!(
            ct_holdem_strength_histogram(
                handle,
                hole.as_ptr(),
                none.as_ptr(),
                counts.as_mut_ptr(),
                3
            ),
            CT_INVALID_ARGUMENT
        );
        let flop = CString::new("2c 3c 4c").unwrap();
        let mut out = std::mem::MaybeUninit::<CtHandStrength>::uninit();
        assert_eq!(
            ct_holdem_strength_lookup(handle, hole.as_ptr(), flop.as_ptr(), out.as_mut_ptr()),
            CT_QUERY_ERROR
        );
        assert!(last_error().contains("preflop"), "{}", last_error());
        let twice = CString::new("Ac Ac").unwrap();
        assert_eq!(
            ct_holdem_strength_lookup(handle, twice.as_ptr(), none.as_ptr(), out.as_mut_ptr()),
            CT_CARD_ERROR
        );
        ct_holdem_strength_free(handle);
    }
}

#[test]
fn three_way_classes_answer_in_the_order_asked() {
    use cardtables::holdem_threeway::ThreeWayPayload;
    // Two classes, AA (0) and KK (1): triples AA AA AA (no deal), AA AA KK, AA KK KK,
    // KK KK KK (no deal).
    let payload = ThreeWayPayload {
        rules: "x".into(),
        classes: vec![0, 1],
        deals: vec![0, 36, 36, 0],
        equity: vec![0.0, 0.0, 0.0, 0.4, 0.4, 0.2, 0.9, 0.05, 0.05, 0.0, 0.0, 0.0],
    };
    let bytes = cardtables::HoldemThreeWay::to_bytes(1, &payload).unwrap();
    let mut handle = null_mut();
    // SAFETY: valid pointers throughout; the handle is freed once.
    unsafe {
        assert_eq!(
            ct_holdem_threeway_from_bytes(bytes.as_ptr(), bytes.len(), &mut handle),
            CT_OK
        );
        let mut out = std::mem::MaybeUninit::<CtThreewayResult>::uninit();
        assert_eq!(
            ct_holdem_threeway_classes(handle, 1, 0, 0, out.as_mut_ptr()),
            CT_OK
        );
        let out = out.assume_init();
        assert_eq!(
            (out.equity_a, out.equity_b, out.equity_c, out.combos),
            (0.2, 0.4, 0.4, 36)
        );
        let mut none = std::mem::MaybeUninit::<CtThreewayResult>::uninit();
        for (a, b, c) in [(0, 0, 0), (0, 0, 2), (0, 0, 169)] {
            assert_eq!(
                ct_holdem_threeway_classes(handle, a, b, c, none.as_mut_ptr()),
                CT_QUERY_ERROR
            );
        }
        assert_eq!(
            ct_holdem_threeway_classes(null(), 0, 0, 1, none.as_mut_ptr()),
            CT_INVALID_ARGUMENT
        );
        assert_eq!(
            ct_holdem_threeway_classes(handle, 0, 0, 1, null_mut()),
            CT_INVALID_ARGUMENT
        );
        ct_holdem_threeway_free(handle);
        ct_holdem_threeway_free(null_mut());
    }
}

#[test]
fn three_handed_pushfold_answers_each_spot_and_decision() {
    use cardtables::pushfold3::{PushFold3Payload, DECISIONS};
    // Two classes (AA, KK); a chip-EV spot at 10 bb each and an ICM spot at 10/15/20.
    let cells = 2 * DECISIONS * 2;
    let payload = PushFold3Payload {
        rules: "x".into(),
        ante: 0.0,
        classes: vec![0, 1],
        payouts: vec![0.5, 0.3, 0.2],
        stacks: vec![10.0, 10.0, 10.0, 10.0, 15.0, 20.0],
        icm: vec![0, 1],
        frequency: (0..cells).map(|i| i as f64 / cells as f64).collect(),
        ev_act: (0..cells).map(|i| i as f64).collect(),
        ev_fold: vec![-1.0; cells],
        faced: (0..cells).map(|i| if i == 3 { 0.0 } else { 0.5 }).collect(),
        value: vec![0.0; 6],
        exploitability: vec![1e-5, 2e-6],
        bb_value: vec![1.0, 1.0 / 45.0],
    };
    let bytes = cardtables::PushFold3::to_bytes(1, &payload).unwrap();
    let mut handle = null_mut();
    let aa = CString::new("Ah Ad").unwrap();
    let qq = CString::new("QQ").unwrap();
    // SAFETY: valid pointers throughout; the handle is freed once.
    unsafe {
        assert_eq!(
            ct_pushfold3_from_bytes(bytes.as_ptr(), bytes.len(), &mut handle),
            CT_OK
        );
        let mut spot = usize::MAX;
        let equal = [10.0, 10.0, 10.0];
        assert_eq!(
            ct_pushfold3_spot(handle, equal.as_ptr(), null(), 0, &mut spot),
            CT_OK
        );
        assert_eq!(spot, 0);
        let mut out = std::mem::MaybeUninit::<CtPushfold3Play>::uninit();
        assert_eq!(
            ct_pushfold3_hand(handle, 0, 1, aa.as_ptr(), out.as_mut_ptr()),
            CT_OK
        );
        let play = out.assume_init_read();
        // AA is covered position 0: cell (0 · 6 + 1) · 2 + 0 = 2.
        assert_eq!((play.decision, play.icm, play.ev), (1, 0, 2.0));
        assert_eq!(play.stacks, [10.0; 3]);
        // Cell 3 (KK at sb_push) is never reached: NaN EVs.
        let kk = CString::new("KK").unwrap();
        assert_eq!(
            ct_pushfold3_hand(handle, 0, 1, kk.as_ptr(), out.as_mut_ptr()),
            CT_OK
        );
        let play = out.assume_init_read();
        assert!(play.ev.is_nan() && play.ev_fold.is_nan() && play.p_faced == 0.0);
        let side = [10.0, 15.0, 20.0];
        let payouts = [0.5, 0.3, 0.2];
        assert_eq!(
            ct_pushfold3_spot(handle, side.as_ptr(), payouts.as_ptr(), 3, &mut spot),
            CT_OK
        );
        assert_eq!(spot, 1);
        let (mut x, mut xbb) = (0.0, 0.0);
        assert_eq!(
            ct_pushfold3_exploitability(handle, 1, &mut x, &mut xbb),
            CT_OK
        );
        assert_eq!((x, xbb), (2e-6, 2e-6 * 45.0));
        // Questions the table cannot answer.
        assert_eq!(
            ct_pushfold3_spot(handle, side.as_ptr(), null(), 0, &mut spot),
            CT_QUERY_ERROR
        );
        assert_eq!(
            ct_pushfold3_spot(handle, side.as_ptr(), payouts.as_ptr(), 2, &mut spot),
            CT_QUERY_ERROR
        );
        assert_eq!(
            ct_pushfold3_spot(handle, side.as_ptr(), payouts.as_ptr(), 9, &mut spot),
            CT_INVALID_ARGUMENT
        );
        assert_eq!(
            ct_pushfold3_spot(handle, null(), null(), 0, &mut spot),
            CT_INVALID_ARGUMENT
        );
        assert_eq!(
            ct_pushfold3_hand(handle, 0, 6, aa.as_ptr(), out.as_mut_ptr()),
            CT_INVALID_ARGUMENT
        );
        assert_eq!(
            ct_pushfold3_hand(handle, 0, 0, qq.as_ptr(), out.as_mut_ptr()),
            CT_QUERY_ERROR
        );
        assert_eq!(
            ct_pushfold3_hand(handle, 2, 0, aa.as_ptr(), out.as_mut_ptr()),
            CT_QUERY_ERROR
        );
        assert_eq!(
            ct_pushfold3_exploitability(handle, 7, null_mut(), null_mut()),
            CT_QUERY_ERROR
        );
        ct_pushfold3_free(handle);
        ct_pushfold3_free(null_mut());
    }
}
