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
    if let Some(batch) = output.batches.iter().find(|b| b.schema() != schema) {
        anyhow::bail!(
            "internal error: {} mixes batches of different schemas ({} columns vs {})",
            output.file,
            batch.num_columns(),
            schema.fields().len()
        );
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sink::columns::Columns;
    use parquet::file::reader::{FileReader, SerializedFileReader};

    fn output(plain: Vec<&'static str>) -> ParquetOutput {
        let batch = |from: u32| {
            Columns::new()
                .u32("n", from..from + 3)
                .str("name", ["a", "b", "c"])
                .batch()
                .unwrap()
        };
        ParquetOutput {
            file: "t.parquet".into(),
            batches: vec![batch(0), batch(3)],
            plain_columns: plain,
        }
    }

    #[test]
    fn writes_every_row_and_the_metadata() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.parquet");
        let meta = vec![("pipeline.job".to_string(), "t".to_string())];
        write(&path, &output(vec!["name"]), &meta)
            .unwrap()
            .commit()
            .unwrap();
        let reader = SerializedFileReader::new(std::fs::File::open(&path).unwrap()).unwrap();
        let file = reader.metadata().file_metadata();
        assert_eq!(file.num_rows(), 6);
        let kv = file.key_value_metadata().unwrap();
        assert!(kv
            .iter()
            .any(|e| e.key == "pipeline.job" && e.value.as_deref() == Some("t")));
        // Same input, same bytes.
        let again = dir.path().join("u.parquet");
        write(&again, &output(vec!["name"]), &meta)
            .unwrap()
            .commit()
            .unwrap();
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
    fn row_groups_never_split_a_batch() {
        let out = output(vec![]);
        let groups = row_groups(&out.batches);
        assert_eq!(groups.len(), 1);
        assert_eq!(groups[0].len(), 2);
    }
}
