//! Derivation of grammar tables from `grammar.json` and `node-types.json`:
//! minimal yields (a least fixed point over the rules), list separators,
//! supertypes and child slots; and rendering of the result as Rust source.
//!
//! Everything here is pure (no I/O); `cargo xtask grammars` reads the inputs
//! and writes `grammars/<lang>/tables.rs`.

mod regex;

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::fmt::Write as _;

use indexmap::IndexMap;
use serde_json::Value;

use self::regex::{CAP, Re};

/// An owned [`crate::table::KindInfo`], as the derivation produces it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnedKindInfo {
    /// Rule name or visible alias name.
    pub name: String,
    /// The shortest text the rule derives (tokens joined by one space,
    /// IMMEDIATE tokens glued to their predecessor).
    pub min_yield: String,
    /// Number of tokens in `min_yield`.
    pub min_tokens: u32,
    /// Whether the rule can derive the empty string.
    pub derives_empty: bool,
    /// Transitive supertypes from `node-types.json`, sorted.
    pub supertypes: Vec<String>,
    /// The separator of the separated list the rule holds, if any.
    pub list_separator: Option<String>,
}

/// An owned [`crate::table::SlotInfo`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnedSlotInfo {
    /// The visible parent kind.
    pub kind: String,
    /// The field name, `None` for the named children outside any field.
    pub field: Option<String>,
    /// Whether at least one child must fill the slot.
    pub required: bool,
    /// Whether the slot holds a list of children.
    pub multiple: bool,
}

/// The derived table of one language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Derived {
    /// One entry per rule, external token and visible alias name, sorted by name.
    pub kinds: Vec<OwnedKindInfo>,
    /// One entry per child slot, sorted by `(kind, field)` with `None` first.
    pub slots: Vec<OwnedSlotInfo>,
    /// How many rounds over all rules the minimal-yield fixed point took
    /// (the last round changes nothing).
    pub rounds: usize,
}

/// Why a table could not be derived.
#[derive(Debug, thiserror::Error)]
pub enum DeriveError {
    /// `grammar.json` is not JSON.
    #[error("grammar.json is not valid JSON: {0}")]
    GrammarJson(#[source] serde_json::Error),
    /// `node-types.json` is not JSON.
    #[error("node-types.json is not valid JSON: {0}")]
    NodeTypesJson(#[source] serde_json::Error),
    /// A JSON value does not have the expected shape.
    #[error("malformed {what}: {detail}")]
    Malformed {
        /// Which part of the input.
        what: &'static str,
        /// What is wrong with it.
        detail: String,
    },
    /// A grammar node has a `type` this derivation does not know.
    #[error("rule `{rule}`: unknown grammar node type `{kind}`")]
    UnknownNodeType {
        /// The rule containing the node.
        rule: String,
        /// The unknown `type`.
        kind: String,
    },
    /// An external token has no entry in the hand table of external yields.
    #[error(
        "external token `{0}` has no entry in the externals table (add its shortest text to the language's external yields)"
    )]
    UnknownExternal(String),
    /// A SYMBOL names neither a rule nor an external token.
    #[error("rule `{rule}` refers to undefined symbol `{symbol}`")]
    UndefinedSymbol {
        /// The referring rule.
        rule: String,
        /// The undefined name.
        symbol: String,
    },
    /// A SYMBOL occurs inside a lexical (TOKEN) context.
    #[error("rule `{rule}`: symbol `{symbol}` inside a token")]
    SymbolInToken {
        /// The rule containing the token.
        rule: String,
        /// The symbol.
        symbol: String,
    },
    /// A PATTERN could not be parsed or matches nothing.
    #[error("rule `{rule}`: pattern /{pattern}/: {reason}")]
    Pattern {
        /// The rule containing the pattern (or token).
        rule: String,
        /// The pattern source (or a description of the token).
        pattern: String,
        /// What went wrong.
        reason: String,
    },
    /// The fixed point left rules without any finite derivation.
    #[error("rules derive no finite string: {}", .0.join(", "))]
    Underivable(Vec<String>),
}

/// Derives the table of a grammar without external tokens.
///
/// # Errors
/// See [`derive_with_externals`].
pub fn derive(grammar_json: &str, node_types_json: &str) -> Result<Derived, DeriveError> {
    derive_with_externals(grammar_json, node_types_json, &[])
}

/// Derives the table of a grammar. `externals` maps each external token
/// (produced by a hand-written scanner, so invisible to `grammar.json`) to
/// its shortest text: `""` for a token that may be empty, otherwise one token.
///
/// # Errors
/// Malformed JSON, unknown grammar node types, undefined symbols, external
/// tokens missing from `externals`, unsupported patterns, and rules that
/// derive no finite string.
pub fn derive_with_externals(
    grammar_json: &str,
    node_types_json: &str,
    externals: &[(&str, &str)],
) -> Result<Derived, DeriveError> {
    let grammar: Value = serde_json::from_str(grammar_json).map_err(DeriveError::GrammarJson)?;
    let node_types: Value =
        serde_json::from_str(node_types_json).map_err(DeriveError::NodeTypesJson)?;
    let grammar = Grammar::load(&grammar, externals)?;
    let (best, rounds) = grammar.fixpoint()?;
    let node_types = NodeTypes::load(&node_types)?;
    let kinds = grammar.kinds(&best, &node_types.supertypes);
    Ok(Derived {
        kinds,
        slots: node_types.slots,
        rounds,
    })
}

// ---------------------------------------------------------------------------
// Grammar model
// ---------------------------------------------------------------------------

/// One token of a yield.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Tok {
    text: String,
    /// `IMMEDIATE_TOKEN`: no whitespace before it.
    glued: bool,
    /// The text is the token's only spelling (no PATTERN involved).
    exact: bool,
    /// The token is a bare STRING of the grammar (candidate separator).
    string: bool,
}

/// A grammar rule body with terminals already reduced to their tokens.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Rule {
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

/// A yield: the tokens of one derivation.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Yield {
    toks: Vec<Tok>,
}

/// (tokens, bytes, name-like pattern tokens, non-exact tokens), compared
/// lexicographically. Among equally short yields, one without invented names wins: a
/// name (`a`) refers to a declaration that may not exist, a literal (`0`) does not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Cost(usize, usize, usize, usize);

impl Yield {
    fn empty() -> Yield {
        Yield { toks: Vec::new() }
    }

    fn cost(&self) -> Cost {
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

    fn render(&self) -> String {
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

fn cheaper(a: Option<&Yield>, b: Option<&Yield>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a.cost() < b.cost(),
        (Some(_), None) => true,
        (None, _) => false,
    }
}

struct Grammar {
    /// Rules first (in grammar order), then external tokens that are not rules.
    names: Vec<String>,
    /// Bodies of the rules (`names[..bodies.len()]`).
    bodies: Vec<Rule>,
    /// Fixed yields of the external tokens (`names[bodies.len()..]`).
    external_yields: Vec<Yield>,
}

/// Conversion context for one rule.
struct Loader<'a> {
    rule: &'a str,
    index: &'a IndexMap<String, usize>,
    keywords: &'a BTreeSet<String>,
}

impl Grammar {
    fn load(grammar: &Value, externals: &[(&str, &str)]) -> Result<Grammar, DeriveError> {
        let rules = grammar
            .get("rules")
            .and_then(Value::as_object)
            .ok_or_else(|| malformed("grammar.json", "no `rules` object"))?;
        let mut index: IndexMap<String, usize> = IndexMap::new();
        for name in rules.keys() {
            index.insert(name.clone(), index.len());
        }
        let mut external_yields = Vec::new();
        for ext in grammar
            .get("externals")
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice)
        {
            if str_field(ext, "type") != Some("SYMBOL") {
                continue; // STRING externals are ordinary literal tokens.
            }
            let name = str_field(ext, "name")
                .ok_or_else(|| malformed("grammar.json externals", "SYMBOL without a name"))?;
            if index.contains_key(name) {
                continue;
            }
            let text = externals
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, t)| *t)
                .ok_or_else(|| DeriveError::UnknownExternal(name.to_owned()))?;
            index.insert(name.to_owned(), index.len());
            let toks = if text.is_empty() {
                Vec::new()
            } else {
                vec![Tok {
                    text: text.to_owned(),
                    glued: false,
                    exact: false,
                    string: false,
                }]
            };
            external_yields.push(Yield { toks });
        }

        let keywords = keywords(grammar, rules)?;
        let mut bodies = Vec::with_capacity(rules.len());
        for (name, body) in rules {
            let loader = Loader {
                rule: name,
                index: &index,
                keywords: &keywords,
            };
            bodies.push(loader.rule(body)?);
        }
        Ok(Grammar {
            names: index.into_keys().collect(),
            bodies,
            external_yields,
        })
    }

    /// The least fixed point of the minimal yields: every rule starts at
    /// infinity and all rules are re-evaluated until none improves.
    fn fixpoint(&self) -> Result<(Vec<Yield>, usize), DeriveError> {
        let mut best: Vec<Option<Yield>> = vec![None; self.bodies.len()];
        best.extend(self.external_yields.iter().cloned().map(Some));
        let mut rounds = 0;
        loop {
            rounds += 1;
            let mut changed = false;
            for (i, body) in self.bodies.iter().enumerate() {
                let y = eval(body, &best);
                if cheaper(y.as_ref(), best[i].as_ref()) {
                    best[i] = y;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let underivable: Vec<String> = best
            .iter()
            .zip(&self.names)
            .filter(|(y, _)| y.is_none())
            .map(|(_, n)| n.clone())
            .collect();
        if !underivable.is_empty() {
            return Err(DeriveError::Underivable(underivable));
        }
        Ok((best.into_iter().flatten().collect(), rounds))
    }

    /// The table entries: every rule, external token and visible alias.
    fn kinds(
        &self,
        best: &[Yield],
        supertypes: &BTreeMap<String, Vec<String>>,
    ) -> Vec<OwnedKindInfo> {
        let opt_best: Vec<Option<Yield>> = best.iter().cloned().map(Some).collect();
        let mut entries: BTreeMap<&str, (Yield, Option<String>)> = BTreeMap::new();
        for (i, name) in self.names.iter().enumerate() {
            let separator = self.bodies.get(i).and_then(|b| self.separator(b));
            entries.insert(name, (best[i].clone(), separator));
        }
        // Visible aliases: an alias-only kind gets the min over its alias
        // sites and the first separator they show. A rule (or external token)
        // whose name is also an alias name keeps its own entry: nodes of the
        // rule are looked up by `grammar_name()`, and their replacement must
        // be valid wherever the rule occurs (Rust `match_arm` needs its comma;
        // the `last_match_arm` aliased to it does not). Aliased nodes find the
        // entry of the rule they come from under their own grammar name.
        let mut alias_sites: Vec<(&str, &Rule)> = Vec::new();
        for body in &self.bodies {
            collect_aliases(body, &mut alias_sites);
        }
        let mut alias_only: BTreeMap<&str, (Yield, Option<String>)> = BTreeMap::new();
        for (value, content) in alias_sites {
            if entries.contains_key(value) {
                continue;
            }
            let Some(y) = eval(content, &opt_best) else {
                continue;
            };
            let entry = alias_only.entry(value).or_insert_with(|| (y.clone(), None));
            if cheaper(Some(&y), Some(&entry.0)) {
                entry.0 = y;
            }
            if entry.1.is_none() {
                entry.1 = self.separator(content);
            }
        }
        entries.extend(alias_only);
        entries
            .into_iter()
            .map(|(name, (y, list_separator))| OwnedKindInfo {
                name: name.to_owned(),
                min_yield: y.render(),
                min_tokens: u32::try_from(y.toks.len()).unwrap_or(u32::MAX),
                derives_empty: y.toks.is_empty(),
                supertypes: supertypes.get(name).cloned().unwrap_or_default(),
                list_separator,
            })
            .collect()
    }

    /// The separator of a separated list in `rule` (not looking through symbols,
    /// except that an alias of a lone symbol inherits the symbol's separator).
    fn separator(&self, rule: &Rule) -> Option<String> {
        if let Some(sep) = find_separator(rule) {
            return Some(sep);
        }
        match strip(rule) {
            Rule::Symbol(i) => self.bodies.get(*i).and_then(find_separator),
            _ => None,
        }
    }
}

/// Evaluates the yield of a rule body under the current best yields.
fn eval(rule: &Rule, best: &[Option<Yield>]) -> Option<Yield> {
    match rule {
        Rule::Blank | Rule::Repeat(_) => Some(Yield::empty()),
        Rule::Tok(tok) => Some(Yield {
            toks: vec![tok.clone()],
        }),
        Rule::Symbol(i) => best[*i].clone(),
        Rule::Seq(members) => {
            let mut toks = Vec::new();
            for member in members {
                toks.extend(eval(member, best)?.toks);
            }
            Some(Yield { toks })
        }
        Rule::Choice(members) => {
            let mut winner: Option<Yield> = None;
            for member in members {
                let y = eval(member, best);
                if cheaper(y.as_ref(), winner.as_ref()) {
                    winner = y;
                }
            }
            winner
        }
        Rule::Repeat1(content)
        | Rule::Alias { content, .. }
        | Rule::Field { content, .. }
        | Rule::Prec(content) => eval(content, best),
    }
}

fn collect_aliases<'r>(rule: &'r Rule, out: &mut Vec<(&'r str, &'r Rule)>) {
    match rule {
        Rule::Blank | Rule::Tok(_) | Rule::Symbol(_) => {}
        Rule::Seq(members) | Rule::Choice(members) => {
            for member in members {
                collect_aliases(member, out);
            }
        }
        Rule::Alias {
            content,
            value,
            named,
        } => {
            if *named && !value.starts_with('_') {
                out.push((value, content));
            }
            collect_aliases(content, out);
        }
        Rule::Repeat(content)
        | Rule::Repeat1(content)
        | Rule::Field { content, .. }
        | Rule::Prec(content) => collect_aliases(content, out),
    }
}

/// Removes precedence wrappers.
fn strip(mut rule: &Rule) -> &Rule {
    while let Rule::Prec(content) = rule {
        rule = content;
    }
    rule
}

/// The STRING text of a bare literal token.
fn literal(rule: &Rule) -> Option<&str> {
    match strip(rule) {
        Rule::Tok(tok) if tok.string => Some(&tok.text),
        _ => None,
    }
}

/// Finds `seq(.., X, repeat(seq(SEP, X)), ..)` or `repeat(seq(X, SEP))`
/// (also as one alternative of a repeated choice) in a rule body, depth-first
/// in grammar order, and returns SEP.
fn find_separator(rule: &Rule) -> Option<String> {
    match rule {
        Rule::Blank | Rule::Tok(_) | Rule::Symbol(_) => None,
        Rule::Seq(members) => {
            for pair in members.windows(2) {
                if let Rule::Repeat(content) | Rule::Repeat1(content) = strip(&pair[1])
                    && let Rule::Seq(inner) = strip(content)
                    && let [sep, item] = inner.as_slice()
                    && let Some(sep) = literal(sep)
                    && strip(item) == strip(&pair[0])
                {
                    return Some(sep.to_owned());
                }
            }
            members.iter().find_map(find_separator)
        }
        Rule::Repeat(content) | Rule::Repeat1(content) => {
            let content = strip(content);
            let alternatives = match content {
                Rule::Choice(members) => members.as_slice(),
                other => std::slice::from_ref(other),
            };
            for alternative in alternatives {
                if let Rule::Seq(inner) = strip(alternative)
                    && let [item, sep] = inner.as_slice()
                    && literal(item).is_none()
                    && let Some(sep) = literal(sep)
                {
                    return Some(sep.to_owned());
                }
            }
            find_separator(content)
        }
        Rule::Choice(members) => members.iter().find_map(find_separator),
        Rule::Alias { content, .. } | Rule::Field { content, .. } | Rule::Prec(content) => {
            find_separator(content)
        }
    }
}

impl Loader<'_> {
    fn rule(&self, node: &Value) -> Result<Rule, DeriveError> {
        let kind = str_field(node, "type").ok_or_else(|| {
            malformed(
                "grammar.json rule",
                format!("`{}`: node without `type`", self.rule),
            )
        })?;
        Ok(match kind {
            "BLANK" => Rule::Blank,
            "STRING" => {
                let text = self.string_value(node)?;
                Rule::Tok(Tok {
                    text: text.to_owned(),
                    glued: false,
                    exact: true,
                    string: true,
                })
            }
            "PATTERN" => {
                let re = self.lexical(node)?;
                Rule::Tok(self.token(&re, false, false, node)?)
            }
            "TOKEN" | "IMMEDIATE_TOKEN" => {
                let content = self.content(node)?;
                let re = self.lexical(content)?;
                let exact = !has_pattern(content);
                Rule::Tok(self.token(&re, kind == "IMMEDIATE_TOKEN", exact, content)?)
            }
            "SYMBOL" => {
                let name = self.name(node)?;
                let i = self
                    .index
                    .get(name)
                    .ok_or_else(|| DeriveError::UndefinedSymbol {
                        rule: self.rule.to_owned(),
                        symbol: name.to_owned(),
                    })?;
                Rule::Symbol(*i)
            }
            "SEQ" => Rule::Seq(self.members(node)?),
            "CHOICE" => Rule::Choice(self.members(node)?),
            "REPEAT" => Rule::Repeat(Box::new(self.rule(self.content(node)?)?)),
            "REPEAT1" => Rule::Repeat1(Box::new(self.rule(self.content(node)?)?)),
            "ALIAS" => Rule::Alias {
                content: Box::new(self.rule(self.content(node)?)?),
                value: self.string_value(node)?.to_owned(),
                named: node.get("named").and_then(Value::as_bool).unwrap_or(false),
            },
            "FIELD" => Rule::Field {
                name: self.name(node)?.to_owned(),
                content: Box::new(self.rule(self.content(node)?)?),
            },
            "PREC" | "PREC_LEFT" | "PREC_RIGHT" | "PREC_DYNAMIC" | "RESERVED" => {
                Rule::Prec(Box::new(self.rule(self.content(node)?)?))
            }
            other => {
                return Err(DeriveError::UnknownNodeType {
                    rule: self.rule.to_owned(),
                    kind: other.to_owned(),
                });
            }
        })
    }

    fn members(&self, node: &Value) -> Result<Vec<Rule>, DeriveError> {
        node.get("members")
            .and_then(Value::as_array)
            .ok_or_else(|| self.malformed("node without `members`"))?
            .iter()
            .map(|m| self.rule(m))
            .collect()
    }

    fn content<'v>(&self, node: &'v Value) -> Result<&'v Value, DeriveError> {
        node.get("content")
            .ok_or_else(|| self.malformed("node without `content`"))
    }

    fn name<'v>(&self, node: &'v Value) -> Result<&'v str, DeriveError> {
        str_field(node, "name").ok_or_else(|| self.malformed("node without `name`"))
    }

    fn string_value<'v>(&self, node: &'v Value) -> Result<&'v str, DeriveError> {
        str_field(node, "value").ok_or_else(|| self.malformed("node without string `value`"))
    }

    fn malformed(&self, detail: &str) -> DeriveError {
        malformed("grammar.json rule", format!("`{}`: {detail}", self.rule))
    }

    /// A lexical subtree (inside TOKEN, or a PATTERN) as one regex.
    fn lexical(&self, node: &Value) -> Result<Re, DeriveError> {
        let kind = str_field(node, "type").ok_or_else(|| self.malformed("node without `type`"))?;
        Ok(match kind {
            "BLANK" => Re::Empty,
            "STRING" => Re::literal(self.string_value(node)?),
            "PATTERN" => {
                let pattern = self.string_value(node)?;
                let flags = str_field(node, "flags").unwrap_or("");
                regex::parse(pattern, flags).map_err(|e| DeriveError::Pattern {
                    rule: self.rule.to_owned(),
                    pattern: pattern.to_owned(),
                    reason: e.to_string(),
                })?
            }
            "SEQ" => Re::Concat(self.lexical_members(node)?),
            "CHOICE" => Re::Alt(self.lexical_members(node)?),
            "REPEAT" | "REPEAT1" => Re::Repeat {
                inner: Box::new(self.lexical(self.content(node)?)?),
                min: u32::from(kind == "REPEAT1"),
                max: None,
            },
            "TOKEN" | "IMMEDIATE_TOKEN" | "PREC" | "PREC_LEFT" | "PREC_RIGHT" | "PREC_DYNAMIC"
            | "RESERVED" | "ALIAS" | "FIELD" => self.lexical(self.content(node)?)?,
            "SYMBOL" => {
                return Err(DeriveError::SymbolInToken {
                    rule: self.rule.to_owned(),
                    symbol: self.name(node)?.to_owned(),
                });
            }
            other => {
                return Err(DeriveError::UnknownNodeType {
                    rule: self.rule.to_owned(),
                    kind: other.to_owned(),
                });
            }
        })
    }

    fn lexical_members(&self, node: &Value) -> Result<Vec<Re>, DeriveError> {
        node.get("members")
            .and_then(Value::as_array)
            .ok_or_else(|| self.malformed("node without `members`"))?
            .iter()
            .map(|m| self.lexical(m))
            .collect()
    }

    /// The token for a lexical regex: its shortest string, avoiding keywords
    /// for pattern-based tokens when another shortest string exists.
    fn token(&self, re: &Re, glued: bool, exact: bool, source: &Value) -> Result<Tok, DeriveError> {
        let candidates = re.shortest(CAP);
        let first = candidates.first().ok_or_else(|| DeriveError::Pattern {
            rule: self.rule.to_owned(),
            pattern: describe(source),
            reason: "matches no string".into(),
        })?;
        let text = if exact {
            first
        } else {
            candidates
                .iter()
                .find(|c| !self.keywords.contains(&c.to_lowercase()))
                .unwrap_or(first)
        };
        Ok(Tok {
            text: text.clone(),
            glued,
            exact,
            string: false,
        })
    }
}

/// The lower-cased STRINGs of the grammar that the `word` rule matches
/// (tree-sitter's keywords); empty without a `word` rule.
fn keywords(
    grammar: &Value,
    rules: &serde_json::Map<String, Value>,
) -> Result<BTreeSet<String>, DeriveError> {
    let mut keywords = BTreeSet::new();
    let Some(word) = str_field(grammar, "word") else {
        return Ok(keywords);
    };
    let body = rules.get(word).ok_or_else(|| {
        malformed(
            "grammar.json",
            format!("`word` rule `{word}` is not a rule"),
        )
    })?;
    let index = IndexMap::new();
    let none = BTreeSet::new();
    let loader = Loader {
        rule: word,
        index: &index,
        keywords: &none,
    };
    let word_re = loader.lexical(body)?;
    let mut stack = vec![grammar];
    while let Some(value) = stack.pop() {
        match value {
            Value::Object(map) => {
                if map.get("type").and_then(Value::as_str) == Some("STRING")
                    && let Some(s) = map.get("value").and_then(Value::as_str)
                    && word_re.matches(s)
                {
                    keywords.insert(s.to_lowercase());
                }
                stack.extend(map.values());
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    Ok(keywords)
}

fn has_pattern(node: &Value) -> bool {
    let mut stack = vec![node];
    while let Some(value) = stack.pop() {
        match value {
            Value::Object(map) => {
                if map.get("type").and_then(Value::as_str) == Some("PATTERN") {
                    return true;
                }
                stack.extend(map.values());
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    false
}

fn describe(node: &Value) -> String {
    match str_field(node, "value") {
        Some(v) if str_field(node, "type") == Some("PATTERN") => v.to_owned(),
        _ => {
            let mut s = node.to_string();
            if s.len() > 80 {
                let cut = (0..=80).rev().find(|&i| s.is_char_boundary(i)).unwrap_or(0);
                s.truncate(cut);
                s.push('…');
            }
            s
        }
    }
}

fn str_field<'v>(node: &'v Value, key: &str) -> Option<&'v str> {
    node.get(key).and_then(Value::as_str)
}

fn malformed(what: &'static str, detail: impl Into<String>) -> DeriveError {
    DeriveError::Malformed {
        what,
        detail: detail.into(),
    }
}

// ---------------------------------------------------------------------------
// node-types.json
// ---------------------------------------------------------------------------

struct NodeTypes {
    /// Kind name -> its transitive supertypes, sorted.
    supertypes: BTreeMap<String, Vec<String>>,
    slots: Vec<OwnedSlotInfo>,
}

impl NodeTypes {
    fn load(node_types: &Value) -> Result<NodeTypes, DeriveError> {
        let entries = node_types
            .as_array()
            .ok_or_else(|| malformed("node-types.json", "not an array"))?;
        // Direct edges subtype -> supertype.
        let mut parents: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        let mut slots = Vec::new();
        for entry in entries {
            let kind = str_field(entry, "type")
                .ok_or_else(|| malformed("node-types.json", "entry without `type`"))?;
            let named = entry.get("named").and_then(Value::as_bool).unwrap_or(false);
            if !named {
                continue;
            }
            if let Some(subtypes) = entry.get("subtypes").and_then(Value::as_array) {
                for sub in subtypes {
                    let sub = str_field(sub, "type").ok_or_else(|| {
                        malformed(
                            "node-types.json",
                            format!("`{kind}`: subtype without `type`"),
                        )
                    })?;
                    parents.entry(sub).or_default().push(kind);
                }
            }
            if let Some(fields) = entry.get("fields").and_then(Value::as_object) {
                for (field, info) in fields {
                    slots.push(slot(kind, Some(field), info));
                }
            }
            if let Some(children) = entry.get("children") {
                slots.push(slot(kind, None, children));
            }
        }
        slots.sort_by(|a, b| (&a.kind, &a.field).cmp(&(&b.kind, &b.field)));

        let mut supertypes = BTreeMap::new();
        for &kind in parents.keys() {
            let mut seen: BTreeSet<&str> = BTreeSet::new();
            let mut queue: VecDeque<&str> = VecDeque::from([kind]);
            while let Some(k) = queue.pop_front() {
                for &parent in parents.get(k).map_or(&[][..], Vec::as_slice) {
                    if parent != kind && seen.insert(parent) {
                        queue.push_back(parent);
                    }
                }
            }
            supertypes.insert(
                kind.to_owned(),
                seen.into_iter().map(str::to_owned).collect(),
            );
        }
        Ok(NodeTypes { supertypes, slots })
    }
}

fn slot(kind: &str, field: Option<&str>, info: &Value) -> OwnedSlotInfo {
    let flag = |key| info.get(key).and_then(Value::as_bool).unwrap_or(false);
    OwnedSlotInfo {
        kind: kind.to_owned(),
        field: field.map(str::to_owned),
        required: flag("required"),
        multiple: flag("multiple"),
    }
}

// ---------------------------------------------------------------------------
// Rendering
// ---------------------------------------------------------------------------

/// Renders a derived table as the Rust source of `grammars/<lang>/tables.rs`:
/// `header` (plain `//` comment lines) followed by
/// `pub(crate) static TABLE: crate::table::Table`. The output is already in
/// rustfmt's style (the generated file is checked by `cargo fmt --check`).
#[must_use]
pub fn render(derived: &Derived, header: &str) -> String {
    let mut out = String::new();
    for line in header.lines() {
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push('\n');
    out.push_str("pub(crate) static TABLE: crate::table::Table = crate::table::Table {\n");
    let kinds: Vec<Vec<String>> = derived.kinds.iter().map(kind_fields).collect();
    render_array(&mut out, "kinds", "crate::table::KindInfo", &kinds);
    let slots: Vec<Vec<String>> = derived.slots.iter().map(slot_fields).collect();
    render_array(&mut out, "slots", "crate::table::SlotInfo", &slots);
    out.push_str("};\n");
    out
}

/// One `key: &[Type { .. }, ..],` field of the table literal, each element
/// given as its field lines (continuation lines relative to the field).
fn render_array(out: &mut String, key: &str, type_name: &str, elements: &[Vec<String>]) {
    let field_lines = |out: &mut String, fields: &[String], indent: &str| {
        for field in fields {
            for line in field.lines() {
                let _ = writeln!(out, "{indent}{line}");
            }
        }
    };
    match elements {
        [] => {
            let _ = writeln!(out, "    {key}: &[],");
        }
        // rustfmt lets a lone struct literal overflow into the brackets.
        [only] => {
            let _ = writeln!(out, "    {key}: &[{type_name} {{");
            field_lines(out, only, "        ");
            out.push_str("    }],\n");
        }
        _ => {
            let _ = writeln!(out, "    {key}: &[");
            for fields in elements {
                let _ = writeln!(out, "        {type_name} {{");
                field_lines(out, fields, "            ");
                out.push_str("        },\n");
            }
            out.push_str("    ],\n");
        }
    }
}

fn kind_fields(kind: &OwnedKindInfo) -> Vec<String> {
    // rustfmt keeps an array on one line while its items and separators fit
    // in 60 columns (`array_width`), otherwise puts one item per line.
    let quoted: Vec<String> = kind.supertypes.iter().map(|s| format!("{s:?}")).collect();
    let joined = quoted.join(", ");
    let supertypes = if joined.len() <= 60 {
        format!("supertypes: &[{joined}],")
    } else {
        let mut field = "supertypes: &[\n".to_owned();
        for q in &quoted {
            let _ = writeln!(field, "    {q},");
        }
        field.push_str("],");
        field
    };
    vec![
        format!("name: {:?},", kind.name),
        format!("min_yield: {:?},", kind.min_yield),
        format!("min_tokens: {},", kind.min_tokens),
        format!("derives_empty: {},", kind.derives_empty),
        supertypes,
        format!(
            "list_separator: {},",
            option_literal(kind.list_separator.as_deref())
        ),
    ]
}

fn slot_fields(slot: &OwnedSlotInfo) -> Vec<String> {
    vec![
        format!("kind: {:?},", slot.kind),
        format!("field: {},", option_literal(slot.field.as_deref())),
        format!("required: {},", slot.required),
        format!("multiple: {},", slot.multiple),
    ]
}

fn option_literal(value: Option<&str>) -> String {
    value.map_or_else(|| "None".to_owned(), |v| format!("Some({v:?})"))
}

#[cfg(test)]
mod tests;
