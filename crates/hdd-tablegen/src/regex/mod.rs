//! A small regular-expression engine for tree-sitter lexical rules: PATTERN
//! syntax is parsed into a [`Re`] (`parse.rs`, `syntax.rs`); here, the shortest
//! representative strings of a regex and full-string matching.
//!
//! Only what grammar tables need: the shortest strings a token can be, in a
//! preference order that favours lower-case ASCII letters, then digits, `_`,
//! upper-case letters, punctuation and whitespace; and a matcher that tells
//! whether a keyword string is also an identifier.

mod parse;
mod syntax;

pub(crate) use self::parse::parse;
pub(crate) use self::syntax::Re;

use self::syntax::Class;

/// How many candidate strings a node keeps at most; bounds the work of
/// cartesian products and keyword avoidance.
pub(crate) const CAP: usize = 64;

impl Class {
    /// Up to `cap` members, most preferred first.
    fn members(&self, cap: usize) -> Vec<char> {
        let mut out: Vec<char> = preference_order()
            .filter(|&c| self.contains(c))
            .take(cap)
            .collect();
        if out.is_empty() {
            // Nothing familiar: take the lowest code points that qualify.
            out = ('\u{80}'..=char::MAX)
                .filter(|&c| self.contains(c))
                .take(cap)
                .collect();
        }
        out
    }
}

/// Characters in the order representatives prefer them.
fn preference_order() -> impl Iterator<Item = char> {
    let punct = (b'!'..=b'~')
        .map(char::from)
        .filter(|c| !c.is_ascii_alphanumeric() && *c != '_');
    ('a'..='z')
        .chain('0'..='9')
        .chain(std::iter::once('_'))
        .chain('A'..='Z')
        .chain(punct)
        .chain([' ', '\t', '\n', '\r', '\u{b}', '\u{c}'])
}

impl Re {
    /// Length in characters of the shortest string, `None` if the language is empty.
    fn min_len(&self) -> Option<usize> {
        match self {
            Re::Empty => Some(0),
            Re::Char(_) => Some(1),
            Re::Class(class) => (!class.members(1).is_empty()).then_some(1),
            Re::Concat(parts) => parts.iter().map(Re::min_len).sum(),
            Re::Alt(branches) => branches.iter().filter_map(Re::min_len).min(),
            Re::Repeat { inner, min, .. } => {
                if *min == 0 {
                    Some(0)
                } else {
                    inner.min_len().map(|n| n * *min as usize)
                }
            }
        }
    }

    /// Up to `cap` strings of minimal length, most preferred first
    /// (empty when the language is empty).
    pub(crate) fn shortest(&self, cap: usize) -> Vec<String> {
        match self {
            Re::Empty => vec![String::new()],
            Re::Char(c) => vec![c.to_string()],
            Re::Class(class) => class.members(cap).into_iter().map(String::from).collect(),
            Re::Concat(parts) => {
                let mut acc = vec![String::new()];
                for part in parts {
                    let next = part.shortest(cap);
                    acc = product(&acc, &next, cap);
                    if acc.is_empty() {
                        break;
                    }
                }
                acc
            }
            Re::Alt(branches) => {
                let Some(best) = self.min_len() else {
                    return Vec::new();
                };
                let mut out: Vec<String> = Vec::new();
                for branch in branches {
                    if branch.min_len() == Some(best) {
                        for s in branch.shortest(cap) {
                            if out.len() < cap && !out.contains(&s) {
                                out.push(s);
                            }
                        }
                    }
                }
                out
            }
            Re::Repeat { inner, min, .. } => {
                let one = inner.shortest(cap);
                let mut acc = vec![String::new()];
                for _ in 0..*min {
                    acc = product(&acc, &one, cap);
                }
                acc
            }
        }
    }

    /// Whether the whole of `s` matches.
    pub(crate) fn matches(&self, s: &str) -> bool {
        let chars: Vec<char> = s.chars().collect();
        let mut start = vec![false; chars.len() + 1];
        start[0] = true;
        self.step(&chars, &start)[chars.len()]
    }

    /// Positions reachable after matching `self` from any position in `from`.
    fn step(&self, s: &[char], from: &[bool]) -> Vec<bool> {
        let mut out = vec![false; from.len()];
        match self {
            Re::Empty => out.copy_from_slice(from),
            Re::Char(c) => {
                for (i, _) in from.iter().enumerate().filter(|(_, on)| **on) {
                    if s.get(i) == Some(c) {
                        out[i + 1] = true;
                    }
                }
            }
            Re::Class(class) => {
                for (i, _) in from.iter().enumerate().filter(|(_, on)| **on) {
                    if s.get(i).is_some_and(|&c| class.contains(c)) {
                        out[i + 1] = true;
                    }
                }
            }
            Re::Concat(parts) => {
                out.copy_from_slice(from);
                for part in parts {
                    out = part.step(s, &out);
                }
            }
            Re::Alt(branches) => {
                for branch in branches {
                    for (o, b) in out.iter_mut().zip(branch.step(s, from)) {
                        *o |= b;
                    }
                }
            }
            Re::Repeat { inner, min, max } => {
                let mut current = from.to_vec();
                for _ in 0..*min {
                    current = inner.step(s, &current);
                }
                out.clone_from(&current);
                let mut frontier = current;
                let mut count = *min;
                while max.is_none_or(|m| count < m) && frontier.iter().any(|b| *b) {
                    let next = inner.step(s, &frontier);
                    frontier = next
                        .iter()
                        .zip(&out)
                        .map(|(n, seen)| *n && !*seen)
                        .collect();
                    for (o, f) in out.iter_mut().zip(&frontier) {
                        *o |= *f;
                    }
                    count += 1;
                }
            }
        }
        out
    }
}

fn product(left: &[String], right: &[String], cap: usize) -> Vec<String> {
    let mut out = Vec::new();
    for l in left {
        for r in right {
            if out.len() == cap {
                return out;
            }
            out.push(format!("{l}{r}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first(pattern: &str) -> String {
        parse(pattern, "").unwrap().shortest(CAP).remove(0)
    }

    #[test]
    fn representatives() {
        assert_eq!(
            first(r"(\p{XID_Start}|\$|_|\\u[0-9A-Fa-f]{4})(\p{XID_Continue}|\$)*"),
            "a"
        );
        assert_eq!(first(r"[0-9]+"), "0");
        assert_eq!(first(r"\d{2,3}"), "00");
        assert_eq!(first(r"\w"), "a");
        assert_eq!(first(r"\s"), " ");
        assert_eq!(first(r"\S"), "a");
        assert_eq!(first(r#"[^\\"\n]+"#), "a");
        assert_eq!(first(r"[^a-z0-9_]"), "A");
        assert_eq!(first(r"[-\+]"), "+");
        assert_eq!(first(r"\r?\n"), "\n");
        assert_eq!(first(r"#[ \t]*define"), "#define");
        assert_eq!(first(r"[sS][eE][lL][eE][cC][tT]"), "select");
        assert_eq!(first(r"x[0-9a-fA-F]{1,4}"), "xa");
        assert_eq!(first(r"\u0041|bb"), "A");
        assert_eq!(first(r"\u{3b1}"), "\u{3b1}");
        assert_eq!(first(r"(?:ab|c)d"), "cd");
        assert_eq!(first(r"(?i)SELECT"), "select");
        assert_eq!(first(r"[\u00e0-\u00ff]"), "\u{e0}");
        assert_eq!(first(r"a{3}"), "aaa");
        assert_eq!(first(r"a{,3}"), "a{,3}");
        assert_eq!(first(r"[^*]*\*+([^/*][^*]*\*+)*"), "*");
        assert_eq!(parse(r"\P{L}", "").unwrap().shortest(2), ["0", "1"]);
        assert_eq!(parse(r"sel", "i").unwrap().shortest(2), ["sel", "seL"]);
    }

    #[test]
    fn matching() {
        let ident = parse(r"[a-zA-Z_]\w*", "").unwrap();
        assert!(ident.matches("if"));
        assert!(ident.matches("_x9"));
        assert!(!ident.matches("9x"));
        assert!(!ident.matches(""));
        let bounded = parse(r"a{2,3}", "").unwrap();
        assert!(!bounded.matches("a"));
        assert!(bounded.matches("aa"));
        assert!(bounded.matches("aaa"));
        assert!(!bounded.matches("aaaa"));
        assert!(parse("SELECT", "i").unwrap().matches("select"));
        assert!(parse("(?i)SELECT", "").unwrap().matches("select"));
        assert!(parse("(?i:SEL)ECT", "").unwrap().matches("selECT"));
        assert!(!parse("(?i:SEL)ECT", "").unwrap().matches("select"));
        assert!(parse("(?<x>a)b", "").unwrap().matches("ab"));
        assert!(parse("a(?=b)", "").unwrap().matches("a"));
    }

    #[test]
    fn errors() {
        assert!(parse(r"\p{Klingon}", "").is_err());
        assert!(parse(r"(a", "").is_err());
        assert!(parse(r"a)", "").is_err());
        assert!(parse(r"[a", "").is_err());
        assert!(parse(r"(a)\1", "").is_err());
    }
}
