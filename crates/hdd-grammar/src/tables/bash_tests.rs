//! Facts of the Bash table, and its validation against the linked parser.

use super::testing::{check_externals, check_min_yields_in_place, check_no_drift, yield_of};
use crate::Lang;

const BASH: Lang = Lang::Bash;

#[test]
fn bash_facts() {
    assert!(BASH.table().kind("program").unwrap().derives_empty);
    // A command is a number, not `{` (a reserved word where a command starts).
    assert_eq!(yield_of(BASH, "command"), "0");
    // Bodies hold a command: Bash refuses `if 0;then fi`.
    assert_eq!(yield_of(BASH, "if_statement"), "if 0;then 0;fi");
    assert_eq!(yield_of(BASH, "while_statement"), "while 0;do 0;done");
    assert_eq!(yield_of(BASH, "function_definition"), "b(){ 0;}");
    assert_eq!(yield_of(BASH, "heredoc_redirect"), "<<a\na");
}

#[test]
fn bash_externals() {
    check_externals(
        BASH,
        &[
            ("heredoc_start", "cat <<@\nx\na\n", "heredoc_start"),
            ("simple_heredoc_body", "cat <<a\n@a\n", "heredoc_body"),
            (
                "_heredoc_body_beginning",
                "cat <<a\n@$b\na\n",
                "heredoc_body",
            ),
            ("heredoc_content", "cat <<a\n$b@\na\n", "heredoc_content"),
            ("heredoc_end", "cat <<a\nx\n@\n", "heredoc_end"),
            ("file_descriptor", "echo @>a\n", "file_descriptor"),
            ("_empty_value", "a=@\n", "variable_assignment"),
            ("_concat", "echo a@${b}c\n", "concatenation"),
            ("variable_name", "@=1\n", "variable_assignment"),
            ("test_operator", "[ @ a ]\n", "test_operator"),
            ("regex", "[[ a =~ @.* ]]\n", "regex"),
            ("_regex_no_slash", "echo ${a/@/b}\n", "regex"),
            ("_regex_no_space", "[[ a =~ @.* ]]\n", "regex"),
            ("_expansion_word", "echo ${a:-@}\n", "expansion"),
            (
                "extglob_pattern",
                "case a in @) ;; esac\n",
                "extglob_pattern",
            ),
            ("_bare_dollar", "echo @\n", "command"),
            ("_brace_start", "echo @1..2}\n", "brace_expression"),
            ("_immediate_double_hash", "echo ${a@b}\n", "expansion"),
            ("_external_expansion_sym_hash", "echo ${@a}\n", "expansion"),
            ("_external_expansion_sym_bang", "echo ${@a}\n", "expansion"),
            (
                "_external_expansion_sym_equal",
                "echo ${a@b}\n",
                "expansion",
            ),
        ],
        &["__error_recovery"],
    );
}

#[test]
fn bash_no_version_drift() {
    check_no_drift(BASH, 30);
}

#[test]
fn bash_min_yields_parse_in_place() {
    check_min_yields_in_place(BASH, SAMPLE, 30);
}

/// A realistic file that parses cleanly; also reduced by the pass tests of `hdd-core`.
const SAMPLE: &str = include_str!("../../../../grammars/bash/sample.sh");
