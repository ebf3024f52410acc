//! Parsing tree-sitter PATTERN syntax (JavaScript regular expressions) into a [`Re`].

use std::fmt;

use super::syntax::{Class, Item, Re, Set};

/// A regex syntax error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ReError(String);

impl fmt::Display for ReError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Parses a tree-sitter PATTERN (JavaScript regex syntax). `flags` is the
/// PATTERN's optional `flags` string; only `i` changes the language.
pub(crate) fn parse(pattern: &str, flags: &str) -> Result<Re, ReError> {
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
