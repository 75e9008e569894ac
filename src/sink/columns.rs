//! A typed column builder, so a game states each Parquet table's schema once, where it
//! fills the columns: `Columns::new().u8("combos", ..).f64("equity", ..).batch()`.
//!
//! A column is nullable exactly when it holds a null (as Arrow's `try_from_iter` decides),
//! so a table's Parquet schema follows from its data and every builder call is one line.

use std::sync::Arc;

use arrow_array::types::UInt8Type;
use arrow_array::{
    ArrayRef, BooleanArray, DictionaryArray, Float64Array, Int32Array, RecordBatch, StringArray,
    UInt16Array, UInt32Array, UInt64Array, UInt8Array,
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

    pub fn u8(self, name: &'static str, values: impl IntoIterator<Item = u8>) -> Columns {
        self.array(name, Arc::new(UInt8Array::from_iter_values(values)))
    }

    /// A `u8` column with nulls (`None`).
    pub fn u8_or_null(
        self,
        name: &'static str,
        values: impl IntoIterator<Item = Option<u8>>,
    ) -> Columns {
        self.array(name, Arc::new(values.into_iter().collect::<UInt8Array>()))
    }

    pub fn u16(self, name: &'static str, values: impl IntoIterator<Item = u16>) -> Columns {
        self.array(name, Arc::new(UInt16Array::from_iter_values(values)))
    }

    pub fn u32(self, name: &'static str, values: impl IntoIterator<Item = u32>) -> Columns {
        self.array(name, Arc::new(UInt32Array::from_iter_values(values)))
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

    pub fn u64(self, name: &'static str, values: impl IntoIterator<Item = u64>) -> Columns {
        self.array(name, Arc::new(UInt64Array::from_iter_values(values)))
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

    /// A dictionary-encoded string column (a category): `keys` index `names`.
    pub fn dict(
        mut self,
        name: &'static str,
        keys: impl IntoIterator<Item = u8>,
        names: &Arc<StringArray>,
    ) -> Columns {
        let keys = UInt8Array::from_iter_values(keys);
        let values: ArrayRef = names.clone();
        match DictionaryArray::<UInt8Type>::try_new(keys, values) {
            Ok(array) => self.array(name, Arc::new(array)),
            Err(e) => {
                self.error
                    .get_or_insert_with(|| anyhow::anyhow!("column {name}: {e}"));
                self
            }
        }
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
            .batch()
            .unwrap();
        let schema = batch.schema();
        let fields: Vec<(&str, &DataType, bool)> = schema
            .fields()
            .iter()
            .map(|f| (f.name().as_str(), f.data_type(), f.is_nullable()))
            .collect();
        assert_eq!(fields[0], ("a", &DataType::UInt8, false));
        assert_eq!(fields[1], ("b", &DataType::Float64, true));
        assert_eq!(fields[2], ("c", &DataType::Utf8, false));
        assert!(matches!(fields[3].1, DataType::Dictionary(_, _)));
        assert_eq!(fields[4], ("e", &DataType::UInt64, false));
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
    }
}
