//! A helper for the tests of the per-language rules (`python.rs`, `bash.rs`, `yaml.rs`).

use tree_sitter::{Parser, Tree};

/// `text` parsed in `lang`, asserted free of syntax errors.
pub(super) fn parsed_clean(lang: hdd_grammar::Lang, text: &str) -> Tree {
    let mut parser = Parser::new();
    parser.set_language(&lang.ts_language()).unwrap();
    let tree = parser.parse(text, None).unwrap();
    assert!(!tree.root_node().has_error(), "{text:?} has a syntax error");
    tree
}
