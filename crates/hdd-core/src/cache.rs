//! The verdict cache: content hash of a tested text -> whether it was interesting.

use std::collections::HashMap;

/// A text's content key: its 128-bit XXH3 hash and its length, so equal texts reached by
/// different edits are tested once. The hash is stable (the same on every machine and
/// version: XXH3 is a fixed algorithm, unlike std's `DefaultHasher`), so keys can be kept
/// on disk across runs ([`Executor::earlier_verdicts`](crate::Executor::earlier_verdicts)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TextKey {
    /// XXH3-128 of the text.
    pub hash: u128,
    /// Its length in bytes.
    pub len: u64,
}

impl TextKey {
    /// The key of `text`.
    #[must_use]
    pub fn of(text: &[u8]) -> TextKey {
        TextKey {
            hash: xxhash_rust::xxh3::xxh3_128(text),
            len: text.len() as u64,
        }
    }
}

/// Verdicts of every text tested so far.
#[derive(Debug, Default)]
pub struct Cache {
    verdicts: HashMap<TextKey, bool>,
}

impl Cache {
    /// The verdict recorded for `key`, if any.
    #[must_use]
    pub fn get(&self, key: TextKey) -> Option<bool> {
        self.verdicts.get(&key).copied()
    }

    /// Records a verdict.
    pub fn insert(&mut self, key: TextKey, interesting: bool) {
        self.verdicts.insert(key, interesting);
    }

    /// Number of texts recorded.
    #[must_use]
    pub fn len(&self) -> usize {
        self.verdicts.len()
    }

    /// Whether nothing was recorded yet.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.verdicts.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_texts_share_a_key_and_different_ones_do_not() {
        let mut cache = Cache::default();
        cache.insert(TextKey::of(b"int a;"), false);
        assert_eq!(cache.get(TextKey::of(b"int a;")), Some(false));
        assert_eq!(cache.get(TextKey::of(b"int b;")), None);
        assert_eq!(cache.len(), 1);
    }

    /// Keys are kept on disk across runs and versions: the hash must never change.
    #[test]
    fn keys_are_stable() {
        let key = TextKey::of(b"int a;");
        assert_eq!(key.len, 6);
        assert_eq!(key.hash, xxhash_rust::xxh3::xxh3_128(b"int a;"));
        // XXH3-128 of the empty input, from the reference implementation's test vectors.
        assert_eq!(
            TextKey::of(b"").hash,
            0x99aa_06d3_0147_98d8_6001_c324_468d_497f
        );
    }
}
