//! What each subcommand does, given parsed arguments. Output goes to stdout; errors are
//! returned for `main` to print.

use std::io::Read;
use std::path::Path;

use anyhow::{bail, Context};
use parquet::file::reader::{FileReader, SerializedFileReader};

use crate::cli::{Cli, Command, QueryGame};
use crate::engine::{self, MergeConfig, RunConfig, RunSummary};
use crate::job::{job_files, JobSpec};

/// Runs one parsed command line.
pub fn execute(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Run {
            job,
            out,
            threads,
            quiet,
            shard,
            resume,
        } => {
            let summary = engine::run(&RunConfig {
                job,
                out,
                threads,
                quiet,
                shard,
                resume,
            })?;
            print_summary(&summary, quiet);
            Ok(())
        }
        Command::Merge {
            parts,
            out,
            threads,
            quiet,
        } => {
            let summary = engine::merge(&MergeConfig {
                parts,
                out,
                threads,
                quiet,
            })?;
            print_summary(&summary, quiet);
            Ok(())
        }
        Command::List { jobs } => list(&jobs),
        Command::Inspect { file } => inspect(&file),
        Command::Query { game } => match game {
            QueryGame::Niuniu { hand, table } => query_niuniu(&hand, &table),
        },
    }
}

fn print_summary(summary: &RunSummary, quiet: bool) {
    if quiet {
        return;
    }
    eprintln!(
        "{}: {} units computed{}, {:.2} s wall, {:.2} s CPU on {} threads",
        summary.job,
        summary.units_run,
        if summary.units_resumed > 0 {
            format!(", {} taken from earlier work", summary.units_resumed)
        } else {
            String::new()
        },
        summary.wall_seconds,
        summary.cpu_seconds,
        summary.threads
    );
    for file in &summary.files {
        println!("{}", file.display());
    }
}

fn list(dir: &Path) -> anyhow::Result<()> {
    let files =
        job_files(dir).with_context(|| format!("cannot list job folder {}", dir.display()))?;
    if files.is_empty() {
        bail!("{} holds no .toml job files", dir.display());
    }
    let specs: Vec<(String, Result<JobSpec, String>)> = files
        .iter()
        .map(|f| {
            (
                f.display().to_string(),
                JobSpec::load(f).map_err(|e| e.to_string()),
            )
        })
        .collect();
    let width = specs.iter().map(|(f, _)| f.len()).max().unwrap_or(0);
    for (file, spec) in specs {
        match spec {
            Ok(s) => println!("{file:width$}  {:<16} {}", s.kind, s.description),
            Err(e) => println!("{file:width$}  (invalid) {e}"),
        }
    }
    Ok(())
}

fn inspect(path: &Path) -> anyhow::Result<()> {
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

fn query_niuniu(hand: &str, table_path: &Path) -> anyhow::Result<()> {
    let cards = cardtables::card::parse_exact(hand, 5)
        .with_context(|| format!("cannot read the hand {hand:?}"))?;
    let table = cardtables::Niuniu::open(table_path).with_context(|| {
        format!(
            "cannot load {} (run `pipeline run jobs/niuniu.toml` first, or pass --table)",
            table_path.display()
        )
    })?;
    let answer = table.lookup(&cards)?;
    let shown: Vec<String> = cards.iter().map(|c| c.to_string()).collect();
    println!("hand:            {}", shown.join(" "));
    println!("hand index:      {}", answer.index);
    println!(
        "category:        {} (rank {})",
        answer.category, answer.category_rank
    );
    println!("multiplier:      {}", answer.multiplier);
    println!("strength:        {}", answer.strength);
    println!(
        "win probability: {:.6} ({} of {} opponent hands)",
        answer.win_probability,
        answer.wins,
        cardtables::niuniu::OPPONENT_HANDS
    );
    Ok(())
}
