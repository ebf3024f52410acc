//! Windowed parsing: the outline of a text too big for one syntax tree (a tree-sitter
//! tree of C costs about fifty bytes per byte of text). The text is parsed a window at a
//! time; of each window's tree only the byte ranges of the root's complete children
//! (the top-level items), their ERROR/MISSING nodes and their tokens are kept, and the
//! tree is dropped before the next window is parsed.
//!
//! A window ends at the start of a line that starts with no space when it can (where
//! items start in most languages). Its last child may still be cut by its end, and the
//! parser's error recovery may have split what was cut in several children: only the
//! children that a parse of their text alone gives again are kept ([`complete_items`]);
//! the next window starts where they end. A window in which no child is complete (one
//! item bigger than the window) is doubled until one is or it reaches the end of the
//! text. Items are parsed as in a full parse, so the errors counted are those of a full
//! parse (tests in `outline/tests.rs`), except where a full parse's error recovery would
//! have joined items across a window's end.
//!
//! Also here, below the session that uses them: the outline threshold, and the original
//! as a session's first best, parsed whole or outlined ([`first_document`]).

use std::ops::Range;

use tree_sitter::{InputEdit, Node, Parser, Tree};

use crate::document::{Document, Stop, Ticker, count_errors, parse_tree};
use crate::error::Error;

/// Bytes parsed at once: a tree of a few tens of megabytes.
pub(crate) const WINDOW: usize = 1 << 20;

/// Above this many bytes, a grammar text is held without its tree (the outline phase,
/// `session/validity.rs`): the tree of 4 MB of C takes about 200 MB.
pub(crate) const OUTLINE_THRESHOLD: usize = 4 << 20;

/// The byte ranges of a text's top-level items, in order.
pub(crate) type Items = Vec<Range<usize>>;

/// When the best is held without its tree, and the items of the original's outline.
pub(crate) struct Outlining {
    /// Above this many bytes.
    pub(crate) threshold: usize,
    /// The top-level items of the original (version 0), found by the first scan, for
    /// the outline pass; `None` once used.
    pub(crate) items: Option<Items>,
}

impl Outlining {
    pub(crate) fn new(threshold: usize, items: Option<Items>) -> Outlining {
        Outlining { threshold, items }
    }
}

/// The original as the first best: parsed whole, or, above `threshold` bytes, outlined
/// (with its items).
///
/// # Errors
/// [`Error::Stopped`] when `stop` said so; [`Error::Parser`] when the parser gave up.
pub(crate) fn first_document(
    parser: &mut Parser,
    text: Vec<u8>,
    threshold: usize,
    stop: Stop<'_>,
) -> Result<(Document, Option<Items>), Error> {
    let gave_up = || Error::Parser("the parser gave up on the input".into());
    if text.len() <= threshold {
        let doc = Document::parse_until(parser, text, stop)?.ok_or_else(gave_up)?;
        return Ok((doc, None));
    }
    let scan = Scan {
        items: true,
        ..Scan::default()
    };
    let outline = scan.run(parser, &text, stop)?.ok_or_else(gave_up)?;
    let doc = Document::outlined(text, outline.errors, outline.tokens);
    Ok((doc, Some(outline.items)))
}

/// What a windowed parse found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Outline {
    /// The top-level items (when [`Scan::items`] asked for them).
    pub(crate) items: Items,
    /// ERROR and MISSING nodes (at least this many when the scan gave up past
    /// [`Scan::max_errors`]).
    pub(crate) errors: usize,
    /// Non-empty leaves.
    pub(crate) tokens: usize,
}

/// How to scan a text.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Scan {
    /// The first size of each window.
    pub(crate) window: usize,
    /// Whether to keep the items' ranges.
    pub(crate) items: bool,
    /// Give up once more errors than this were found: the text is not valid.
    pub(crate) max_errors: usize,
}

impl Default for Scan {
    fn default() -> Scan {
        Scan {
            window: WINDOW,
            items: false,
            max_errors: usize::MAX,
        }
    }
}

impl Scan {
    /// Parses `text` window by window, asking `stop` during every parse and walk.
    /// `Ok(None)` when the parser gave up.
    ///
    /// # Errors
    /// [`Error::Stopped`] when `stop` said so.
    pub(crate) fn run(
        self,
        parser: &mut Parser,
        text: &[u8],
        stop: Stop<'_>,
    ) -> Result<Option<Outline>, Error> {
        let mut out = Outline::default();
        let mut ticker = Ticker::new(stop);
        let mut start = 0;
        let mut window = self.window.max(1);
        while start < text.len() {
            let end = window_end(text, start, window);
            let (tree, len) =
                match complete_items(parser, &text[start..end], end == text.len(), stop)? {
                    Window::GaveUp => return Ok(None),
                    Window::Cut => {
                        // No item is complete in the window: a bigger one.
                        window = window.saturating_mul(2);
                        continue;
                    }
                    Window::Items { tree, len } => (tree, len),
                };
            let root = tree.root_node();
            out.errors += usize::from(root.is_error() || root.is_missing());
            let mut cursor = root.walk();
            for child in root.children(&mut cursor) {
                if self.items {
                    out.items
                        .push(start + child.start_byte()..start + child.end_byte());
                }
                out.errors += count_errors(child, &text[start..end]);
                out.tokens += count_leaves(child, &mut ticker)?;
            }
            if out.errors > self.max_errors {
                return Ok(Some(out));
            }
            start += len;
            window = self.window.max(1);
        }
        Ok(Some(out))
    }
}

/// What [`complete_items`] found in a window.
enum Window {
    /// The parser gave up.
    GaveUp,
    /// No item is complete in it.
    Cut,
    /// The tree of the complete items, which take the first `len` bytes of the window
    /// (`len > 0`).
    Items { tree: Tree, len: usize },
}

/// The complete items at the start of `window`: all of it when it is the `last` of the
/// text.
///
/// The window is parsed, then the text up to the end of its last child but one (and but
/// the children with errors just before it) is parsed again alone (incrementally from
/// the window's tree when that keeps more than half of it, else from nothing: cheaper
/// either way): if that gives the same children, their text is whole items, parsed as in the
/// whole text (two texts that go on differently after them, the window's and one that
/// ends there, parse them the same). If not, the window's end cut an item that error
/// recovery split in several children (`int f(int a) {` cut after `int` gives the
/// children `int` and a MISSING `;`): fewer children are tried.
fn complete_items(
    parser: &mut Parser,
    window: &[u8],
    last: bool,
    stop: Stop<'_>,
) -> Result<Window, Error> {
    let Some(tree) = parse_tree(parser, window, None, stop)? else {
        return Ok(Window::GaveUp);
    };
    if last {
        let len = window.len();
        return Ok(Window::Items { tree, len });
    }
    let root = tree.root_node();
    let mut cursor = root.walk();
    let children: Vec<Node<'_>> = root.children(&mut cursor).collect();
    // Children with errors just before the last are parsed again in the next window:
    // the window's end may have caused them (`/` of a comment cut after `/*`).
    let mut keep = children.len().saturating_sub(1);
    while keep > 0 && children[keep - 1].has_error() {
        keep -= 1;
    }
    let mut tries = 0;
    while keep > 0 {
        let end = children[keep - 1];
        let len = end.end_byte();
        if len > 0 {
            // Reusing the window's tree pays off when most of it is kept; a short
            // prefix is parsed faster alone (measured on 1 MB of a cut JSON array:
            // 10 ms reusing it for 99% of it, 200-240 ms for every prefix under half
            // of it, where a fresh parse of half of it takes about 90 ms).
            let edited = (len > window.len() / 2).then(|| {
                let mut edited = tree.clone();
                edited.edit(&InputEdit {
                    start_byte: len,
                    old_end_byte: window.len(),
                    new_end_byte: len,
                    start_position: end.end_position(),
                    old_end_position: root.end_position(),
                    new_end_position: end.end_position(),
                });
                edited
            });
            let Some(prefix) = parse_tree(parser, &window[..len], edited.as_ref(), stop)? else {
                return Ok(Window::GaveUp);
            };
            if same_children(prefix.root_node(), &children[..keep]) {
                return Ok(Window::Items { tree: prefix, len });
            }
        }
        // A few children back, then halves.
        tries += 1;
        keep = if tries < 4 { keep - 1 } else { keep / 2 };
    }
    Ok(Window::Cut)
}

/// Whether `root`'s children are `children`: the same kinds over the same bytes, with
/// errors in the same ones.
fn same_children(root: Node<'_>, children: &[Node<'_>]) -> bool {
    let mut cursor = root.walk();
    !root.is_error()
        && u32::try_from(children.len()).is_ok_and(|n| n == root.child_count())
        && root.children(&mut cursor).zip(children).all(|(a, b)| {
            a.kind_id() == b.kind_id()
                && a.byte_range() == b.byte_range()
                && a.has_error() == b.has_error()
        })
}

/// Where the window of about `window` bytes from `start` ends: at the start of the last
/// line in it that does not start with a space (in most languages, where a top-level
/// item starts: the window then holds whole items, parsed as in the whole text), else at
/// `start + window`; at the end of the text if that is nearer.
fn window_end(text: &[u8], start: usize, window: usize) -> usize {
    let end = start.saturating_add(window);
    if end >= text.len() {
        return text.len();
    }
    (start + 1..=end)
        .rev()
        .find(|&at| text[at - 1] == b'\n' && !text[at].is_ascii_whitespace())
        .unwrap_or(end)
}

/// The non-empty leaves under `node`, counted without recursion.
fn count_leaves(node: Node<'_>, ticker: &mut Ticker<'_>) -> Result<usize, Error> {
    let mut count = 0;
    let mut cursor = node.walk();
    'walk: loop {
        ticker.tick()?;
        let node = cursor.node();
        if node.child_count() == 0 {
            count += usize::from(node.end_byte() > node.start_byte());
        } else if cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
    Ok(count)
}

#[cfg(test)]
mod tests;
