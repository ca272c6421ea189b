//! Lists read within a budget. A document's text gives no counts, so a
//! list grows element by element; a list of short items (`"",` is three
//! bytes of text, a `String` 24 in memory) would take several times the
//! file's size. Every list of a document draws its elements' own size
//! from one budget, set for the document being read ([`within`]); a
//! document past it is refused as it reads, before the memory is taken.

use serde::de::{Deserialize, Deserializer, Error, SeqAccess, Visitor};
use std::cell::Cell;
use std::fmt;
use std::marker::PhantomData;

thread_local! {
    /// Bytes the lists of the document being read may still take (no
    /// limit outside [`within`]).
    static LEFT: Cell<usize> = const { Cell::new(usize::MAX) };
}

/// Runs `read` with `bytes` for its lists, then puts the budget back as
/// it was.
pub(super) fn within<R>(bytes: usize, read: impl FnOnce() -> R) -> R {
    let outer = LEFT.replace(bytes);
    let out = read();
    LEFT.set(outer);
    out
}

/// A list whose elements are paid for from the budget.
pub(super) fn list<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    deserializer.deserialize_seq(ListVisitor(PhantomData))
}

/// An optional list ([`list`] when present).
pub(super) fn optional_list<'de, D, T>(deserializer: D) -> Result<Option<Vec<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    deserializer.deserialize_option(OptionVisitor(PhantomData))
}

struct ListVisitor<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for ListVisitor<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
        let mut out = Vec::new();
        while let Some(element) = seq.next_element()? {
            pay(size_of::<T>()).map_err(A::Error::custom)?;
            out.push(element);
        }
        Ok(out)
    }
}

struct OptionVisitor<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for OptionVisitor<T> {
    type Value = Option<Vec<T>>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an optional list")
    }

    fn visit_none<E: Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        list(deserializer).map(Some)
    }
}

/// Takes `bytes` from the budget, or says it is spent.
fn pay(bytes: usize) -> Result<(), String> {
    LEFT.with(|left| match left.get().checked_sub(bytes) {
        Some(rest) => {
            left.set(rest);
            Ok(())
        }
        None => Err("the document's lists are longer than a recording holds".to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    struct Two {
        #[serde(deserialize_with = "list")]
        a: Vec<String>,
        #[serde(deserialize_with = "list")]
        b: Vec<u64>,
    }

    #[test]
    fn every_list_of_a_document_draws_from_one_budget() {
        let text = r#"(a: ["x", "y"], b: [1, 2, 3])"#;
        let cost = 2 * size_of::<String>() + 3 * size_of::<u64>();
        let read = |budget| within(budget, || ron::from_str::<Two>(text));
        let two = read(cost).unwrap();
        assert_eq!((two.a.len(), two.b.len()), (2, 3));
        let refused = read(cost - 1).unwrap_err().to_string();
        assert!(
            refused.contains("longer than a recording holds"),
            "{refused}"
        );
        // Outside a document being read there is no budget.
        assert_eq!(LEFT.get(), usize::MAX);
    }
}
