//! A typed column builder, so a game states each Parquet table's schema once, where it
//! fills the columns: `Columns::new().u8("combos", ..).f64("equity", ..).batch()`.
//!
//! A column is nullable exactly when it holds a null (as Arrow's `try_from_iter` decides),
//! so a table's Parquet schema follows from its data and every builder call is one line.
//!
//! Every integer column is written signed, one size up from the Rust type it is filled
//! from (`u8` → Int16, `u16` → Int32, `u32` and `u64` → Int64), so that ordinary
//! arithmetic (`total - 20`, `c1 - c5`) is right in every reader: unsigned columns wrap
//! in pandas and polars and overflow in DuckDB. Category columns are plain strings (the
//! `*_rank` column beside one gives its order).

use std::sync::Arc;

use arrow_array::{
    Array, ArrayRef, BooleanArray, Float64Array, Int16Array, Int32Array, Int64Array, RecordBatch,
    StringArray,
};

/// The columns of one record batch, in schema order.
#[derive(Default)]
pub struct Columns {
    columns: Vec<(&'static str, ArrayRef)>,
    /// The first error met while building (a dictionary key out of range); reported by
    /// [`Columns::batch`].
    error: Option<anyhow::Error>,
}

impl Columns {
    /// No columns yet.
    pub fn new() -> Columns {
        Columns::default()
    }

    /// Any Arrow array, for the few column types without a method here.
    pub fn array(mut self, name: &'static str, array: ArrayRef) -> Columns {
        self.columns.push((name, array));
        self
    }

    /// `u8` values, written as Int16.
    pub fn u8(self, name: &'static str, values: impl IntoIterator<Item = u8>) -> Columns {
        let values = values.into_iter().map(i16::from);
        self.array(name, Arc::new(Int16Array::from_iter_values(values)))
    }

    /// `u8` values with nulls (`None`), written as Int16.
    pub fn u8_or_null(
        self,
        name: &'static str,
        values: impl IntoIterator<Item = Option<u8>>,
    ) -> Columns {
        let values = values.into_iter().map(|v| v.map(i16::from));
        self.array(name, Arc::new(values.collect::<Int16Array>()))
    }

    /// `u16` values, written as Int32.
    pub fn u16(self, name: &'static str, values: impl IntoIterator<Item = u16>) -> Columns {
        let values = values.into_iter().map(i32::from);
        self.array(name, Arc::new(Int32Array::from_iter_values(values)))
    }

    /// `u32` values, written as Int64.
    pub fn u32(self, name: &'static str, values: impl IntoIterator<Item = u32>) -> Columns {
        let values = values.into_iter().map(i64::from);
        self.array(name, Arc::new(Int64Array::from_iter_values(values)))
    }

    pub fn i32(self, name: &'static str, values: impl IntoIterator<Item = i32>) -> Columns {
        self.array(name, Arc::new(Int32Array::from_iter_values(values)))
    }

    /// An `i32` column with nulls (`None`).
    pub fn i32_or_null(
        self,
        name: &'static str,
        values: impl IntoIterator<Item = Option<i32>>,
    ) -> Columns {
        self.array(name, Arc::new(values.into_iter().collect::<Int32Array>()))
    }

    /// `u64` values, written as Int64; a value above `i64::MAX` is an error of the batch.
    pub fn u64(mut self, name: &'static str, values: impl IntoIterator<Item = u64>) -> Columns {
        let values: Result<Vec<i64>, _> = values.into_iter().map(i64::try_from).collect();
        match values {
            Ok(v) => self.array(name, Arc::new(Int64Array::from(v))),
            Err(_) => {
                self.error
                    .get_or_insert_with(|| anyhow::anyhow!("column {name}: a count above 2^63"));
                self
            }
        }
    }

    pub fn f64(self, name: &'static str, values: impl IntoIterator<Item = f64>) -> Columns {
        self.array(name, Arc::new(Float64Array::from_iter_values(values)))
    }

    /// An `f64` column with nulls (`None`).
    pub fn f64_or_null(
        self,
        name: &'static str,
        values: impl IntoIterator<Item = Option<f64>>,
    ) -> Columns {
        self.array(name, Arc::new(values.into_iter().collect::<Float64Array>()))
    }

    pub fn bool(self, name: &'static str, values: impl IntoIterator<Item = bool>) -> Columns {
        let values: Vec<bool> = values.into_iter().collect();
        self.array(name, Arc::new(BooleanArray::from(values)))
    }

    /// A plain string column.
    pub fn str<S: AsRef<str>>(
        self,
        name: &'static str,
        values: impl IntoIterator<Item = S>,
    ) -> Columns {
        self.array(name, Arc::new(StringArray::from_iter_values(values)))
    }

    /// A list column of counts, `per_row` values per row (a histogram's bins), written as
    /// a list of Int32; a count above `i32::MAX` is an error of the batch.
    pub fn counts_list(
        mut self,
        name: &'static str,
        per_row: usize,
        values: impl IntoIterator<Item = u64>,
    ) -> Columns {
        use arrow_array::ListArray;
        use arrow_buffer::OffsetBuffer;
        use arrow_schema::{DataType, Field};
        let values: Result<Vec<i32>, _> = values.into_iter().map(i32::try_from).collect();
        let Ok(values) = values else {
            self.error
                .get_or_insert_with(|| anyhow::anyhow!("column {name}: a count above 2^31"));
            return self;
        };
        let rows = values.len() / per_row.max(1);
        let offsets = OffsetBuffer::from_lengths(std::iter::repeat_n(per_row, rows));
        let field = Arc::new(Field::new("item", DataType::Int32, false));
        let list = ListArray::new(field, offsets, Arc::new(Int32Array::from(values)), None);
        self.array(name, Arc::new(list))
    }

    /// A category column: `keys` index `names`, written as plain strings (a key out of
    /// range is an error of the batch).
    pub fn dict(
        mut self,
        name: &'static str,
        keys: impl IntoIterator<Item = u8>,
        names: &Arc<StringArray>,
    ) -> Columns {
        let mut out = Vec::new();
        for key in keys {
            let key = usize::from(key);
            if key >= names.len() {
                self.error.get_or_insert_with(|| {
                    anyhow::anyhow!("column {name}: key {key} of {} names", names.len())
                });
                return self;
            }
            out.push(names.value(key));
        }
        self.array(name, Arc::new(StringArray::from(out)))
    }

    /// The record batch; fails on an error met while building, on columns of different
    /// lengths, or on a name used twice.
    pub fn batch(self) -> anyhow::Result<RecordBatch> {
        if let Some(e) = self.error {
            return Err(e);
        }
        for (i, (name, _)) in self.columns.iter().enumerate() {
            anyhow::ensure!(
                !self.columns[..i].iter().any(|(n, _)| n == name),
                "column {name} is defined twice"
            );
        }
        Ok(RecordBatch::try_from_iter(self.columns)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_schema::DataType;

    #[test]
    fn columns_keep_their_order_types_and_nullability() {
        let names = Arc::new(StringArray::from(vec!["low", "high"]));
        let batch = Columns::new()
            .u8("a", [1, 2])
            .f64_or_null("b", [Some(0.5), None])
            .str("c", ["x", "y"])
            .dict("d", [1, 0], &names)
            .u64("e", [7, 8])
            .u16("f", [65_535, 0])
            .u32("g", [u32::MAX, 0])
            .batch()
            .unwrap();
        let schema = batch.schema();
        let fields: Vec<(&str, &DataType, bool)> = schema
            .fields()
            .iter()
            .map(|f| (f.name().as_str(), f.data_type(), f.is_nullable()))
            .collect();
        // Integers signed and one size up, so every value fits and subtracts safely;
        // categories as plain strings.
        assert_eq!(fields[0], ("a", &DataType::Int16, false));
        assert_eq!(fields[1], ("b", &DataType::Float64, true));
        assert_eq!(fields[2], ("c", &DataType::Utf8, false));
        assert_eq!(fields[3], ("d", &DataType::Utf8, false));
        assert_eq!(fields[4], ("e", &DataType::Int64, false));
        assert_eq!(fields[5], ("f", &DataType::Int32, false));
        assert_eq!(fields[6], ("g", &DataType::Int64, false));
        let d = batch
            .column(3)
            .as_any()
            .downcast_ref::<StringArray>()
            .unwrap();
        assert_eq!((d.value(0), d.value(1)), ("high", "low"));
        let f = batch
            .column(5)
            .as_any()
            .downcast_ref::<Int32Array>()
            .unwrap();
        assert_eq!(f.value(0), 65_535);
        let g = batch
            .column(6)
            .as_any()
            .downcast_ref::<Int64Array>()
            .unwrap();
        assert_eq!(g.value(0), i64::from(u32::MAX));
        assert_eq!(batch.num_rows(), 2);
    }

    #[test]
    fn bad_columns_are_errors() {
        let names = Arc::new(StringArray::from(vec!["only"]));
        let e = Columns::new().dict("d", [3], &names).batch().unwrap_err();
        assert!(e.to_string().contains("column d"), "{e}");
        assert!(Columns::new().u8("a", [1]).u8("b", [1, 2]).batch().is_err());
        let e = Columns::new()
            .u8("a", [1])
            .u8("a", [2])
            .batch()
            .unwrap_err();
        assert!(e.to_string().contains("twice"), "{e}");
        let e = Columns::new().u64("big", [u64::MAX]).batch().unwrap_err();
        assert!(e.to_string().contains("column big"), "{e}");
    }
}
