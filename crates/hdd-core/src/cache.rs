//! The verdict cache: content hash of a tested text -> whether it was interesting.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

/// A 128-bit content key (two independent 64-bit SipHashes and the length), so equal
/// texts reached by different edits are tested once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TextKey(u64, u64, usize);

impl TextKey {
    /// The key of `text`.
    #[must_use]
    pub fn of(text: &[u8]) -> TextKey {
        let mut a = DefaultHasher::new();
        text.hash(&mut a);
        let mut b = DefaultHasher::new();
        0x5eed_u32.hash(&mut b);
        text.hash(&mut b);
        TextKey(a.finish(), b.finish(), text.len())
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
}
