//! Representatives of the external-scanner tokens of each grammar, and the kinds whose
//! yield is fixed by hand (see [`GRAMMAR_SOURCES`](super::GRAMMAR_SOURCES)).

/// Representatives of tree-sitter-rust's external-scanner tokens.
pub(super) const RUST_EXTERNALS: &[(&str, &str)] = &[
    // The text between the quotes of a string; the grammar repeats it, so it
    // may be empty (`""`).
    ("string_content", ""),
    // The closing quote of a string literal (aliased to `"`).
    ("string_close", "\""),
    // `r"` ... `"`: the shortest raw string, `r""`, without hashes; start and
    // end only ever occur together in `raw_string_literal`.
    ("_raw_string_literal_start", "r\""),
    // The content of a raw string (aliased to `string_content`): may be empty.
    ("raw_string_literal_content", ""),
    ("_raw_string_literal_end", "\""),
    // Needs a fraction or an exponent; `0.` is a float too, but `0.0` stays a
    // float before `.`, letters and ranges.
    ("float_literal", "0.0"),
    // `/**` and `/*!` doc comments.
    ("_outer_block_doc_comment_marker", "*"),
    ("_inner_block_doc_comment_marker", "!"),
    // A block comment's text. Both this and `_line_doc_content` are aliased to
    // `doc_comment`, and tree-sitter reports that name as the grammar name of
    // both, so one text must fit both: a newline (`/**\n*/`, `///\n`).
    ("_block_comment_content", "\n"),
    // A line doc comment's text includes its newline: without one, the next
    // line would become part of the comment.
    ("_line_doc_content", "\n"),
    // Never produced: the scanner's error-recovery marker.
    ("_error_sentinel", ""),
];

/// Representatives of tree-sitter-javascript's external-scanner tokens.
pub(super) const JAVASCRIPT_EXTERNALS: &[(&str, &str)] = &[
    // An explicit `;` is valid wherever the scanner would insert one, also on
    // the same line, where an empty automatic semicolon is not.
    ("_automatic_semicolon", ";"),
    // The text of a template string between substitutions: may be empty.
    ("_template_chars", ""),
    // The `?` of a conditional expression.
    ("_ternary_qmark", "?"),
    // `<!--` up to the end of the line (an extra).
    ("html_comment", "<!--"),
    // Text between JSX tags.
    ("jsx_text", "a"),
];

/// Representatives of tree-sitter-sequel's external-scanner tokens.
pub(super) const SQL_EXTERNALS: &[(&str, &str)] = &[
    // `AS $$ ... $$` function bodies: the shortest tags.
    ("_dollar_quoted_string_start_tag", "$$"),
    ("_dollar_quoted_string_end_tag", "$$"),
    // A dollar-quoted string literal: `$$` ... `$$`.
    ("_dollar_quoted_string", "$$$$"),
];

/// Representatives of tree-sitter-cpp's external-scanner tokens (raw strings).
pub(super) const CPP_EXTERNALS: &[(&str, &str)] = &[
    // `R"a(...)a"`: the delimiter is optional in the grammar, the content may be empty.
    ("raw_string_delimiter", "a"),
    ("raw_string_content", ""),
];

/// Representatives of tree-sitter-typescript's external-scanner tokens (both TypeScript
/// and TSX): JavaScript's, and two of its own.
pub(super) const TYPESCRIPT_EXTERNALS: &[(&str, &str)] = &[
    ("_automatic_semicolon", ";"),
    ("_template_chars", ""),
    ("_ternary_qmark", "?"),
    ("html_comment", "<!--"),
    ("jsx_text", "a"),
    // The end of a function signature (an overload, a declaration without body).
    ("_function_signature_automatic_semicolon", ";"),
    // Never produced: the scanner's error-recovery marker.
    ("__error_recovery", ""),
];

/// Representatives of tree-sitter-python's external-scanner tokens.
pub(super) const PYTHON_EXTERNALS: &[(&str, &str)] = &[
    ("_newline", "\n"),
    // Indentation is the whitespace before a line's first token; the tokens themselves
    // are zero-width (the one space a yield puts between tokens indents the line).
    ("_indent", ""),
    ("_dedent", ""),
    ("string_start", "\""),
    ("_string_content", ""),
    // `{{` in an f-string.
    ("escape_interpolation", "{{"),
    ("string_end", "\""),
];

/// Python's fixed yields: with zero-width indentation tokens a `block` derives nothing,
/// and tree-sitter-python accepts an empty block (`def a():` at the end of a file, or
/// before a line that is not indented), which Python does not. A block's shortest
/// valid text is one expression statement.
pub(super) const PYTHON_FIXED: &[(&str, &str)] = &[("block", "0")];

/// Representatives of tree-sitter-css's external-scanner tokens.
pub(super) const CSS_EXTERNALS: &[(&str, &str)] = &[
    // The whitespace between two selectors (`a b`).
    ("_descendant_operator", " "),
    // The `:` of a pseudo-class (`a:hover`), told apart from a declaration's.
    ("_pseudo_class_selector_colon", ":"),
    ("__error_recovery", ""),
];

/// Representatives of tree-sitter-toml-ng's external-scanner tokens.
pub(super) const TOML_EXTERNALS: &[(&str, &str)] = &[
    ("_line_ending_or_eof", "\n"),
    ("_multiline_basic_string_content", ""),
    ("_multiline_basic_string_end", "\"\"\""),
    ("_multiline_literal_string_content", ""),
    ("_multiline_literal_string_end", "\'\'\'"),
];

/// Representatives of tree-sitter-html's external-scanner tokens (tag names and the
/// text the scanner reads whole).
pub(super) const HTML_EXTERNALS: &[(&str, &str)] = &[
    ("_start_tag_name", "a"),
    // `<script>` and `<style>` start raw-text elements.
    ("_script_start_tag_name", "script"),
    ("_style_start_tag_name", "style"),
    // An end tag's name matches its start tag's; `a` matches the start tag's `a`.
    ("_end_tag_name", "a"),
    // An end tag that closes nothing open (a named node, not an error).
    ("erroneous_end_tag_name", "b"),
    // The end of an element closed by what follows (`<p>a<p>b`) or by the end of the
    // text: zero-width.
    ("_implicit_end_tag", ""),
    // The contents of a `<script>` or `<style>` element.
    ("raw_text", "a"),
    ("comment", "<!---->"),
];

/// HTML's fixed yields: an element's shortest derivation ends with a zero-width implicit
/// end tag (`<a>`), which the scanner makes only before what closes the element (another
/// `<p>` after a `<p>`), not at the end of the text or before a sibling of another kind:
/// an element's shortest valid text is an explicitly closed one.
pub(super) const HTML_FIXED: &[(&str, &str)] = &[("element", "<a></a>")];

/// Representatives of tree-sitter-bash's external-scanner tokens.
pub(super) const BASH_EXTERNALS: &[(&str, &str)] = &[
    // A here-document: `<<a`, a newline, the body, the delimiter line `a`.
    ("heredoc_start", "a"),
    // The body of a here-document: may be empty (`cat <<a\na`); with expansions in it,
    // the text before the first one, and between them.
    ("simple_heredoc_body", ""),
    ("_heredoc_body_beginning", ""),
    ("heredoc_content", ""),
    // The delimiter line, the same word as the start.
    ("heredoc_end", "a"),
    // `2>a`: the digit glued to the redirection.
    ("file_descriptor", "2"),
    // The value of `a=`: zero-width.
    ("_empty_value", ""),
    // The zero-width mark between two glued parts of a word (`a${b}c`).
    ("_concat", ""),
    // A variable's name before `=`, `+=` or `[`.
    ("variable_name", "a"),
    // `[ -f a ]`.
    ("test_operator", "-f"),
    // The pattern of `[[ a =~ b ]]` and of `${a#b}`, `${a/b}`.
    ("regex", "a"),
    ("_regex_no_slash", "a"),
    ("_regex_no_space", "a"),
    // A word inside `${a:-b}`.
    ("_expansion_word", "a"),
    // A glob pattern with an extglob operator (`@(a)`) or a plain one in a `case`.
    ("extglob_pattern", "*"),
    // A `$` followed by nothing that expands.
    ("_bare_dollar", "$"),
    // The `{` of a brace expression (`{1..2}`).
    ("_brace_start", "{"),
    ("_immediate_double_hash", "##"),
    ("_external_expansion_sym_hash", "#"),
    ("_external_expansion_sym_bang", "!"),
    ("_external_expansion_sym_equal", "="),
    // Never produced: the scanner's error-recovery marker.
    ("__error_recovery", ""),
];

/// Bash's fixed yields. A word may be one of `{ } [ ]` alone, and the generator prefers
/// such an exact token to an invented name, but `{` and `}` are reserved words where a
/// command starts (`{` alone opens a group): a command named `{` does not parse; as two
/// characters, the special word loses to a number (`0`) and a name. And the parser
/// accepts empty bodies, Bash does not (`if a; then fi`, `while a; do done`, `f() { }`
/// are syntax errors; the validity filter counts them, see hdd-core's `document/bash.rs`):
/// a body's shortest valid text holds one command, `0`. A function's shortest
/// derivation, `function b{ 0;}`, glues its name to the brace: `b{` is one word to Bash.
pub(super) const BASH_FIXED: &[(&str, &str)] = &[
    ("_special_character", "]]"),
    ("do_group", "do 0;done"),
    ("compound_statement", "{ 0;}"),
    ("else_clause", "else 0;"),
    ("elif_clause", "elif 0;then 0;"),
    ("if_statement", "if 0;then 0;fi"),
    ("function_definition", "b(){ 0;}"),
];
