//! Job files: TOML in, a validated [`JobSpec`] out.
//!
//! A job file has three tables: `[job]` (kind, name, description), `[rules]` (the game's
//! rule set; each game deserializes and validates its own) and `[run]` (seed, threads);
//! a job kind may read more, from the list [`EXTRA_TABLES`] (blackjack's `[grid]`,
//! `[simulation]`, `[count]`, …): the games registry says which kind reads which.
//! Every error names the file, the line and column, the field, and what is allowed, so a
//! user can fix the file without reading our source.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::Deserialize;
use sha2::{Digest, Sha256};

/// A problem with a job file, located as precisely as the file allows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobError {
    /// The job file as the user named it.
    pub path: String,
    /// 1-based line and column, when the problem has a place in the file.
    pub location: Option<(usize, usize)>,
    /// Dotted field path such as `rules.special_hands`, when one field is at fault.
    pub field: Option<String>,
    /// What is wrong and what is allowed.
    pub message: String,
}

impl fmt::Display for JobError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path)?;
        if let Some((line, column)) = self.location {
            write!(f, ":{line}:{column}")?;
        }
        write!(f, ": ")?;
        if let Some(field) = &self.field {
            write!(f, "field `{field}`: ")?;
        }
        write!(f, "{}", self.message)
    }
}

impl std::error::Error for JobError {}

/// The tables a job file may hold beyond `[job]`, `[rules]` and `[run]`, each read by the
/// job kinds that need it (the games registry says which): a file with any other table is
/// refused, and so is one of these under a kind that does not read it.
pub const EXTRA_TABLES: [&str; 13] = [
    "grid",
    "simulation",
    "analysis",
    "pushfold",
    "betting",
    "bidding",
    "multiway",
    "count",
    "indices",
    "play",
    "postflop",
    "threeway",
    "pushfold3",
];

/// What every job file shares. The other tables are checked by name in `check_tables`
/// (so unknown ones are refused, located) and read by each game through
/// [`JobSpec::rules`] and [`JobSpec::deserialize`].
#[derive(Deserialize)]
struct JobFile {
    job: JobSection,
    #[serde(default)]
    run: RunSettings,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JobSection {
    kind: String,
    name: String,
    #[serde(default)]
    description: String,
}

/// The `[run]` table: settings that change how a job runs, never what it computes
/// (except `seed`, which fixes every Monte Carlo stream).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RunSettings {
    /// Root of every random stream; each work unit derives its own from (seed, unit).
    pub seed: u64,
    /// Worker threads; 0 means every core.
    pub threads: usize,
    /// Monte Carlo parts stop sampling a cell once its standard error is at most this.
    pub target_std_error: f64,
    /// Monte Carlo parts never draw more than this many trials for one cell.
    pub max_trials: u64,
}

impl Default for RunSettings {
    fn default() -> Self {
        RunSettings {
            seed: 42,
            threads: 0,
            target_std_error: 1e-4,
            max_trials: 100_000_000,
        }
    }
}

/// Largest job file read (4 MiB): anything bigger, or a special file, is refused.
pub const MAX_JOB_FILE_BYTES: u64 = 4 << 20;

/// Most worker threads a run may ask for, in `[run] threads` or `--threads` (a fixed
/// bound, so a job file valid on one machine is valid on every machine).
pub const MAX_THREADS: usize = 1024;

/// Fewest trials a Monte Carlo cell draws, whatever its early standard error says.
pub const MIN_TRIALS: u64 = 1 << 14;

/// A two-element TOML array, `[a, b]`, that refuses a third element: serde reads tuples
/// and fixed arrays from the first elements and silently drops the rest, so a mistyped
/// `range = [-5, 5, 40]` would run as `[-5, 5]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pair<A, B>(pub A, pub B);

impl<'de, A: serde::Deserialize<'de>, B: serde::Deserialize<'de>> serde::Deserialize<'de>
    for Pair<A, B>
{
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::{Error, IgnoredAny, SeqAccess, Visitor};
        struct Exactly2<A, B>(std::marker::PhantomData<(A, B)>);
        impl<'de, A: serde::Deserialize<'de>, B: serde::Deserialize<'de>> Visitor<'de> for Exactly2<A, B> {
            type Value = Pair<A, B>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an array of exactly two elements")
            }
            fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Pair<A, B>, S::Error> {
                let a = seq
                    .next_element()?
                    .ok_or_else(|| S::Error::invalid_length(0, &self))?;
                let b = seq
                    .next_element()?
                    .ok_or_else(|| S::Error::invalid_length(1, &self))?;
                let mut n = 2;
                while seq.next_element::<IgnoredAny>()?.is_some() {
                    n += 1;
                }
                if n > 2 {
                    return Err(S::Error::invalid_length(n, &self));
                }
                Ok(Pair(a, b))
            }
        }
        d.deserialize_seq(Exactly2(std::marker::PhantomData))
    }
}

/// The longest job description, in characters.
pub const MAX_DESCRIPTION_CHARS: usize = 300;

/// A parsed job file. The `[rules]` table stays as source text until the game that owns
/// it reads it with [`JobSpec::rules`], so its errors keep their file positions.
#[derive(Debug, Clone)]
pub struct JobSpec {
    /// The file as the user named it (for messages).
    pub path: String,
    /// The whole file text.
    pub text: String,
    /// Hex SHA-256 of the file bytes: ties checkpoints, shard parts and manifests to it.
    pub hash: String,
    /// `game.job`, e.g. `niuniu.hands`.
    pub kind: String,
    /// Output folder name under `tables/`.
    pub name: String,
    /// One line for `pipeline list`.
    pub description: String,
    pub run: RunSettings,
    spans: SpanIndex,
}

impl JobSpec {
    /// Reads and parses a job file.
    pub fn load(path: &Path) -> Result<JobSpec, JobError> {
        use std::io::Read;
        let shown = path.display().to_string();
        let error = |message: String| JobError {
            path: shown.clone(),
            location: None,
            field: None,
            message,
        };
        let io = |e: std::io::Error| {
            error(match e.kind() {
                std::io::ErrorKind::NotFound => "no such job file".to_string(),
                _ => format!("cannot read the job file: {e}"),
            })
        };
        // Checked before opening: opening a named pipe for reading waits for a writer.
        if !std::fs::metadata(path).map_err(io)?.is_file() {
            return Err(error(
                "not a regular file (a folder, pipe or device): a job file is a TOML file"
                    .to_string(),
            ));
        }
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .map_err(io)?
            .take(MAX_JOB_FILE_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(io)?;
        if bytes.len() as u64 > MAX_JOB_FILE_BYTES {
            return Err(error(format!(
                "larger than {} MiB: not a job file (job files are a few lines of TOML)",
                MAX_JOB_FILE_BYTES >> 20
            )));
        }
        let text = String::from_utf8(bytes).map_err(|e| {
            error(format!(
                "not UTF-8 text (byte {}): not a job file",
                e.utf8_error().valid_up_to()
            ))
        })?;
        JobSpec::parse(&shown, text)
    }

    /// Parses job file text; `path` is only used in messages.
    ///
    /// ```
    /// use pipeline::job::JobSpec;
    /// let text = "[job]\nkind = \"niuniu.hands\"\nname = \"n\"\n[run]\nthreads = 2\n";
    /// let spec = JobSpec::parse("n.toml", text.to_string()).unwrap();
    /// assert_eq!((spec.kind.as_str(), spec.run.threads), ("niuniu.hands", 2));
    /// let err = JobSpec::parse("n.toml", "[job]\nkind = 1\nname = \"n\"\n".into()).unwrap_err();
    /// assert!(err.to_string().starts_with("n.toml:2:8: field `job.kind`"));
    /// ```
    pub fn parse(path: &str, text: String) -> Result<JobSpec, JobError> {
        let spans = SpanIndex::build(&text);
        check_tables(path, &text)?;
        let file: JobFile = toml::from_str(&text).map_err(|e| spans.error(path, &text, &e))?;
        let hash = hex(&Sha256::digest(text.as_bytes()));
        let spec = JobSpec {
            path: path.to_string(),
            hash,
            kind: file.job.kind,
            name: file.job.name,
            description: file.job.description,
            run: file.run,
            spans,
            text,
        };
        spec.check_name()?;
        spec.check_description()?;
        spec.check_run()?;
        Ok(spec)
    }

    fn check_run(&self) -> Result<(), JobError> {
        if self.run.threads > MAX_THREADS {
            return Err(self.field_error(
                "run.threads",
                format!(
                    "{} threads: use 0 (every core) or 1..={MAX_THREADS}",
                    self.run.threads
                ),
            ));
        }
        let se = self.run.target_std_error;
        if !(se > 0.0 && se <= 0.5) {
            return Err(self.field_error(
                "run.target_std_error",
                format!("{se} is out of range: use a standard error in (0, 0.5], e.g. 1e-4"),
            ));
        }
        if self.run.max_trials < MIN_TRIALS {
            return Err(self.field_error(
                "run.max_trials",
                format!(
                    "{} is too few: every Monte Carlo cell draws at least {MIN_TRIALS} trials",
                    self.run.max_trials
                ),
            ));
        }
        Ok(())
    }

    /// A description is one line that a terminal shows as written: no line breaks, no
    /// control characters (escape sequences would reach `pipeline list`'s terminal).
    fn check_description(&self) -> Result<(), JobError> {
        let chars = self.description.chars().count();
        let bad = self.description.chars().find(|c| c.is_control());
        if chars <= MAX_DESCRIPTION_CHARS && bad.is_none() {
            return Ok(());
        }
        Err(self.field_error(
            "job.description",
            match bad {
                Some(c) => format!(
                    "holds the control character {:?}: a description is one line of text (put more in comments)",
                    c
                ),
                None => format!(
                    "{chars} characters: a description is one line of at most {MAX_DESCRIPTION_CHARS}"
                ),
            },
        ))
    }

    fn check_name(&self) -> Result<(), JobError> {
        let ok = !self.name.is_empty()
            && self.name.len() <= 100
            && self
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.')
            && !self.name.starts_with('.');
        if ok {
            Ok(())
        } else {
            Err(self.field_error(
                "job.name",
                format!(
                    "{:?} is not a usable folder name: use 1-100 letters, digits, '-', '_' or '.', not starting with '.'",
                    self.name
                ),
            ))
        }
    }

    /// Deserializes the `[rules]` table into a game's rule type. A missing table means
    /// all defaults. Unknown keys and wrong types come back located in the file.
    pub fn rules<R: DeserializeOwned + Default>(&self) -> Result<R, JobError> {
        #[derive(Deserialize)]
        struct RulesOnly<R> {
            #[serde(default)]
            rules: Option<R>,
        }
        let parsed: RulesOnly<R> =
            toml::from_str(&self.text).map_err(|e| self.spans.error(&self.path, &self.text, &e))?;
        Ok(parsed.rules.unwrap_or_default())
    }

    /// Deserializes the whole file into a game's view of it (a struct naming the tables
    /// it reads, e.g. `[simulation]`); errors come back located in the file.
    pub fn deserialize<T: DeserializeOwned>(&self) -> Result<T, JobError> {
        toml::from_str(&self.text).map_err(|e| self.spans.error(&self.path, &self.text, &e))
    }

    /// An error about one field (`rules.decks`), located at that field when it is in the
    /// file, else at its table, else unlocated (the default was invalid in context).
    pub fn field_error(&self, field: &str, message: impl Into<String>) -> JobError {
        let location = self
            .spans
            .key_start(field)
            .or_else(|| {
                field
                    .rsplit_once('.')
                    .and_then(|(table, _)| self.spans.key_start(table))
            })
            .map(|offset| line_column(&self.text, offset));
        JobError {
            path: self.path.clone(),
            location,
            field: Some(field.to_string()),
            message: message.into(),
        }
    }

    /// Whether the file has this top-level table (`grid`, `simulation`, ...).
    pub fn has_table(&self, name: &str) -> bool {
        self.spans.key_start(name).is_some()
    }

    /// The job file's name without folders, e.g. `niuniu.toml`.
    pub fn file_name(&self) -> String {
        Path::new(&self.path)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| self.path.clone())
    }
}

/// What a job's outputs say about the job file that produced them (report titles and
/// headers), handed to `Job::finish` so games need not keep copies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobMeta {
    /// Output folder name under `tables/` (the job's `name`).
    pub name: String,
    /// `game.job`, e.g. `niuniu.hands`.
    pub kind: String,
    /// The job's one-line description (may be empty).
    pub description: String,
    /// The job file's path as the user gave it, e.g. `jobs/niuniu.toml`.
    pub job_file: String,
}

impl JobMeta {
    /// The meta of a parsed job file.
    pub fn of(spec: &JobSpec) -> JobMeta {
        JobMeta {
            name: spec.name.clone(),
            kind: spec.kind.clone(),
            description: spec.description.clone(),
            job_file: spec.path.clone(),
        }
    }

    /// The meta of a job named `name` of kind `kind` with no description, as if run from
    /// `jobs/<name>.toml` (for tests and benchmarks that build jobs directly).
    pub fn named(name: &str, kind: &str) -> JobMeta {
        JobMeta {
            name: name.to_string(),
            kind: kind.to_string(),
            description: String::new(),
            job_file: format!("jobs/{name}.toml"),
        }
    }
}

/// Every top-level entry of a job file must be one of its tables, written as a table:
/// `run = [..]` would otherwise be read by position, silently.
fn check_tables(path: &str, text: &str) -> Result<(), JobError> {
    let Ok(doc) = toml_edit::Document::parse(text) else {
        return Ok(()); // the TOML parser reports syntax errors with their place
    };
    for (key, item) in doc.as_table().iter() {
        let located = |message: String| JobError {
            path: path.to_string(),
            location: doc
                .as_table()
                .key(key)
                .and_then(|k| k.span())
                .map(|s| line_column(text, s.start)),
            field: Some(key.to_string()),
            message,
        };
        if !["job", "rules", "run"].contains(&key) && !EXTRA_TABLES.contains(&key) {
            let extra: Vec<String> = EXTRA_TABLES.iter().map(|t| format!("[{t}]")).collect();
            return Err(located(format!(
                "unknown table: a job file has [job] and, as its kind needs, [rules], {} and [run]",
                extra.join(", ")
            )));
        }
        if !item.is_table_like() {
            return Err(located(format!("`{key}` must be a table, written [{key}]")));
        }
    }
    Ok(())
}

/// Lower-case hex of bytes.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// 1-based line and column (in characters) of a byte offset.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// Where each key of the document sits: dotted path → (key span, value span).
#[derive(Debug, Clone, Default)]
struct SpanIndex {
    entries: BTreeMap<String, (Range<usize>, Range<usize>)>,
}

impl SpanIndex {
    fn build(text: &str) -> SpanIndex {
        let mut index = SpanIndex::default();
        if let Ok(doc) = toml_edit::Document::parse(text) {
            index.walk_table(doc.as_table(), "");
        }
        index
    }

    fn record(&mut self, path: String, key: &toml_edit::Key, item: &toml_edit::Item) {
        let key_span = key.span().unwrap_or(0..0);
        let value_span = match item {
            toml_edit::Item::Table(t) => t.span(),
            _ => item.span(),
        }
        .unwrap_or_else(|| key_span.clone());
        self.entries.insert(path, (key_span, value_span));
    }

    fn walk_table(&mut self, table: &toml_edit::Table, prefix: &str) {
        for (name, _) in table.iter() {
            if let Some((key, item)) = table.get_key_value(name) {
                let path = join(prefix, name);
                self.record(path.clone(), key, item);
                self.walk_item(item, &path);
            }
        }
    }

    fn walk_item(&mut self, item: &toml_edit::Item, path: &str) {
        match item {
            toml_edit::Item::Table(t) => self.walk_table(t, path),
            toml_edit::Item::Value(toml_edit::Value::InlineTable(t)) => {
                for (name, _) in t.iter() {
                    if let Some((key, inner)) = t.get_key_value(name) {
                        let inner_path = join(path, name);
                        self.record(inner_path.clone(), key, inner);
                        self.walk_item(inner, &inner_path);
                    }
                }
            }
            _ => {}
        }
    }

    fn key_start(&self, path: &str) -> Option<usize> {
        self.entries.get(path).map(|(key, _)| key.start)
    }

    /// The deepest key whose key or value span holds `offset`.
    fn field_at(&self, offset: usize) -> Option<&str> {
        self.entries
            .iter()
            .filter(|(_, (key, value))| key.contains(&offset) || value.contains(&offset))
            .max_by_key(|(path, _)| path.matches('.').count())
            .map(|(path, _)| path.as_str())
    }

    /// Turns a TOML/serde error into a located [`JobError`].
    fn error(&self, path: &str, text: &str, e: &toml::de::Error) -> JobError {
        let span = e.span();
        let field = span
            .as_ref()
            .and_then(|s| self.field_at(s.start))
            .map(str::to_string);
        let mut message = e.message().trim().to_string();
        if message == "missing field `job`" {
            // Reported by serde at whatever table came first; the fault is the file's.
            return JobError {
                path: path.to_string(),
                location: None,
                field: Some("job".to_string()),
                message: "no [job] table: every job file needs [job] with `kind` and `name`"
                    .to_string(),
            };
        }
        if message.starts_with("missing field") && field.is_none() {
            message.push_str(" (every job file needs [job] with `kind` and `name`)");
        }
        if message == "duplicate key" {
            // Name the key: the error's span covers it.
            if let Some(key) = span
                .as_ref()
                .and_then(|s| text.get(s.clone()))
                .map(str::trim)
                .filter(|k| !k.is_empty())
            {
                message = format!("duplicate key `{key}`: each key may appear once per table");
            }
        }
        JobError {
            path: path.to_string(),
            location: span.map(|s| line_column(text, s.start)),
            field,
            message,
        }
    }
}

fn join(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_string()
    } else {
        format!("{prefix}.{name}")
    }
}

/// Every job file in a folder (sorted by file name), for `pipeline list`.
pub fn job_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize, Default, Debug)]
    #[serde(deny_unknown_fields, default)]
    struct Toy {
        decks: u8,
        names: Vec<String>,
    }

    fn parse(text: &str) -> Result<JobSpec, JobError> {
        JobSpec::parse("job.toml", text.to_string())
    }

    #[test]
    fn minimal_job_gets_defaults() {
        let spec = parse("[job]\nkind = \"x.y\"\nname = \"n\"\n").unwrap();
        assert_eq!(spec.run, RunSettings::default());
        let toy: Toy = spec.rules().unwrap();
        assert_eq!(toy.decks, 0);
        assert_eq!(spec.hash.len(), 64);
    }

    #[test]
    fn unknown_key_is_located() {
        let e = parse("[job]\nkind = \"x\"\nname = \"n\"\ncolour = 1\n").unwrap_err();
        assert_eq!(e.location.map(|l| l.0), Some(4));
        assert!(e.message.contains("colour"), "{e}");
    }

    #[test]
    fn wrong_type_in_rules_names_the_field_and_line() {
        let spec =
            parse("[job]\nkind = \"x\"\nname = \"n\"\n\n[rules]\ndecks = \"six\"\n").unwrap();
        let e = spec.rules::<Toy>().unwrap_err();
        assert_eq!(e.location.map(|l| l.0), Some(6));
        assert_eq!(e.field.as_deref(), Some("rules.decks"));
        let shown = e.to_string();
        assert!(shown.starts_with("job.toml:6:"), "{shown}");
    }

    #[test]
    fn field_error_points_at_the_key() {
        let spec = parse("[job]\nkind = \"x\"\nname = \"n\"\n[rules]\n  decks = 9\n").unwrap();
        let e = spec.field_error("rules.decks", "too many");
        assert_eq!(e.location, Some((5, 3)));
        let absent = spec.field_error("rules.names", "bad default");
        assert_eq!(absent.location.map(|l| l.0), Some(4));
    }

    #[test]
    fn tables_must_be_tables_and_threads_bounded() {
        let e = parse("run = [1, 2]\n[job]\nkind = \"x\"\nname = \"n\"\n").unwrap_err();
        assert_eq!(e.location, Some((1, 1)), "{e}");
        assert!(e.message.contains("must be a table"), "{e}");
        let e = parse("[job]\nkind = \"x\"\nname = \"n\"\n[extra]\n").unwrap_err();
        assert_eq!(e.field.as_deref(), Some("extra"), "{e}");
        assert!(parse("run = { threads = 2 }\n[job]\nkind = \"x\"\nname = \"n\"\n").is_ok());
        let e = parse("[job]\nkind = \"x\"\nname = \"n\"\n[run]\nthreads = 100000\n").unwrap_err();
        assert_eq!(e.field.as_deref(), Some("run.threads"), "{e}");
        assert!(e.message.contains("1..=1024"), "{e}");
    }

    #[test]
    fn oversized_and_binary_job_files_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let big = dir.path().join("big.toml");
        std::fs::write(&big, vec![b'#'; (MAX_JOB_FILE_BYTES + 1) as usize]).unwrap();
        let e = JobSpec::load(&big).unwrap_err();
        assert!(e.message.contains("larger than 4 MiB"), "{e}");
        let binary = dir.path().join("bin.toml");
        std::fs::write(&binary, [0xff, 0xfe, 0x00]).unwrap();
        assert!(JobSpec::load(&binary)
            .unwrap_err()
            .message
            .contains("not UTF-8"));
        #[cfg(unix)]
        {
            // A device (or a pipe, or a folder) is refused before it is opened.
            let e = JobSpec::load(Path::new("/dev/zero")).unwrap_err();
            assert!(e.message.contains("not a regular file"), "{e}");
            let e = JobSpec::load(dir.path()).unwrap_err();
            assert!(e.message.contains("not a regular file"), "{e}");
        }
    }

    #[test]
    fn syntax_errors_and_bad_names_are_refused() {
        let e = parse("[job\nkind = 1").unwrap_err();
        assert_eq!(e.location.map(|l| l.0), Some(1));
        let e = parse("[job]\nkind = \"x\"\nname = \"../up\"\n").unwrap_err();
        assert_eq!(e.field.as_deref(), Some("job.name"));
        let e = parse("[run]\nthreads = 2\n").unwrap_err();
        assert_eq!(e.field.as_deref(), Some("job"), "{e}");
        assert!(e.message.starts_with("no [job] table"), "{e}");
        let e = parse("[job]\nkind = \"x\"\nname = \"n\"\nname = \"m\"\n").unwrap_err();
        assert_eq!(e.location.map(|l| l.0), Some(4), "{e}");
        assert!(e.message.contains("duplicate key `name`"), "{e}");
    }
}
