//! What each subcommand does, given parsed arguments. Output goes to stdout; errors are
//! returned for `main` to print.

use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use parquet::file::reader::{FileReader, SerializedFileReader};

use crate::cli::{Cli, Command, HoldemQuestion, QueryGame, ZhajinhuaQuestion};
use crate::engine::{self, MergeConfig, RunConfig, RunSummary};
use crate::job::{job_files, JobSpec};

/// A command-line value that is out of range (exit code 2, like a bad job file).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct UsageError(pub String);

/// Runs one parsed command line.
pub fn execute(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Run {
            job,
            out,
            threads,
            quiet,
            shard,
            shards,
            resume,
        } => {
            let shard = match shard {
                Some(s) => Some(s),
                None => match engine::Shard::from_env(|k| std::env::var(k).ok(), shards)
                    .map_err(UsageError)?
                {
                    Some((s, source)) => {
                        if !quiet {
                            eprintln!("shard {}/{} from {source}", s.index, s.count);
                        }
                        Some(s)
                    }
                    None => None,
                },
            };
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
            QueryGame::Blackjack {
                hand,
                upcard,
                rules,
                table,
            } => query_blackjack(&hand, &upcard, rules.as_deref(), table.as_deref()),
            QueryGame::Holdem(q) => query_holdem(&q),
            QueryGame::Stud {
                mine,
                theirs,
                seen,
                to_come,
                pot,
                call,
                implied,
                deck,
                flush_beats_full_house,
                no_ace_low_straight,
            } => query_stud(&StudQuestion {
                mine,
                theirs,
                seen,
                to_come,
                pot,
                call,
                implied,
                rules: crate::games::stud::rules::StudRules {
                    deck,
                    flush_beats_full_house,
                    ace_low_straight: !no_ace_low_straight,
                },
            }),
            QueryGame::Zhajinhua(q) => query_zhajinhua(&q),
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

/// Answers `pipeline query zhajinhua`.
fn query_zhajinhua(q: &ZhajinhuaQuestion) -> anyhow::Result<()> {
    use cardtables::decision::{
        ev_call, ev_compare, ev_raise, ev_raise_seed, half_kelly, kelly, required_equity, EV_FOLD,
    };
    let usage = |m: String| anyhow::Error::new(UsageError(m));
    if !(q.pot.is_finite() && q.pot > 0.0) {
        return Err(usage(format!("--pot {} must be a positive amount", q.pot)));
    }
    if !(q.call.is_finite() && q.call >= 0.0) {
        return Err(usage(format!("--call {} must be zero or more", q.call)));
    }
    if !(0.0..=1.0).contains(&q.fold) {
        return Err(usage(format!(
            "--fold {} must be a probability in [0, 1]",
            q.fold
        )));
    }
    let raises = if q.raises.is_empty() {
        vec![2.0 * q.call.max(1.0), 3.0 * q.call.max(1.0), q.call + q.pot]
    } else {
        q.raises.clone()
    };
    if let Some(r) = raises.iter().find(|r| !(r.is_finite() && **r >= q.call)) {
        return Err(usage(format!(
            "--raise {r} must be at least the call ({})",
            q.call
        )));
    }
    let cost = q.compare.unwrap_or(q.call);
    if !(cost.is_finite() && cost >= 0.0) {
        return Err(usage(format!("--compare {cost} must be zero or more")));
    }
    let cards = cardtables::card::parse_exact(&q.hand, 3)
        .with_context(|| format!("cannot read the hand {:?}", q.hand))?;
    let table = cardtables::Zhajinhua::open(&q.table).with_context(|| {
        format!(
            "cannot load {} (run `pipeline run jobs/zhajinhua.toml` first, or pass --table)",
            q.table.display()
        )
    })?;
    let answer = match table.win_rate(&cards, q.opponents) {
        Ok(a) => a,
        Err(cardtables::zhajinhua::QueryError::Cards(e)) => return Err(e.into()),
        Err(e) => return Err(usage(e.to_string())),
    };
    let heads_up = table
        .win_rate(&cards, 1)
        .map_err(|e| usage(e.to_string()))?;
    let w = answer.equity;
    let shown: Vec<String> = cards.iter().map(|c| c.to_string()).collect();
    println!(
        "hand:        {} ({}, strength {})",
        shown.join(" "),
        answer.category,
        answer.strength
    );
    println!("opponents:   {}", answer.opponents);
    println!(
        "win / tie / loss: {:.6} / {:.6} / {:.6}{}",
        answer.win,
        answer.tie,
        answer.loss,
        method_note(answer.std_error)
    );
    println!("equity:      {w:.6}");
    println!(
        "pot {} · call {} · needs equity {:.4} to call",
        q.pot,
        q.call,
        required_equity(q.pot, q.call)
    );
    let mut actions: Vec<(String, f64)> = vec![
        ("fold".to_string(), EV_FOLD),
        (format!("call {}", q.call), ev_call(w, q.pot, q.call)),
    ];
    for &r in &raises {
        actions.push((
            format!("raise to {r} (fold {:.0}%)", 100.0 * q.fold),
            ev_raise(w, q.pot, q.call, r, q.fold),
        ));
    }
    actions.push((
        format!("compare, cost {cost} (heads-up win {:.4})", heads_up.win),
        ev_compare(heads_up.equity, q.pot, cost),
    ));
    println!("EV of each action (chips):");
    for (name, ev) in &actions {
        println!("  {name:<44} {ev:+.3}");
    }
    let best = actions
        .iter()
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .expect("fold is always an action");
    println!("best:        {} ({:+.3})", best.0, best.1);
    for &r in &raises {
        println!(
            "  (seed's raise formula for {r} would say {:+.3}: it forgets the opponent's call)",
            ev_raise_seed(w, q.pot, r, q.fold)
        );
    }
    if q.call > 0.0 {
        let odds = q.pot / q.call;
        println!(
            "Kelly fraction for this call at odds {odds:.2}:1: {:.4} (half-Kelly {:.4})",
            kelly(odds, w),
            half_kelly(odds, w)
        );
    }
    Ok(())
}

/// The arguments of `pipeline query stud`.
struct StudQuestion {
    mine: String,
    theirs: String,
    seen: String,
    to_come: Option<usize>,
    pot: f64,
    call: f64,
    implied: f64,
    rules: crate::games::stud::rules::StudRules,
}

fn query_stud(q: &StudQuestion) -> anyhow::Result<()> {
    use crate::games::stud::outs::{analyse, Situation};
    use cardtables::decision::{break_even_outs, ev_call_implied, hit_probability};
    let usage = |m: String| anyhow::Error::new(UsageError(m));
    if ![52, 32, 28].contains(&q.rules.deck) {
        return Err(usage(format!(
            "--deck {} is not 52, 32 or 28",
            q.rules.deck
        )));
    }
    for (name, v) in [
        ("--pot", q.pot),
        ("--call", q.call),
        ("--implied", q.implied),
    ] {
        if !(v.is_finite() && v >= 0.0) {
            return Err(usage(format!("{name} {v} must be zero or more")));
        }
    }
    let read = |what: &str, text: &str| {
        cardtables::parse_cards(text).with_context(|| format!("cannot read {what} {text:?}"))
    };
    let situation = Situation {
        mine: read("--mine", &q.mine)?,
        theirs: read("--theirs", &q.theirs)?,
        seen: read("--seen", &q.seen)?,
        rules: q.rules,
    };
    if let Some(k) = q.to_come {
        if situation.mine.len() + k != 5 {
            return Err(usage(format!(
                "--to-come {k} with {} cards in hand does not make a five-card hand",
                situation.mine.len()
            )));
        }
    }
    let a = analyse(&situation).map_err(|e| usage(e.to_string()))?;
    let show = |cards: &[cardtables::Card]| {
        cards
            .iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    println!(
        "mine: {} (+{} to come) · theirs: {} (+{} to come) · {} unseen in the {}-card deck",
        show(&situation.mine),
        a.my_draws,
        show(&situation.theirs),
        a.their_draws,
        a.unseen,
        q.rules.deck
    );
    println!(
        "exact over {} deals: win {:.4}, tie {:.4}, lose {:.4}",
        a.deals,
        a.win(),
        a.tie(),
        1.0 - a.win() - a.tie()
    );
    if a.my_draws > 0 {
        println!("outs ({}): {}", a.outs.len(), show(&a.outs));
        println!(
            "outs formula 1 - C({}-{o}, {k})/C({}, {k}) = {:.4}{}",
            a.unseen,
            a.unseen,
            hit_probability(a.outs.len() as u32, a.unseen as u32, a.my_draws as u32),
            if a.their_draws > 0 || a.my_draws > 1 {
                " (the exact figure above also counts the opponent's draws and runner-runner hands)"
            } else {
                ""
            },
            o = a.outs.len(),
            k = a.my_draws
        );
    }
    let p = a.equity();
    let ev = ev_call_implied(p, q.pot, q.call, q.implied);
    println!(
        "pot {} · call {} · implied {}: needs {:.4}; EV(call) = {:+.2} -> {}",
        q.pot,
        q.call,
        q.implied,
        q.call / (q.pot + q.implied + q.call),
        ev,
        if ev > 0.0 { "call" } else { "fold" }
    );
    if a.my_draws > 0 {
        match break_even_outs(q.pot, q.call, q.implied, a.unseen as u32, a.my_draws as u32) {
            Some(o) => println!("break-even outs for these odds: {o}"),
            None => println!("break-even outs for these odds: none (no number of outs pays)"),
        }
    }
    Ok(())
}

fn query_blackjack(
    hand: &str,
    upcard: &str,
    rules: Option<&str>,
    table_path: Option<&Path>,
) -> anyhow::Result<()> {
    use cardtables::blackjack::{parse_hand, parse_rank, total, Action, BlackjackQueryError};
    let usage = |m: String| anyhow::Error::new(UsageError(m));
    let path = match table_path {
        Some(p) => p.to_path_buf(),
        None => {
            let grid = PathBuf::from("tables/blackjack/blackjack.bin");
            if grid.exists() {
                grid
            } else {
                PathBuf::from("tables/blackjack_6d_s17/blackjack.bin")
            }
        }
    };
    let table = cardtables::Blackjack::open(&path).with_context(|| {
        format!(
            "cannot load {} (run `pipeline run jobs/blackjack_6d_s17.toml` first, or pass --table)",
            path.display()
        )
    })?;
    if rules == Some("list") {
        for set in table.rule_sets() {
            println!("{:<28} house edge {:.4} %", set.id, 100.0 * set.house_edge);
        }
        return Ok(());
    }
    let set = match rules {
        Some(id) => table.rule_set(id).map_err(|e| usage(e.to_string()))?,
        None => 0,
    };
    let cards = parse_hand(hand).map_err(|e| usage(e.to_string()))?;
    let up = parse_rank(upcard).map_err(|e| usage(e.to_string()))?;
    let (t, soft) = total(&cards);
    let id = &table.rule_sets()[set].id;
    let names: Vec<&str> = cards
        .iter()
        .map(|&r| crate::games::blackjack::hands::rank_name(r))
        .collect();
    println!(
        "{} ({} {t}) against {} under {id}:",
        names.join(" "),
        if soft { "soft" } else { "hard" },
        crate::games::blackjack::hands::rank_name(up),
    );
    let advice = table
        .best_action(set, &cards, up)
        .map_err(|e| usage(e.to_string()))?;
    match table.evs(set, &cards, up) {
        Ok(evs) => {
            if cards.len() == 2 && t == 21 {
                println!("  a natural: paid at once (the stand line is its payout)");
            }
            for a in Action::ALL {
                let v = evs[a as usize];
                if !v.is_nan() {
                    println!("  {:<10} {v:+.4}", a.name());
                }
            }
            if table.rule_sets()[set].conditioned_on_no_blackjack {
                println!("  (EVs per unit bet, given that the dealer has checked for blackjack and has none)");
            }
            println!(
                "best: {} ({:+.4})",
                advice.action.name(),
                advice.ev.unwrap_or(f64::NAN)
            );
        }
        Err(BlackjackQueryError::NotTwoCards(_)) => {
            println!(
                "best: {} (the basic strategy chart's action for {} {t}; exact EVs are tabled for two-card hands)",
                advice.action.name(),
                if soft { "soft" } else { "hard" }
            );
        }
        Err(e) => return Err(usage(e.to_string())),
    }
    Ok(())
}

fn query_holdem(q: &HoldemQuestion) -> anyhow::Result<()> {
    use cardtables::decision::{ev_call, ev_raise, required_equity, EV_FOLD};
    use cardtables::holdem::{class_of_text, HoldemQueryError};
    let usage = |m: String| anyhow::Error::new(UsageError(m));
    let (pot, call, raise, fold, opponents) = (q.pot, q.call, q.raise, q.fold, q.opponents);
    if !(0.0..=1.0).contains(&fold) {
        return Err(usage(format!(
            "--fold {fold} must be a probability in [0, 1]"
        )));
    }
    let class = class_of_text(&q.hand).map_err(|e| usage(e.to_string()))?;
    let name = crate::games::holdem::classes::class_name;
    let w = if let Some(versus) = &q.versus {
        if opponents != 1 {
            return Err(usage(
                "--opponents is for random opponents: leave it out when naming the opponent's hand"
                    .into(),
            ));
        }
        let other = class_of_text(versus).map_err(|e| usage(e.to_string()))?;
        let table = cardtables::HoldemHeadsUp::open(&q.headsup_table).with_context(|| {
            format!(
                "cannot load {} (run `pipeline run jobs/holdem_headsup.toml` first, or pass --headsup-table)",
                q.headsup_table.display()
            )
        })?;
        let cards = |text: &str| {
            cardtables::card::parse_exact(text, 2)
                .ok()
                .map(|c| [c[0], c[1]])
        };
        match (cards(&q.hand), cards(versus)) {
            (Some(a), Some(b)) => {
                let r = table.cards(a, b).map_err(|e| usage(e.to_string()))?;
                println!(
                    "{} {} vs {} {}: wins {}, ties {}, losses {} of {} boards, equity {:.4} (exact)",
                    a[0], a[1], b[0], b[1], r.wins, r.ties, r.losses, r.boards, r.equity
                );
                r.equity
            }
            _ => {
                let e = table.classes(class, other);
                println!(
                    "{} vs {}: equity {e:.4} (exact, averaged over the combos that share no card)",
                    name(class),
                    name(other)
                );
                e
            }
        }
    } else {
        let path = q.table.clone().unwrap_or_else(|| {
            PathBuf::from(if opponents > 1 {
                "tables/holdem_multiway/holdem.bin"
            } else {
                "tables/holdem_preflop/holdem.bin"
            })
        });
        let table = cardtables::Holdem::open(&path).with_context(|| {
            format!(
                "cannot load {} (run `pipeline run jobs/{}` first, or pass --table)",
                path.display(),
                if opponents > 1 {
                    "holdem_multiway.toml"
                } else {
                    "holdem_preflop.toml"
                }
            )
        })?;
        let r = match table.preflop(class, opponents) {
            Ok(r) => r,
            Err(e @ HoldemQueryError::Opponents { .. }) => return Err(usage(e.to_string())),
            Err(e) => return Err(e.into()),
        };
        println!(
            "{} vs {} random hand{}: win {:.4}, tie {:.4}, equity {:.4}{}",
            name(class),
            opponents,
            if opponents == 1 { "" } else { "s" },
            r.win,
            r.tie,
            r.equity,
            method_note(r.std_error)
        );
        r.equity
    };
    if let (Some(pot), Some(call)) = (pot, call) {
        if !(pot.is_finite() && pot > 0.0 && call.is_finite() && call >= 0.0) {
            return Err(usage(
                "--pot must be positive and --call zero or more".into(),
            ));
        }
        let mut actions = vec![
            ("fold".to_string(), EV_FOLD),
            (format!("call {call}"), ev_call(w, pot, call)),
        ];
        if let Some(to) = raise {
            if !(to.is_finite() && to >= call) {
                return Err(usage(format!(
                    "--raise {to} must be at least the call ({call})"
                )));
            }
            actions.push((
                format!("raise to {to} (fold {:.0}%)", 100.0 * fold),
                ev_raise(w, pot, call, to, fold),
            ));
        }
        println!("needs equity {:.4} to call", required_equity(pot, call));
        for (name, ev) in &actions {
            println!("  {name:<28} {ev:+.3}");
        }
        let best = actions
            .iter()
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .expect("fold is always an action");
        println!("best: {} ({:+.3})", best.0, best.1);
    }
    Ok(())
}

/// How a table figure was computed, for the end of a printed line: exact, or Monte Carlo
/// with its standard error.
fn method_note(std_error: f64) -> String {
    if std_error > 0.0 {
        format!(" (Monte Carlo, s.e. {std_error:.1e})")
    } else {
        " (exact)".to_string()
    }
}
