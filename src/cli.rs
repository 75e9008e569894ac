//! Command-line definitions (clap derive). Parsing only: no I/O happens here.
//!
//! The doc comments below are the help text `pipeline --help` prints, written as the user
//! reads it (`[run]`, `tables/<name>/`), not as rustdoc markup.
#![allow(rustdoc::broken_intra_doc_links, rustdoc::invalid_html_tags)]

use std::path::PathBuf;

use cardtables::Ranking;
use clap::{Parser, Subcommand};

use crate::engine::Shard;
use crate::job::MAX_THREADS;

/// Exact card-game lookup tables: job files in, Parquet + runtime tables + reports out.
#[derive(Parser, Debug)]
#[command(name = "pipeline", version, about, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run a job file: writes tables/<name>/ (Parquet, runtime table, manifest.json) and
    /// reports/<name>.md under the output root.
    Run(RunArgs),
    /// List the jobs in a folder with their kind and description, or (--kinds) every job
    /// kind this build knows with the tables its job files may hold.
    List {
        /// Folder of job files.
        #[arg(long, default_value = "jobs")]
        jobs: PathBuf,
        /// List the job kinds instead of job files.
        #[arg(long, conflicts_with = "jobs")]
        kinds: bool,
    },
    /// Describe a Parquet file (schema, rows, metadata) or a runtime table file (header,
    /// game, rules, checksum verdict).
    Inspect { file: PathBuf },
    /// Join shard parts into the same files a single run writes.
    Merge(MergeArgs),
    /// Validate a job file completely (rules, grid, simulation, run settings, output
    /// folders) without computing, and say what a run would do.
    Check(CheckArgs),
    /// Write cards the way the tables do: the `cards` text, the ids `c1..ck` and the
    /// `hand_index` to find a hand's row in SQL (`"Ks Qh Jd 10c 9s"` is `Ks Qh Jd Tc 9s`).
    Cards {
        /// The cards, in any order and any form the queries take (`10c`, `Tc`, `♣10`).
        hand: String,
        /// Print one JSON object (`cards`, `c1`…, `hand_index`, `class`).
        #[arg(long)]
        json: bool,
    },
    /// Equity of 2 to 6 Hold'em ranges against each other, with or without a board:
    /// exact where the showdowns fit the budget, else seeded Monte Carlo to a standard
    /// error (range notation: docs/ranges.md).
    Equity(EquityArgs),
    /// Answer a question from a runtime table, in O(1).
    Query {
        /// Print the answer as one JSON object, its fields named as the Parquet columns
        /// of the same figures.
        #[arg(long, global = true)]
        json: bool,
        #[command(subcommand)]
        game: QueryGame,
    },
}

/// The arguments of `pipeline equity`.
#[derive(clap::Args, Debug)]
pub struct EquityArgs {
    /// Two to six ranges or hands, one per player: `"QQ+, AKs"`, `AhKh`, `random`,
    /// `"top 10%"` (docs/ranges.md).
    #[arg(num_args = 1.., required = true, value_name = "RANGE")]
    pub ranges: Vec<String>,
    /// Board cards: 0, 3, 4 or 5 (`"Ks 7d 2c"`).
    #[arg(long, default_value = "")]
    pub board: String,
    /// Cards out of the deck (folded, seen).
    #[arg(long, default_value = "")]
    pub dead: String,
    /// Monte Carlo stops once every player's equity has at most this standard error.
    #[arg(long, default_value_t = 1e-4, value_parser = std_error, allow_negative_numbers = true)]
    pub std_error: f64,
    /// Monte Carlo seed (the same seed gives the same answer on any number of threads).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (0 = every core; at most 1024).
    #[arg(long, default_value_t = 0, value_parser = threads, allow_hyphen_values = true)]
    pub threads: usize,
    /// The heads-up table that answers two ranges with no board and no dead cards
    /// (default: tables/holdem_headsup/holdem_headsup.bin when it exists).
    #[arg(long)]
    pub table: Option<PathBuf>,
    /// The order `top N%` takes the classes in: `vs1`, by exact equity against one random
    /// hand, or `vs3`, by equity against three random hands as PokerStove's and Equilab's
    /// hand rankings (docs/ranges.md).
    #[arg(long, default_value = "vs1", value_parser = ranking)]
    pub ranking: Ranking,
    /// Print one JSON object: `equity`, `win`, `tie` (one per player, in argument
    /// order), `exact`, `std_error`, and `showdowns` or `trials` (Monte Carlo also:
    /// `draws`, whole deals drawn, and `target_reached`).
    #[arg(long)]
    pub json: bool,
}

/// A `top N%` ranking: `vs1` or `vs3`.
fn ranking(text: &str) -> Result<Ranking, String> {
    match text.trim() {
        "vs1" => Ok(Ranking::VsOneRandom),
        "vs3" => Ok(Ranking::VsThreeRandom),
        _ => Err(format!(
            "{text:?} is not a ranking: use vs1 (equity against one random hand, the default) \
             or vs3 (against three random hands, as PokerStove and Equilab rank hands)"
        )),
    }
}

/// A Monte Carlo standard error target: 1e-5 to 0.1.
fn std_error(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(e) if (1e-5..=0.1).contains(&e) => Ok(e),
        _ => Err(format!(
            "{text:?} is not a standard error target: use 1e-5 to 0.1 (1e-4 by default)"
        )),
    }
}

/// The arguments of `pipeline run`.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// The job file, e.g. jobs/niuniu.toml.
    pub job: PathBuf,
    /// Output root (tables/ and reports/ are created inside it).
    #[arg(long, default_value = ".")]
    pub out: PathBuf,
    /// Worker threads (default: the job's [run] threads; 0 = every core; at most 1024).
    #[arg(long, value_parser = threads, allow_hyphen_values = true)]
    pub threads: Option<usize>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// Compute only units ≡ I (mod N) into tables/<name>/parts/ (0-based I). Without
    /// it, a Slurm array, Kubernetes Indexed Job or AWS Batch array index is used.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
    /// Number of shards when the scheduler gives only an index (Kubernetes, AWS Batch).
    #[arg(long, value_name = "N", conflicts_with = "shard")]
    pub shards: Option<u32>,
    /// Continue an interrupted run from its checkpoint. This is what a run does anyway
    /// when the output holds a checkpoint of the same job; the flag is kept for scripts.
    #[arg(long)]
    pub resume: bool,
    /// Discard the checkpoint of an interrupted run and compute every unit again.
    #[arg(long, conflicts_with = "resume")]
    pub restart: bool,
}

/// The arguments of `pipeline check`.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// The job file, e.g. jobs/blackjack.toml.
    pub job: PathBuf,
    /// Output root the run would write under (checked for writability).
    #[arg(long, default_value = ".")]
    pub out: PathBuf,
    /// Worker threads the run would use (checked like `run --threads`).
    #[arg(long, value_parser = threads, allow_hyphen_values = true)]
    pub threads: Option<usize>,
    /// The shard the run would compute, I/N (checked against the job's unit count).
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
}

/// The arguments of `pipeline merge`.
#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// Part files, or folders holding part-*.bin files.
    #[arg(required = true)]
    pub parts: Vec<PathBuf>,
    /// Output root (tables/ and reports/ are created inside it).
    #[arg(long)]
    pub out: PathBuf,
    /// Worker threads (default: the job's [run] threads; 0 = every core; at most 1024).
    #[arg(long, value_parser = threads, allow_hyphen_values = true)]
    pub threads: Option<usize>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(Subcommand, Debug)]
pub enum QueryGame {
    /// Blackjack: every action's exact EV for a hand against the dealer's upcard, and the
    /// best one (hands of three or more cards: the basic strategy chart's action).
    Blackjack(BlackjackQuestion),
    /// Category, strength and exact win probability of a Niuniu hand; with four cards,
    /// the see-four-cards bidding answer.
    Niuniu(NiuniuQuestion),
    /// Hold'em preflop: a starting hand's exact equity against random hands or against
    /// another hand and, given a pot, each action's EV.
    Holdem(HoldemQuestion),
    /// Hold'em heads-up push/fold: how often the small blind jams a hand and the big
    /// blind calls with it at an effective stack, with each action's EV.
    Pushfold(PushFoldQuestion),
    /// Five-card stud: exact outs, win / tie probabilities and the EV of calling.
    Stud(StudQuestion),
    /// Exact win / tie / loss of a Zhajinhua hand and the EV of each action.
    Zhajinhua(ZhajinhuaQuestion),
}

impl QueryGame {
    /// The game's name as the subcommand spells it.
    pub fn name(&self) -> &'static str {
        match self {
            QueryGame::Blackjack(_) => "blackjack",
            QueryGame::Niuniu(_) => "niuniu",
            QueryGame::Holdem(_) => "holdem",
            QueryGame::Pushfold(_) => "pushfold",
            QueryGame::Stud(_) => "stud",
            QueryGame::Zhajinhua(_) => "zhajinhua",
        }
    }
}

/// A `pipeline query blackjack` question.
#[derive(clap::Args, Debug)]
pub struct BlackjackQuestion {
    /// The hand, e.g. "8 8", "A 7" or "T 4 2" (A, 2-9, T/10/J/Q/K); or a chart row, "16"
    /// or "hard 16", "soft 18", "pair 8" (answered for two cards of that row).
    pub hand: String,
    /// The dealer's upcard.
    pub upcard: String,
    /// Rule set, e.g. 6d-s17-das (default: the table's first; `--rules list` lists them).
    #[arg(long)]
    pub rules: Option<String>,
    /// The table to read (default: tables/blackjack/blackjack.bin if present, else
    /// tables/blackjack_6d_s17/blackjack.bin; with --count,
    /// tables/blackjack_indices/blackjack_indices.bin).
    #[arg(long)]
    pub table: Option<PathBuf>,
    /// Play at this count (the true count of the table's counting system, or its running
    /// count for KO), in the convention the table's indices are stated in (by default the
    /// count when the decision is made, the upcard and the hand's cards counted), from a
    /// `blackjack.indices` table: the chart with its index plays.
    #[arg(long, alias = "true-count", allow_hyphen_values = true)]
    pub count: Option<i32>,
}

/// A `pipeline query pushfold` question.
#[derive(clap::Args, Debug)]
pub struct PushFoldQuestion {
    /// A class (AKo, 77, T9s) or two cards (As Kd).
    pub hand: String,
    /// Effective stack in big blinds, `12` or `12bb` (answered at the table's grid stack
    /// at or below it).
    #[arg(long, value_parser = positive_big_blinds, allow_negative_numbers = true, required_unless_present = "stacks")]
    pub stack: Option<f64>,
    /// Ante per player in big blinds, `0.125` or `0.125bb`: the table must have been
    /// computed with it (default: 0 with tables/holdem_pushfold/pushfold.bin, else
    /// tables/holdem_pushfold_ante/pushfold.bin).
    #[arg(long, value_parser = big_blinds, allow_negative_numbers = true)]
    pub ante: Option<f64>,
    /// The table to read (default: tables/holdem_pushfold/pushfold.bin, with an ante
    /// tables/holdem_pushfold_ante/pushfold.bin, three-handed
    /// tables/holdem_pushfold3/pushfold3.bin).
    #[arg(long)]
    pub table: Option<PathBuf>,
    /// Players at the table: 2 (heads-up: small blind and big blind) or 3 (button, small
    /// blind, big blind).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=3))]
    pub players: u8,
    /// Three-handed: the seat that decides, btn, sb or bb (default: every seat).
    #[arg(long)]
    pub position: Option<String>,
    /// Three-handed: what the seat faces: none (everyone before it folded), push (the
    /// small blind facing the button's push), sb-push or btn-push (the big blind facing
    /// one push), push-call (the big blind facing a push and a call). Default: every
    /// decision of the seat.
    #[arg(long, requires = "position")]
    pub facing: Option<String>,
    /// Three-handed: unequal stacks, BTN,SB,BB in big blinds (`10,15,20`), instead of
    /// --stack.
    #[arg(long, value_parser = three_stacks, conflicts_with = "stack")]
    pub stacks: Option<[f64; 3]>,
    /// Three-handed: answer in ICM for these payouts (shares of the prize pool by place,
    /// `0.5,0.3,0.2`; the table must have been computed with them); default chip EV.
    #[arg(long, value_parser = payouts)]
    pub payouts: Option<Payouts>,
}

/// ICM payouts as `--payouts` gives them (one flag value, a list).
#[derive(Clone, Debug)]
pub struct Payouts(pub Vec<f64>);

/// Three stacks in big blinds, `10,15,20` (BTN, SB, BB).
fn three_stacks(text: &str) -> Result<[f64; 3], String> {
    let parts: Vec<&str> = text.split(',').collect();
    let [b, s, g] = parts[..] else {
        return Err(format!(
            "{text:?} is not three stacks: give BTN,SB,BB in big blinds, as 10,15,20"
        ));
    };
    Ok([
        positive_big_blinds(b)?,
        positive_big_blinds(s)?,
        positive_big_blinds(g)?,
    ])
}

/// ICM payouts: 1 to 3 shares of the prize pool by place, decreasing, summing to at most 1.
fn payouts(text: &str) -> Result<Payouts, String> {
    let list = text
        .split(',')
        .map(|x| {
            x.trim().parse::<f64>().map_err(|_| {
                format!("{x:?} in {text:?} is not a number: give shares as 0.5,0.3,0.2")
            })
        })
        .collect::<Result<Vec<f64>, String>>()?;
    if list.len() > 3 {
        return Err(format!(
            "{text:?} pays {} places: three-handed pays at most 3",
            list.len()
        ));
    }
    crate::games::holdem::icm::validate_payouts(&list).map_err(|e| e.to_string())?;
    Ok(Payouts(list))
}

/// A `pipeline query niuniu` question.
#[derive(clap::Args, Debug)]
pub struct NiuniuQuestion {
    /// Five cards, e.g. "Ks Qh Jd Tc 9s" (the hand's table entry), or the four cards seen
    /// before bidding in 看牌抢庄, e.g. "Ks Qh Jd Tc" (the bidding table's entry).
    pub hand: String,
    /// The table to read [default: tables/niuniu/niuniu.bin for five cards,
    /// tables/niuniu_bidding/niuniu_bidding.bin for four].
    #[arg(long)]
    pub table: Option<PathBuf>,
}

/// The bet a question prices: the same flags, meanings and defaults in every `query`
/// that prices one (holdem, stud, zhajinhua).
#[derive(clap::Args, Debug, Clone)]
pub struct Bet {
    /// Pot before our decision, including the opponent's bet.
    #[arg(long, default_value_t = 100.0, value_parser = positive_amount, allow_negative_numbers = true)]
    pub pot: f64,
    /// Amount to call.
    #[arg(long, default_value_t = 20.0, value_parser = amount, allow_negative_numbers = true)]
    pub call: f64,
    /// Raise-to amount to price (repeatable; default: 2× and 3× the call, and call + pot).
    #[arg(long = "raise", value_name = "RAISE", value_parser = amount, allow_negative_numbers = true)]
    pub raises: Vec<f64>,
    /// Probability that the opponent folds to a raise.
    #[arg(long, default_value_t = 0.2, value_parser = probability, allow_negative_numbers = true)]
    pub fold: f64,
}

/// A `pipeline query stud` question.
#[derive(clap::Args, Debug)]
pub struct StudQuestion {
    /// Your cards so far, e.g. "As Ks Qs Js".
    pub hand: String,
    /// The opponent's known cards, e.g. "2c 2d".
    pub versus: String,
    /// Cards seen elsewhere (out of the deck).
    #[arg(long, default_value = "")]
    pub seen: String,
    /// Cards still to come to you (default: 5 minus your cards).
    #[arg(long)]
    pub to_come: Option<usize>,
    #[command(flatten)]
    pub bet: Bet,
    /// Extra chips won after hitting (implied odds).
    #[arg(long, default_value_t = 0.0, value_parser = amount, allow_negative_numbers = true)]
    pub implied: f64,
    /// Deck: 52, 32 (7-A) or 28 (8-A).
    #[arg(long, default_value_t = 52, value_parser = deck)]
    pub deck: u8,
    /// Rank a flush above a full house.
    #[arg(long)]
    pub flush_beats_full_house: bool,
    /// Do not let the ace play low in straights.
    #[arg(long)]
    pub no_ace_low_straight: bool,
    /// Settle equal hands by the suit of their top card, ♠ > ♥ > ♣ > ♦ (traditional 梭哈),
    /// instead of splitting.
    #[arg(long)]
    pub suit_order: bool,
}

/// A `pipeline query holdem` question.
#[derive(clap::Args, Debug)]
pub struct HoldemQuestion {
    /// A class (AA, AKs, AKo) or two cards (As Kd).
    pub hand: String,
    /// The opponent's hand, for the exact heads-up result (a class or two cards, the same
    /// form as HAND).
    pub versus: Option<String>,
    /// A third hand (a class), for the exact three-way all-in equity of the three classes
    /// from a `holdem.threeway` table (VERSUS a class too): the equities only, in the
    /// order given.
    pub third: Option<String>,
    /// Random opponents (without VERSUS).
    #[arg(long, default_value_t = 1)]
    pub opponents: usize,
    #[command(flatten)]
    pub bet: Bet,
    /// The board (3, 4 or 5 cards, e.g. "Qh Jh 2c"): HAND's strength against one random
    /// hand from a `holdem.postflop` table, E[HS], E[HS²] and the histogram over the
    /// runouts (HS on the river); HAND must then be two cards.
    #[arg(long)]
    pub board: Option<String>,
    /// The table to read (default: tables/holdem_headsup/holdem_headsup.bin with VERSUS,
    /// tables/holdem_threeway/holdem_threeway.bin with a third hand,
    /// tables/holdem_postflop/strength_<street>.bin with --board, tables/holdem_multiway/holdem.bin
    /// for more than one opponent, else tables/holdem_preflop/holdem.bin).
    #[arg(long)]
    pub table: Option<PathBuf>,
}

/// A `pipeline query zhajinhua` question.
#[derive(clap::Args, Debug)]
pub struct ZhajinhuaQuestion {
    /// Three cards, e.g. "Ks Kh Qd".
    pub hand: String,
    /// Opponents still in the hand.
    #[arg(long, default_value_t = 1)]
    pub opponents: usize,
    #[command(flatten)]
    pub bet: Bet,
    /// Cost of asking for a comparison (比牌); default: the call.
    #[arg(long, value_parser = amount, allow_negative_numbers = true)]
    pub compare: Option<f64>,
    /// The opponent asked for a comparison pays its cost too (at its rate), not only us.
    #[arg(long)]
    pub both_pay: bool,
    /// The opponents play blind (闷牌, not having looked): they pay 1/--seen-multiplier of
    /// our chips for a stake and call a raise with any hand. We have seen our hand.
    #[arg(long)]
    pub blind: bool,
    /// What a seen player pays per chip a blind player pays for the same stake.
    #[arg(long, default_value_t = 2.0, value_parser = seen_multiplier, allow_negative_numbers = true)]
    pub seen_multiplier: f64,
    /// For the best raise: the limit of the fold curve f(R) = M·(R − C)/(R − C + P).
    #[arg(long, default_value_t = 1.0, value_parser = probability, allow_negative_numbers = true)]
    pub max_fold: f64,
    /// For the best raise: the largest raise-to allowed (default: 5 × the pot).
    #[arg(long, value_parser = amount, allow_negative_numbers = true)]
    pub cap: Option<f64>,
    /// The table to read (default: tables/zhajinhua/zhajinhua.bin).
    #[arg(long)]
    pub table: Option<PathBuf>,
}

/// A thread count: 0 (every core) to [`MAX_THREADS`].
fn threads(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if n <= MAX_THREADS => Ok(n),
        _ => Err(format!(
            "{text:?} is not a thread count: use 0 (every core) or 1..={MAX_THREADS}"
        )),
    }
}

/// A seen player's multiple of a blind player's stake: 1 to 10.
fn seen_multiplier(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(k) if (1.0..=10.0).contains(&k) => Ok(k),
        _ => Err(format!(
            "{text:?} is not a seen multiplier: a seen player pays 1 to 10 times a blind player's stake"
        )),
    }
}

/// A probability: a number in [0, 1].
fn probability(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(p) if (0.0..=1.0).contains(&p) => Ok(p),
        _ => Err(format!(
            "{text:?} is not a probability: use a number in [0, 1]"
        )),
    }
}

/// Largest amount of chips a query takes (10¹²): every EV of amounts up to it is finite.
pub const MAX_AMOUNT: f64 = 1e12;

/// An amount of chips: a number from 0 to [`MAX_AMOUNT`].
fn amount(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(v) if (0.0..=MAX_AMOUNT).contains(&v) => Ok(v),
        _ => Err(format!(
            "{text:?} is not an amount: use a number from 0 to {MAX_AMOUNT:e}"
        )),
    }
}

/// An amount of chips that must be more than zero (a pot).
fn positive_amount(text: &str) -> Result<f64, String> {
    match amount(text) {
        Ok(v) if v > 0.0 => Ok(v),
        _ => Err(format!(
            "{text:?} is not a positive amount: use a number above 0, at most {MAX_AMOUNT:e}"
        )),
    }
}

/// An amount in big blinds: a number, optionally followed by `bb` (any case, a space
/// allowed), as players write stacks.
fn big_blinds(text: &str) -> Result<f64, String> {
    amount(strip_bb(text))
}

/// A positive amount in big blinds (a stack).
fn positive_big_blinds(text: &str) -> Result<f64, String> {
    positive_amount(strip_bb(text))
}

/// `text` without a trailing `bb` unit.
fn strip_bb(text: &str) -> &str {
    let t = text.trim();
    match t.len().checked_sub(2).filter(|&i| t.is_char_boundary(i)) {
        Some(i) if t[i..].eq_ignore_ascii_case("bb") => t[..i].trim_end(),
        _ => t,
    }
}

/// A five-card stud deck size: 52, 32 or 28.
fn deck(text: &str) -> Result<u8, String> {
    let deck: u8 = text
        .trim()
        .parse()
        .map_err(|_| format!("{text:?} is not a deck size: use 52, 32 or 28"))?;
    crate::games::stud::rules::check_deck(deck).map(|()| deck)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stacks_may_carry_their_unit() {
        for text in ["12", "12bb", "12BB", "12 bb", " 12bb "] {
            assert_eq!(positive_big_blinds(text), Ok(12.0), "{text}");
        }
        assert_eq!(big_blinds("0.125bb"), Ok(0.125));
        for bad in ["bb", "12b", "-3bb", "0bb", "12bbb", "€"] {
            assert!(positive_big_blinds(bad).is_err(), "{bad}");
        }
    }
    use clap::CommandFactory;

    #[test]
    fn the_command_line_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    /// The README's command list names exactly the flags each subcommand has, and
    /// every subcommand (the `## Commands` block is the user's reference).
    #[test]
    fn the_readme_command_list_matches_the_command_line() {
        let readme = include_str!("../README.md");
        let block = readme
            .split("## Commands\n\n```sh\n")
            .nth(1)
            .and_then(|rest| rest.split("```").next())
            .expect("README has a ## Commands block");
        // Continuation lines (indented) belong to the command above them.
        let mut lines: Vec<String> = Vec::new();
        for line in block.lines() {
            let line = line.split('#').next().unwrap_or("");
            match lines.last_mut() {
                Some(last) if line.starts_with(' ') => last.push_str(line),
                _ => lines.push(line.to_string()),
            }
        }
        let mut documented = std::collections::BTreeMap::new();
        for line in &lines {
            let words: Vec<&str> = line.split_whitespace().collect();
            let path_len = if words.get(1) == Some(&"query") { 3 } else { 2 };
            let path = words[1..path_len].join(" ");
            let flags: std::collections::BTreeSet<String> = words
                .iter()
                .flat_map(|w| w.split(['[', ']', '|']))
                .filter(|w| w.starts_with("--"))
                .map(|w| w.trim_end_matches("...").to_string())
                .collect();
            documented.insert(path, flags);
        }
        let mut actual = std::collections::BTreeMap::new();
        let mut query_flags = std::collections::BTreeSet::new();
        let mut visit = |prefix: &str, cmd: &clap::Command| {
            let flags: std::collections::BTreeSet<String> = cmd
                .get_arguments()
                .filter_map(|a| a.get_long())
                .filter(|l| *l != "help" && *l != "version")
                .map(|l| format!("--{l}"))
                .collect();
            actual.insert(format!("{prefix}{}", cmd.get_name()), flags);
        };
        for sub in Cli::command().get_subcommands() {
            if sub.get_name() == "query" {
                for game in sub.get_subcommands() {
                    visit("query ", game);
                }
                // The flags of `query` itself (global: every game takes them), which
                // the README lists as `pipeline query GAME ... [--json]`.
                query_flags = sub
                    .get_arguments()
                    .filter_map(|a| a.get_long())
                    .map(|l| format!("--{l}"))
                    .collect();
            } else {
                visit("", sub);
            }
        }
        actual.insert("query GAME".to_string(), query_flags);
        assert_eq!(documented, actual);
    }

    #[test]
    fn value_parsers_accept_the_range_and_refuse_the_rest() {
        assert_eq!(probability("0.25"), Ok(0.25));
        assert!(probability("1.5").unwrap_err().contains("[0, 1]"));
        assert!(probability("NaN").is_err());
        assert_eq!(amount("0"), Ok(0.0));
        assert!(amount("-1").is_err() && amount("inf").is_err() && amount("1e300").is_err());
        assert_eq!(amount("1e12"), Ok(1e12));
        assert!(positive_amount("0").is_err());
        assert_eq!(positive_amount("100"), Ok(100.0));
        assert_eq!(deck("32"), Ok(32));
        assert!(deck("36").unwrap_err().contains("52, 32 (7 to A) or 28"));
        assert!(deck("x").is_err());
        assert_eq!(ranking("vs3"), Ok(Ranking::VsThreeRandom));
        assert_eq!(ranking(" vs1 "), Ok(Ranking::VsOneRandom));
        assert!(ranking("vs2")
            .unwrap_err()
            .contains("vs1 (equity against one random hand"));
        assert_eq!(threads("0"), Ok(0));
        assert_eq!(threads("1024"), Ok(1024));
        assert!(threads("1025").unwrap_err().contains("1..=1024"));
        assert!(threads("-1").is_err());
    }
}
