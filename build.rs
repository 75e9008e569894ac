//! Writes the 7-card evaluator's tables (about 573 KB) into the build, so that a run
//! reads them from the binary instead of spending milliseconds building them; see
//! `src/games/holdem/eval/gen.rs`, whose tests check them against the 5-card evaluator.

#[path = "src/games/holdem/eval/gen.rs"]
mod gen;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/games/holdem/eval/gen.rs");
    let words = gen::words(gen::five_card_key);
    // In the target's byte order, so the binary reads the words in place.
    let big = std::env::var("CARGO_CFG_TARGET_ENDIAN").is_ok_and(|e| e == "big");
    let bytes: Vec<u8> = words
        .iter()
        .flat_map(|w| {
            if big {
                w.to_be_bytes()
            } else {
                w.to_le_bytes()
            }
        })
        .collect();
    let out = std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR for build scripts");
    let path = std::path::Path::new(&out).join("holdem_eval_words.bin");
    std::fs::write(&path, bytes).expect("write the evaluator's tables into OUT_DIR");
}
