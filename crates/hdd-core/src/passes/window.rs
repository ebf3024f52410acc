//! ## What it does
//! Removes every run of `k` consecutive tokens, for `k` from 4 down to 1, sliding along the
//! text (C-Reduce's token-window removal). Most windows break the syntax and are filtered
//! without a test; the rest are tried one by one. Then the same with a bracket group
//! `(…)`, `[…]` or `{…}` counting as one token (C-Vise's balanced removal, widened): runs
//! of up to 3 items of one nesting level, at least one of them a group, so
//! `REFERENCES a(c)` or `__attribute__((x))` goes in one piece whatever its length.
//! Deep in a chain of nested groups, beyond the 32nd, only the groups 64, 128, … levels
//! down are tried (`chain.rs`).
//!
//! ## When it helps
//! Last, on small results: qualifiers, casts, `struct x` pairs, `a->` prefixes, operators
//! with an operand: pieces that are not whole nodes and that ddmin's fixed partitions miss.
//! Leaves the result 1-minimal with respect to single-token removal.
//!
//! ## Example
//! `d->mask = (1 << 32) - 1;` with a test that needs `1 << 32` becomes `(1 << 32);`.

use std::ops::Range;

use super::chain::far_link;
use super::text::spaced_deletion;
use super::tokens::token_ranges;
use crate::edit::EditSet;
use crate::error::Error;
use crate::pass::Pass;
use crate::session::Session;

/// Above this many tokens the pass does nothing (ddmin over tokens runs first).
const MAX_TOKENS: usize = 5000;
/// The widest window.
const MAX_WINDOW: usize = 4;
/// The widest window of items, bracket groups counting as one.
const MAX_GROUP_WINDOW: usize = 3;

/// The token-window pass.
#[derive(Debug, Default)]
pub struct Window;

impl Pass for Window {
    fn name(&self) -> &'static str {
        "window"
    }

    fn run(&mut self, session: &mut Session<'_>) -> Result<(), Error> {
        for k in (1..=MAX_WINDOW).rev() {
            slide(session, |_, tokens, start| {
                (start..)
                    .take_while(|&i| i + k <= tokens.len())
                    .map(|i| (i, i + k - 1))
                    .collect()
            })?;
        }
        for k in (1..=MAX_GROUP_WINDOW).rev() {
            slide(session, |text, tokens, start| {
                let kinds = brackets(text, tokens);
                let links = link_distances(&kinds);
                // Deep in a chain of nested groups, only the links 1, 2, 4, … count as
                // a window's group ([`far_link`]).
                let counts = |opener: usize| !far_link(links[opener]);
                (start..tokens.len())
                    .filter_map(|s| group_window(&kinds, s, k, counts).map(|end| (s, end)))
                    .collect()
            })?;
        }
        Ok(())
    }
}

/// Removes windows of tokens along the text: `windows(text, tokens, start)` lists them
/// (first and last token) from token `start` on, in order. After a success the windows
/// are listed again from the removed one's first token (the tokens after it shifted
/// down), until none is interesting.
fn slide(
    session: &mut Session<'_>,
    windows: impl Fn(&[u8], &[Range<usize>], usize) -> Vec<(usize, usize)>,
) -> Result<(), Error> {
    let mut start = 0;
    loop {
        let base = session.current().clone();
        let tokens = token_ranges(&base, &|| session.stop_requested())?;
        if tokens.len() > MAX_TOKENS {
            return Ok(());
        }
        let windows = windows(base.text(), &tokens, start);
        if windows.is_empty() {
            return Ok(());
        }
        let mut candidates = windows.iter().map(|&(first, last)| {
            let range = tokens[first].start..tokens[last].end;
            EditSet::new(vec![spaced_deletion(base.text(), range)])
        });
        match session.first_interesting(&base, &mut candidates)? {
            Some(i) => start = windows[i].0,
            None => return Ok(()),
        }
    }
}

/// What a token is to the bracket structure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bracket {
    /// It opens a group that the token at this index closes.
    Opens(usize),
    /// It closes a bracket (or is a stray closer).
    Closes,
    /// Anything else, an opener left unclosed included.
    Other,
}

/// What each token is to the bracket structure (`(`, `[`, `{` and their closers, as
/// tokens of their own).
fn brackets(text: &[u8], tokens: &[Range<usize>]) -> Vec<Bracket> {
    let mut kinds = vec![Bracket::Other; tokens.len()];
    let mut open: Vec<(u8, usize)> = Vec::new();
    for (i, range) in tokens.iter().enumerate() {
        match &text[range.clone()] {
            [b @ (b'(' | b'[' | b'{')] => open.push((*b, i)),
            [b @ (b')' | b']' | b'}')] => {
                kinds[i] = Bracket::Closes;
                let wanted = match b {
                    b')' => b'(',
                    b']' => b'[',
                    _ => b'{',
                };
                // A stray closer leaves the openers as they are.
                if open.last().is_some_and(|&(o, _)| o == wanted) {
                    let (_, at) = open.pop().expect("just looked");
                    kinds[at] = Bracket::Opens(i);
                }
            }
            _ => {}
        }
    }
    kinds
}

/// For each opener, how far below the top of its chain of nested groups its group is (0
/// for a group that is not a link of one): a group is a link when it holds nearly all of
/// the group around it (the tokens beside it there, [`LINK_SHARE`] times over, are no
/// more than its own).
fn link_distances(kinds: &[Bracket]) -> Vec<usize> {
    let mut links = vec![0; kinds.len()];
    // The open groups around the token: opener, closer.
    let mut around: Vec<(usize, usize)> = Vec::new();
    for (i, kind) in kinds.iter().enumerate() {
        while around.last().is_some_and(|&(_, close)| close < i) {
            around.pop();
        }
        if let Bracket::Opens(close) = *kind {
            if let Some(&(outer, outer_close)) = around.last() {
                let own = close - i + 1;
                let beside = (outer_close - outer - 1) - own;
                if beside.saturating_mul(LINK_SHARE) <= own {
                    links[i] = links[outer] + 1;
                }
            }
            around.push((i, close));
        }
    }
    links
}

/// How many times the tokens beside a nested group its own must outnumber for it to be
/// a link of a chain ([`link_distances`]).
const LINK_SHARE: usize = 16;

/// The last token of the run of `k` items from token `start` (a bracket group is one
/// item), if the run stays on one nesting level (it meets no closer) and holds a group
/// that `counts` (given its opener).
fn group_window(
    kinds: &[Bracket],
    start: usize,
    k: usize,
    counts: impl Fn(usize) -> bool,
) -> Option<usize> {
    let mut at = start;
    let mut groups = 0;
    let mut end = start;
    for _ in 0..k {
        end = match *kinds.get(at)? {
            Bracket::Opens(close) => {
                groups += usize::from(counts(at));
                close
            }
            Bracket::Closes => return None,
            Bracket::Other => at,
        };
        at = end + 1;
    }
    (groups > 0).then_some(end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_are_one_item_and_runs_stay_on_their_level() {
        let text = b"a b(c d)e[f] }";
        // Tokens: a b ( c d ) e [ f ] }
        let tokens: Vec<Range<usize>> = [0, 2, 3, 4, 6, 7, 8, 9, 10, 11, 13]
            .iter()
            .map(|&i| i..i + 1)
            .collect();
        let kinds = brackets(text, &tokens);
        assert_eq!(kinds[2], Bracket::Opens(5));
        assert_eq!(kinds[7], Bracket::Opens(9));
        assert_eq!(kinds[10], Bracket::Closes, "a stray closer");
        assert_eq!(group_window(&kinds, 1, 3, |_| true), Some(6), "b (c d) e");
        assert_eq!(group_window(&kinds, 2, 1, |_| true), Some(5), "(c d) alone");
        assert_eq!(group_window(&kinds, 0, 1, |_| true), None, "no group");
        assert_eq!(
            group_window(&kinds, 4, 2, |_| true),
            None,
            "d ) leaves its level"
        );
        assert_eq!(
            group_window(&kinds, 6, 3, |_| true),
            None,
            "e [f] }} meets a closer"
        );
    }

    #[test]
    fn nested_groups_that_fill_the_one_around_them_are_links() {
        let tokens = |text: &[u8]| -> Vec<Range<usize>> {
            (0..text.len())
                .filter(|&i| text[i] != b' ')
                .map(|i| i..i + 1)
                .collect()
        };
        let text = b"[[[[x]]]]";
        let links = link_distances(&brackets(text, &tokens(text)));
        assert_eq!(&links[..4], &[0, 1, 2, 3]);
        // Beside a group, as much as it holds: not a link.
        let text = b"[a b c [x]]";
        let links = link_distances(&brackets(text, &tokens(text)));
        assert_eq!(links[4], 0);
    }
}
