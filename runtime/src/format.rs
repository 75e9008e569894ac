//! The table file format shared by every game: a fixed 40-byte header of our own, then a
//! bincode payload.
//!
//! ```text
//! offset size field
//!      0    8 magic           b"CARDTBL\0"
//!      8    2 format_version  u16 LE, currently 5 (1 to 4 are still read, see below)
//!     10    2 game            u16 LE, see [`Game`]
//!     12    4 reserved        must be 0
//!     16    8 rules_hash      u64 LE, identifies the rule set the table was computed under
//!     24    8 payload_len     u64 LE, bytes after the header; must equal the rest of the file
//!     32    4 payload_crc32   CRC-32 (IEEE) of the payload
//!     36    4 reserved        must be 0
//!     40    … payload         bincode 2, fixed-width little-endian integers
//! ```
//!
//! Versions: 2 changed only the Niuniu payload (one entry per rank multiset and tie-break
//! suit, with banker EVs, instead of one per hand); 3 only the Zhajinhua payload (suit
//! classes and equities against calling ranges appended). Every other game's payload is
//! the same in versions 1 to 4, so their older files load as before; a Niuniu file older
//! than version 2 and a Zhajinhua file older than version 3 are refused with an error that
//! says to regenerate them. Version 3 also adds game code 7 (Hold'em push/fold). Version 4
//! appends `bomb_order` to the Niuniu payload (how 炸弹 are settled); a version 2 or 3
//! Niuniu file is read as settling them by the highest card, the only rule it knew. Game
//! code 8 (Niuniu see-four-cards bidding) came with version 4; a reader of version 4 that
//! predates it refuses the file as an unknown game. Version 5 changed only the Zhajinhua
//! payload: the equities against whole-percent calling ranges gave way to the two rules
//! that price a range of any share from the hands' strengths; a Zhajinhua file older
//! than version 5 is refused with an error that says to regenerate it. Game code 10
//! (Hold'em hand strength by street) came within version 6: a reader that predates it
//! refuses the file as an unknown game.
//!
//! Loading checks every field before decoding. The decoder is given a byte limit derived
//! from the payload length, so a hostile length prefix fails instead of allocating.
//! This module is the only place that knows bincode: replacing it changes nothing else.
//!
//! Because integers are fixed-width, every list of numbers in a payload is its 8-byte
//! length followed by the numbers, little-endian, back to back. The three largest tables
//! (Zhajinhua, Stud, Niuniu bidding) are read that way by [`Layout`], one bulk copy per
//! list rather than a decoder call per number; their tests check that it reads exactly
//! what the bincode decoder reads and refuses what it refuses.

use std::cell::Cell;
use std::marker::PhantomData;

use serde::de::{self, DeserializeOwned, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};

/// First eight bytes of every table file.
pub const MAGIC: [u8; 8] = *b"CARDTBL\0";
/// The format version this crate writes.
pub const FORMAT_VERSION: u16 = 6;
/// The oldest format version this crate reads.
pub const OLDEST_VERSION: u16 = 1;
/// Size of the fixed header in bytes.
pub const HEADER_LEN: usize = 40;
/// Largest payload a table file may declare (2 GiB: the largest table the pipeline writes
/// is the Hold'em turn strength table, 0.9 GB with 50 histogram bins and 1.6 GB with the
/// most, 100). Larger declarations are refused before anything is read.
pub const MAX_PAYLOAD: u64 = 2 << 30;

/// Which game a table belongs to (the header's `game` field).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u16)]
pub enum Game {
    Niuniu = 1,
    Holdem = 2,
    Stud = 3,
    Zhajinhua = 4,
    Blackjack = 5,
    /// Hold'em heads-up matchups (a separate table from the preflop one).
    HoldemHeadsUp = 6,
    /// Hold'em heads-up push/fold equilibria.
    HoldemPushFold = 7,
    /// Niuniu see-four-cards bidding (看牌抢庄).
    NiuniuBidding = 8,
    /// Blackjack count-index plays.
    BlackjackIndices = 9,
    /// Hold'em hand strength of one street (E[HS], E[HS²], histograms).
    HoldemStrength = 10,
    /// Hold'em three-way class equities.
    HoldemThreeWay = 11,
    /// Hold'em three-handed push/fold equilibria.
    HoldemPushFold3 = 12,
    /// Not a game: the pipeline's own checkpoints and shard parts, which reuse the
    /// container for its length and checksum checks.
    Pipeline = 0xFFFF,
}

impl Game {
    /// The game with this header code.
    pub fn from_code(code: u16) -> Option<Game> {
        [
            Game::Niuniu,
            Game::Holdem,
            Game::Stud,
            Game::Zhajinhua,
            Game::Blackjack,
            Game::HoldemHeadsUp,
            Game::HoldemPushFold,
            Game::NiuniuBidding,
            Game::BlackjackIndices,
            Game::HoldemStrength,
            Game::HoldemThreeWay,
            Game::HoldemPushFold3,
            Game::Pipeline,
        ]
        .into_iter()
        .find(|g| *g as u16 == code)
    }

    /// Lower-case name, as used in job kinds and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Game::Niuniu => "niuniu",
            Game::Holdem => "holdem",
            Game::Stud => "stud",
            Game::Zhajinhua => "zhajinhua",
            Game::Blackjack => "blackjack",
            Game::HoldemHeadsUp => "holdem-headsup",
            Game::HoldemPushFold => "holdem-pushfold",
            Game::NiuniuBidding => "niuniu-bidding",
            Game::BlackjackIndices => "blackjack-indices",
            Game::HoldemStrength => "holdem-strength",
            Game::HoldemThreeWay => "holdem-threeway",
            Game::HoldemPushFold3 => "holdem-pushfold3",
            Game::Pipeline => "pipeline-internal",
        }
    }
}

/// Everything that can be wrong with a table file. Loading never panics.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// The cause is part of the message (and not also a `source`, which would print it
    /// twice in an error chain).
    #[error("cannot read table file {path}: {cause}")]
    Io { path: String, cause: std::io::Error },
    #[error("{path} is not a regular file (a folder, pipe or device): not a table")]
    NotAFile { path: String },
    #[error("file is {len} bytes, shorter than the {HEADER_LEN}-byte table header: truncated or not a table")]
    TooShort { len: usize },
    #[error("bad magic bytes: not a cardtables table file")]
    BadMagic,
    #[error("format version {found} is not supported: this build of cardtables reads versions {OLDEST_VERSION} to {FORMAT_VERSION}; regenerate the table or upgrade cardtables")]
    UnsupportedVersion { found: u16 },
    #[error("unknown game code {code} in header")]
    UnknownGame { code: u16 },
    #[error("this is a {found} table, expected a {expected} table")]
    WrongGame {
        expected: &'static str,
        found: &'static str,
    },
    #[error("reserved header bytes are not zero: corrupt header")]
    ReservedNotZero,
    #[error("header says the payload is {declared} bytes but {actual} follow: truncated or corrupt file")]
    LengthMismatch { declared: u64, actual: u64 },
    #[error("payload checksum mismatch (header {expected:#010x}, computed {computed:#010x}): corrupt file")]
    ChecksumMismatch { expected: u32, computed: u32 },
    #[error("header declares a {declared}-byte payload, more than the {limit}-byte limit: corrupt or not a table")]
    TooLarge { declared: u64, limit: u64 },
    #[error("payload does not decode: {0}")]
    Decode(String),
    #[error("payload decodes but is invalid: {0}")]
    Invalid(String),
    #[error("cannot encode payload: {0}")]
    Encode(String),
}

/// The validated fixed header of a table file.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TableHeader {
    pub format_version: u16,
    pub game: Game,
    pub rules_hash: u64,
    pub payload_len: u64,
    pub payload_crc32: u32,
}

fn le_u16(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}
fn le_u32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}
fn le_u64(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

/// Reads and checks the header and payload checksum; returns the header and the payload.
///
/// This is what `pipeline inspect` uses: it works for any game.
pub fn read_header(bytes: &[u8]) -> Result<(TableHeader, &[u8]), TableError> {
    if bytes.len() < HEADER_LEN {
        return Err(TableError::TooShort { len: bytes.len() });
    }
    if bytes[..8] != MAGIC {
        return Err(TableError::BadMagic);
    }
    let format_version = le_u16(bytes, 8);
    if !(OLDEST_VERSION..=FORMAT_VERSION).contains(&format_version) {
        return Err(TableError::UnsupportedVersion {
            found: format_version,
        });
    }
    let code = le_u16(bytes, 10);
    let game = Game::from_code(code).ok_or(TableError::UnknownGame { code })?;
    if le_u32(bytes, 12) != 0 || le_u32(bytes, 36) != 0 {
        return Err(TableError::ReservedNotZero);
    }
    let payload = &bytes[HEADER_LEN..];
    let payload_len = le_u64(bytes, 24);
    if payload_len != payload.len() as u64 {
        return Err(TableError::LengthMismatch {
            declared: payload_len,
            actual: payload.len() as u64,
        });
    }
    let payload_crc32 = le_u32(bytes, 32);
    let computed = crc32fast::hash(payload);
    if computed != payload_crc32 {
        return Err(TableError::ChecksumMismatch {
            expected: payload_crc32,
            computed,
        });
    }
    let header = TableHeader {
        format_version,
        game,
        rules_hash: le_u64(bytes, 16),
        payload_len,
        payload_crc32,
    };
    Ok((header, payload))
}

/// Checks the header (see [`read_header`]) and that the file is a table of `expected`.
pub fn open_payload(bytes: &[u8], expected: Game) -> Result<(TableHeader, &[u8]), TableError> {
    let (header, payload) = read_header(bytes)?;
    if header.game != expected {
        return Err(TableError::WrongGame {
            expected: expected.name(),
            found: header.game.name(),
        });
    }
    Ok((header, payload))
}

/// Reads a whole table file into memory.
///
/// Reads at most what the header declares (and never more than [`MAX_PAYLOAD`]), so a
/// special file (`/dev/zero`), a huge file or a hostile header costs a bounded read and
/// allocation, never "read until memory runs out".
pub fn read_file(path: &std::path::Path) -> Result<Vec<u8>, TableError> {
    read_file_up_to(path, MAX_PAYLOAD)
}

/// [`read_file`] with another payload limit, for files whose writer allows larger
/// payloads than a runtime table (the pipeline's own checkpoints): the writer and the
/// reader of a kind of file must use the same limit.
pub fn read_file_up_to(path: &std::path::Path, limit: u64) -> Result<Vec<u8>, TableError> {
    use std::io::Read;
    let io = |cause| TableError::Io {
        path: path.display().to_string(),
        cause,
    };
    // Checked before opening: opening a named pipe for reading waits for a writer.
    if !std::fs::metadata(path).map_err(io)?.is_file() {
        return Err(TableError::NotAFile {
            path: path.display().to_string(),
        });
    }
    let mut file = std::fs::File::open(path).map_err(io)?;
    let mut bytes = Vec::with_capacity(HEADER_LEN);
    (&mut file)
        .take(HEADER_LEN as u64)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    if bytes.len() < HEADER_LEN {
        return Err(TableError::TooShort { len: bytes.len() });
    }
    if bytes[..8] != MAGIC {
        return Err(TableError::BadMagic);
    }
    let declared = le_u64(&bytes, 24);
    if declared > limit {
        return Err(TableError::TooLarge { declared, limit });
    }
    // One byte past the declaration, so a longer file is caught as a length mismatch.
    file.take(declared + 1)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    Ok(bytes)
}

/// Checks the header and checksum of a `game` table and decodes its payload (each game's
/// loader then validates the payload's contents).
pub fn load<T: DeserializeOwned>(bytes: &[u8], game: Game) -> Result<(TableHeader, T), TableError> {
    let (header, payload) = open_payload(bytes, game)?;
    Ok((header, decode(payload)?))
}

/// Decodes a payload whose layout is the same in every version this crate reads.
pub fn decode_any_version<T: DeserializeOwned>(
    _version: u16,
    bytes: &[u8],
) -> Result<T, TableError> {
    decode(bytes)
}

/// The file methods every game's table type shares: `open`, `from_bytes`, `to_bytes`,
/// `header` and `rules`. The type has fields `header` and `payload`; the payload has a
/// `rules` string; the module has `fn validate(&Payload) -> Result<(), TableError>`.
/// A fourth argument names the function `fn(version, payload bytes) -> Result<Payload,
/// TableError>` that decodes a game whose layout changed between versions; or, as
/// `build = f`, the function `fn(TableHeader, payload bytes) -> Result<Table, TableError>`
/// of a table kept in memory in its own form (fields `header` and `rules`).
macro_rules! table_file {
    ($table:ident, $payload:ty, $game:expr) => {
        format::table_file!($table, $payload, $game, format::decode_any_version);
    };
    ($table:ident, $payload:ty, $game:expr, $decode:path) => {
        impl $table {
            /// Validates a table held in memory (a `Vec`, a memory map, an embedded slice).
            pub fn from_bytes(bytes: impl AsRef<[u8]>) -> Result<$table, TableError> {
                let (header, bytes) = format::open_payload(bytes.as_ref(), $game)?;
                let payload: $payload = $decode(header.format_version, bytes)?;
                validate(&payload)?;
                Ok($table { header, payload })
            }

            /// The rules the table was computed under, as TOML text.
            pub fn rules(&self) -> &str {
                &self.payload.rules
            }
        }
        format::table_file!(@shared $table, $payload, $game);
    };
    // A table kept in memory in its own form, not as its payload: `$build(header, payload
    // bytes)` reads and validates it, and the type has fields `header` and `rules`.
    ($table:ident, $payload:ty, $game:expr, build = $build:path) => {
        impl $table {
            /// Validates a table held in memory (a `Vec`, a memory map, an embedded slice).
            pub fn from_bytes(bytes: impl AsRef<[u8]>) -> Result<$table, TableError> {
                let (header, bytes) = format::open_payload(bytes.as_ref(), $game)?;
                $build(header, bytes)
            }

            /// The rules the table was computed under, as TOML text.
            pub fn rules(&self) -> &str {
                &self.rules
            }
        }
        format::table_file!(@shared $table, $payload, $game);
    };
    (@shared $table:ident, $payload:ty, $game:expr) => {
        impl $table {
            /// Reads and validates a table file.
            pub fn open(path: impl AsRef<std::path::Path>) -> Result<$table, TableError> {
                $table::from_bytes(format::read_file(path.as_ref())?)
            }

            /// Builds the table file bytes for a payload (used by the pipeline's sinks).
            pub fn to_bytes(rules_hash: u64, payload: &$payload) -> Result<Vec<u8>, TableError> {
                validate(payload)?;
                format::write_table($game, rules_hash, payload)
            }

            /// Writes the table file for a payload to `out` without holding its bytes
            /// (the same bytes as [`Self::to_bytes`]), for tables of hundreds of MB.
            pub fn write_to(
                rules_hash: u64,
                payload: &$payload,
                out: &mut dyn std::io::Write,
            ) -> Result<(), TableError> {
                validate(payload)?;
                format::write_table_to($game, rules_hash, payload, out)
            }

            /// The validated file header.
            pub fn header(&self) -> &TableHeader {
                &self.header
            }
        }
    };
}
pub(crate) use table_file;

/// Writes a complete table file to `out` without holding its bytes: the payload is encoded
/// twice, once to measure its length and checksum for the header, once into `out`.
pub fn write_table_to<T: Serialize>(
    game: Game,
    rules_hash: u64,
    payload: &T,
    out: &mut dyn std::io::Write,
) -> Result<(), TableError> {
    let (len, crc) = measure(payload)?;
    let mut header = Vec::with_capacity(HEADER_LEN);
    header.extend_from_slice(&MAGIC);
    header.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    header.extend_from_slice(&(game as u16).to_le_bytes());
    header.extend_from_slice(&0u32.to_le_bytes());
    header.extend_from_slice(&rules_hash.to_le_bytes());
    header.extend_from_slice(&len.to_le_bytes());
    header.extend_from_slice(&crc.to_le_bytes());
    header.extend_from_slice(&0u32.to_le_bytes());
    let io = |e: std::io::Error| TableError::Encode(e.to_string());
    out.write_all(&header).map_err(io)?;
    let mut out = std::io::BufWriter::with_capacity(1 << 20, out);
    bincode::serde::encode_into_std_write(payload, &mut out, config())
        .map_err(|e| TableError::Encode(e.to_string()))?;
    std::io::Write::flush(&mut out).map_err(io)?;
    Ok(())
}

/// The length and CRC-32 of a payload's encoding, computed without holding it.
pub fn measure<T: Serialize>(payload: &T) -> Result<(u64, u32), TableError> {
    /// Counts and checksums what is written, keeping nothing.
    struct Measure {
        len: u64,
        crc: crc32fast::Hasher,
    }
    impl std::io::Write for Measure {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.len += bytes.len() as u64;
            self.crc.update(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut m = Measure {
        len: 0,
        crc: crc32fast::Hasher::new(),
    };
    bincode::serde::encode_into_std_write(payload, &mut m, config())
        .map_err(|e| TableError::Encode(e.to_string()))?;
    Ok((m.len, m.crc.finalize()))
}

/// Writes a complete table file: header followed by the bincode encoding of `payload`.
pub fn write_table<T: Serialize>(
    game: Game,
    rules_hash: u64,
    payload: &T,
) -> Result<Vec<u8>, TableError> {
    let body = encode(payload)?;
    let mut out = Vec::with_capacity(HEADER_LEN + body.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&(game as u16).to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&rules_hash.to_le_bytes());
    out.extend_from_slice(&(body.len() as u64).to_le_bytes());
    out.extend_from_slice(&crc32fast::hash(&body).to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&body);
    Ok(out)
}

type BaseConfig = bincode::config::Configuration<
    bincode::config::LittleEndian,
    bincode::config::Fixint,
    bincode::config::NoLimit,
>;

fn config() -> BaseConfig {
    bincode::config::standard()
        .with_fixed_int_encoding()
        .with_little_endian()
}

/// Encodes a value with the format's bincode configuration.
///
/// Also used by the pipeline for checkpoints and shard parts, so that bincode stays in
/// this one module.
pub fn encode<T: Serialize>(value: &T) -> Result<Vec<u8>, TableError> {
    bincode::serde::encode_to_vec(value, config()).map_err(|e| TableError::Encode(e.to_string()))
}

fn decode_limited<T: DeserializeOwned, const LIMIT: usize>(
    bytes: &[u8],
) -> Result<(T, usize), bincode::error::DecodeError> {
    bincode::serde::borrow_decode_from_slice(bytes, config().with_limit::<LIMIT>())
}

thread_local! {
    /// Bytes a list decoded with [`bounded_vec`] may reserve on this thread: the payload's
    /// length while a table decodes, unlimited otherwise.
    static BUDGET: Cell<usize> = const { Cell::new(usize::MAX) };
}

/// Restores the unlimited budget when a decode ends, even by an error.
struct BudgetGuard;

impl BudgetGuard {
    fn set(bytes: usize) -> BudgetGuard {
        BUDGET.with(|b| b.set(bytes));
        BudgetGuard
    }
}

impl Drop for BudgetGuard {
    fn drop(&mut self) {
        BUDGET.with(|b| b.set(usize::MAX));
    }
}

/// Deserializes a list, reserving its memory up front only if it fits in the payload being
/// decoded (`#[serde(deserialize_with = "format::bounded_vec")]`).
///
/// Table payloads store numbers at their in-memory width, so a genuine list never needs
/// more bytes than the payload has; a forged length is refused before anything is
/// allocated. Lists are decoded one after another and a list only grows past its
/// reservation with bytes actually read, so memory stays within a small multiple of the
/// file's size.
pub fn bounded_vec<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    struct Bounded<T>(PhantomData<T>);

    impl<'de, T: Deserialize<'de>> Visitor<'de> for Bounded<T> {
        type Value = Vec<T>;

        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a list")
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
            let len = seq.size_hint().unwrap_or(0);
            let bytes = len.saturating_mul(std::mem::size_of::<T>().max(1));
            let fits = BUDGET.with(|b| bytes <= b.get());
            if !fits {
                return Err(de::Error::custom(format!(
                    "a list of {len} entries cannot fit in the payload"
                )));
            }
            let mut items = Vec::with_capacity(len);
            while let Some(item) = seq.next_element()? {
                items.push(item);
            }
            Ok(items)
        }
    }

    deserializer.deserialize_seq(Bounded(PhantomData))
}

/// Decodes a value written by [`encode`], requiring that it uses every byte.
///
/// Lists marked with [`bounded_vec`] reserve at most the payload's size in all; strings
/// are checked against the bytes present before they are copied; and bincode's own limit
/// (the smallest power of two at least `bytes.len()`) bounds everything else. A hostile
/// length prefix is an error, never a large allocation.
pub fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, TableError> {
    let _budget = BudgetGuard::set(bytes.len());
    macro_rules! by_limit {
        ($($shift:literal)*) => {{
            let needed = bytes.len().max(1).next_power_of_two();
            $( if needed <= 1usize << $shift { decode_limited::<T, { 1usize << $shift }>(bytes) } else )*
            { return Err(TableError::Decode("payload larger than 1 TiB".into())) }
        }};
    }
    let (value, used) =
        by_limit!(10 12 14 16 18 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40)
            .map_err(|e| TableError::Decode(e.to_string()))?;
    if used != bytes.len() {
        return Err(TableError::Decode(format!(
            "{} trailing bytes after the payload",
            bytes.len() - used
        )));
    }
    Ok(value)
}

/// A payload read field by field in its documented layout, for the large tables: each
/// number array is checked for length once and copied out with one bulk read, instead of
/// a decode call per element (the Zhajinhua table opens about three times faster).
///
/// Every read is bounded by the bytes that remain, so a hostile length prefix is an
/// error, never an allocation; [`Layout::finish`] refuses trailing bytes, as [`decode`]
/// does. A game reading its payload this way tests that it reads what [`decode`] reads.
pub struct Layout<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Layout<'a> {
    /// A reader at the start of `payload`.
    pub fn new(payload: &'a [u8]) -> Layout<'a> {
        Layout {
            bytes: payload,
            at: 0,
        }
    }

    fn short(&self, what: &str, needed: u64) -> TableError {
        TableError::Decode(format!(
            "{what}: {needed} bytes needed at payload offset {}, {} remain",
            self.at,
            self.bytes.len() - self.at
        ))
    }

    /// The next `n` bytes.
    fn take(&mut self, n: u64, what: &str) -> Result<&'a [u8], TableError> {
        let remaining = (self.bytes.len() - self.at) as u64;
        if n > remaining {
            return Err(self.short(what, n));
        }
        let start = self.at;
        self.at += n as usize;
        Ok(&self.bytes[start..self.at])
    }

    fn le<const N: usize>(&mut self, what: &str) -> Result<[u8; N], TableError> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.take(N as u64, what)?);
        Ok(out)
    }

    /// A `u8`.
    pub fn u8(&mut self, what: &str) -> Result<u8, TableError> {
        Ok(self.le::<1>(what)?[0])
    }

    /// A list's length prefix for entries of `width` bytes, checked against what remains.
    fn count(&mut self, width: u64, what: &str) -> Result<usize, TableError> {
        let n = u64::from_le_bytes(self.le::<8>(what)?);
        let remaining = (self.bytes.len() - self.at) as u64;
        if n.checked_mul(width).is_none_or(|bytes| bytes > remaining) {
            return Err(TableError::Decode(format!(
                "{what}: a list of {n} entries cannot fit in the {remaining} bytes that remain"
            )));
        }
        Ok(n as usize)
    }

    /// A UTF-8 string.
    pub fn string(&mut self, what: &str) -> Result<String, TableError> {
        let n = self.count(1, what)?;
        let raw = self.take(n as u64, what)?;
        std::str::from_utf8(raw)
            .map(str::to_owned)
            .map_err(|e| TableError::Decode(format!("{what}: {e}")))
    }

    /// A `u32`.
    pub fn u32(&mut self, what: &str) -> Result<u32, TableError> {
        Ok(u32::from_le_bytes(self.le(what)?))
    }

    /// An `f64`.
    pub fn f64(&mut self, what: &str) -> Result<f64, TableError> {
        Ok(f64::from_le_bytes(self.le(what)?))
    }

    /// A list of strings.
    pub fn strings(&mut self, what: &str) -> Result<Vec<String>, TableError> {
        // Each string takes at least its 8-byte length.
        self.list(what, 8, |r| r.string(what))
    }

    /// A list of records, each at least `min_width` bytes (which bounds the list's length
    /// by the bytes that remain), each read by `item`.
    pub fn list<T>(
        &mut self,
        what: &str,
        min_width: u64,
        mut item: impl FnMut(&mut Layout<'a>) -> Result<T, TableError>,
    ) -> Result<Vec<T>, TableError> {
        let n = self.count(min_width.max(1), what)?;
        (0..n).map(|_| item(self)).collect()
    }

    /// A list of fixed-width little-endian numbers, `N` bytes each, converted by `from`.
    pub fn numbers<const N: usize, T>(
        &mut self,
        what: &str,
        from: impl Fn([u8; N]) -> T,
    ) -> Result<Vec<T>, TableError> {
        let n = self.count(N as u64, what)?;
        let raw = self.take((n * N) as u64, what)?;
        Ok(raw
            .chunks_exact(N)
            .map(|c| from(c.try_into().expect("chunks of N bytes")))
            .collect())
    }

    /// A list of `u8`.
    pub fn u8s(&mut self, what: &str) -> Result<Vec<u8>, TableError> {
        self.numbers::<1, u8>(what, |[b]| b)
    }

    /// A list of `u16`.
    pub fn u16s(&mut self, what: &str) -> Result<Vec<u16>, TableError> {
        self.numbers(what, u16::from_le_bytes)
    }

    /// A list of `u32`.
    pub fn u32s(&mut self, what: &str) -> Result<Vec<u32>, TableError> {
        self.numbers(what, u32::from_le_bytes)
    }

    /// A list of `i32`.
    pub fn i32s(&mut self, what: &str) -> Result<Vec<i32>, TableError> {
        self.numbers(what, i32::from_le_bytes)
    }

    /// A list of `u64`.
    pub fn u64s(&mut self, what: &str) -> Result<Vec<u64>, TableError> {
        self.numbers(what, u64::from_le_bytes)
    }

    /// A list of `i64`.
    pub fn i64s(&mut self, what: &str) -> Result<Vec<i64>, TableError> {
        self.numbers(what, i64::from_le_bytes)
    }

    /// A list of `f64`.
    pub fn f64s(&mut self, what: &str) -> Result<Vec<f64>, TableError> {
        self.numbers(what, f64::from_le_bytes)
    }

    /// A `bool`: one byte, 0 or 1.
    pub fn bool(&mut self, what: &str) -> Result<bool, TableError> {
        match self.u8(what)? {
            b @ (0 | 1) => Ok(b == 1),
            b => Err(TableError::Decode(format!(
                "{what}: {b} is not a bool (0 or 1)"
            ))),
        }
    }

    /// A list of `bool`, one byte each, which must be 0 or 1.
    pub fn bools(&mut self, what: &str) -> Result<Vec<bool>, TableError> {
        let bytes = self.u8s(what)?;
        match bytes.iter().position(|&b| b > 1) {
            Some(i) => Err(TableError::Decode(format!(
                "{what}: entry {i} is {}, not a bool (0 or 1)",
                bytes[i]
            ))),
            None => Ok(bytes.into_iter().map(|b| b == 1).collect()),
        }
    }

    /// Ends the read: every byte must have been used.
    pub fn finish(self) -> Result<(), TableError> {
        match self.bytes.len() - self.at {
            0 => Ok(()),
            extra => Err(TableError::Decode(format!(
                "{extra} trailing bytes after the payload"
            ))),
        }
    }
}

/// Checks a game's [`Layout`] reader against [`decode`] on `payload`: both read it back,
/// and both refuse every truncation tried and a trailing byte.
#[cfg(test)]
pub(crate) fn check_layout_reader<T>(payload: &T, read: fn(u16, &[u8]) -> Result<T, TableError>)
where
    T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let body = encode(payload).unwrap();
    assert_eq!(&read(FORMAT_VERSION, &body).unwrap(), payload);
    assert_eq!(&decode::<T>(&body).unwrap(), payload);
    let cuts = (0..body.len()).step_by(body.len() / 97 + 1);
    for len in cuts.chain([body.len() - 1]) {
        assert!(read(FORMAT_VERSION, &body[..len]).is_err(), "length {len}");
        assert!(decode::<T>(&body[..len]).is_err(), "length {len}");
    }
    let mut long = body.clone();
    long.push(0);
    assert!(read(FORMAT_VERSION, &long).is_err());
    assert!(decode::<T>(&long).is_err());
    // Damaged bytes anywhere (lengths included) give an error or some payload, never a
    // panic; a length is always checked against the bytes that remain.
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..300 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let mut bad = body.clone();
        let at = (state % body.len() as u64) as usize;
        bad[at] ^= (state >> 32) as u8 | 1;
        let _ = read(FORMAT_VERSION, &bad);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
    struct Sample {
        name: String,
        values: Vec<u32>,
    }

    fn sample_file() -> Vec<u8> {
        let s = Sample {
            name: "x".into(),
            values: (0..1000).collect(),
        };
        write_table(Game::Niuniu, 7, &s).unwrap()
    }

    #[test]
    fn round_trip() {
        let file = sample_file();
        let (header, payload) = open_payload(&file, Game::Niuniu).unwrap();
        assert_eq!(header.rules_hash, 7);
        let back: Sample = decode(payload).unwrap();
        assert_eq!(back.values.len(), 1000);
        assert_eq!(back.values[999], 999);
    }

    #[test]
    fn fixed_width_arrays_are_flat() {
        // u32 values are 4 bytes each after an 8-byte length: 8 + 1 (name) + 8 + 4000.
        let body = encode(&Sample {
            name: "x".into(),
            values: (0..1000).collect(),
        })
        .unwrap();
        assert_eq!(body.len(), 8 + 1 + 8 + 4000);
    }

    #[test]
    fn every_truncation_is_an_error() {
        let file = sample_file();
        for len in 0..file.len() {
            assert!(read_header(&file[..len]).is_err(), "length {len} accepted");
        }
    }

    #[test]
    fn header_faults_name_the_problem() {
        let file = sample_file();
        let mut bad = file.clone();
        bad[0] = b'X';
        assert!(matches!(read_header(&bad), Err(TableError::BadMagic)));
        let mut bad = file.clone();
        bad[8] = 9;
        assert!(matches!(
            read_header(&bad),
            Err(TableError::UnsupportedVersion { found: 9 })
        ));
        let mut bad = file.clone();
        bad[100] ^= 0x40;
        assert!(matches!(
            read_header(&bad),
            Err(TableError::ChecksumMismatch { .. })
        ));
        assert!(matches!(
            open_payload(&file, Game::Holdem),
            Err(TableError::WrongGame { .. })
        ));
    }

    #[test]
    fn hostile_length_prefix_is_refused_without_allocating() {
        // A vector claiming 2^60 elements, followed by almost nothing.
        let mut body = Vec::new();
        body.extend_from_slice(&1u64.to_le_bytes());
        body.push(b'x');
        body.extend_from_slice(&(1u64 << 60).to_le_bytes());
        body.extend_from_slice(&[0; 16]);
        assert!(decode::<Sample>(&body).is_err());
        // A string claiming 2^62 bytes.
        let mut body = Vec::new();
        body.extend_from_slice(&(1u64 << 62).to_le_bytes());
        body.extend_from_slice(b"abc");
        assert!(decode::<Sample>(&body).is_err());
    }
}
