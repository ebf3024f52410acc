//! ## What it does
//! Collapses whitespace: every run of spaces and tabs becomes one space, every run with a
//! newline becomes one newline, and the text loses its leading and trailing whitespace (a
//! final newline stays). Then spaces that separate no two word characters go too
//! (`f ( a , b )` → `f(a,b)`), except between two operator characters (`- -`).
//!
//! ## When it helps
//! Last: bytes only; the tokens are the same.
//!
//! ## Example
//! `int  x =\n\n\n   1 ;\n` becomes `int x=\n1;\n`.

use crate::edit::{Edit, EditSet};
use crate::error::Error;
use crate::pass::Pass;
use crate::session::Session;

/// The whitespace pass.
#[derive(Debug, Default)]
pub struct Whitespace;

impl Pass for Whitespace {
    fn name(&self) -> &'static str {
        "whitespace"
    }

    fn run(&mut self, session: &mut Session<'_>) -> Result<(), Error> {
        for tight in [false, true] {
            let base = session.current().clone();
            let mut edits = collapse(base.text(), tight);
            // In a reduction confined to a range, the whitespace outside it stays.
            edits.retain(|e| session.inside(&base, std::slice::from_ref(e)));
            let mut candidates = std::iter::once(EditSet::new(edits));
            session.first_interesting(&base, &mut candidates)?;
        }
        Ok(())
    }
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80
}

fn is_operator(b: u8) -> bool {
    b"+-*/%<>=!&|^~.:?#@".contains(&b)
}

/// The edits that collapse every whitespace run of `text`; with `tight`, runs of spaces
/// between two non-word characters (that are not both operator characters) are deleted.
fn collapse(text: &[u8], tight: bool) -> Vec<Edit> {
    let mut edits = Vec::new();
    let mut i = 0;
    while i < text.len() {
        if !text[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        while i < text.len() && text[i].is_ascii_whitespace() {
            i += 1;
        }
        let run = &text[start..i];
        let newline = run.contains(&b'\n');
        let replacement: &[u8] = if start == 0 {
            b""
        } else if i == text.len() {
            if newline { b"\n" } else { b"" }
        } else if newline {
            b"\n"
        } else {
            let (a, b) = (text[start - 1], text[i]);
            let needed = (is_word(a) && is_word(b)) || (is_operator(a) && is_operator(b));
            if tight && !needed { b"" } else { b" " }
        };
        if run != replacement {
            edits.push(Edit::replace(start..i, replacement));
        }
    }
    edits
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(text: &[u8], tight: bool) -> String {
        let set = EditSet::new(collapse(text, tight)).unwrap();
        String::from_utf8(set.apply(text)).unwrap()
    }

    #[test]
    fn collapses_runs_and_keeps_words_apart() {
        assert_eq!(
            apply(b"  int  x =\n\n\n   1 ;\n\n", false),
            "int x =\n1 ;\n"
        );
        assert_eq!(apply(b"f ( a , b ) - -c;", true), "f(a,b)- -c;");
        assert_eq!(apply(b"int x", true), "int x");
    }
}
