//! Parquet output: Arrow record batches to a zstd-compressed file with the job's rules and
//! hash in the key-value metadata. A table may be handed over built or as a batch
//! builder ([`Batches::streamed`]); either way the file is written one row group at a
//! time, so a streamed table's memory is bounded by a row group, not by the table.

use std::collections::VecDeque;
use std::path::Path;
use std::sync::Arc;

use arrow_array::RecordBatch;
use parquet::arrow::arrow_writer::compute_leaves;
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::metadata::KeyValue;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::schema::types::ColumnPath;
use rayon::prelude::*;

use super::{stage, Staged};

/// Version of the data contract (`docs/tables.md`) the files follow, written as
/// `pipeline.contract` in every file's metadata: 2 made every integer column signed, every
/// share 0–1 and every text column a plain string.
pub const CONTRACT_VERSION: u32 = 2;

/// One Parquet table a job produces.
pub struct ParquetOutput {
    /// File name inside the job's output folder, e.g. `hands.parquet`.
    pub file: String,
    /// The rows, in the order they are written.
    pub batches: Batches,
    /// Columns whose values are nearly all distinct: written without a dictionary.
    pub plain_columns: Vec<&'static str>,
}

/// The rows of a table: built already, or built batch by batch while the file is written,
/// so that a table of millions of rows never sits in memory whole (only the row group
/// being written and the batches being built for it do).
pub enum Batches {
    /// Every batch, built.
    Built(Vec<RecordBatch>),
    /// `count` batches; batch `i` is `make(i)`. Batches are built in parallel waves of one
    /// per worker thread, in index order.
    Streamed {
        count: usize,
        make: Box<BatchMaker>,
        /// Rows per row group, where a table of wide rows wants fewer than
        /// `ROW_GROUP_ROWS` so that the rows held while a group is encoded stay small.
        group_rows: Option<usize>,
    },
}

/// Builds batch `i` of a streamed table.
pub type BatchMaker = dyn Fn(usize) -> anyhow::Result<RecordBatch> + Send + Sync;

impl From<Vec<RecordBatch>> for Batches {
    fn from(batches: Vec<RecordBatch>) -> Self {
        Batches::Built(batches)
    }
}

impl Batches {
    /// A table built on demand: `count` batches, batch `i` from `make(i)`.
    pub fn streamed(
        count: usize,
        make: impl Fn(usize) -> anyhow::Result<RecordBatch> + Send + Sync + 'static,
    ) -> Self {
        Batches::Streamed {
            count,
            make: Box::new(make),
            group_rows: None,
        }
    }

    /// A table built on demand in row groups of `group_rows` rows (after the batch that
    /// reaches it), for tables of wide rows.
    pub fn streamed_in_groups(
        count: usize,
        group_rows: usize,
        make: impl Fn(usize) -> anyhow::Result<RecordBatch> + Send + Sync + 'static,
    ) -> Self {
        Batches::Streamed {
            count,
            make: Box::new(make),
            group_rows: Some(group_rows.max(1)),
        }
    }

    /// Rows per row group.
    fn group_rows(&self) -> usize {
        match self {
            Batches::Streamed {
                group_rows: Some(n),
                ..
            } => *n,
            _ => ROW_GROUP_ROWS,
        }
    }

    /// Every batch, in order: built ones as they are, streamed ones built now (all at once:
    /// for tests and small tables).
    pub fn collect(&self) -> anyhow::Result<Vec<RecordBatch>> {
        match self {
            Batches::Built(batches) => Ok(batches.clone()),
            Batches::Streamed { count, make, .. } => (0..*count).map(make).collect(),
        }
    }

    fn count(&self) -> usize {
        match self {
            Batches::Built(batches) => batches.len(),
            Batches::Streamed { count, .. } => *count,
        }
    }

    /// Batches `range`, in order; streamed ones built in parallel.
    fn get(&self, range: std::ops::Range<usize>) -> anyhow::Result<Vec<RecordBatch>> {
        match self {
            Batches::Built(batches) => Ok(batches[range].to_vec()),
            Batches::Streamed { make, .. } => range.into_par_iter().map(make).collect(),
        }
    }
}

/// Hands out a table's batches in order, building streamed ones a wave at a time (one per
/// worker thread, in parallel).
struct Feed<'a> {
    batches: &'a Batches,
    count: usize,
    next: usize,
    pending: VecDeque<RecordBatch>,
}

impl Feed<'_> {
    fn peek(&mut self) -> anyhow::Result<Option<&RecordBatch>> {
        if self.pending.is_empty() && self.next < self.count {
            let end = (self.next + rayon::current_num_threads().max(1)).min(self.count);
            self.pending.extend(self.batches.get(self.next..end)?);
            self.next = end;
        }
        Ok(self.pending.front())
    }

    fn pop(&mut self) -> anyhow::Result<Option<RecordBatch>> {
        self.peek()?;
        Ok(self.pending.pop_front())
    }
}

/// Rows per row group (batches are not split, so a group may hold a little more): large
/// enough for good compression, small enough for readers to parallelise over a 2.6 M-row
/// file.
const ROW_GROUP_ROWS: usize = 1 << 19;

/// Writes `output` beside `path` (staged, see [`Staged`]), with `metadata` as key-value
/// pairs; returns the staged file and the number of rows written.
///
/// Row groups are cut where the rows so far reach `ROW_GROUP_ROWS` (or the table's own
/// group size, [`Batches::streamed_in_groups`]) after the batch that reaches it, so the
/// bytes depend on the batches alone, not on how many are built at once.
pub fn write(
    path: &Path,
    output: &ParquetOutput,
    metadata: &[(String, String)],
) -> anyhow::Result<(Staged, u64)> {
    let count = output.batches.count();
    let mut feed = Feed {
        batches: &output.batches,
        count,
        next: 0,
        pending: VecDeque::new(),
    };
    // The first batch fixes the schema every later batch must have.
    let schema = match feed.peek()? {
        Some(batch) => batch.schema(),
        None => anyhow::bail!("{} has no rows to write", output.file),
    };
    for column in &output.plain_columns {
        if schema.field_with_name(column).is_err() {
            anyhow::bail!(
                "internal error: {} has no column {column:?} to write without a dictionary",
                output.file
            );
        }
    }
    let mut props = WriterProperties::builder()
        .set_compression(Compression::ZSTD(ZstdLevel::try_new(3)?))
        .set_statistics_enabled(EnabledStatistics::Chunk)
        .set_key_value_metadata(Some(
            metadata
                .iter()
                .map(|(k, v)| KeyValue::new(k.clone(), v.clone()))
                .collect(),
        ));
    for column in &output.plain_columns {
        props = props.set_column_dictionary_enabled(ColumnPath::from(*column), false);
    }
    let props = props.build();
    let mut rows = 0u64;
    let rows_per_group = output.batches.group_rows();
    let staged = stage(path, |w| {
        let writer = ArrowWriter::try_new(w, Arc::clone(&schema), Some(props))?;
        let (mut file, factory) = writer.into_serialized_writer()?;
        let mut index = 0;
        loop {
            // The next row group: batches up to the one that reaches ROW_GROUP_ROWS, or
            // every batch left.
            let mut group = Vec::new();
            let mut group_rows = 0;
            while group_rows < rows_per_group {
                let Some(batch) = feed.pop()? else { break };
                if batch.schema() != schema {
                    anyhow::bail!(
                        "internal error: {} mixes batches of different schemas ({} columns vs {})",
                        output.file,
                        batch.num_columns(),
                        schema.fields().len()
                    );
                }
                group_rows += batch.num_rows();
                group.push(batch);
            }
            if group.is_empty() {
                break;
            }
            rows += group_rows as u64;
            // Each column of a row group is encoded and compressed on its own core; the
            // chunks are then appended in column order, so the bytes do not depend on
            // scheduling.
            let chunks = factory
                .create_column_writers(index)?
                .into_par_iter()
                .zip(schema.fields().par_iter().enumerate())
                .map(|(mut column, (i, field))| {
                    for batch in &group {
                        for leaf in compute_leaves(field, batch.column(i))? {
                            column.write(&leaf)?;
                        }
                    }
                    column.close()
                })
                .collect::<Result<Vec<_>, _>>()?;
            drop(group);
            let mut row_group = file.next_row_group()?;
            for chunk in chunks {
                chunk.append_to_row_group(&mut row_group)?;
            }
            row_group.close()?;
            index += 1;
        }
        file.close()?;
        Ok(())
    })?;
    Ok((staged, rows))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sink::columns::Columns;
    use parquet::file::reader::{FileReader, SerializedFileReader};

    fn batch(from: u32, rows: u32) -> RecordBatch {
        Columns::new()
            .u32("n", from..from + rows)
            .str("name", (from..from + rows).map(|i| format!("r{}", i % 7)))
            .batch()
            .unwrap()
    }

    fn output(plain: Vec<&'static str>) -> ParquetOutput {
        ParquetOutput {
            file: "t.parquet".into(),
            batches: vec![batch(0, 3), batch(3, 3)].into(),
            plain_columns: plain,
        }
    }

    fn write_bytes(path: &Path, output: &ParquetOutput) -> (Vec<u8>, u64) {
        let (staged, rows) = write(path, output, &[]).unwrap();
        staged.commit().unwrap();
        (std::fs::read(path).unwrap(), rows)
    }

    #[test]
    fn writes_every_row_and_the_metadata() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.parquet");
        let meta = vec![("pipeline.job".to_string(), "t".to_string())];
        let (staged, rows) = write(&path, &output(vec!["name"]), &meta).unwrap();
        assert_eq!(rows, 6);
        staged.commit().unwrap();
        let reader = SerializedFileReader::new(std::fs::File::open(&path).unwrap()).unwrap();
        let file = reader.metadata().file_metadata();
        assert_eq!(file.num_rows(), 6);
        let kv = file.key_value_metadata().unwrap();
        assert!(kv
            .iter()
            .any(|e| e.key == "pipeline.job" && e.value.as_deref() == Some("t")));
        // Same input, same bytes.
        let again = dir.path().join("u.parquet");
        let (staged, _) = write(&again, &output(vec!["name"]), &meta).unwrap();
        staged.commit().unwrap();
        assert_eq!(
            std::fs::read(&path).unwrap(),
            std::fs::read(&again).unwrap()
        );
    }

    #[test]
    fn a_misspelt_plain_column_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let e = write(&dir.path().join("t.parquet"), &output(vec!["nmae"]), &[]).unwrap_err();
        assert!(e.to_string().contains("\"nmae\""), "{e}");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn a_table_without_batches_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let empty = ParquetOutput {
            file: "t.parquet".into(),
            batches: Batches::streamed(0, |i| Ok(batch(i as u32, 1))),
            plain_columns: vec![],
        };
        let e = write(&dir.path().join("t.parquet"), &empty, &[]).unwrap_err();
        assert!(e.to_string().contains("no rows"), "{e}");
    }

    /// A streamed table writes the bytes the same batches built up front do, whatever the
    /// number of threads building them, with row groups cut after the batch that reaches
    /// `ROW_GROUP_ROWS` and never inside one.
    #[test]
    fn streamed_batches_write_the_bytes_built_ones_do_on_any_thread_count() {
        const ROWS: u32 = 200_000; // 3 batches reach a row group, 8 make 3 groups
        let dir = tempfile::tempdir().unwrap();
        let built = ParquetOutput {
            file: "t.parquet".into(),
            batches: (0..8)
                .map(|i| batch(i * ROWS, ROWS))
                .collect::<Vec<_>>()
                .into(),
            plain_columns: vec!["n"],
        };
        let (reference, rows) = write_bytes(&dir.path().join("built.parquet"), &built);
        assert_eq!(rows, 8 * u64::from(ROWS));
        let reader = SerializedFileReader::new(
            std::fs::File::open(dir.path().join("built.parquet")).unwrap(),
        )
        .unwrap();
        let groups: Vec<i64> = reader
            .metadata()
            .row_groups()
            .iter()
            .map(|g| g.num_rows())
            .collect();
        assert_eq!(groups, [3, 3, 2].map(|b| b * i64::from(ROWS)));
        for threads in [1, 2, 3, 5] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let streamed = ParquetOutput {
                file: "t.parquet".into(),
                batches: Batches::streamed(8, |i| Ok(batch(i as u32 * ROWS, ROWS))),
                plain_columns: vec!["n"],
            };
            let path = dir.path().join(format!("streamed{threads}.parquet"));
            let (bytes, rows) = pool.install(|| write_bytes(&path, &streamed));
            assert_eq!(rows, 8 * u64::from(ROWS));
            assert!(bytes == reference, "{threads} threads wrote other bytes");
        }
    }

    #[test]
    fn a_failing_batch_fails_the_write_and_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let failing = ParquetOutput {
            file: "t.parquet".into(),
            batches: Batches::streamed(40, |i| {
                anyhow::ensure!(i != 33, "batch 33 failed");
                Ok(batch(i as u32 * 100_000, 100_000))
            }),
            plain_columns: vec![],
        };
        let e = write(&dir.path().join("t.parquet"), &failing, &[]).unwrap_err();
        assert!(format!("{e:#}").contains("batch 33 failed"), "{e:#}");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
