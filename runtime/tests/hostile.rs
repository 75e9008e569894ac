//! Hostile table files: truncations, flipped bytes (with the checksum repaired so the
//! decoder itself is attacked), forged length prefixes and wrong headers. Every one must
//! be an error, never a panic, and no single allocation may exceed the file's size.
//! The mutations come from a fixed-seed generator, so every run tries the same inputs.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use cardtables::blackjack::{self, BlackjackPayload, RuleSet};
use cardtables::format::{self, Game, HEADER_LEN};
use cardtables::holdem_threeway::ThreeWayPayload;
use cardtables::pushfold3::{Decision, PushFold3Payload, DECISIONS};
use cardtables::zhajinhua::{ZhajinhuaPayload, HANDS};
use cardtables::{Blackjack, BlackjackIndices, HoldemThreeWay, Niuniu, PushFold3, Zhajinhua};

/// Tracks the largest single allocation a thread makes while its `WATCH` is on (tests
/// run on several threads at once, so the tracking is per thread).
struct Watching;

thread_local! {
    static WATCH: Cell<bool> = const { Cell::new(false) };
    static LARGEST: Cell<usize> = const { Cell::new(0) };
}

fn note(size: usize) {
    let _ = WATCH.try_with(|w| {
        if w.get() {
            let _ = LARGEST.try_with(|l| l.set(l.get().max(size)));
        }
    });
}

unsafe impl GlobalAlloc for Watching {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(new_size);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Watching = Watching;

/// A small deterministic generator (xorshift64*), so the test needs no dependencies.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn zhajinhua_file() -> Vec<u8> {
    let cells = HANDS * 2;
    let payload = ZhajinhuaPayload {
        rules: "a23 = \"lowest\"".into(),
        categories: [
            "high_card",
            "pair",
            "straight",
            "flush",
            "straight_flush",
            "trips",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect(),
        max_opponents: 2,
        category: (0..HANDS).map(|i| (i % 6) as u8).collect(),
        strength: (0..HANDS).map(|i| i as u16).collect(),
        beats_trips: vec![false; HANDS],
        win: vec![0.25; cells],
        tie: vec![0.01; cells],
        equity: vec![0.255; cells],
        std_error: vec![0.0; cells],
        suit_class: (0..HANDS).map(|i| (i % 4) as u16).collect(),
        caller_loses: false,
        simultaneous_showdown: true,
    };
    Zhajinhua::to_bytes(3, &payload).unwrap()
}

fn blackjack_file() -> Vec<u8> {
    let set = |id: &str| RuleSet {
        id: id.into(),
        rules: "decks = 6".into(),
        conditioned_on_no_blackjack: true,
        max_split_hands: 4,
        house_edge: 0.004,
        basic_strategy_ev: -0.0041,
        evs: (0..blackjack::STARTING_HANDS * blackjack::RANKS * blackjack::ACTIONS)
            .map(|i| {
                if i % 5 == 4 {
                    f64::NAN
                } else {
                    -0.5 + i as f64 * 1e-4
                }
            })
            .collect(),
        chart: (0..blackjack::CHART_ROWS * blackjack::RANKS)
            .map(|i| [(i % 5) as u8, blackjack::NO_ACTION, 0, 1, 2])
            .collect(),
    };
    let payload = BlackjackPayload {
        rules: "[grid]".into(),
        rule_sets: vec![set("6d-s17-das"), set("1d-h17-nodas")],
    };
    Blackjack::to_bytes(5, &payload).unwrap()
}

fn blackjack_indices_file() -> Vec<u8> {
    use cardtables::blackjack_indices::{BlackjackIndicesPayload, IndexPlay, IndexRuleSet, CELLS};
    let counts = 21;
    let set = IndexRuleSet {
        id: "6d-s17-das".into(),
        rules: "decks = 6".into(),
        system: "hi-lo".into(),
        true_count: true,
        low: -10,
        high: 10,
        max_split_hands: 4,
        chart: (0..CELLS)
            .map(|i| [(i % 5) as u8, blackjack::NO_ACTION, 0, 1, 2])
            .collect(),
        chart_plays: (0..CELLS).map(|i| (i % 5) as u8).collect(),
        plays: (0..CELLS * counts).map(|i| (i % 5) as u8).collect(),
        indices: (0..40)
            .map(|i| IndexPlay {
                cell: i * 7,
                play: (i % 5) as u8,
                below: i % 2 == 0,
                index: i32::from(i % 21) - 10,
                gain_per_100: 0.01,
            })
            .collect(),
        insure_from: Some(3),
    };
    let payload = BlackjackIndicesPayload {
        rules: "[count]".into(),
        rule_sets: vec![set],
    };
    BlackjackIndices::to_bytes(9, &payload).unwrap()
}

/// Rewrites the header's length and checksum to match a (mutated) payload.
fn reseal(file: &mut [u8]) {
    let len = (file.len() - HEADER_LEN) as u64;
    file[24..32].copy_from_slice(&len.to_le_bytes());
    let crc = crc32fast::hash(&file[HEADER_LEN..]);
    file[32..36].copy_from_slice(&crc.to_le_bytes());
}

/// A small three-way table: three classes (AA, KK and 72o), every triple of them with
/// equities that sum to 1 and AA AA AA impossible.
fn threeway_file() -> Vec<u8> {
    use cardtables::holdem::HandClass;
    let mut classes: Vec<u8> = ["AA", "KK", "72o"]
        .iter()
        .map(|c| c.class_index().unwrap() as u8)
        .collect();
    classes.sort_unstable();
    let n = cardtables::holdem_threeway::triples(classes.len());
    let deals: Vec<u32> = (0..n as u32)
        .map(|t| if t == 0 { 0 } else { 6 * t })
        .collect();
    let equity = (0..n)
        .flat_map(|t| if t == 0 { [0.0; 3] } else { [0.5, 0.3, 0.2] })
        .collect();
    let payload = ThreeWayPayload {
        rules: "three-way test".into(),
        classes,
        deals,
        equity,
    };
    HoldemThreeWay::to_bytes(9, &payload).unwrap()
}

/// Loads `bytes` as every game's table; returns how many loads succeeded.
fn load_all(bytes: &[u8]) -> usize {
    WATCH.with(|w| w.set(true));
    let ok = usize::from(Zhajinhua::from_bytes(bytes).is_ok())
        + usize::from(Niuniu::from_bytes(bytes).is_ok())
        + usize::from(Blackjack::from_bytes(bytes).is_ok())
        + usize::from(cardtables::HoldemHeadsUp::from_bytes(bytes).is_ok())
        + usize::from(cardtables::Holdem::from_bytes(bytes).is_ok())
        + usize::from(cardtables::Stud::from_bytes(bytes).is_ok())
        + usize::from(cardtables::PushFold::from_bytes(bytes).is_ok())
        + usize::from(BlackjackIndices::from_bytes(bytes).is_ok())
        + usize::from(cardtables::NiuniuBidding::from_bytes(bytes).is_ok())
        + usize::from(cardtables::HoldemStrength::from_bytes(bytes).is_ok())
        + usize::from(HoldemThreeWay::from_bytes(bytes).is_ok())
        + usize::from(PushFold3::from_bytes(bytes).is_ok());
    WATCH.with(|w| w.set(false));
    let largest = LARGEST.with(|l| l.replace(0));
    assert!(
        largest <= bytes.len().max(1024),
        "a {}-byte file made a {largest}-byte allocation",
        bytes.len()
    );
    ok
}

#[test]
fn valid_file_loads() {
    assert_eq!(load_all(&zhajinhua_file()), 1);
    assert_eq!(load_all(&blackjack_file()), 1);
    assert_eq!(load_all(&blackjack_indices_file()), 1);
    assert_eq!(load_all(&threeway_file()), 1);
    assert_eq!(load_all(&pushfold3_file()), 1);
}

/// A small three-handed push/fold table: three classes, a chip-EV and an ICM spot at
/// equal stacks and an ICM spot at unequal ones.
fn pushfold3_file() -> Vec<u8> {
    let classes = vec![0u8, 1, 168];
    let spots = 3;
    let cells = spots * DECISIONS * classes.len();
    let payload = PushFold3Payload {
        rules: "push/fold test".into(),
        ante: 0.0,
        classes,
        payouts: vec![0.5, 0.3, 0.2],
        stacks: vec![10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 15.0, 20.0],
        icm: vec![0, 1, 1],
        frequency: (0..cells).map(|i| (i % 5) as f64 / 4.0).collect(),
        ev_act: (0..cells).map(|i| i as f64 / 10.0).collect(),
        ev_fold: vec![-0.5; cells],
        faced: (0..cells).map(|i| (i % 3) as f64 / 2.0).collect(),
        value: vec![0.1; 3 * spots],
        exploitability: vec![1e-7; spots],
        bb_value: vec![1.0, 1.0 / 30.0, 1.0 / 45.0],
    };
    PushFold3::to_bytes(4, &payload).unwrap()
}

#[test]
fn damaged_pushfold3_tables_never_panic_or_overallocate() {
    let file = pushfold3_file();
    let mut rng = Rng(13);
    for cut in 0..file.len() {
        let mut short = file[..cut].to_vec();
        assert_eq!(load_all(&short), 0, "truncated to {cut}");
        if cut > HEADER_LEN {
            reseal(&mut short);
            assert_eq!(load_all(&short), 0, "resealed at {cut}");
        }
    }
    for _ in 0..1000 {
        let mut bad = file.clone();
        for _ in 0..1 + rng.below(4) {
            let at = HEADER_LEN + rng.below(bad.len() - HEADER_LEN);
            bad[at] ^= 1 << rng.below(8);
        }
        reseal(&mut bad);
        // Whatever loads answers every question, in range or not, without panicking, and
        // its frequencies lie in [0, 1].
        if let Ok(table) = PushFold3::from_bytes(&bad) {
            for stack in [0.0, 5.0, 10.0, 12.0, 15.0, f64::NAN, 1e300] {
                let spots = [
                    table.equal_spot(stack, None),
                    table.equal_spot(stack, Some(&[0.5, 0.3, 0.2])),
                    table.spot([10.0, stack, 20.0], Some(&[0.5, 0.3, 0.2])),
                ];
                for spot in spots.into_iter().flatten().chain([0, 2, 3, usize::MAX]) {
                    for d in Decision::ALL {
                        for class in [0usize, 1, 2, 168, 169, usize::MAX] {
                            if let Ok(p) = table.play(spot, d, class) {
                                assert!((0.0..=1.0).contains(&p.frequency), "{p:?}");
                            }
                        }
                    }
                    let _ = (table.value(spot), table.exploitability(spot));
                }
            }
        }
        load_all(&bad);
    }
}

#[test]
fn damaged_threeway_tables_never_panic_or_overallocate() {
    let file = threeway_file();
    let mut rng = Rng(11);
    for cut in 0..file.len() {
        let mut short = file[..cut].to_vec();
        assert_eq!(load_all(&short), 0, "truncated to {cut}");
        if cut > HEADER_LEN {
            reseal(&mut short);
            assert_eq!(load_all(&short), 0, "resealed at {cut}");
        }
    }
    for _ in 0..1000 {
        let mut bad = file.clone();
        for _ in 0..1 + rng.below(4) {
            let at = HEADER_LEN + rng.below(bad.len() - HEADER_LEN);
            bad[at] ^= 1 << rng.below(8);
        }
        reseal(&mut bad);
        // Whatever loads must answer every question, in range or not, without panicking,
        // and give equities that lie in [0, 1] and sum to 1.
        if let Ok(table) = HoldemThreeWay::from_bytes(&bad) {
            for a in [0usize, 1, 12, 90, 168, 169, 1000] {
                for (b, c) in [(0usize, 0usize), (12, 168), (168, 1), (169, 0)] {
                    if let Ok(r) = table.equity(a, b, c) {
                        let sum = r.equity_a + r.equity_b + r.equity_c;
                        assert!((sum - 1.0).abs() < 1e-9, "{a} {b} {c}: {r:?}");
                    }
                }
            }
        }
        load_all(&bad);
    }
}

#[test]
fn damaged_count_index_tables_never_panic_or_overallocate() {
    let file = blackjack_indices_file();
    let mut rng = Rng(5);
    for cut in (0..200).map(|_| rng.below(file.len())) {
        let mut short = file[..cut].to_vec();
        assert_eq!(load_all(&short), 0, "truncated to {cut}");
        if cut > HEADER_LEN {
            reseal(&mut short);
            assert_eq!(load_all(&short), 0, "resealed at {cut}");
        }
    }
    for _ in 0..400 {
        let mut bad = file.clone();
        for _ in 0..1 + rng.below(4) {
            let at = HEADER_LEN + rng.below(bad.len() - HEADER_LEN);
            bad[at] ^= 1 << rng.below(8);
        }
        reseal(&mut bad);
        // Whatever loads must answer every question without panicking.
        if let Ok(table) = BlackjackIndices::from_bytes(&bad) {
            for up in 0..13 {
                for count in [-1000, -11, -10, 0, 3, 10, 11, 1000] {
                    let _ = table.best_action_at_count(0, &[6, 6], up, count);
                    let _ = table.best_action_at_count(0, &[8, 4], up, count);
                    let _ = table.best_action_at_count(0, &[8, 1, 0], up, count);
                    let _ = table.insure(0, count);
                }
            }
        }
        load_all(&bad);
    }
}

#[test]
fn damaged_blackjack_tables_never_panic_or_overallocate() {
    let file = blackjack_file();
    let mut rng = Rng(3);
    for cut in (0..200).map(|_| rng.below(file.len())) {
        let mut short = file[..cut].to_vec();
        assert_eq!(load_all(&short), 0, "truncated to {cut}");
        if cut > HEADER_LEN {
            reseal(&mut short);
            assert_eq!(load_all(&short), 0, "resealed at {cut}");
        }
    }
    for round in 0..400 {
        let mut bad = file.clone();
        for _ in 0..1 + rng.below(4) {
            let at = if round % 2 == 0 {
                HEADER_LEN + rng.below(256)
            } else {
                rng.below(bad.len())
            };
            bad[at] ^= 1 << rng.below(8);
        }
        reseal(&mut bad);
        // Whatever loads must answer without panicking.
        if let Ok(table) = Blackjack::from_bytes(&bad) {
            for set in 0..table.rule_sets().len() {
                for up in 0..13 {
                    let _ = table.best_action(set, &[6, 6], up);
                    let _ = table.best_action(set, &[8, 1, 0], up);
                }
            }
        }
        load_all(&bad);
    }
    // A forged rule-set count right after the rules string.
    let mut forged = file.clone();
    let at = HEADER_LEN + 8 + "[grid]".len();
    forged[at..at + 8].copy_from_slice(&u64::MAX.to_le_bytes());
    reseal(&mut forged);
    assert_eq!(load_all(&forged), 0);
}

#[test]
fn truncations_are_errors() {
    let file = zhajinhua_file();
    let mut rng = Rng(1);
    let mut cuts: Vec<usize> = (0..=HEADER_LEN + 64).collect();
    cuts.extend((0..200).map(|_| rng.below(file.len())));
    for cut in cuts {
        assert_eq!(load_all(&file[..cut]), 0, "truncated to {cut}");
        // Truncated and resealed: the header agrees, the payload is short.
        if cut > HEADER_LEN {
            let mut short = file[..cut].to_vec();
            reseal(&mut short);
            assert_eq!(load_all(&short), 0, "resealed at {cut}");
        }
    }
}

#[test]
fn flipped_bytes_never_panic() {
    let file = zhajinhua_file();
    let mut rng = Rng(2);
    for round in 0..400 {
        let mut bad = file.clone();
        let flips = 1 + rng.below(4);
        for _ in 0..flips {
            // Bias toward the structure: the header and the first length prefixes.
            let at = if round % 2 == 0 {
                rng.below(HEADER_LEN + 256)
            } else {
                rng.below(bad.len())
            };
            bad[at] ^= 1 << rng.below(8);
        }
        // Unsealed: the header or the checksum must catch it. The one header field no
        // reader can check is `rules_hash` (bytes 16..24, an identifier): a file that
        // differs from the good one only there, or not at all (two flips cancelled),
        // still loads, as exactly one game's table; any other change loads as nothing.
        let unchecked_only = bad
            .iter()
            .zip(&file)
            .enumerate()
            .all(|(i, (x, y))| x == y || (16..24).contains(&i));
        assert_eq!(load_all(&bad), usize::from(unchecked_only), "round {round}");
        // Resealed: only the decoder and the validation stand in the way; whatever loads
        // must answer without panicking.
        reseal(&mut bad);
        load_all(&bad);
        if let Ok(table) = Zhajinhua::from_bytes(&bad) {
            let hand = cardtables::parse_cards("Ks Kh Qd").unwrap();
            for share in [0.01, 0.37, 1.0] {
                let _ = table.range_equity(&hand, 2, share);
                let _ = table.win_rate(&hand, 1);
            }
        }
    }
}

#[test]
fn forged_length_prefixes_are_refused_without_allocating() {
    let file = zhajinhua_file();
    // The payload starts with the rules string's u64 length; forge it and every later
    // length we can find at the start of the payload.
    for (offset, value) in [
        (0usize, u64::MAX),
        (0, 1 << 40),
        (0, (file.len() - HEADER_LEN) as u64),
        (8 + 14, u64::MAX / 2), // the categories vector's length
        (8 + 14, 1 << 33),
    ] {
        let mut bad = file.clone();
        let at = HEADER_LEN + offset;
        bad[at..at + 8].copy_from_slice(&value.to_le_bytes());
        reseal(&mut bad);
        assert_eq!(
            load_all(&bad),
            0,
            "length {value} at payload offset {offset}"
        );
    }
    // A tiny file that claims a huge payload.
    let mut tiny = format::write_table(Game::Niuniu, 0, &0u8).unwrap();
    tiny[24..32].copy_from_slice(&u64::MAX.to_le_bytes());
    assert_eq!(load_all(&tiny), 0);
}

#[test]
fn wrong_game_version_and_magic_are_named() {
    let file = zhajinhua_file();
    assert!(Niuniu::from_bytes(&file)
        .unwrap_err()
        .to_string()
        .contains("this is a zhajinhua table, expected a niuniu table"));
    let mut v = file.clone();
    v[8] = 7;
    assert!(Zhajinhua::from_bytes(&v)
        .unwrap_err()
        .to_string()
        .contains("format version 7"));
    let mut m = file.clone();
    m[..4].copy_from_slice(b"PAR1");
    assert!(Zhajinhua::from_bytes(&m)
        .unwrap_err()
        .to_string()
        .contains("magic"));
    let mut g = file;
    g[10] = 99;
    assert!(Zhajinhua::from_bytes(&g)
        .unwrap_err()
        .to_string()
        .contains("unknown game code 99"));
}

#[test]
fn regression_corpus_is_refused() {
    // Small hand-made hostile files (tests/corpus/): forged lengths behind valid headers
    // and checksums, bad headers, trailing bytes. Each must fail to load as any game.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(load_all(&bytes), 0, "{} loaded", path.display());
        let err = Zhajinhua::from_bytes(&bytes).unwrap_err().to_string();
        assert!(!err.is_empty());
        seen += 1;
    }
    assert!(seen >= 14, "corpus has {seen} files");
}

#[test]
fn files_are_read_no_further_than_their_header_declares() {
    let dir = std::env::temp_dir().join(format!("cardtables-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A valid header that declares an absurd payload: refused before reading on.
    let mut forged = zhajinhua_file();
    forged[24..32].copy_from_slice(&u64::MAX.to_le_bytes());
    let path = dir.join("forged.bin");
    std::fs::write(&path, &forged).unwrap();
    assert!(matches!(
        format::read_file(&path),
        Err(cardtables::TableError::TooLarge { .. })
    ));
    // A good file reads whole and loads; the same file with bytes appended is caught.
    let good = zhajinhua_file();
    std::fs::write(&path, &good).unwrap();
    assert_eq!(format::read_file(&path).unwrap(), good);
    assert!(Zhajinhua::open(&path).is_ok());
    let mut longer = good.clone();
    longer.extend_from_slice(&[0; 100]);
    std::fs::write(&path, &longer).unwrap();
    assert!(Zhajinhua::open(&path).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
    // An endless special file, and a folder: refused before anything is read (a named
    // pipe would block a read until a writer came).
    #[cfg(unix)]
    assert!(matches!(
        Zhajinhua::open("/dev/zero"),
        Err(cardtables::TableError::NotAFile { .. })
    ));
    assert!(matches!(
        Zhajinhua::open(std::env::temp_dir()),
        Err(cardtables::TableError::NotAFile { .. })
    ));
}
