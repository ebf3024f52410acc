//! ## What it does
//! Text mode's HDD: without a grammar, the text's structure is guessed from its lexer
//! tokens (words, quoted strings, each other character), its balanced brackets
//! `() [] {}` and its indentation, and reduced level by level like a syntax tree:
//! - an **item** is a run of tokens on one level, ended by `;` or `,`, by a line that is
//!   not indented deeper than the item's first line, or by a `{…}` group followed on its
//!   line by something else than `;`, `,`, `else`, `catch`, `finally`, `while`;
//! - a **group** is a bracket pair and the items inside it;
//! - a **block** is the lines indented deeper than the item they follow (Python's
//!   suites, YAML's mappings, an over-long statement), and the items in them.
//!
//! First, for each level from the top, ddmin over its items (deleted). Then, level by
//! level again, ddmin over unwraps: a group replaced by its inside, with the word glued
//! before it (`f(g(x))` -> `g(x)`, `a[i].b` -> `i.b`), an item with a block by its block, dedented (`if a:\n    b` -> `b`).
//!
//! ## When it helps
//! Any language hdd has no grammar for: a function, a CSS rule, a Python `def` goes in
//! one test whatever its number of lines, where ddmin over lines has to find its ends.
//!
//! ## Example
//! `a { x: 1 }\nb { y: 2 }\n` with a test that needs `y` becomes `b { y: 2 }\n`.

use std::ops::Range;

use super::text::{apart_deletion, is_word, spaced_deletion};
use super::tokens::lexer_tokens;
use super::units::{ddmin_groups, ddmin_units};
use crate::edit::Edit;
use crate::error::Error;
use crate::pass::Pass;
use crate::session::Session;

/// Levels below this one are left to the line and token passes (a text nested
/// 100,000 deep would otherwise cost a test per level).
const MAX_LEVELS: usize = 64;

/// The structured text-mode pass.
#[derive(Debug, Default)]
pub struct Groups;

impl Pass for Groups {
    fn name(&self) -> &'static str {
        "groups"
    }

    fn run(&mut self, session: &mut Session<'_>) -> Result<(), Error> {
        let mut level = 0;
        while level < MAX_LEVELS {
            let base = session.current().clone();
            let shape = Shape::of(base.text());
            let units: Vec<Edit> = shape
                .items
                .iter()
                .filter(|item| item.level == level)
                .map(|item| spaced_deletion(base.text(), item.range.clone()))
                .collect();
            if units.is_empty() {
                break;
            }
            session.check_stop()?;
            // Below the top, every item of a level at once is a candidate too (every
            // block emptied); at the top it would be the empty text.
            ddmin_units(session, &base, &units, level > 0)?;
            level += 1;
        }
        for level in 0..MAX_LEVELS {
            let base = session.current().clone();
            let shape = Shape::of(base.text());
            if shape.items.iter().all(|item| item.level < level) {
                break;
            }
            let units: Vec<Vec<Edit>> = shape
                .unwraps
                .iter()
                .filter(|unwrap| unwrap.level == level)
                .map(|unwrap| unwrap.edits.clone())
                .collect();
            if !units.is_empty() {
                session.check_stop()?;
                ddmin_groups(session, &base, &units, Vec::as_slice, true)?;
            }
        }
        Ok(())
    }
}

/// An item: a run of tokens on one level (see the module's documentation).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Item {
    range: Range<usize>,
    /// 0 for the text's top level, one more inside each group or block.
    level: usize,
}

/// A group or block replaced by its inside, as edits.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Unwrap {
    /// The level of the item the group or block belongs to.
    level: usize,
    edits: Vec<Edit>,
}

/// The guessed structure of a text: its items and the unwraps of its groups and blocks.
#[derive(Debug, Default)]
struct Shape {
    items: Vec<Item>,
    unwraps: Vec<Unwrap>,
}

/// An item being read.
#[derive(Debug, Clone)]
struct Open {
    start: usize,
    end: usize,
    /// The indentation of the line it starts on.
    indent: usize,
    /// It just took a `{…}` group: the next token on its line decides whether it goes on.
    after_curly: bool,
}

/// A level being read: the text's top, a group or a block.
#[derive(Debug)]
struct Frame {
    kind: FrameKind,
    level: usize,
    item: Option<Open>,
}

#[derive(Debug)]
enum FrameKind {
    Top,
    /// A group opened by the token at `open`.
    Group {
        open: usize,
    },
    /// A block of lines deeper than `owner` (the item it belongs to, in the frame
    /// below), whose first token starts at `first`, on a line indented by `indent`.
    Block {
        owner: usize,
        first: usize,
        indent: usize,
    },
}

impl Shape {
    /// Reads the structure of `text` (one pass over its tokens, no recursion).
    fn of(text: &[u8]) -> Shape {
        let tokens = lexer_tokens(text);
        let closers = matching_closers(text, &tokens);
        let mut closes = vec![false; tokens.len()];
        for &close in closers.iter().flatten() {
            closes[close] = true;
        }
        let mut shape = Shape::default();
        let mut stack = vec![Frame {
            kind: FrameKind::Top,
            level: 0,
            item: None,
        }];
        let mut previous_end = 0;
        // The indentation of the line the token is on.
        let mut line_indent = 0;
        for (i, token) in tokens.iter().enumerate() {
            let bytes = &text[token.clone()];
            let gap = &text[previous_end..token.start];
            let on_new_line = i == 0 || gap.contains(&b'\n');
            if on_new_line {
                let line = gap.iter().rposition(|&b| b == b'\n').map_or(0, |n| n + 1);
                line_indent = indentation(&gap[line..]);
            }
            previous_end = token.end;
            if closes[i] {
                // Close the blocks inside the group, then the group (matched brackets
                // nest, so the group is the innermost one).
                loop {
                    let frame = stack.pop().expect("the group is on the stack");
                    if let FrameKind::Group { open, .. } = frame.kind {
                        shape.unwraps.push(Unwrap {
                            level: frame.level - 1,
                            edits: unwrap_group(text, &tokens, open, token.clone()),
                        });
                        shape.close(text, frame, &mut stack);
                        break;
                    }
                    shape.close(text, frame, &mut stack);
                }
                let top = stack.last_mut().expect("the top frame stays");
                let item = top.item.as_mut().expect("a group belongs to an item");
                item.end = token.end;
                item.after_curly = bytes == b"}";
                continue;
            }
            if on_new_line {
                let indent = line_indent;
                // Blocks end at a line no deeper than their owner.
                while let Some(frame) = stack.last() {
                    let FrameKind::Block { .. } = frame.kind else {
                        break;
                    };
                    let owner = stack[stack.len() - 2]
                        .item
                        .as_ref()
                        .expect("a block's owner");
                    if indent > owner.indent {
                        break;
                    }
                    let frame = stack.pop().expect("just looked");
                    shape.close(text, frame, &mut stack);
                }
                let depth = stack.len() - 1;
                let top = &mut stack[depth];
                if let Some(item) = &top.item {
                    if indent <= item.indent {
                        let item = top.item.take().expect("just looked");
                        shape.finish(item, top.level);
                    } else {
                        let level = top.level + 1;
                        stack.push(Frame {
                            kind: FrameKind::Block {
                                owner: depth,
                                first: token.start,
                                indent,
                            },
                            level,
                            item: None,
                        });
                    }
                }
            }
            let top = stack.last_mut().expect("the top frame stays");
            if let Some(item) = &top.item
                && item.after_curly
                && !continues_after_curly(bytes)
            {
                let item = top.item.take().expect("just looked");
                shape.finish(item, top.level);
            }
            let level = top.level;
            let item = top.item.get_or_insert(Open {
                start: token.start,
                end: token.end,
                indent: line_indent,
                after_curly: false,
            });
            item.end = token.end;
            item.after_curly = false;
            if closers[i].is_some() {
                stack.push(Frame {
                    kind: FrameKind::Group { open: i },
                    level: level + 1,
                    item: None,
                });
                continue;
            }
            if matches!(bytes, b";" | b",") {
                let item = top.item.take().expect("just made");
                shape.finish(item, level);
            }
        }
        while let Some(frame) = stack.pop() {
            shape.close(text, frame, &mut stack);
        }
        // Unwrap the outer ones first.
        shape.unwraps.sort_by_key(|unwrap| unwrap.level);
        shape
    }

    fn finish(&mut self, item: Open, level: usize) {
        self.items.push(Item {
            range: item.start..item.end,
            level,
        });
    }

    /// Ends a frame popped off the stack: its open item, and a block's unwrap.
    fn close(&mut self, text: &[u8], frame: Frame, stack: &mut [Frame]) {
        let mut end = None;
        if let Some(item) = frame.item {
            end = Some(item.end);
            self.finish(item, frame.level);
        }
        let owner_level = frame.level.saturating_sub(1);
        if let FrameKind::Block {
            owner,
            first,
            indent,
        } = frame.kind
        {
            let Some(owner_item) = stack[owner].item.as_mut() else {
                return;
            };
            let last = end.unwrap_or(first);
            owner_item.end = owner_item.end.max(last);
            let delta = indent.saturating_sub(owner_item.indent);
            let mut edits = vec![Edit::delete(owner_item.start..first)];
            edits.extend(dedents(text, first..last, delta));
            self.unwraps.push(Unwrap {
                level: owner_level,
                edits,
            });
        }
    }
}

/// The edits that take `delta` bytes of indentation off each line that starts inside
/// `range` and is indented at least that much.
fn dedents(text: &[u8], range: Range<usize>, delta: usize) -> Vec<Edit> {
    if delta == 0 {
        return Vec::new();
    }
    let mut edits = Vec::new();
    for (offset, &b) in text[range.clone()].iter().enumerate() {
        if b != b'\n' {
            continue;
        }
        let line = range.start + offset + 1;
        let blanks = indentation(&text[line..]);
        if blanks >= delta && line + blanks < range.end {
            edits.push(Edit::delete(line..line + delta));
        }
    }
    edits
}

/// The unwrap of the group opened by token `open` and closed at `close`: its brackets
/// deleted (a space left where two words would touch), and the word glued before it
/// with them (a call or an index: `f(x)` and `a[x]` become `x`).
fn unwrap_group(
    text: &[u8],
    tokens: &[Range<usize>],
    open: usize,
    close: Range<usize>,
) -> Vec<Edit> {
    let mut opener = tokens[open].clone();
    if let Some(word) = open.checked_sub(1).map(|i| &tokens[i])
        && word.end == opener.start
        && is_word(text[word.start])
    {
        opener.start = word.start;
    }
    vec![apart_deletion(text, opener), apart_deletion(text, close)]
}

/// The spaces and tabs `line` starts with.
fn indentation(line: &[u8]) -> usize {
    line.iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count()
}

/// Whether an item that took a `{…}` group goes on with this token.
fn continues_after_curly(token: &[u8]) -> bool {
    !(is_word(token[0]) || matches!(token, b"{" | b"[" | b"@" | b"#" | b"."))
        || matches!(token, b"else" | b"catch" | b"finally" | b"while")
        || matches!(token, b";" | b",")
}

/// For each token, the index of the token that closes it when it opens a balanced
/// bracket pair.
fn matching_closers(text: &[u8], tokens: &[Range<usize>]) -> Vec<Option<usize>> {
    let mut closers = vec![None; tokens.len()];
    let mut open: Vec<(u8, usize)> = Vec::new();
    for (i, range) in tokens.iter().enumerate() {
        match &text[range.clone()] {
            [b @ (b'(' | b'[' | b'{')] => open.push((*b, i)),
            [b @ (b')' | b']' | b'}')] => {
                let wanted = match b {
                    b')' => b'(',
                    b']' => b'[',
                    _ => b'{',
                };
                if open.last().is_some_and(|&(o, _)| o == wanted) {
                    let (_, at) = open.pop().expect("just looked");
                    closers[at] = Some(i);
                }
            }
            _ => {}
        }
    }
    closers
}

#[cfg(test)]
mod tests;
