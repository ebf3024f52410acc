//! What tree-sitter-python accepts and Python does not: the validity filter's extra
//! rules for Python (see [`hollow_nodes`]).

use tree_sitter::Node;

use super::walk::each_node;

/// Nodes under `root` that tree-sitter accepts without an error but the language does
/// not. Only Python has such rules (tree-sitter-python is lenient with indentation and
/// line ends), and for it this walks the whole tree:
/// - a `block` with no statement: `def a():` at the end of a file, or before a line that
///   is not indented, parses as a function with an empty body;
/// - a statement of a `module` or a `block` that starts a line at another column than
///   the first one of its list (an unexpected indent, or an unindent that matches no
///   outer level), or a block's first line not indented past its header;
/// - a simple statement that goes on to the next line outside brackets (`x =` followed
///   by `y = 1` on the next line parses as `x = y = 1`);
/// - a `return` outside a function (a function's body hoisted or its header deleted).
///
/// Counted as errors, so the validity filter refuses a candidate that empties a block,
/// breaks the indentation or the lines (Python's `IndentationError` and `SyntaxError`)
/// or leaves a `return` at the top.
pub(super) fn hollow_nodes(root: Node<'_>, text: &[u8]) -> usize {
    if root.language().name() != Some("python") {
        return 0;
    }
    let mut count = 0;
    each_node(root, |node| match node.kind() {
        "block" | "module" => count += statement_errors(node, text),
        "return_statement" => count += usize::from(!in_function(node)),
        _ => {}
    });
    count
}

/// Whether a statement of a `module` or a `block` holds a block (`def`, `if`, a `case`
/// of a `match`, …), rather than being a simple one: an expression, an assignment, a
/// `return`, an `import`, ….
fn is_compound(statement: Node<'_>) -> bool {
    matches!(
        statement.kind(),
        "function_definition"
            | "class_definition"
            | "decorated_definition"
            | "if_statement"
            | "for_statement"
            | "while_statement"
            | "try_statement"
            | "with_statement"
            | "match_statement"
            | "case_clause"
    )
}

/// Whether a simple statement goes on to another line where Python's tokenizer would
/// end it: between two of its tokens on different lines with no bracket open and no
/// backslash ending the first line. A string is one token (a triple-quoted one may span
/// lines).
fn breaks_its_line(statement: Node<'_>, text: &[u8]) -> bool {
    if statement.start_position().row == statement.end_position().row {
        return false;
    }
    let mut depth = 0_usize;
    let mut last = (statement.start_position().row, statement.start_byte());
    let mut cursor = statement.walk();
    loop {
        let node = cursor.node();
        let atomic = node.child_count() == 0 || node.kind() == "string";
        if atomic && !node.is_extra() {
            let gap = text.get(last.1..node.start_byte()).unwrap_or_default();
            if node.start_position().row > last.0 && depth == 0 && !gap.contains(&b'\\') {
                return true;
            }
            match node.kind() {
                "(" | "[" | "{" => depth += 1,
                ")" | "]" | "}" => depth = depth.saturating_sub(1),
                _ => {}
            }
            last = (node.end_position().row, node.end_byte());
        }
        if !atomic && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return false;
            }
        }
    }
}

/// Whether a node is inside a function's body (not in a class's body that is in one).
fn in_function(node: Node<'_>) -> bool {
    let mut up = node.parent();
    while let Some(n) = up {
        match n.kind() {
            "function_definition" => return true,
            "class_definition" => return false,
            _ => up = n.parent(),
        }
    }
    false
}

/// The errors among the statements of a `module` or `block`: an empty block counts one;
/// so does each statement that starts a line at a column other than its list's (a
/// module's is 0; a block's is its first statement's, which must be past its header's
/// when it starts a line of its own), and each simple statement that runs onto the next
/// line ([`breaks_its_line`]).
fn statement_errors(list: Node<'_>, text: &[u8]) -> usize {
    let module = list.kind() == "module";
    let header = list.parent().map(|p| p.start_position());
    let mut errors = 0;
    let mut column = module.then_some(0);
    let mut last_row = None;
    let mut statements = 0;
    let mut cursor = list.walk();
    for child in list.named_children(&mut cursor) {
        if child.is_extra() {
            continue;
        }
        statements += 1;
        if !is_compound(child) {
            errors += usize::from(breaks_its_line(child, text));
        }
        let start = child.start_position();
        let starts_line = last_row.is_none_or(|row| start.row > row)
            && (module || header.is_none_or(|h| start.row > h.row));
        last_row = Some(child.end_position().row);
        if !starts_line {
            continue;
        }
        match column {
            None => {
                errors += usize::from(header.is_some_and(|h| start.column <= h.column));
                column = Some(start.column);
            }
            Some(c) => errors += usize::from(start.column != c),
        }
    }
    errors + usize::from(!module && statements == 0)
}

#[cfg(test)]
mod tests {
    use hdd_grammar::Lang;

    use super::hollow_nodes;
    use crate::document::testing::parsed_clean;

    fn hollow(text: &str) -> usize {
        hollow_nodes(
            parsed_clean(Lang::Python, text).root_node(),
            text.as_bytes(),
        )
    }

    #[test]
    fn valid_python_has_none() {
        let text = "x = (1 +\n     2)\ny = \"\"\"a\nb\"\"\"\nz = 1 + \\\n    2\n\
                    if x: pass\nelse:\n    y = [\n  3]\n\
                    def f(a):\n    # a comment\n    return a\n\
                    match x:\n    case 1:\n        pass\n    case _:\n        y = 2\n\
                    class C:\n    def g(self): return 1\n";
        assert_eq!(hollow(text), 0);
    }

    #[test]
    fn what_python_refuses_is_counted() {
        // An empty body.
        assert_eq!(hollow("def f():\n"), 1);
        // An unexpected indent, and an unindent that matches no outer level.
        assert_eq!(hollow("x = 1\n  y = 2\n"), 1);
        assert_eq!(hollow("if x:\n    a = 1\n  b = 2\n"), 1);
        // A statement that goes on to the next line outside brackets: `x = y = 1`.
        assert_eq!(hollow("x =\n\ny = 1\n"), 1);
        // A `return` outside a function.
        assert_eq!(hollow("return 1\n"), 1);
    }
}
