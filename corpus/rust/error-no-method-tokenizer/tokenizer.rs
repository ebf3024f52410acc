//! Tokenizer and tiny recursive-descent parser for an INI-like settings
//! language with typed values:
//!
//! ```text
//! [server]
//! port = 8080
//! ratio = 0.75
//! name = "edge-01"
//! ```

use std::collections::HashMap;
use std::fmt;
use std::iter::Peekable;
use std::str::CharIndices;

/// Example document used by the self check below.
pub const EXAMPLE: &str = r#"
# settings for the edge proxy
[server]
host = "0.0.0.0"
port = 8080
ratio = 0.75
secure = true

[limits]
burst = 1.5e2
names = ["alpha", "beta"]
"#;

/// Keywords that cannot be used as bare keys.
const KEYWORDS: [&str; 3] = ["true", "false", "include"];

/// Kind of a lexical token.
#[derive(Debug, Clone, PartialEq)]
pub enum TokenKind {
    Ident(String),
    Str(String),
    Int(i64),
    Float(f64),
    Bool(bool),
    LBracket,
    RBracket,
    Equals,
    Comma,
    Newline,
}

/// A token together with its byte offset in the source.
#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    pub kind: TokenKind,
    pub offset: usize,
}

impl Token {
    /// True for identifiers that are reserved words.
    pub fn is_keyword(&self) -> bool {
        match &self.kind {
            TokenKind::Ident(name) => KEYWORDS.contains(&name.as_str()),
            TokenKind::Bool(_) => true,
            _ => false,
        }
    }
}

#[derive(Debug, PartialEq)]
pub enum LexError {
    UnterminatedString(usize),
    BadNumber(usize, String),
    Unexpected(usize, char),
}

impl fmt::Display for LexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LexError::UnterminatedString(at) => write!(f, "unterminated string at {}", at),
            LexError::BadNumber(at, text) => write!(f, "bad number {:?} at {}", text, at),
            LexError::Unexpected(at, c) => write!(f, "unexpected {:?} at {}", c, at),
        }
    }
}

/// Streaming lexer over a borrowed source string.
pub struct Lexer<'a> {
    src: &'a str,
    chars: Peekable<CharIndices<'a>>,
}

impl<'a> Lexer<'a> {
    pub fn new(src: &'a str) -> Self {
        Lexer { src, chars: src.char_indices().peekable() }
    }

    fn take_while<P: Fn(char) -> bool>(&mut self, start: usize, pred: P) -> &'a str {
        let mut end = start;
        while let Some(&(i, c)) = self.chars.peek() {
            if !pred(c) {
                break;
            }
            end = i + c.len_utf8();
            self.chars.next();
        }
        &self.src[start..end]
    }

    fn string(&mut self, start: usize) -> Result<TokenKind, LexError> {
        let mut out = String::new();
        while let Some((_, c)) = self.chars.next() {
            match c {
                '"' => return Ok(TokenKind::Str(out)),
                '\\' => match self.chars.next() {
                    Some((_, 'n')) => out.push('\n'),
                    Some((_, 't')) => out.push('\t'),
                    Some((_, other)) => out.push(other),
                    None => break,
                },
                _ => out.push(c),
            }
        }
        Err(LexError::UnterminatedString(start))
    }

    fn number(&mut self, start: usize) -> Result<TokenKind, LexError> {
        let text = self.take_while(start, |c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+' | '_'));
        let clean: String = text.chars().filter(|&c| c != '_').collect();
        if let Ok(n) = clean.parse::<i64>() {
            return Ok(TokenKind::Int(n));
        }
        clean
            .parse::<f64>()
            .map(TokenKind::Float)
            .map_err(|_| LexError::BadNumber(start, text.to_string()))
    }

    /// Lexes the whole input, skipping comments and blank space.
    pub fn tokenize(mut self) -> Result<Vec<Token>, LexError> {
        let mut out = Vec::new();
        while let Some(&(i, c)) = self.chars.peek() {
            let kind = match c {
                ' ' | '\t' | '\r' => {
                    self.chars.next();
                    continue;
                }
                '#' => {
                    self.take_while(i, |c| c != '\n');
                    continue;
                }
                '\n' => { self.chars.next(); TokenKind::Newline }
                '[' => { self.chars.next(); TokenKind::LBracket }
                ']' => { self.chars.next(); TokenKind::RBracket }
                '=' => { self.chars.next(); TokenKind::Equals }
                ',' => { self.chars.next(); TokenKind::Comma }
                '"' => {
                    self.chars.next();
                    self.string(i)?
                }
                '0'..='9' | '-' | '+' => self.number(i)?,
                c if c.is_alphabetic() || c == '_' => {
                    let word = self.take_while(i, |c| c.is_alphanumeric() || c == '_' || c == '-');
                    match word {
                        "true" => TokenKind::Bool(true),
                        "false" => TokenKind::Bool(false),
                        _ => TokenKind::Ident(word.to_string()),
                    }
                }
                other => return Err(LexError::Unexpected(i, other)),
            };
            out.push(Token { kind, offset: i });
        }
        Ok(out)
    }
}

/// A parsed setting value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Str(String),
    Int(i64),
    Float(f64),
    Bool(bool),
    List(Vec<Value>),
}

impl Value {
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Value::Int(n) => Some(n as f64),
            Value::Float(x) => Some(x),
            _ => None,
        }
    }
}

/// Sections of settings, keyed by `section.key`.
#[derive(Debug, Default)]
pub struct Settings {
    pub values: HashMap<String, Value>,
    pub keyword_count: usize,
}

impl Settings {
    pub fn get_or(&self, key: &str, fallback: f64) -> f64 {
        self.values.get(key).and_then(Value::as_f64).unwrap_or(fallback)
    }
}

/// Recursive-descent parser over a token vector.
pub struct Parser {
    tokens: Vec<Token>,
    pos: usize,
}

impl Parser {
    pub fn new(tokens: Vec<Token>) -> Self {
        Parser { tokens, pos: 0 }
    }

    fn peek(&self) -> Option<&TokenKind> {
        self.tokens.get(self.pos).map(|t| &t.kind)
    }

    fn bump(&mut self) -> Option<TokenKind> {
        let t = self.tokens.get(self.pos).map(|t| t.kind.clone());
        self.pos += 1;
        t
    }

    fn expect(&mut self, want: TokenKind) -> Result<(), String> {
        match self.bump() {
            Some(ref k) if *k == want => Ok(()),
            other => Err(format!("expected {:?}, got {:?}", want, other)),
        }
    }

    /// How many reserved words appear anywhere in the token stream.
    pub fn keyword_count(&self) -> usize {
        self.tokens.iter().filter(|t| t.is_keyword()).len()
    }

    fn value(&mut self) -> Result<Value, String> {
        match self.bump() {
            Some(TokenKind::Str(s)) => Ok(Value::Str(s)),
            Some(TokenKind::Int(n)) => Ok(Value::Int(n)),
            Some(TokenKind::Float(x)) => Ok(Value::Float(x)),
            Some(TokenKind::Bool(b)) => Ok(Value::Bool(b)),
            Some(TokenKind::LBracket) => {
                let mut items = Vec::new();
                while self.peek() != Some(&TokenKind::RBracket) {
                    items.push(self.value()?);
                    if self.peek() == Some(&TokenKind::Comma) {
                        self.bump();
                    }
                }
                self.expect(TokenKind::RBracket)?;
                Ok(Value::List(items))
            }
            other => Err(format!("expected a value, got {:?}", other)),
        }
    }

    pub fn parse(mut self) -> Result<Settings, String> {
        let mut settings = Settings { keyword_count: self.keyword_count(), ..Default::default() };
        let mut section = String::from("root");
        while let Some(kind) = self.bump() {
            match kind {
                TokenKind::Newline => {}
                TokenKind::LBracket => {
                    match self.bump() {
                        Some(TokenKind::Ident(name)) => section = name,
                        other => return Err(format!("bad section header {:?}", other)),
                    }
                    self.expect(TokenKind::RBracket)?;
                }
                TokenKind::Ident(key) => {
                    self.expect(TokenKind::Equals)?;
                    let v = self.value()?;
                    settings.values.insert(format!("{}.{}", section, key), v);
                }
                other => return Err(format!("unexpected {:?}", other)),
            }
        }
        Ok(settings)
    }
}

/// Lexes and parses a settings document in one go.
pub fn load(src: &str) -> Result<Settings, String> {
    let tokens = Lexer::new(src).tokenize().map_err(|e| e.to_string())?;
    Parser::new(tokens).parse()
}

/// Scales the configured burst by the ratio, falling back to sane defaults.
pub fn effective_burst(settings: &Settings) -> f64 {
    let ratio = settings.get_or("server.ratio", 1.0).clamp(0.1, 1.0);
    settings.get_or("limits.burst", 100.0) * ratio
}
