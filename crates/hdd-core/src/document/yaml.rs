//! What tree-sitter-yaml accepts and YAML parsers refuse: the validity filter's extra
//! rules for YAML (see [`refused_nodes`]).

use std::collections::HashSet;

use tree_sitter::Node;

use super::walk::each_node;

/// Nodes under `root` that tree-sitter-yaml accepts and YAML parsers (libyaml, PyYAML)
/// refuse:
/// - a mapping pair with no key and no `?` (`: a`, `{: a}`), left when a key is deleted;
/// - an alias whose anchor is not defined before it in its document (`*base` after
///   `&base` went): "found undefined alias";
/// - an anchor or alias name of other characters than letters, digits, `-` and `_`
///   (`&*base`, left when the space between an anchor and an alias goes): YAML 1.2
///   allows them, libyaml and PyYAML do not.
///
/// Counted as errors, so the validity filter refuses such a candidate.
pub(super) fn refused_nodes(root: Node<'_>, text: &[u8]) -> usize {
    // tree-sitter-yaml 0.7.2 is built for ABI 14, whose languages have no name: know
    // it by its root and a kind of its own.
    let language = root.language();
    if root.kind() != "stream" || language.id_for_node_kind("block_mapping_pair", true) == 0 {
        return 0;
    }
    let mut count = 0;
    let mut anchors: HashSet<&[u8]> = HashSet::new();
    // In text order, so an anchor is seen before the aliases after it.
    each_node(root, |node| match node.kind() {
        "document" => anchors.clear(),
        "anchor_name" => {
            let name = &text[node.byte_range()];
            count += usize::from(!is_plain_name(name));
            anchors.insert(name);
        }
        "alias_name" => {
            let name = &text[node.byte_range()];
            count += usize::from(!is_plain_name(name) || !anchors.contains(name));
        }
        "block_mapping_pair" | "flow_pair" => count += usize::from(!has_key(node)),
        _ => {}
    });
    count
}

/// Whether an anchor's name is one libyaml and PyYAML read: letters, digits, `-`, `_`.
fn is_plain_name(name: &[u8]) -> bool {
    name.iter()
        .all(|&b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// Whether a mapping pair has a key, or a `?` that makes an empty key explicit.
fn has_key(pair: Node<'_>) -> bool {
    if pair.child_by_field_name("key").is_some() {
        return true;
    }
    let mut cursor = pair.walk();
    pair.children(&mut cursor).any(|c| c.kind() == "?")
}

#[cfg(test)]
mod tests {
    use hdd_grammar::Lang;

    use super::refused_nodes;
    use crate::document::testing::parsed_clean;

    fn refused(text: &str) -> usize {
        refused_nodes(parsed_clean(Lang::Yaml, text).root_node(), text.as_bytes())
    }

    #[test]
    fn valid_yaml_has_none() {
        let text = "a: &x {b: 1}\nc: *x\n? d\n: e\n---\n&y h: *y\n";
        assert_eq!(refused(text), 0);
    }

    #[test]
    fn what_yaml_parsers_refuse_is_counted() {
        assert_eq!(refused(": a\n"), 1);
        assert_eq!(refused("a:\n  : b\n"), 1);
        assert_eq!(refused("{: a}\n"), 1);
        assert_eq!(refused("a: *b\n"), 1);
        // An anchor of another document does not count.
        assert_eq!(refused("a: &b 1\n---\nc: *b\n"), 1);
        // An anchor name only YAML 1.2 allows.
        assert_eq!(refused("&*a\nb: c\n"), 1);
    }
}
