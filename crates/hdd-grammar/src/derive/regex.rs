//! A small regular-expression engine for tree-sitter lexical rules: parsing of
//! PATTERN syntax, shortest representative strings, and full-string matching.
//!
//! Only what grammar tables need: the shortest strings a token can be, in a
//! preference order that favours lower-case ASCII letters, then digits, `_`,
//! upper-case letters, punctuation and whitespace; and a matcher that tells
//! whether a keyword string is also an identifier.

use std::fmt;

/// How many candidate strings a node keeps at most; bounds the work of
/// cartesian products and keyword avoidance.
pub(super) const CAP: usize = 64;

/// A parsed regular expression (or a lexical grammar subtree turned into one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Re {
    /// The empty string (also anchors, word boundaries and lookarounds).
    Empty,
    /// One literal character.
    Char(char),
    /// A character class.
    Class(Class),
    /// Concatenation.
    Concat(Vec<Re>),
    /// Alternation.
    Alt(Vec<Re>),
    /// Repetition `{min,max}`; `max == None` is unbounded.
    Repeat {
        inner: Box<Re>,
        min: u32,
        max: Option<u32>,
    },
}

/// A set of characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Class {
    negated: bool,
    case_insensitive: bool,
    items: Vec<Item>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Item {
    Range(char, char),
    /// A named set (`\d`, `\p{L}`, ...); `true` when negated (`\D`, `\P{L}`).
    Set(Set, bool),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Set {
    Digit,
    Word,
    Space,
    Letter,
    Upper,
    Lower,
    IdContinue,
    Number,
    Separator,
    Punct,
    Symbol,
    Control,
    Any,
}

impl Set {
    fn contains(self, c: char) -> bool {
        match self {
            Set::Digit => c.is_ascii_digit(),
            Set::Word => c.is_ascii_alphanumeric() || c == '_',
            Set::Space => c.is_whitespace(),
            Set::Letter => c.is_alphabetic(),
            Set::Upper => c.is_uppercase(),
            Set::Lower => c.is_lowercase(),
            Set::IdContinue => c.is_alphanumeric() || c == '_',
            Set::Number => c.is_numeric(),
            Set::Separator => c.is_whitespace() && !c.is_control(),
            Set::Punct => c.is_ascii_punctuation() && !"$+<=>^`|~".contains(c),
            Set::Symbol => "$+<=>^`|~".contains(c),
            Set::Control => c.is_control(),
            Set::Any => true,
        }
    }

    /// The set named by a `\p{...}` property (general category, script-free
    /// binary property, or the identifier properties tree-sitter grammars use).
    fn from_property(name: &str) -> Option<Set> {
        let name = name.strip_prefix("General_Category=").unwrap_or(name);
        let name = name.strip_prefix("gc=").unwrap_or(name);
        Some(match name {
            "L" | "Letter" | "Lo" | "Other_Letter" | "Lm" | "Modifier_Letter" | "Lt"
            | "Titlecase_Letter" | "Alpha" | "Alphabetic" | "XID_Start" | "ID_Start" | "XIDS"
            | "IDS" => Set::Letter,
            "Lu" | "Uppercase_Letter" | "Upper" | "Uppercase" => Set::Upper,
            "Ll" | "Lowercase_Letter" | "Lower" | "Lowercase" => Set::Lower,
            "XID_Continue" | "ID_Continue" | "XIDC" | "IDC" => Set::IdContinue,
            "N" | "Number" | "Nd" | "Decimal_Number" | "digit" | "Nl" | "Letter_Number" | "No"
            | "Other_Number" => Set::Number,
            "Z"
            | "Separator"
            | "Zs"
            | "Space_Separator"
            | "Zl"
            | "Line_Separator"
            | "Zp"
            | "Paragraph_Separator" => Set::Separator,
            "White_Space" | "WSpace" | "space" | "Whitespace" => Set::Space,
            "P"
            | "Punctuation"
            | "Pc"
            | "Connector_Punctuation"
            | "Pd"
            | "Dash_Punctuation"
            | "Ps"
            | "Open_Punctuation"
            | "Pe"
            | "Close_Punctuation"
            | "Pi"
            | "Initial_Punctuation"
            | "Pf"
            | "Final_Punctuation"
            | "Po"
            | "Other_Punctuation" => Set::Punct,
            "S" | "Symbol" | "Sm" | "Math_Symbol" | "Sc" | "Currency_Symbol" | "Sk"
            | "Modifier_Symbol" | "So" | "Other_Symbol" => Set::Symbol,
            "C" | "Other" | "Cc" | "Control" | "Cf" | "Format" => Set::Control,
            "Any" | "Assigned" => Set::Any,
            _ => return None,
        })
    }
}

impl Class {
    fn of(items: Vec<Item>, negated: bool, case_insensitive: bool) -> Class {
        Class {
            negated,
            case_insensitive,
            items,
        }
    }

    fn raw_contains(&self, c: char) -> bool {
        self.items.iter().any(|item| match *item {
            Item::Range(lo, hi) => lo <= c && c <= hi,
            Item::Set(set, negated) => set.contains(c) != negated,
        })
    }

    /// Whether the class contains `c`.
    pub(super) fn contains(&self, c: char) -> bool {
        let mut hit = self.raw_contains(c);
        if !hit && self.case_insensitive {
            hit = c.to_lowercase().any(|l| self.raw_contains(l))
                || c.to_uppercase().any(|u| self.raw_contains(u));
        }
        hit != self.negated
    }

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

/// A regex syntax error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct ReError(pub(super) String);

impl fmt::Display for ReError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Parses a tree-sitter PATTERN (JavaScript regex syntax). `flags` is the
/// PATTERN's optional `flags` string; only `i` changes the language.
pub(super) fn parse(pattern: &str, flags: &str) -> Result<Re, ReError> {
    let mut parser = Parser {
        chars: pattern.chars().collect(),
        pos: 0,
        case_insensitive: flags.contains('i'),
    };
    let re = parser.alternation()?;
    if parser.pos < parser.chars.len() {
        return Err(ReError(format!("unbalanced `)` at offset {}", parser.pos)));
    }
    Ok(re)
}

struct Parser {
    chars: Vec<char>,
    pos: usize,
    case_insensitive: bool,
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn next(&mut self) -> Result<char, ReError> {
        let c = self
            .peek()
            .ok_or_else(|| ReError("unexpected end of pattern".into()))?;
        self.pos += 1;
        Ok(c)
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn alternation(&mut self) -> Result<Re, ReError> {
        let mut branches = vec![self.concatenation()?];
        while self.eat('|') {
            branches.push(self.concatenation()?);
        }
        Ok(if branches.len() == 1 {
            branches.pop().unwrap_or(Re::Empty)
        } else {
            Re::Alt(branches)
        })
    }

    fn concatenation(&mut self) -> Result<Re, ReError> {
        let mut parts = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let atom = self.atom()?;
            parts.push(self.quantifiers(atom)?);
        }
        Ok(match parts.len() {
            0 => Re::Empty,
            1 => parts.pop().unwrap_or(Re::Empty),
            _ => Re::Concat(parts),
        })
    }

    fn quantifiers(&mut self, mut atom: Re) -> Result<Re, ReError> {
        loop {
            let simple = match self.peek() {
                Some('*') => Some((0, None)),
                Some('+') => Some((1, None)),
                Some('?') => Some((0, Some(1))),
                _ => None,
            };
            let (min, max) = if let Some(bounds) = simple {
                self.pos += 1;
                bounds
            } else if self.peek() == Some('{')
                && let Some(bounds) = self.braces()
            {
                bounds
            } else {
                return Ok(atom);
            };
            // A lazy marker (`*?`) does not change the language.
            self.eat('?');
            if matches!(atom, Re::Empty) && min > 0 {
                return Err(ReError("nothing to repeat".into()));
            }
            atom = Re::Repeat {
                inner: Box::new(atom),
                min,
                max,
            };
        }
    }

    /// Parses `{n}`, `{n,}` or `{n,m}` at the cursor and steps over it;
    /// `None` (cursor unchanged) when the brace is a literal.
    fn braces(&mut self) -> Option<(u32, Option<u32>)> {
        let rest = &self.chars[self.pos..];
        let end = rest.iter().position(|&c| c == '}')?;
        let body: String = rest[1..end].iter().collect();
        let number = |s: &str| s.parse::<u32>().ok();
        let bounds = match body.split_once(',') {
            None => {
                let n = number(&body)?;
                (n, Some(n))
            }
            Some((lo, "")) => (number(lo)?, None),
            Some((lo, hi)) => (number(lo)?, Some(number(hi)?)),
        };
        self.pos += end + 1;
        Some(bounds)
    }

    fn atom(&mut self) -> Result<Re, ReError> {
        let c = self.next()?;
        Ok(match c {
            '(' => self.group()?,
            '[' => Re::Class(self.class()?),
            '.' => Re::Class(Class::of(vec![Item::Range('\n', '\n')], true, false)),
            '^' | '$' => Re::Empty,
            '\\' => self.escape()?,
            c => self.literal(c),
        })
    }

    /// A group; the cursor is after the `(`.
    fn group(&mut self) -> Result<Re, ReError> {
        let mut lookaround = false;
        let outer_flag = self.case_insensitive;
        if self.eat('?') {
            match self.next()? {
                ':' => {}
                '=' | '!' => lookaround = true,
                '<' if self.eat('=') || self.eat('!') => lookaround = true,
                // Named groups `(?<name>...)`, `(?P<name>...)`.
                '<' | 'P' => while self.next()? != '>' {},
                // Flags `(?i)` (to the end of the enclosing group) or `(?i:...)`.
                c if c.is_ascii_alphabetic() || c == '-' => {
                    let mut on = true;
                    let mut flag = c;
                    loop {
                        match flag {
                            '-' => on = false,
                            'i' => self.case_insensitive = on,
                            _ => {}
                        }
                        flag = self.next()?;
                        if flag == ')' {
                            return Ok(Re::Empty);
                        }
                        if flag == ':' {
                            break;
                        }
                    }
                }
                other => {
                    return Err(ReError(format!("unsupported group syntax `(?{other}`")));
                }
            }
        }
        let inner = self.alternation()?;
        self.case_insensitive = outer_flag;
        if !self.eat(')') {
            return Err(ReError("unclosed `(`".into()));
        }
        Ok(if lookaround { Re::Empty } else { inner })
    }

    fn literal(&self, c: char) -> Re {
        if self.case_insensitive && c.is_alphabetic() {
            Re::Class(Class::of(vec![Item::Range(c, c)], false, true))
        } else {
            Re::Char(c)
        }
    }

    /// The escape after a `\` outside a class.
    fn escape(&mut self) -> Result<Re, ReError> {
        let c = self.next()?;
        if let Some(item) = self.set_escape(c)? {
            return Ok(Re::Class(Class::of(vec![item], false, false)));
        }
        Ok(match c {
            'b' | 'B' | 'A' | 'z' | 'Z' | 'G' => Re::Empty,
            '1'..='9' => return Err(ReError("backreferences are not supported".into())),
            _ => {
                let ch = self.char_escape(c)?;
                self.literal(ch)
            }
        })
    }

    /// `\d`, `\w`, `\s`, `\p{..}` and their negations.
    fn set_escape(&mut self, c: char) -> Result<Option<Item>, ReError> {
        Ok(Some(match c {
            'd' => Item::Set(Set::Digit, false),
            'D' => Item::Set(Set::Digit, true),
            'w' => Item::Set(Set::Word, false),
            'W' => Item::Set(Set::Word, true),
            's' => Item::Set(Set::Space, false),
            'S' => Item::Set(Set::Space, true),
            'p' | 'P' => {
                let name: String = if self.eat('{') {
                    let mut name = String::new();
                    loop {
                        match self.next()? {
                            '}' => break,
                            ch => name.push(ch),
                        }
                    }
                    name
                } else {
                    self.next()?.to_string()
                };
                let set = Set::from_property(&name).ok_or_else(|| {
                    ReError(format!(
                        "unsupported Unicode property class `\\{c}{{{name}}}`"
                    ))
                })?;
                Item::Set(set, c == 'P')
            }
            _ => return Ok(None),
        }))
    }

    /// A single-character escape (`\n`, `\u0041`, `\.`, ...).
    fn char_escape(&mut self, c: char) -> Result<char, ReError> {
        Ok(match c {
            'n' => '\n',
            'r' => '\r',
            't' => '\t',
            'f' => '\u{c}',
            'v' => '\u{b}',
            '0' => '\0',
            'x' => self.hex(2)?,
            'u' => {
                if self.eat('{') {
                    let mut digits = String::new();
                    loop {
                        match self.next()? {
                            '}' => break,
                            d => digits.push(d),
                        }
                    }
                    code_point(&digits)?
                } else {
                    self.hex(4)?
                }
            }
            'U' => self.hex(8)?,
            'c' => {
                let letter = self.next()?;
                char::from_u32(u32::from(letter) % 32)
                    .ok_or_else(|| ReError("bad control escape".into()))?
            }
            other => other,
        })
    }

    fn hex(&mut self, n: usize) -> Result<char, ReError> {
        let mut digits = String::new();
        for _ in 0..n {
            digits.push(self.next()?);
        }
        code_point(&digits)
    }

    /// A `[...]` class; the cursor is after the `[`.
    fn class(&mut self) -> Result<Class, ReError> {
        let negated = self.eat('^');
        let mut items = Vec::new();
        let mut first = true;
        loop {
            let c = self.next()?;
            if c == ']' && !first {
                break;
            }
            first = false;
            let lo = match c {
                '\\' => {
                    let e = self.next()?;
                    if let Some(item) = self.set_escape(e)? {
                        items.push(item);
                        continue;
                    }
                    if e == 'b' {
                        '\u{8}'
                    } else {
                        self.char_escape(e)?
                    }
                }
                c => c,
            };
            let is_range = self.peek() == Some('-') && self.chars.get(self.pos + 1) != Some(&']');
            if is_range && self.chars.get(self.pos + 1).is_some() {
                self.pos += 1;
                let hi = match self.next()? {
                    '\\' => {
                        let e = self.next()?;
                        self.char_escape(e)?
                    }
                    c => c,
                };
                if hi < lo {
                    return Err(ReError(format!("empty range `{lo}-{hi}`")));
                }
                items.push(Item::Range(lo, hi));
            } else {
                items.push(Item::Range(lo, lo));
            }
        }
        Ok(Class::of(items, negated, self.case_insensitive))
    }
}

fn code_point(digits: &str) -> Result<char, ReError> {
    u32::from_str_radix(digits, 16)
        .ok()
        .and_then(char::from_u32)
        .ok_or_else(|| ReError(format!("bad code point escape `{digits}`")))
}

impl Re {
    /// A literal string.
    pub(super) fn literal(s: &str) -> Re {
        Re::Concat(s.chars().map(Re::Char).collect())
    }

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
    pub(super) fn shortest(&self, cap: usize) -> Vec<String> {
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
    pub(super) fn matches(&self, s: &str) -> bool {
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
