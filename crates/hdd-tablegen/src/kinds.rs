//! The kind entries of a table: one per rule, external token and visible
//! alias name, each with its minimal yield, list separator and supertypes.

use std::collections::BTreeMap;

use crate::generated::OwnedKindInfo;
use crate::grammar::Grammar;
use crate::rule::{Rule, Yield};
use crate::separators::separator;
use crate::yields::{cheaper, eval};

/// The table entries, sorted by name: every rule, external token and visible
/// alias. `best` holds the minimal yield of every name of the grammar;
/// `supertypes` maps kinds to their transitive supertypes.
pub(crate) fn kinds(
    grammar: &Grammar,
    best: &[Yield],
    supertypes: &BTreeMap<String, Vec<String>>,
) -> Vec<OwnedKindInfo> {
    let opt_best: Vec<Option<Yield>> = best.iter().cloned().map(Some).collect();
    let mut entries: BTreeMap<&str, (Yield, Option<String>)> = BTreeMap::new();
    for (i, name) in grammar.names.iter().enumerate() {
        let list_separator = grammar.bodies.get(i).and_then(|b| separator(grammar, b));
        entries.insert(name, (best[i].clone(), list_separator));
    }
    // Visible aliases: an alias-only kind gets the min over its alias
    // sites and the first separator they show. A rule (or external token)
    // whose name is also an alias name keeps its own entry: nodes of the
    // rule are looked up by `grammar_name()`, and their replacement must
    // be valid wherever the rule occurs (Rust `match_arm` needs its comma;
    // the `last_match_arm` aliased to it does not). Aliased nodes find the
    // entry of the rule they come from under their own grammar name.
    let mut alias_sites: Vec<(&str, &Rule)> = Vec::new();
    for body in &grammar.bodies {
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
            entry.1 = separator(grammar, content);
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

/// The named, visible aliases in a rule body: `(alias name, aliased content)`.
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
