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

/// Representatives of tree-sitter-yaml's external-scanner tokens. The scanner tracks
/// indentation and names each token by where it starts: `_r_` on the current row,
/// `_br_` on a following row indented deeper than the current block, `_b_` on a
/// following row at the current block's indentation (the representatives assume a block
/// at column 0: one space deeper is ` `); `_bl` ends a block (zero-width).
pub(super) const YAML_EXTERNALS: &[(&str, &str)] = &[
    ("_eof", ""),
    // Directives: `%YAML 1.2`, `%TAG !a! a`, a reserved `%A a`; `---` and `...`.
    ("_s_dir_yml_bgn", "%YAML"),
    ("_r_dir_yml_ver", "1.2"),
    ("_s_dir_tag_bgn", "%TAG"),
    // Spaced: the scanner reads the handle and the prefix as separate words.
    ("_r_dir_tag_hdl", " !a!"),
    ("_r_dir_tag_pfx", " a"),
    ("_s_dir_rsv_bgn", "%A"),
    ("_r_dir_rsv_prm", "a"),
    ("_s_drs_end", "---"),
    ("_s_doc_end", "..."),
    // Block collections: `- `, `? `, `: ` (indicators need the space after them).
    ("_r_blk_seq_bgn", "-"),
    ("_br_blk_seq_bgn", "\n -"),
    ("_b_blk_seq_bgn", "\n-"),
    ("_r_blk_key_bgn", "?"),
    ("_br_blk_key_bgn", "\n ?"),
    ("_b_blk_key_bgn", "\n?"),
    ("_r_blk_val_bgn", ":"),
    ("_br_blk_val_bgn", "\n :"),
    ("_b_blk_val_bgn", "\n:"),
    // The `:` after an implicit key (`a: b`).
    ("_r_blk_imp_bgn", ":"),
    // Block scalars: `|` or `>`, then their lines.
    ("_r_blk_lit_bgn", "|"),
    ("_br_blk_lit_bgn", "\n |"),
    ("_r_blk_fld_bgn", ">"),
    ("_br_blk_fld_bgn", "\n >"),
    ("_br_blk_str_ctn", "\n a"),
    // Flow collections.
    ("_r_flw_seq_bgn", "["),
    ("_br_flw_seq_bgn", "\n ["),
    ("_b_flw_seq_bgn", "\n["),
    ("_r_flw_seq_end", "]"),
    ("_br_flw_seq_end", "\n ]"),
    ("_b_flw_seq_end", "\n]"),
    ("_r_flw_map_bgn", "{"),
    ("_br_flw_map_bgn", "\n {"),
    ("_b_flw_map_bgn", "\n{"),
    ("_r_flw_map_end", "}"),
    ("_br_flw_map_end", "\n }"),
    ("_b_flw_map_end", "\n}"),
    ("_r_flw_sep_bgn", ","),
    ("_br_flw_sep_bgn", "\n ,"),
    ("_r_flw_key_bgn", "?"),
    ("_br_flw_key_bgn", "\n ?"),
    // The `:` after a JSON-like key (`{"a":b}`) and after another key (`{a: b}`).
    ("_r_flw_jsv_bgn", ":"),
    ("_br_flw_jsv_bgn", "\n :"),
    ("_r_flw_njv_bgn", ":"),
    ("_br_flw_njv_bgn", "\n :"),
    // Double-quoted scalars.
    ("_r_dqt_str_bgn", "\""),
    ("_br_dqt_str_bgn", "\n \""),
    ("_b_dqt_str_bgn", "\n\""),
    ("_r_dqt_str_ctn", "a"),
    ("_br_dqt_str_ctn", "\n a"),
    ("_r_dqt_esc_nwl", "\\\n"),
    ("_br_dqt_esc_nwl", "\n \\\n"),
    ("_r_dqt_esc_seq", "\\n"),
    ("_br_dqt_esc_seq", "\n \\n"),
    ("_r_dqt_str_end", "\""),
    ("_br_dqt_str_end", "\n \""),
    // Single-quoted scalars.
    ("_r_sqt_str_bgn", "'"),
    ("_br_sqt_str_bgn", "\n '"),
    ("_b_sqt_str_bgn", "\n'"),
    ("_r_sqt_str_ctn", "a"),
    ("_br_sqt_str_ctn", "\n a"),
    ("_r_sqt_esc_sqt", "''"),
    ("_br_sqt_esc_sqt", "\n ''"),
    ("_r_sqt_str_end", "'"),
    ("_br_sqt_str_end", "\n '"),
    // Plain scalars on one line, by the type the core schema reads: null, boolean,
    // integer, float, timestamp (never made: the crate builds the core schema, which has
    // none), string; in a block (`_blk`) or a flow (`_flw`).
    ("_r_sgl_pln_nul_blk", "~"),
    ("_br_sgl_pln_nul_blk", "\n ~"),
    ("_b_sgl_pln_nul_blk", "\n~"),
    ("_r_sgl_pln_nul_flw", "~"),
    ("_br_sgl_pln_nul_flw", "\n ~"),
    ("_r_sgl_pln_bol_blk", "true"),
    ("_br_sgl_pln_bol_blk", "\n true"),
    ("_b_sgl_pln_bol_blk", "\ntrue"),
    ("_r_sgl_pln_bol_flw", "true"),
    ("_br_sgl_pln_bol_flw", "\n true"),
    ("_r_sgl_pln_int_blk", "0"),
    ("_br_sgl_pln_int_blk", "\n 0"),
    ("_b_sgl_pln_int_blk", "\n0"),
    ("_r_sgl_pln_int_flw", "0"),
    ("_br_sgl_pln_int_flw", "\n 0"),
    ("_r_sgl_pln_flt_blk", ".0"),
    ("_br_sgl_pln_flt_blk", "\n .0"),
    ("_b_sgl_pln_flt_blk", "\n.0"),
    ("_r_sgl_pln_flt_flw", ".0"),
    ("_br_sgl_pln_flt_flw", "\n .0"),
    ("_r_sgl_pln_tms_blk", "2001-12-14"),
    ("_br_sgl_pln_tms_blk", "\n 2001-12-14"),
    ("_b_sgl_pln_tms_blk", "\n2001-12-14"),
    ("_r_sgl_pln_tms_flw", "2001-12-14"),
    ("_br_sgl_pln_tms_flw", "\n 2001-12-14"),
    ("_r_sgl_pln_str_blk", "a"),
    ("_br_sgl_pln_str_blk", "\n a"),
    ("_b_sgl_pln_str_blk", "\na"),
    ("_r_sgl_pln_str_flw", "a"),
    ("_br_sgl_pln_str_flw", "\n a"),
    // Plain scalars over several lines.
    ("_r_mtl_pln_str_blk", "a\n a"),
    ("_br_mtl_pln_str_blk", "\n a\n a"),
    ("_r_mtl_pln_str_flw", "a\n a"),
    ("_br_mtl_pln_str_flw", "\n a\n a"),
    // Node properties: a tag `!a`, an anchor `&a`, an alias `*a`.
    ("_r_tag", "!a"),
    ("_br_tag", "\n !a"),
    ("_b_tag", "\n!a"),
    ("_r_acr_bgn", "&"),
    ("_br_acr_bgn", "\n &"),
    ("_b_acr_bgn", "\n&"),
    ("_r_acr_ctn", "a"),
    ("_r_als_bgn", "*"),
    ("_br_als_bgn", "\n *"),
    ("_b_als_bgn", "\n*"),
    ("_r_als_ctn", "a"),
    ("_bl", ""),
    ("comment", "#"),
    ("_err_rec", ""),
];
