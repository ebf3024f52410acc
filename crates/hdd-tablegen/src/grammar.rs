//! Loading `grammar.json` into a [`Grammar`]: one [`Rule`] per grammar rule, with
//! every terminal (STRING, PATTERN, TOKEN) reduced to its shortest token, and the
//! fixed yields of the external tokens.

use std::collections::BTreeSet;

use indexmap::IndexMap;
use serde_json::Value;

use crate::error::{GenerateError, malformed};
use crate::json::str_field;
use crate::regex::{self, CAP, Re};
use crate::rule::{Rule, Tok, Yield};

/// A loaded grammar.
pub(crate) struct Grammar {
    /// Rules first (in grammar order), then external tokens that are not rules.
    pub(crate) names: Vec<String>,
    /// Bodies of the rules (`names[..bodies.len()]`).
    pub(crate) bodies: Vec<Rule>,
    /// Fixed yields of the external tokens (`names[bodies.len()..]`).
    pub(crate) external_yields: Vec<Yield>,
}

/// Conversion context for one rule.
struct Loader<'a> {
    rule: &'a str,
    index: &'a IndexMap<String, usize>,
    keywords: &'a BTreeSet<String>,
}

impl Grammar {
    /// Loads the rules of a parsed `grammar.json`; `externals` gives the
    /// shortest text of each external token that is not also a rule.
    pub(crate) fn load(
        grammar: &Value,
        externals: &[(&str, &str)],
    ) -> Result<Grammar, GenerateError> {
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
                .ok_or_else(|| GenerateError::UnknownExternal(name.to_owned()))?;
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

    /// Gives each kind of `fixed` its text as its only derivation: the body of the rule
    /// of that name, and the content of every named alias to that name.
    pub(crate) fn fix(&mut self, fixed: &[(&str, &str)]) -> Result<(), GenerateError> {
        for &(name, text) in fixed {
            let tok = || {
                Rule::Tok(Tok {
                    text: text.to_owned(),
                    glued: false,
                    exact: true,
                    string: false,
                })
            };
            let mut found = false;
            if let Some(i) = self.names.iter().position(|n| n == name)
                && let Some(body) = self.bodies.get_mut(i)
            {
                *body = tok();
                found = true;
            }
            for body in &mut self.bodies {
                found |= fix_aliases(body, name, &tok);
            }
            if !found {
                return Err(GenerateError::UnknownOverride(name.to_owned()));
            }
        }
        Ok(())
    }
}

/// Replaces the content of every named alias to `name` inside `rule` by `tok()`;
/// whether there was one.
fn fix_aliases(rule: &mut Rule, name: &str, tok: &dyn Fn() -> Rule) -> bool {
    match rule {
        Rule::Blank | Rule::Tok(_) | Rule::Symbol(_) => false,
        Rule::Seq(members) | Rule::Choice(members) => members
            .iter_mut()
            .fold(false, |found, m| fix_aliases(m, name, tok) | found),
        Rule::Alias {
            content,
            value,
            named,
        } => {
            if *named && value == name {
                **content = tok();
                true
            } else {
                fix_aliases(content, name, tok)
            }
        }
        Rule::Repeat(content)
        | Rule::Repeat1(content)
        | Rule::Field { content, .. }
        | Rule::Prec(content) => fix_aliases(content, name, tok),
    }
}

impl Loader<'_> {
    fn rule(&self, node: &Value) -> Result<Rule, GenerateError> {
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
                    .ok_or_else(|| GenerateError::UndefinedSymbol {
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
                return Err(GenerateError::UnknownNodeType {
                    rule: self.rule.to_owned(),
                    kind: other.to_owned(),
                });
            }
        })
    }

    fn members(&self, node: &Value) -> Result<Vec<Rule>, GenerateError> {
        node.get("members")
            .and_then(Value::as_array)
            .ok_or_else(|| self.malformed("node without `members`"))?
            .iter()
            .map(|m| self.rule(m))
            .collect()
    }

    fn content<'v>(&self, node: &'v Value) -> Result<&'v Value, GenerateError> {
        node.get("content")
            .ok_or_else(|| self.malformed("node without `content`"))
    }

    fn name<'v>(&self, node: &'v Value) -> Result<&'v str, GenerateError> {
        str_field(node, "name").ok_or_else(|| self.malformed("node without `name`"))
    }

    fn string_value<'v>(&self, node: &'v Value) -> Result<&'v str, GenerateError> {
        str_field(node, "value").ok_or_else(|| self.malformed("node without string `value`"))
    }

    fn malformed(&self, detail: &str) -> GenerateError {
        malformed("grammar.json rule", format!("`{}`: {detail}", self.rule))
    }

    /// A lexical subtree (inside TOKEN, or a PATTERN) as one regex.
    fn lexical(&self, node: &Value) -> Result<Re, GenerateError> {
        let kind = str_field(node, "type").ok_or_else(|| self.malformed("node without `type`"))?;
        Ok(match kind {
            "BLANK" => Re::Empty,
            "STRING" => Re::literal(self.string_value(node)?),
            "PATTERN" => {
                let pattern = self.string_value(node)?;
                let flags = str_field(node, "flags").unwrap_or("");
                regex::parse(pattern, flags).map_err(|e| GenerateError::Pattern {
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
                return Err(GenerateError::SymbolInToken {
                    rule: self.rule.to_owned(),
                    symbol: self.name(node)?.to_owned(),
                });
            }
            other => {
                return Err(GenerateError::UnknownNodeType {
                    rule: self.rule.to_owned(),
                    kind: other.to_owned(),
                });
            }
        })
    }

    fn lexical_members(&self, node: &Value) -> Result<Vec<Re>, GenerateError> {
        node.get("members")
            .and_then(Value::as_array)
            .ok_or_else(|| self.malformed("node without `members`"))?
            .iter()
            .map(|m| self.lexical(m))
            .collect()
    }

    /// The token for a lexical regex: its shortest string, avoiding keywords
    /// for pattern-based tokens when another shortest string exists.
    fn token(
        &self,
        re: &Re,
        glued: bool,
        exact: bool,
        source: &Value,
    ) -> Result<Tok, GenerateError> {
        let candidates = re.shortest(CAP);
        let first = candidates.first().ok_or_else(|| GenerateError::Pattern {
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
) -> Result<BTreeSet<String>, GenerateError> {
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

/// Whether a lexical subtree contains a PATTERN (so its token is not exact).
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

/// A pattern's source, or the JSON of another lexical node cut to 80 bytes,
/// for error messages.
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
