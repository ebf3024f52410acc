//! What tree-sitter-bash accepts and Bash does not: the validity filter's extra rules
//! for shell scripts (see [`refused_nodes`]).

use tree_sitter::Node;

use super::walk::each_node;

/// Nodes under `root` that tree-sitter-bash accepts and Bash refuses (`bash -n`):
/// - a body that holds no command: `if a; then fi`, `while a; do done`, `f() { }`; a
///   body is what follows `then` (up to an `elif`, `else` or `fi`), `else`, `do` and `{`,
///   and a comment alone does not fill it;
/// - a command named by a reserved word (`done` or `fi` alone, left by a deletion):
///   tree-sitter-bash reads it as a plain word;
/// - a keyword glued to the word after it (`in""`, `do"x"`): Bash reads one word;
/// - a `case` item without a pattern (`) a ;;`: a fresh parse sees an error there, an
///   incremental one after the pattern's deletion may not).
///
/// Counted as errors, so the validity filter refuses such a candidate.
pub(super) fn refused_nodes(root: Node<'_>, text: &[u8]) -> usize {
    if root.language().name() != Some("bash") {
        return 0;
    }
    let mut count = 0;
    each_node(root, |node| {
        let opener = match node.kind() {
            "if_statement" | "elif_clause" => Some("then"),
            "else_clause" => Some("else"),
            "do_group" => Some("do"),
            "compound_statement" => Some("{"),
            _ => None,
        };
        if let Some(opener) = opener {
            count += usize::from(!has_command_after(node, opener));
        }
        if matches!(node.kind(), "case_item" | "last_case_item") {
            count += usize::from(!has_pattern(node));
        }
        if node.kind() == "command_name" {
            count += usize::from(RESERVED.contains(&&text[node.byte_range()]));
        } else if !node.is_named() && KEYWORDS.contains(&node.kind()) {
            let next = text.get(node.end_byte()).copied();
            count += usize::from(!next.is_none_or(ends_a_word));
        }
    });
    count
}

/// Bash's reserved words that cannot name a command (`!`, `time` and `coproc` can).
const RESERVED: &[&[u8]] = &[
    b"if",
    b"then",
    b"elif",
    b"else",
    b"fi",
    b"case",
    b"in",
    b"esac",
    b"for",
    b"select",
    b"while",
    b"until",
    b"do",
    b"done",
    b"function",
    b"{",
    b"}",
    b"[[",
    b"]]",
];

/// The keywords of tree-sitter-bash that are words to Bash: reserved words and the
/// declaration commands.
const KEYWORDS: &[&str] = &[
    "if", "then", "elif", "else", "fi", "case", "in", "esac", "for", "select", "while", "until",
    "do", "done", "function", "local", "declare", "typeset", "export", "readonly", "unset",
    "unsetenv",
];

/// Whether a `case` item has a non-empty pattern before its `)`.
fn has_pattern(item: Node<'_>) -> bool {
    let mut cursor = item.walk();
    for child in item.children(&mut cursor) {
        if child.kind() == ")" && !child.is_named() {
            return false;
        }
        if child.kind() != "(" && child.start_byte() < child.end_byte() {
            return true;
        }
    }
    false
}

/// Whether `byte` ends the word before it: a blank or a metacharacter.
fn ends_a_word(byte: u8) -> bool {
    byte.is_ascii_whitespace() || b";&|()<>".contains(&byte)
}

/// Whether `node` has a command between its anonymous child `opener` and the end of that
/// body: the next clause, or a closing keyword or brace. True without an `opener` (a
/// `compound_statement` may be an arithmetic `(( … ))` instead of a `{ … }` group).
fn has_command_after(node: Node<'_>, opener: &str) -> bool {
    let mut cursor = node.walk();
    let mut inside = false;
    for child in node.children(&mut cursor) {
        if !child.is_named() {
            if child.kind() == opener {
                inside = true;
            } else if inside && matches!(child.kind(), "fi" | "done" | "}") {
                return false;
            }
            continue;
        }
        if !inside {
            continue;
        }
        match child.kind() {
            "elif_clause" | "else_clause" => return false,
            "comment" => {}
            _ => return true,
        }
    }
    !inside
}

#[cfg(test)]
mod tests {
    use hdd_grammar::Lang;

    use super::refused_nodes;
    use crate::document::testing::parsed_clean;

    fn refused(text: &str) -> usize {
        refused_nodes(parsed_clean(Lang::Bash, text).root_node(), text.as_bytes())
    }

    #[test]
    fn valid_bodies_are_not_counted() {
        let text = "if a; then b; elif c; then d; else e; fi\nf() { a; }\n\
                    while a; do b; done\nfor x in a; do b; done\nfor((;;)){ a;}\n\
                    until a; do\n  # why\n  b\ndone\ncase a in b) ;; esac\n\
                    if (( a > 1 )); then b; fi\n";
        assert_eq!(refused(text), 0);
    }

    #[test]
    fn what_bash_refuses_is_counted() {
        assert_eq!(refused("if a; then fi\n"), 1);
        assert_eq!(refused("if a; then b; elif c; then else d; fi\n"), 1);
        assert_eq!(refused("if a; then b; else fi\n"), 1);
        assert_eq!(refused("while a; do done\n"), 1);
        assert_eq!(refused("while a; do\n  # nothing\ndone\n"), 1);
        assert_eq!(refused("f() { }\n"), 1);
        // A reserved word left as a command; a keyword glued to a word.
        assert_eq!(refused("a\n    done\n"), 1);
        assert_eq!(refused("for f in\"\"; do a; done\n"), 1);
    }
}
