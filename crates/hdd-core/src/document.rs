//! A Document is the text of a candidate or of the current best, with its syntax tree (a
//! huge one is held without, with the counts of a windowed parse: `outline.rs`).

use std::ops::ControlFlow;

use tree_sitter::{InputEdit, Node, ParseOptions, ParseState, Parser, Point, Tree};

use crate::edit::EditSet;
use crate::error::Error;

mod bash;
mod python;
pub(crate) mod walk;
mod yaml;

/// Above this many edits, `derive` reports one covering edit to tree-sitter.
const MAX_SEPARATE_EDITS: usize = 16;

/// Asked now and then during a long piece of work (a parse: every hundred parser
/// operations) whether to give it up ([`Error::Stopped`]).
pub type Stop<'a> = &'a dyn Fn() -> bool;

/// Counts the steps of a long loop (a walk of a big tree) and asks its [`Stop`] every
/// [`Ticker::EVERY`] of them.
pub(crate) struct Ticker<'a> {
    stop: Stop<'a>,
    steps: u32,
}

impl<'a> Ticker<'a> {
    /// Steps between two questions: a few milliseconds of walking.
    const EVERY: u32 = 1 << 16;

    pub(crate) fn new(stop: Stop<'a>) -> Ticker<'a> {
        Ticker { stop, steps: 0 }
    }

    /// One more step.
    ///
    /// # Errors
    /// [`Error::Stopped`] when the stop says so.
    pub(crate) fn tick(&mut self) -> Result<(), Error> {
        self.steps = self.steps.wrapping_add(1);
        if self.steps.is_multiple_of(Self::EVERY) && (self.stop)() {
            return Err(Error::Stopped);
        }
        Ok(())
    }
}

/// A [`Stop`] that never stops.
fn never() -> bool {
    false
}

/// A text and, for grammar languages, its tree-sitter tree.
#[derive(Debug, Clone)]
pub struct Document {
    text: Vec<u8>,
    tree: Option<Tree>,
    errors: usize,
    /// The tokens a windowed parse counted, for a grammar text held without its tree.
    tokens: Option<usize>,
    /// Which best of its session this is (0: the original), `None` for a candidate.
    version: Option<u64>,
}

impl Document {
    /// A document without a syntax tree (language-agnostic text).
    #[must_use]
    pub fn plain(text: Vec<u8>) -> Document {
        Document {
            text,
            tree: None,
            errors: 0,
            tokens: None,
            version: None,
        }
    }

    /// A document of a grammar language held without its tree (too big for one: the
    /// outline phase), with the errors and tokens a windowed parse counted.
    pub(crate) fn outlined(text: Vec<u8>, errors: usize, tokens: usize) -> Document {
        Document {
            text,
            tree: None,
            errors,
            tokens: Some(tokens),
            version: None,
        }
    }

    /// Parses the text of a document held without its tree and sets the tree (and the
    /// errors it has). `Ok(false)` when the parser gave up.
    ///
    /// # Errors
    /// [`Error::Stopped`] when `stop` said so (the document is left as it was).
    pub(crate) fn grow_tree(&mut self, parser: &mut Parser, stop: Stop<'_>) -> Result<bool, Error> {
        let Some(tree) = parse_tree(parser, &self.text, None, stop)? else {
            return Ok(false);
        };
        self.errors = count_errors(tree.root_node(), &self.text);
        self.tree = Some(tree);
        self.tokens = None;
        Ok(true)
    }

    /// Parses `text` from scratch. Returns `None` only if the parser gave up.
    #[must_use]
    pub fn parse(parser: &mut Parser, text: Vec<u8>) -> Option<Document> {
        Document::parse_until(parser, text, &never).unwrap_or(None)
    }

    /// [`Document::parse`], given up when `stop` says so.
    ///
    /// # Errors
    /// [`Error::Stopped`] when `stop` said so.
    pub fn parse_until(
        parser: &mut Parser,
        text: Vec<u8>,
        stop: Stop<'_>,
    ) -> Result<Option<Document>, Error> {
        let Some(tree) = parse_tree(parser, &text, None, stop)? else {
            return Ok(None);
        };
        let errors = count_errors(tree.root_node(), &text);
        Ok(Some(Document {
            text,
            tree: Some(tree),
            errors,
            tokens: None,
            version: None,
        }))
    }

    /// Which best of its session this is: 0 for the original, one more for every
    /// accepted candidate; `None` for a document that was never a session's best.
    #[must_use]
    pub fn version(&self) -> Option<u64> {
        self.version
    }

    pub(crate) fn set_version(&mut self, version: u64) {
        self.version = Some(version);
    }

    /// The bytes.
    #[must_use]
    pub fn text(&self) -> &[u8] {
        &self.text
    }

    /// The syntax tree, for grammar languages.
    #[must_use]
    pub fn tree(&self) -> Option<&Tree> {
        self.tree.as_ref()
    }

    /// ERROR and MISSING nodes in the tree (0 without a tree).
    #[must_use]
    pub fn error_count(&self) -> usize {
        self.errors
    }

    /// Number of tokens: non-empty leaves of the tree (counted by a windowed parse for a
    /// text held without its tree), or whitespace-separated words.
    #[must_use]
    pub fn token_count(&self) -> usize {
        match (&self.tree, self.tokens) {
            (Some(tree), _) => count_leaves(tree.root_node()),
            (None, Some(tokens)) => tokens,
            (None, None) => self
                .text
                .split(u8::is_ascii_whitespace)
                .filter(|w| !w.is_empty())
                .count(),
        }
    }

    /// Number of lines (a last line without a newline counts).
    #[must_use]
    pub fn line_count(&self) -> usize {
        let newlines = self.text.iter().filter(|&&b| b == b'\n').count();
        newlines + usize::from(self.text.last().is_some_and(|&b| b != b'\n'))
    }

    /// The document `edits` make of this one, if it is valid: for a grammar language,
    /// the candidate is re-parsed incrementally from this tree and refused when it has
    /// more ERROR/MISSING nodes than this document.
    #[must_use]
    pub fn derive(&self, parser: &mut Parser, edits: &EditSet) -> Option<Document> {
        self.derive_from(parser, edits, edits.apply(&self.text))
    }

    /// [`Document::derive`] when the caller already applied the edits: `text` must be
    /// `edits.apply(self.text())`.
    #[must_use]
    pub fn derive_from(
        &self,
        parser: &mut Parser,
        edits: &EditSet,
        text: Vec<u8>,
    ) -> Option<Document> {
        self.derive_until(parser, edits, text, &never)
            .unwrap_or(None)
    }

    /// [`Document::derive_from`], given up when `stop` says so.
    ///
    /// The old tree is edited and the text re-parsed incrementally from it, unless the
    /// edits span more than twice what is left: then the text is parsed from scratch.
    /// (tree-sitter copies every node an edit touches, those it deletes too: removing
    /// nearly all of a 50 MB input, or a node with 100,000 levels of nesting inside, would
    /// copy the whole tree to throw most of it away.)
    ///
    /// # Errors
    /// [`Error::Stopped`] when `stop` said so.
    pub fn derive_until(
        &self,
        parser: &mut Parser,
        edits: &EditSet,
        text: Vec<u8>,
        stop: Stop<'_>,
    ) -> Result<Option<Document>, Error> {
        self.derive_within(parser, edits, text, stop, Leniency::Strict)
    }

    /// [`Document::derive_until`], refusing a result with more errors than this document
    /// as `leniency` counts them.
    ///
    /// # Errors
    /// [`Error::Stopped`] when `stop` said so.
    pub(crate) fn derive_within(
        &self,
        parser: &mut Parser,
        edits: &EditSet,
        text: Vec<u8>,
        stop: Stop<'_>,
        leniency: Leniency,
    ) -> Result<Option<Document>, Error> {
        debug_assert!(text == edits.apply(&self.text));
        let Some(old) = &self.tree else {
            return Ok(Some(Document::plain(text)));
        };
        let edits = edits.edits();
        let separate = edits.len() <= MAX_SEPARATE_EDITS;
        let spanned = match (edits.first(), edits.last()) {
            _ if separate => edits.iter().map(|e| e.range.len()).sum(),
            (Some(first), Some(last)) => last.range.end - first.range.start,
            _ => 0,
        };
        let tree = if spanned > 2 * text.len() {
            parse_tree(parser, &text, None, stop)?
        } else {
            let mut tree = old.clone();
            let lines = LineIndex::new(&self.text);
            let mut tell = |start: usize, old_end: usize, inserted: &[u8]| {
                let start_position = lines.point(start);
                tree.edit(&InputEdit {
                    start_byte: start,
                    old_end_byte: old_end,
                    new_end_byte: start + inserted.len(),
                    start_position,
                    old_end_position: lines.point(old_end),
                    new_end_position: advance(start_position, inserted),
                });
            };
            if separate {
                // From the last to the first, so each edit's positions are still those of
                // the old text.
                for edit in edits.iter().rev() {
                    tell(edit.range.start, edit.range.end, &edit.replacement);
                }
            } else if let (Some(first), Some(last)) = (edits.first(), edits.last()) {
                // Telling tree-sitter about thousands of edits costs more than re-parsing:
                // report one edit covering them all.
                let start = first.range.start;
                let new_end = last.range.end + text.len() - self.text.len();
                tell(start, last.range.end, &text[start..new_end]);
            }
            parse_tree(parser, &text, Some(&tree), stop)?
        };
        let Some(tree) = tree else {
            return Ok(None);
        };
        let root = tree.root_node();
        let errors = count_errors(root, &text);
        let valid = match leniency {
            Leniency::Strict => errors <= self.errors,
            Leniency::Missing => {
                let old = self
                    .tree
                    .as_ref()
                    .map_or(0, |t| missing_nodes(t.root_node()));
                errors - missing_nodes(root) <= self.errors - old
            }
            Leniency::Any => true,
        };
        Ok(valid.then_some(Document {
            text,
            tree: Some(tree),
            errors,
            tokens: None,
            version: None,
        }))
    }
}

/// Parses `text` (incrementally from `old`, edited to match it, if given), asking `stop`
/// every hundred parser operations. `Ok(None)` when the parser gave up.
pub(crate) fn parse_tree(
    parser: &mut Parser,
    text: &[u8],
    old: Option<&Tree>,
    stop: Stop<'_>,
) -> Result<Option<Tree>, Error> {
    let mut stopped = false;
    let mut progress = |_: &ParseState| {
        if stop() {
            stopped = true;
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    let tree = parser.parse_with_options(
        &mut |at, _| text.get(at..).unwrap_or_default(),
        old,
        Some(ParseOptions::new().progress_callback(&mut progress)),
    );
    if stopped {
        // A parse given up is resumed by the next call unless the parser is reset.
        parser.reset();
        return Err(Error::Stopped);
    }
    Ok(tree)
}

/// Byte offsets of line starts, to turn byte offsets into tree-sitter points.
struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    fn new(text: &[u8]) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(
            text.iter()
                .enumerate()
                .filter(|(_, b)| **b == b'\n')
                .map(|(i, _)| i + 1),
        );
        LineIndex { starts }
    }

    fn point(&self, byte: usize) -> Point {
        let row = self.starts.partition_point(|&s| s <= byte) - 1;
        Point::new(row, byte - self.starts[row])
    }
}

fn advance(mut point: Point, inserted: &[u8]) -> Point {
    for &b in inserted {
        if b == b'\n' {
            point.row += 1;
            point.column = 0;
        } else {
            point.column += 1;
        }
    }
    point
}

/// ERROR and MISSING nodes under `root`, found without recursion, and the nodes the
/// parser accepts but the language does not (an empty Python block, a Python statement
/// that goes on to the next line outside brackets, an empty Bash body or a Bash keyword
/// left as a command, a YAML alias without its anchor). `text` is the text `root`'s tree was
/// parsed from.
#[must_use]
pub fn count_errors(root: Node<'_>, text: &[u8]) -> usize {
    syntax_errors(root)
        + python::hollow_nodes(root, text)
        + bash::refused_nodes(root, text)
        + yaml::refused_nodes(root, text)
}

/// How a candidate's errors compare with its base's in [`Document::derive_within`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Leniency {
    /// No more errors than the base (ERROR and MISSING nodes, and what the per-language
    /// rules refuse).
    Strict,
    /// No more errors beyond MISSING nodes: a token tree-sitter would insert is
    /// tolerated, since a grammar and a compiler do not always agree on where one is
    /// needed (tree-sitter-cpp reads `int f(T a) {…};` as a declaration that needs its
    /// `;`; g++, as a function definition that does not).
    Missing,
    /// Anything the parser makes.
    Any,
}

/// MISSING nodes under `root`.
fn missing_nodes(root: Node<'_>) -> usize {
    count_error_nodes(root, |n| n.is_missing())
}

/// ERROR and MISSING nodes under `root`.
fn syntax_errors(root: Node<'_>) -> usize {
    count_error_nodes(root, |n| n.is_error() || n.is_missing())
}

/// The nodes under `root` that `counts`, looked for only where tree-sitter marks an
/// error (`has_error`), without recursion.
fn count_error_nodes(root: Node<'_>, counts: impl Fn(&Node<'_>) -> bool) -> usize {
    if !root.has_error() {
        return 0;
    }
    let mut count = 0;
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        count += usize::from(counts(&node));
        let mut cursor = node.walk();
        stack.extend(node.children(&mut cursor).filter(Node::has_error));
    }
    count
}

/// The non-empty leaves under `root`, in text order, found without recursion.
#[must_use]
pub fn leaves(root: Node<'_>) -> Vec<Node<'_>> {
    let mut out = Vec::new();
    each_leaf(root, |leaf| out.push(leaf));
    out
}

/// How many non-empty leaves are under `root` (as `leaves(root).len()`, without
/// keeping them: on a 50 MB input they would take hundreds of megabytes).
fn count_leaves(root: Node<'_>) -> usize {
    let mut count = 0;
    each_leaf(root, |_| count += 1);
    count
}

/// Calls `visit` on each non-empty leaf under `root`, in text order.
fn each_leaf<'t>(root: Node<'t>, visit: impl FnMut(Node<'t>)) {
    // Never stops: never fails.
    let _ = try_each_leaf(root, &never, visit);
}

/// [`each_leaf`], given up when `stop` says so.
///
/// # Errors
/// [`Error::Stopped`] when `stop` said so.
pub(crate) fn try_each_leaf<'t>(
    root: Node<'t>,
    stop: Stop<'_>,
    mut visit: impl FnMut(Node<'t>),
) -> Result<(), Error> {
    let mut ticker = Ticker::new(stop);
    let mut cursor = root.walk();
    'walk: loop {
        ticker.tick()?;
        let node = cursor.node();
        if node.child_count() == 0 {
            if node.end_byte() > node.start_byte() {
                visit(node);
            }
        } else if cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod testing;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::Edit;

    /// Each language's rules count nothing in a tree of another language.
    #[test]
    fn the_language_rules_leave_other_languages_alone() {
        let text = "int f() { if (x) {} }\nreturn 1;\n";
        let tree = testing::parsed_clean(hdd_grammar::Lang::C, text);
        let root = tree.root_node();
        let bytes = text.as_bytes();
        assert_eq!(python::hollow_nodes(root, bytes), 0);
        assert_eq!(bash::refused_nodes(root, bytes), 0);
        assert_eq!(yaml::refused_nodes(root, bytes), 0);
    }

    fn c_parser() -> Parser {
        let mut parser = Parser::new();
        parser
            .set_language(&hdd_grammar::Lang::C.ts_language())
            .unwrap();
        parser
    }

    /// `Leniency::Missing` lets a candidate lack a token tree-sitter inserts (a MISSING
    /// node), never one that leaves an ERROR node; `Strict` refuses both, `Any` neither.
    #[test]
    fn leniency_tolerates_missing_tokens_only_when_asked() {
        let mut parser = c_parser();
        let src = b"int f(void) { return 1; }\n".to_vec();
        let doc = Document::parse(&mut parser, src.clone()).unwrap();
        let at = |s: &[u8]| src.windows(s.len()).position(|w| w == s).unwrap();
        let semicolon = EditSet::new(vec![Edit::delete(at(b";")..at(b";") + 1)]).unwrap();
        let paren = EditSet::new(vec![Edit::delete(at(b"(")..at(b"(") + 1)]).unwrap();
        let derive = |parser: &mut Parser, edits: &EditSet, leniency| {
            let text = edits.apply(doc.text());
            doc.derive_within(parser, edits, text, &|| false, leniency)
                .unwrap()
                .is_some()
        };
        assert!(!derive(&mut parser, &semicolon, Leniency::Strict));
        assert!(derive(&mut parser, &semicolon, Leniency::Missing));
        assert!(!derive(&mut parser, &paren, Leniency::Missing));
        assert!(derive(&mut parser, &paren, Leniency::Any));
    }

    #[test]
    fn incremental_derive_agrees_with_full_parse() {
        let mut parser = c_parser();
        let src = b"int f(int a) {\n  if (a) { return 1; }\n  return 2;\n}\nint g;\n".to_vec();
        let doc = Document::parse(&mut parser, src.clone()).unwrap();
        let find = |s: &[u8]| src.windows(s.len()).position(|w| w == s).unwrap();
        let start = find(b"{ return 1; }");
        let end = start + b"{ return 1; }".len();
        let g = find(b"int g;");
        let edits = EditSet::new(vec![
            Edit::replace(start..end, "{}"),
            Edit::delete(g..g + b"int g;\n".len()),
        ])
        .unwrap();
        let derived = doc.derive(&mut parser, &edits).unwrap();
        let full = Document::parse(&mut parser, derived.text().to_vec()).unwrap();
        assert_eq!(
            derived.tree().unwrap().root_node().to_sexp(),
            full.tree().unwrap().root_node().to_sexp()
        );
        assert_eq!(
            derived.text(),
            b"int f(int a) {\n  if (a) {}\n  return 2;\n}\n".as_slice()
        );
    }

    #[test]
    fn many_edits_are_reported_as_one_and_still_parse_right() {
        let mut parser = c_parser();
        let src: Vec<u8> = (0..100)
            .flat_map(|i| format!("int v{i} = {i};\n").into_bytes())
            .collect();
        let doc = Document::parse(&mut parser, src.clone()).unwrap();
        // Delete every other line: 50 edits.
        let mut edits = Vec::new();
        let mut start = 0;
        for (i, line) in src.split_inclusive(|&b| b == b'\n').enumerate() {
            if i % 2 == 0 {
                edits.push(Edit::delete(start..start + line.len()));
            }
            start += line.len();
        }
        let derived = doc
            .derive(&mut parser, &EditSet::new(edits).unwrap())
            .unwrap();
        let full = Document::parse(&mut parser, derived.text().to_vec()).unwrap();
        assert_eq!(
            derived.tree().unwrap().root_node().to_sexp(),
            full.tree().unwrap().root_node().to_sexp()
        );
        assert_eq!(derived.line_count(), 50);
    }

    #[test]
    fn a_parse_given_up_leaves_the_parser_ready_for_the_next() {
        let mut parser = c_parser();
        let text: Vec<u8> = (0..2000)
            .flat_map(|i| format!("int v{i} = {i};\n").into_bytes())
            .collect();
        let stopped = Document::parse_until(&mut parser, text.clone(), &|| true);
        assert!(matches!(stopped, Err(Error::Stopped)));
        let doc = Document::parse(&mut parser, b"int a;".to_vec()).unwrap();
        assert_eq!(doc.tree().unwrap().root_node().to_sexp(), {
            let mut fresh = c_parser();
            fresh.parse(b"int a;", None).unwrap().root_node().to_sexp()
        });
        // A candidate that deletes nearly everything is parsed from scratch; one that
        // keeps most of the text, incrementally: the same trees either way.
        let whole = Document::parse(&mut parser, text.clone()).unwrap();
        let line = |k: usize| {
            text.split_inclusive(|&b| b == b'\n')
                .take(k)
                .map(<[u8]>::len)
                .sum::<usize>()
        };
        for edits in [
            vec![Edit::delete(0..line(1999))],
            vec![Edit::delete(0..line(5))],
        ] {
            let edits = EditSet::new(edits).unwrap();
            let derived = whole.derive(&mut parser, &edits).unwrap();
            let full = Document::parse(&mut parser, derived.text().to_vec()).unwrap();
            assert_eq!(
                derived.tree().unwrap().root_node().to_sexp(),
                full.tree().unwrap().root_node().to_sexp()
            );
        }
    }

    #[test]
    fn derive_refuses_new_errors_only() {
        let mut parser = c_parser();
        let doc = Document::parse(&mut parser, b"int a; int b;".to_vec()).unwrap();
        assert_eq!(doc.error_count(), 0);
        assert!(
            doc.derive(
                &mut parser,
                &EditSet::new(vec![Edit::delete(5..6)]).unwrap()
            )
            .is_none()
        );
        let broken = Document::parse(&mut parser, b"int a = ; int b;".to_vec()).unwrap();
        assert!(broken.error_count() > 0);
        let fewer = broken
            .derive(
                &mut parser,
                &EditSet::new(vec![Edit::delete(10..16)]).unwrap(),
            )
            .unwrap();
        assert_eq!(fewer.error_count(), broken.error_count());
    }

    #[test]
    fn counts_tokens_and_lines() {
        let mut parser = c_parser();
        let doc = Document::parse(&mut parser, b"int x = 1;\nint y;".to_vec()).unwrap();
        assert_eq!(doc.token_count(), 8);
        assert_eq!(doc.line_count(), 2);
        assert_eq!(Document::plain(b"a b\n c\n".to_vec()).token_count(), 3);
    }
}
