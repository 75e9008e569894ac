//! `pipeline inspect`: what a Parquet file or a runtime table file holds.

use std::io::Read;
use std::path::Path;

use anyhow::{bail, Context};
use parquet::file::reader::{FileReader, SerializedFileReader};

pub fn inspect(path: &Path) -> anyhow::Result<()> {
    let kind =
        std::fs::metadata(path).with_context(|| format!("cannot open {}", path.display()))?;
    if !kind.is_file() {
        bail!(
            "{} is not a regular file (a folder, pipe or device): inspect reads Parquet and table files",
            path.display()
        );
    }
    let mut magic = [0u8; 8];
    let mut file =
        std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let n = file.read(&mut magic)?;
    if n >= 4 && &magic[..4] == b"PAR1" {
        inspect_parquet(path)
    } else if n == 8 && magic == cardtables::format::MAGIC {
        inspect_table(path)
    } else {
        bail!(
            "{} is neither a Parquet file nor a cardtables table file",
            path.display()
        )
    }
}

fn inspect_parquet(path: &Path) -> anyhow::Result<()> {
    let file = std::fs::File::open(path)?;
    let reader = SerializedFileReader::new(file)
        .with_context(|| format!("{} is not a readable Parquet file", path.display()))?;
    let meta = reader.metadata().file_metadata();
    println!("file:        {}", path.display());
    println!("format:      Parquet (version {})", meta.version());
    println!("rows:        {}", meta.num_rows());
    println!("row groups:  {}", reader.num_row_groups());
    if let Some(by) = meta.created_by() {
        println!("created by:  {by}");
    }
    println!("columns:");
    let arrow_schema = arrow_schema(meta)?;
    for field in arrow_schema.fields() {
        println!(
            "  {:<22} {}{}",
            field.name(),
            field.data_type(),
            if field.is_nullable() {
                " (nullable)"
            } else {
                ""
            }
        );
    }
    if let Some(kv) = meta.key_value_metadata() {
        println!("metadata:");
        for entry in kv.iter().filter(|e| e.key != "ARROW:schema") {
            let value = entry.value.as_deref().unwrap_or("");
            if value.contains('\n') {
                println!("  {}:", entry.key);
                for line in value.lines() {
                    println!("    {line}");
                }
            } else {
                println!("  {}: {value}", entry.key);
            }
        }
    }
    Ok(())
}

/// The file's Arrow schema: from its embedded `ARROW:schema` (which keeps dictionary
/// types) where that decodes, else from the Parquet schema alone. The embedded schema is
/// an IPC message that arrow-ipc decodes with panics on some damaged inputs, so a damaged
/// one is caught here and reported instead of crashing `inspect`.
fn arrow_schema(
    meta: &parquet::file::metadata::FileMetaData,
) -> anyhow::Result<arrow_schema::Schema> {
    let embedded = {
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let decoded = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            parquet::arrow::parquet_to_arrow_schema(meta.schema_descr(), meta.key_value_metadata())
        }));
        std::panic::set_hook(hook);
        decoded
    };
    match embedded {
        Ok(Ok(schema)) => Ok(schema),
        Ok(Err(_)) | Err(_) => {
            println!("note:        the embedded Arrow schema is damaged; column types below are the Parquet schema's");
            Ok(parquet::arrow::parquet_to_arrow_schema(
                meta.schema_descr(),
                None,
            )?)
        }
    }
}

fn inspect_table(path: &Path) -> anyhow::Result<()> {
    use cardtables::format::{self, TableError};
    // Bounded by the header's declared length: a hostile file costs a bounded read.
    let bytes = format::read_file(path)
        .with_context(|| format!("{} is not a valid table", path.display()))?;
    let header = match format::read_header(&bytes) {
        Ok((header, _)) => header,
        Err(e @ TableError::ChecksumMismatch { .. }) => {
            return Err(e).with_context(|| format!("{} is corrupt", path.display()))
        }
        Err(e) => {
            return Err(e).with_context(|| format!("{} is not a valid table", path.display()))
        }
    };
    // The whole payload is decoded and validated as the runtime would load it, before
    // anything is printed: a table that an app could not open is refused here too.
    let contents = contents(header.game, &bytes).with_context(|| {
        format!(
            "{} is not a valid {} table",
            path.display(),
            header.game.name()
        )
    })?;
    println!("file:        {}", path.display());
    println!("format:      cardtables table");
    println!("version:     {}", header.format_version);
    println!("game:        {}", header.game.name());
    println!("rules hash:  {:016x}", header.rules_hash);
    println!("payload:     {} bytes", header.payload_len);
    println!("checksum:    ok (crc32 {:08x})", header.payload_crc32);
    for (label, value) in contents.facts {
        println!("{:<13}{}", format!("{label}:"), printable(&value));
    }
    if let Some(rules) = contents.rules {
        println!("rules:");
        for line in rules.split('\n') {
            println!("  {}", printable(line));
        }
    }
    Ok(())
}

/// Text from a table file as it may reach a terminal: every control character (escape
/// sequences, carriage returns, a newline inside a value) written as a Rust escape, so
/// that an untrusted file cannot move the cursor, recolour or forge a line.
fn printable(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// What a decoded table holds, for display.
struct Contents {
    facts: Vec<(&'static str, String)>,
    rules: Option<String>,
}

/// Decodes a table of `game` completely and says what it holds.
fn contents(game: cardtables::format::Game, bytes: &[u8]) -> anyhow::Result<Contents> {
    use cardtables::format::Game;
    let (facts, rules) = match game {
        Game::Niuniu => {
            let table = cardtables::Niuniu::from_bytes(bytes)?;
            let categories = table
                .categories()
                .iter()
                .map(|c| format!("{} ×{}", c.name, c.multiplier))
                .collect::<Vec<_>>()
                .join(", ");
            (
                vec![
                    ("hands", cardtables::niuniu::HANDS.to_string()),
                    (
                        "entries",
                        format!(
                            "{} (rank multisets × tie-break suits)",
                            cardtables::niuniu::SLOTS
                        ),
                    ),
                    ("categories", categories),
                ],
                Some(table.rules().to_string()),
            )
        }
        Game::NiuniuBidding => {
            let table = cardtables::NiuniuBidding::from_bytes(bytes)?;
            let bids = table
                .bids()
                .iter()
                .map(|b| format!("×{b}"))
                .collect::<Vec<_>>();
            (
                vec![
                    (
                        "four-card hands",
                        cardtables::niuniu_bidding::FOUR_HANDS.to_string(),
                    ),
                    ("players", table.players().to_string()),
                    ("bids", bids.join(", ")),
                    ("categories", table.categories().len().to_string()),
                ],
                Some(table.rules().to_string()),
            )
        }
        Game::Zhajinhua => {
            let table = cardtables::Zhajinhua::from_bytes(bytes)?;
            (
                vec![
                    ("hands", cardtables::zhajinhua::HANDS.to_string()),
                    ("opponents", format!("1..={}", table.max_opponents())),
                ],
                Some(table.rules().to_string()),
            )
        }
        Game::Holdem => {
            let table = cardtables::Holdem::from_bytes(bytes)?;
            (
                vec![("opponents", format!("1..={}", table.max_opponents()))],
                Some(table.rules().to_string()),
            )
        }
        Game::HoldemHeadsUp => {
            let table = cardtables::HoldemHeadsUp::from_bytes(bytes)?;
            (
                vec![("matchups", table.matchups().to_string())],
                Some(table.rules().to_string()),
            )
        }
        Game::HoldemPushFold => {
            let table = cardtables::PushFold::from_bytes(bytes)?;
            let stacks = table.stacks();
            (
                vec![
                    (
                        "stacks",
                        format!(
                            "{} ({} to {} bb)",
                            stacks.len(),
                            stacks[0],
                            stacks[stacks.len() - 1]
                        ),
                    ),
                    ("ante", format!("{} bb", table.ante())),
                ],
                Some(table.rules().to_string()),
            )
        }
        Game::Stud => {
            let table = cardtables::Stud::from_bytes(bytes)?;
            let decks = table.decks().iter().map(u8::to_string).collect::<Vec<_>>();
            (
                vec![("decks", decks.join(", "))],
                Some(table.rules().to_string()),
            )
        }
        Game::Blackjack => {
            let table = cardtables::Blackjack::from_bytes(bytes)?;
            const SHOWN: usize = 10;
            let sets = table.rule_sets();
            let mut ids = sets
                .iter()
                .take(SHOWN)
                .map(|r| r.id.as_str())
                .collect::<Vec<_>>()
                .join(", ");
            if sets.len() > SHOWN {
                ids += &format!(" … ({} more)", sets.len() - SHOWN);
            }
            (
                vec![("rule sets", sets.len().to_string()), ("ids", ids)],
                None,
            )
        }
        Game::BlackjackIndices => {
            let table = cardtables::BlackjackIndices::from_bytes(bytes)?;
            let sets = table.rule_sets();
            let first = &sets[0];
            (
                vec![
                    ("rule sets", sets.len().to_string()),
                    (
                        "ids",
                        sets.iter()
                            .map(|r| r.id.as_str())
                            .collect::<Vec<_>>()
                            .join(", "),
                    ),
                    (
                        "count",
                        format!(
                            "{} ({}), {} to {}",
                            first.system,
                            if first.true_count {
                                "true count"
                            } else {
                                "running count"
                            },
                            first.low,
                            first.high
                        ),
                    ),
                    (
                        "index plays",
                        sets.iter()
                            .map(|r| r.indices.len())
                            .sum::<usize>()
                            .to_string(),
                    ),
                ],
                Some(table.rules().to_string()),
            )
        }
        Game::HoldemStrength => {
            let table = cardtables::HoldemStrength::from_bytes(bytes)?;
            let street = table.street();
            (
                vec![
                    (
                        "street",
                        cardtables::holdem_strength::STREET_NAMES[street].to_string(),
                    ),
                    ("states", cardtables::indexer::STATES[street].to_string()),
                    ("bins", table.bins().to_string()),
                ],
                Some(table.rules().to_string()),
            )
        }
        Game::HoldemThreeWay => {
            let table = cardtables::HoldemThreeWay::from_bytes(bytes)?;
            (
                vec![
                    ("classes", table.classes().len().to_string()),
                    ("triples", table.triples().to_string()),
                ],
                Some(table.rules().to_string()),
            )
        }
        Game::HoldemPushFold3 => {
            let table = cardtables::PushFold3::from_bytes(bytes)?;
            let icm = (0..table.spots())
                .filter(|&s| table.spot_stakes(s).is_some_and(|(_, icm)| icm))
                .count();
            (
                vec![
                    ("classes", table.classes().len().to_string()),
                    (
                        "spots",
                        format!(
                            "{} ({} chip EV, {icm} ICM)",
                            table.spots(),
                            table.spots() - icm
                        ),
                    ),
                    ("ante", format!("{} bb", table.ante())),
                    ("payouts", format!("{:?}", table.payouts())),
                ],
                Some(table.rules().to_string()),
            )
        }
        Game::Pipeline => (
            vec![("holds", "a pipeline checkpoint or shard part".to_string())],
            None,
        ),
    };
    Ok(Contents { facts, rules })
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::{ArrayRef, Int32Array, RecordBatch, StringArray};
    use parquet::arrow::ArrowWriter;
    use std::sync::Arc;

    /// A Parquet file as the pipeline writes them: with its Arrow schema embedded.
    fn parquet_bytes() -> Vec<u8> {
        let batch = RecordBatch::try_from_iter([
            ("n", Arc::new(Int32Array::from(vec![1, 2, 3])) as ArrayRef),
            (
                "s",
                Arc::new(StringArray::from(vec!["a", "b", "c"])) as ArrayRef,
            ),
        ])
        .unwrap();
        let mut bytes = Vec::new();
        let mut writer = ArrowWriter::try_new(&mut bytes, batch.schema(), None).unwrap();
        writer.write(&batch).unwrap();
        writer.close().unwrap();
        bytes
    }

    #[test]
    fn control_characters_from_a_table_never_reach_the_terminal() {
        let shown = printable("a23 = \"lowest\"\u{1b}[2J\r\u{7}x\ty\u{9b}");
        assert!(!shown.chars().any(char::is_control), "{shown:?}");
        assert_eq!(shown, "a23 = \"lowest\"\\u{1b}[2J\\r\\u{7}x\\ty\\u{9b}");
        assert_eq!(printable("ties = \"split\""), "ties = \"split\"");
    }

    #[test]
    fn every_damaged_character_of_the_embedded_arrow_schema_is_survived() {
        let good = parquet_bytes();
        let key = b"ARROW:schema";
        let at = good
            .windows(key.len())
            .position(|w| w == key)
            .expect("the Arrow schema is embedded");
        // The base64 value follows its key in the footer, up to the file's end marker.
        let start = at + key.len();
        let end = good.len() - 8;
        let base64 = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("damaged.parquet");
        let mut tried = 0;
        for i in start..end {
            if !base64.contains(&good[i]) {
                continue;
            }
            for replacement in [b'A', b'/', b'z'] {
                let mut bad = good.clone();
                bad[i] = replacement;
                std::fs::write(&path, &bad).unwrap();
                let file = std::fs::File::open(&path).unwrap();
                let Ok(reader) = SerializedFileReader::new(file) else {
                    continue;
                };
                // Never a panic: the schema comes back, from one source or the other.
                let schema = arrow_schema(reader.metadata().file_metadata()).unwrap();
                assert_eq!(schema.fields().len(), 2);
                tried += 1;
            }
        }
        assert!(tried > 100, "only {tried} damaged files were read");
    }
}
