//! `pipeline inspect`: what a Parquet file or a runtime table file holds.

use std::io::Read;
use std::path::Path;

use anyhow::{bail, Context};
use parquet::file::reader::{FileReader, SerializedFileReader};

pub fn inspect(path: &Path) -> anyhow::Result<()> {
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
    let arrow_schema = parquet::arrow::parquet_to_arrow_schema(meta.schema_descr(), None)?;
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

fn inspect_table(path: &Path) -> anyhow::Result<()> {
    use cardtables::format::{self, Game, TableError};
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    println!("file:        {}", path.display());
    println!("format:      cardtables table");
    match format::read_header(&bytes) {
        Ok((header, _)) => {
            println!("version:     {}", header.format_version);
            println!("game:        {}", header.game.name());
            println!("rules hash:  {:016x}", header.rules_hash);
            println!("payload:     {} bytes", header.payload_len);
            println!("checksum:    ok (crc32 {:08x})", header.payload_crc32);
            if header.game == Game::Zhajinhua {
                let table = cardtables::Zhajinhua::from_bytes(&bytes)?;
                println!("hands:       {}", cardtables::zhajinhua::HANDS);
                println!("opponents:   1..={}", table.max_opponents());
                println!("rules:");
                for line in table.rules().lines() {
                    println!("  {line}");
                }
            }
            if header.game == Game::Niuniu {
                let table = cardtables::Niuniu::from_bytes(&bytes)?;
                println!("hands:       {}", cardtables::niuniu::HANDS);
                println!(
                    "categories:  {}",
                    table
                        .categories()
                        .iter()
                        .map(|c| format!("{} ×{}", c.name, c.multiplier))
                        .collect::<Vec<_>>()
                        .join(", ")
                );
                println!("rules:");
                for line in table.rules().lines() {
                    println!("  {line}");
                }
            }
            Ok(())
        }
        Err(e @ TableError::ChecksumMismatch { .. }) => {
            println!("checksum:    MISMATCH");
            Err(e).with_context(|| format!("{} is corrupt", path.display()))
        }
        Err(e) => Err(e).with_context(|| format!("{} is not a valid table", path.display())),
    }
}
