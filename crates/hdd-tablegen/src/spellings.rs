//! The kinds whose rule is a token of words only (C's `primitive_type`: `TOKEN(CHOICE(
//! "bool", "char", "int", …))`), with every spelling: the simplify pass tries the others
//! when the shortest does not do (`void` where `int` is refused).

use serde_json::Value;

use crate::generated::OwnedSpellingInfo;

/// Every rule of `grammar` (grammar.json) that is, under precedence and token wrappers,
/// a choice of at least two words (letters, digits, `_`, not starting with a digit),
/// sorted by name; its words shortest first, then in byte order.
pub(crate) fn spellings(grammar: &Value) -> Vec<OwnedSpellingInfo> {
    let Some(rules) = grammar["rules"].as_object() else {
        return Vec::new();
    };
    let mut out: Vec<OwnedSpellingInfo> = rules
        .iter()
        .filter_map(|(name, rule)| {
            let mut words = words(rule)?;
            words.sort_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
            words.dedup();
            (words.len() >= 2).then(|| OwnedSpellingInfo {
                kind: name.clone(),
                spellings: words,
            })
        })
        .collect();
    out.sort_by(|a, b| a.kind.cmp(&b.kind));
    out
}

/// The words of a choice of words, under `TOKEN` and `PREC*` wrappers.
fn words(rule: &Value) -> Option<Vec<String>> {
    let mut rule = rule;
    while matches!(
        rule["type"].as_str(),
        Some("TOKEN" | "PREC" | "PREC_LEFT" | "PREC_RIGHT" | "PREC_DYNAMIC")
    ) {
        rule = &rule["content"];
    }
    if rule["type"] != "CHOICE" {
        return None;
    }
    rule["members"]
        .as_array()?
        .iter()
        .map(|m| {
            let word = m["value"].as_str().filter(|_| m["type"] == "STRING")?;
            let first = word.bytes().next()?;
            let ok = (first.is_ascii_alphabetic() || first == b'_')
                && word.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
            ok.then(|| word.to_owned())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_of_words_lists_them_shortest_first() {
        let grammar = serde_json::json!({"rules": {
            "primitive_type": {"type": "TOKEN", "content": {"type": "CHOICE", "members": [
                {"type": "STRING", "value": "void"}, {"type": "STRING", "value": "int"},
                {"type": "STRING", "value": "char"}]}},
            "op": {"type": "CHOICE", "members": [
                {"type": "STRING", "value": "+"}, {"type": "STRING", "value": "-"}]},
            "mixed": {"type": "CHOICE", "members": [
                {"type": "STRING", "value": "a"}, {"type": "SYMBOL", "name": "x"}]},
        }});
        let found = spellings(&grammar);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].kind, "primitive_type");
        assert_eq!(found[0].spellings, vec!["int", "char", "void"]);
    }
}
