//! List separators: the separator token of a rule that holds a separated
//! list (`seq(x, repeat(seq(",", x)))`, `repeat(seq(x, ";"))` and similar).

use crate::grammar::Grammar;
use crate::rule::{Rule, strip};

/// The separator of a separated list in `rule` (not looking through symbols,
/// except that an alias of a lone symbol inherits the symbol's separator).
pub(crate) fn separator(grammar: &Grammar, rule: &Rule) -> Option<String> {
    if let Some(sep) = find_separator(rule) {
        return Some(sep);
    }
    match strip(rule) {
        Rule::Symbol(i) => grammar.bodies.get(*i).and_then(find_separator),
        _ => None,
    }
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
