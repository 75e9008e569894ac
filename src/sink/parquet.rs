//! Parquet output: Arrow record batches to a zstd-compressed file with the job's rules and
//! hash in the key-value metadata.

use std::path::Path;
use std::sync::Arc;

use arrow_array::RecordBatch;
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::metadata::KeyValue;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::schema::types::ColumnPath;

use super::{atomic_write, Written};

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

/// Rows per row group: large enough for good compression, small enough for readers to
/// parallelise over a 2.6 M-row file.
const ROW_GROUP_ROWS: usize = 1 << 19;

/// Writes `output` to `path` atomically, with `metadata` as key-value pairs.
pub fn write(
    path: &Path,
    output: &ParquetOutput,
    metadata: &[(String, String)],
) -> anyhow::Result<Written> {
    let schema = match output.batches.first() {
        Some(b) => b.schema(),
        None => anyhow::bail!("{} has no rows to write", output.file),
    };
    let mut props = WriterProperties::builder()
        .set_compression(Compression::ZSTD(ZstdLevel::try_new(3)?))
        .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
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
    atomic_write(path, |w| {
        let mut writer = ArrowWriter::try_new(w, Arc::clone(&schema), Some(props))?;
        for batch in &output.batches {
            writer.write(batch)?;
        }
        writer.close()?;
        Ok(())
    })
}
