//! ## What it does
//! ddmin over the tokens of the current text: the leaves of the syntax tree, or the
//! tokens a lexer finds without a grammar (see below). A leaf that holds text the grammar does
//! not parse (a C `#define`'s body, `preproc_arg`; HTML's `raw_text` of a script or a
//! style; the text of a string, a comment or a here-document) counts as the tokens a
//! lexer finds in it: words, quoted strings, and every other character alone, so
//! `#define a (x[i]-y[i])` can lose its parentheses and operands one at a time, and
//! `"unexpected token in header"` keep only the word the test looks for.
//!
//! ## When it helps
//! Last: it removes single keywords, qualifiers, operators and parentheses the tree
//! passes cannot (a node's minimal replacement is often no smaller than the node).
//!
//! ## Example
//! `static const int x = (1);` with a test that needs `x = 1` becomes `int x = 1;`.

use super::text::{is_word, spaced_deletion, swallow_space};
use super::units::ddmin_units;
use crate::pass::Pass;
use std::ops::Range;

use crate::document::{Document, Stop, try_each_leaf};
use crate::edit::Edit;
use crate::error::Error;
use crate::session::Session;

/// ddmin over tokens.
#[derive(Debug, Default)]
pub struct Tokens;

impl Pass for Tokens {
    fn name(&self) -> &'static str {
        "tokens"
    }

    fn run(&mut self, session: &mut Session<'_>) -> Result<(), Error> {
        let base = session.current().clone();
        // Without a grammar or its validity filter (the lenient tail), a token glued
        // between two words leaves a space (`@media(i` -> `@media i`); with them, the
        // filter judges the glued text, and the spaces several deleted neighbours would
        // leave are not worth their bytes.
        let text = base.text();
        let spaced = base.tree().is_none() || session.lenient();
        let units: Vec<Edit> = token_ranges(&base, &|| session.stop_requested())?
            .into_iter()
            .map(|r| {
                if spaced {
                    spaced_deletion(text, r)
                } else {
                    Edit::delete(swallow_space(text, r))
                }
            })
            .collect();
        ddmin_units(session, &base, &units, false)?;
        Ok(())
    }
}

/// The byte ranges of the document's tokens: the non-empty leaves of its tree, or its
/// lexer tokens without a grammar.
///
/// # Errors
/// [`Error::Stopped`] when `stop` says so.
pub(super) fn token_ranges(doc: &Document, stop: Stop<'_>) -> Result<Vec<Range<usize>>, Error> {
    match doc.tree() {
        Some(tree) => {
            let mut ranges = Vec::new();
            try_each_leaf(tree.root_node(), stop, |leaf| {
                if OPAQUE_KINDS.contains(&leaf.kind()) {
                    let start = leaf.start_byte();
                    ranges.extend(
                        lexer_tokens(&doc.text()[leaf.byte_range()])
                            .into_iter()
                            .map(|r| start + r.start..start + r.end),
                    );
                } else {
                    ranges.push(leaf.byte_range());
                }
            })?;
            Ok(ranges)
        }
        None => Ok(lexer_tokens(doc.text())),
    }
}

/// Leaf kinds whose text holds structure the grammar does not parse.
const OPAQUE_KINDS: &[&str] = &[
    // A C or C++ macro's body; the contents of an HTML `<script>` or `<style>`.
    "preproc_arg",
    "raw_text",
    // The text of a string literal (C, C++, Rust, Python, JSON, CSS, Bash; JavaScript,
    // TypeScript and Java; Go; raw strings), of a YAML plain scalar, and of a Bash
    // here-document.
    "string_content",
    "string_fragment",
    "interpreted_string_literal_content",
    "raw_string_literal_content",
    "raw_string_content",
    "string_scalar",
    "heredoc_body",
    "heredoc_content",
    // Comments.
    "comment",
    "line_comment",
    "block_comment",
];

/// The tokens of an opaque leaf's text, or of a text without a grammar: words (letters,
/// digits, `_`), quoted strings (`"…"`, `'…'`, `` `…` ``, with backslash escapes, closed
/// on their line; an unclosed quote is a token alone: `don't`), and each other character
/// that is not a space.
pub(super) fn lexer_tokens(text: &[u8]) -> Vec<Range<usize>> {
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < text.len() {
        let b = text[i];
        let end = if b.is_ascii_whitespace() {
            i += 1;
            continue;
        } else if is_word(b) {
            i + text[i..].iter().take_while(|&&c| is_word(c)).count()
        } else if matches!(b, b'"' | b'\'' | b'`') {
            let mut j = i + 1;
            while j < text.len() && text[j] != b && text[j] != b'\n' {
                j += if text[j] == b'\\' { 2 } else { 1 };
            }
            if j < text.len() && text[j] == b {
                j + 1
            } else {
                i + 1
            }
        } else {
            i + 1
        };
        tokens.push(i..end);
        i = end;
    }
    tokens
}
