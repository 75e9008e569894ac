//! Parquet output: Arrow record batches to a zstd-compressed file with the job's rules and
//! hash in the key-value metadata.

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

/// One Parquet table a job produces.
pub struct ParquetOutput {
    /// File name inside the job's output folder, e.g. `hands.parquet`.
    pub file: String,
    /// The rows, in the order they are written.
    pub batches: Vec<RecordBatch>,
    /// Columns whose values are nearly all distinct: written without a dictionary.
    pub plain_columns: Vec<&'static str>,
}

impl ParquetOutput {
    /// Total rows over all batches.
    pub fn rows(&self) -> u64 {
        self.batches.iter().map(|b| b.num_rows() as u64).sum()
    }
}

/// Rows per row group (batches are not split, so a group may hold a little more): large
/// enough for good compression, small enough for readers to parallelise over a 2.6 M-row
/// file.
const ROW_GROUP_ROWS: usize = 1 << 19;

/// Writes `output` beside `path` (staged, see [`Staged`]), with `metadata` as key-value
/// pairs.
pub fn write(
    path: &Path,
    output: &ParquetOutput,
    metadata: &[(String, String)],
) -> anyhow::Result<Staged> {
    let schema = match output.batches.first() {
        Some(b) => b.schema(),
        None => anyhow::bail!("{} has no rows to write", output.file),
    };
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
    stage(path, |w| {
        let writer = ArrowWriter::try_new(w, Arc::clone(&schema), Some(props))?;
        let (mut file, factory) = writer.into_serialized_writer()?;
        for (index, group) in row_groups(&output.batches).into_iter().enumerate() {
            // Each column of a row group is encoded and compressed on its own core; the
            // chunks are then appended in column order, so the bytes do not depend on
            // scheduling.
            let chunks = factory
                .create_column_writers(index)?
                .into_par_iter()
                .zip(schema.fields().par_iter().enumerate())
                .map(|(mut column, (i, field))| {
                    for batch in group {
                        for leaf in compute_leaves(field, batch.column(i))? {
                            column.write(&leaf)?;
                        }
                    }
                    column.close()
                })
                .collect::<Result<Vec<_>, _>>()?;
            let mut row_group = file.next_row_group()?;
            for chunk in chunks {
                chunk.append_to_row_group(&mut row_group)?;
            }
            row_group.close()?;
        }
        file.close()?;
        Ok(())
    })
}

/// Consecutive batches grouped into row groups of about [`ROW_GROUP_ROWS`] rows.
fn row_groups(batches: &[RecordBatch]) -> Vec<&[RecordBatch]> {
    let mut groups = Vec::new();
    let (mut start, mut rows) = (0, 0);
    for (i, batch) in batches.iter().enumerate() {
        rows += batch.num_rows();
        if rows >= ROW_GROUP_ROWS {
            groups.push(&batches[start..=i]);
            (start, rows) = (i + 1, 0);
        }
    }
    if start < batches.len() {
        groups.push(&batches[start..]);
    }
    groups
}
