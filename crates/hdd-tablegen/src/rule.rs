//! The grammar model: rule bodies with their terminals reduced to tokens, and
//! yields (the tokens of one derivation) with their cost and text.

/// One token of a yield.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Tok {
    pub(crate) text: String,
    /// `IMMEDIATE_TOKEN`: no whitespace before it.
    pub(crate) glued: bool,
    /// The text is the token's only spelling (no PATTERN involved).
    pub(crate) exact: bool,
    /// The token is a bare STRING of the grammar (candidate separator).
    pub(crate) string: bool,
}

/// A grammar rule body with terminals already reduced to their tokens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Rule {
    Blank,
    Tok(Tok),
    /// Index into `Grammar::names`.
    Symbol(usize),
    Seq(Vec<Rule>),
    Choice(Vec<Rule>),
    Repeat(Box<Rule>),
    Repeat1(Box<Rule>),
    Alias {
        content: Box<Rule>,
        value: String,
        named: bool,
    },
    Field {
        name: String,
        content: Box<Rule>,
    },
    /// `PREC`, `PREC_LEFT`, `PREC_RIGHT`, `PREC_DYNAMIC`, `RESERVED`.
    Prec(Box<Rule>),
}

/// Removes precedence wrappers.
pub(crate) fn strip(mut rule: &Rule) -> &Rule {
    while let Rule::Prec(content) = rule {
        rule = content;
    }
    rule
}

/// A yield: the tokens of one derivation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Yield {
    pub(crate) toks: Vec<Tok>,
}

/// (tokens, bytes, name-like pattern tokens, non-exact tokens), compared
/// lexicographically. Among equally short yields, one without invented names wins: a
/// name (`a`) refers to a declaration that may not exist, a literal (`0`) does not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Cost(usize, usize, usize, usize);

impl Yield {
    pub(crate) fn empty() -> Yield {
        Yield { toks: Vec::new() }
    }

    pub(crate) fn cost(&self) -> Cost {
        Cost(
            self.toks.len(),
            self.toks.iter().map(|t| t.text.len()).sum(),
            self.toks
                .iter()
                .filter(|t| !t.exact && t.text.starts_with(|c: char| c.is_alphabetic() || c == '_'))
                .count(),
            self.toks.iter().filter(|t| !t.exact).count(),
        )
    }

    /// The text of the yield: tokens joined by one space where one is needed.
    pub(crate) fn render(&self) -> String {
        let mut out = String::new();
        for (i, tok) in self.toks.iter().enumerate() {
            if i > 0 && !tok.glued && needs_space(&out, &tok.text) {
                out.push(' ');
            }
            out.push_str(&tok.text);
        }
        out
    }
}

/// Whether a space must separate `next` from the text before it: between two word
/// characters (`int a`), between two operator characters (`- -` is not `--`), and
/// between a number and a dot (`0 .a`: `0.a` lexes as `0.` `a`); not next to
/// brackets, separators and quotes (`f()`, `{}`, `""`).
fn needs_space(before: &str, next: &str) -> bool {
    let (Some(a), Some(b)) = (before.chars().next_back(), next.chars().next()) else {
        return false;
    };
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let tight = |c: char| "()[]{};,\"'`\n".contains(c) || c.is_whitespace();
    if (word(a) && word(b)) || (a.is_ascii_digit() && b == '.') {
        return true;
    }
    !(word(a) || word(b) || tight(a) || tight(b))
}
