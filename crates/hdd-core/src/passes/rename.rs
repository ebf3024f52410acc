//! ## What it does
//! Renames identifiers to short fresh names, every occurrence of a name at once (C-Reduce's
//! rename): the names costing the most bytes first, each to the shortest name (`a`, `b`,
//! …, `aa`, …) that appears nowhere in the text, so two different names never merge.
//!
//! ## When it helps
//! At the end: the result reads better and is smaller in bytes; the token count is
//! unchanged.
//!
//! ## Example
//! `int counter; int main(void) { return counter; }` with a test that needs `return x;`
//! for some global `x` becomes `int a; int main(void) { return a; }`.

use std::collections::{BTreeMap, HashSet};

use super::text::is_name;
use crate::document::try_each_leaf;
use crate::edit::{Edit, EditSet};
use crate::error::Error;
use crate::pass::Pass;
use crate::session::Session;

/// The renaming pass.
#[derive(Debug, Default)]
pub struct Rename;

impl Pass for Rename {
    fn name(&self) -> &'static str {
        "rename"
    }

    fn run(&mut self, session: &mut Session<'_>) -> Result<(), Error> {
        let mut tried: HashSet<Vec<u8>> = HashSet::new();
        loop {
            let base = session.current().clone();
            let Some(tree) = base.tree() else {
                return Ok(());
            };
            let text = base.text();
            // Every identifier-like leaf, grouped by its text.
            let mut names: BTreeMap<&[u8], Vec<std::ops::Range<usize>>> = BTreeMap::new();
            try_each_leaf(tree.root_node(), &|| session.stop_requested(), |leaf| {
                if is_name(leaf) {
                    names
                        .entry(&text[leaf.byte_range()])
                        .or_default()
                        .push(leaf.byte_range());
                }
            })?;
            let words = word_set(text);
            let mut order: Vec<(&[u8], &Vec<std::ops::Range<usize>>)> = names
                .iter()
                .map(|(n, r)| (*n, r))
                .filter(|(n, _)| !tried.contains(*n))
                .collect();
            order.sort_by_key(|(n, r)| std::cmp::Reverse(n.len() * r.len()));
            let mut accepted = false;
            for (name, ranges) in order {
                tried.insert(name.to_vec());
                let fresh = fresh_name(&words);
                if fresh.len() >= name.len() {
                    continue;
                }
                let edits = ranges
                    .iter()
                    .map(|r| Edit::replace(r.clone(), fresh.clone()))
                    .collect();
                let mut candidates = std::iter::once(EditSet::new(edits));
                if session.first_interesting(&base, &mut candidates)?.is_some() {
                    tried.insert(fresh);
                    accepted = true;
                    break;
                }
            }
            if !accepted {
                return Ok(());
            }
        }
    }
}

/// Every maximal run of word characters in the text.
pub(super) fn word_set(text: &[u8]) -> HashSet<&[u8]> {
    text.split(|&b| !(b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80))
        .filter(|w| !w.is_empty())
        .collect()
}

/// The shortest name in `a`, `b`, …, `z`, `aa`, `ab`, … that is not a word of the text.
pub(super) fn fresh_name(words: &HashSet<&[u8]>) -> Vec<u8> {
    for len in 1.. {
        let mut name = vec![b'a'; len];
        loop {
            if !words.contains(name.as_slice()) {
                return name;
            }
            // Next name of this length, like an odometer over a..z.
            let mut i = len;
            loop {
                if i == 0 {
                    break;
                }
                i -= 1;
                if name[i] < b'z' {
                    name[i] += 1;
                    break;
                }
                name[i] = b'a';
            }
            if name.iter().all(|&b| b == b'a') {
                break;
            }
        }
    }
    unreachable!("some name of some length is free")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fresh_names_avoid_every_word_of_the_text() {
        let text = b"int a; int b = a + c; char *aa;";
        let words = word_set(text);
        assert_eq!(fresh_name(&words), b"d");
        let all: Vec<Vec<u8>> = (b'a'..=b'z').map(|c| vec![c]).collect();
        let words: HashSet<&[u8]> = all.iter().map(Vec::as_slice).collect();
        assert_eq!(fresh_name(&words), b"aa");
    }
}
