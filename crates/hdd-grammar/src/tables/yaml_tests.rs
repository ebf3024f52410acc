//! Facts of the YAML table, and its validation against the linked parser.

use super::testing::{check_externals, check_min_yields_in_place, check_no_drift, yield_of};
use crate::Lang;

const YAML: Lang = Lang::Yaml;

#[test]
fn yaml_facts() {
    assert!(YAML.table().kind("stream").unwrap().derives_empty);
    assert_eq!(yield_of(YAML, "flow_sequence"), "[]");
}

#[test]
fn yaml_externals() {
    check_externals(
        YAML,
        &[
            ("_eof", "a@", "stream"),
            ("_s_dir_yml_bgn", "@ 1.2\n---\na\n", "yaml_directive"),
            ("_r_dir_yml_ver", "%YAML @\n---\na\n", "yaml_version"),
            ("_s_dir_tag_bgn", "@ !a! a\n---\na\n", "tag_directive"),
            ("_r_dir_tag_hdl", "%TAG@ a\n---\na\n", "tag_handle"),
            ("_r_dir_tag_pfx", "%TAG !a!@\n---\na\n", "tag_prefix"),
            ("_s_dir_rsv_bgn", "@ a\n---\na\n", "reserved_directive"),
            ("_r_dir_rsv_prm", "%A @\n---\na\n", "directive_parameter"),
            ("_s_drs_end", "@\na\n", "document"),
            ("_s_doc_end", "a\n@\n", "document"),
            ("_r_blk_seq_bgn", "@ a\n", "block_sequence"),
            ("_br_blk_seq_bgn", "a:@ b\n", "block_sequence"),
            ("_b_blk_seq_bgn", "- a@ b\n", "block_sequence_item"),
            ("_r_blk_key_bgn", "@ a\n: b\n", "block_mapping_pair"),
            ("_br_blk_key_bgn", "a:@ b\n", "block_mapping_pair"),
            ("_b_blk_key_bgn", "? a@ b\n", "block_mapping_pair"),
            ("_r_blk_val_bgn", "? a\n@ b\n", "block_mapping_pair"),
            ("_br_blk_val_bgn", "a:\n ? b@ c\n", "block_mapping_pair"),
            ("_b_blk_val_bgn", "? a@ b\n", "block_mapping_pair"),
            ("_r_blk_imp_bgn", "a@ b\n", "block_mapping_pair"),
            ("_r_blk_lit_bgn", "a: @\n b\n", "block_scalar"),
            ("_br_blk_lit_bgn", "a:@\n  b\n", "block_scalar"),
            ("_r_blk_fld_bgn", "a: @\n b\n", "block_scalar"),
            ("_br_blk_fld_bgn", "a:@\n  b\n", "block_scalar"),
            ("_br_blk_str_ctn", "a: |@\n", "block_scalar"),
            ("_r_flw_seq_bgn", "@a]\n", "flow_sequence"),
            ("_br_flw_seq_bgn", "a:@]\n", "flow_sequence"),
            ("_b_flw_seq_bgn", "a: b@]: c\n", "flow_sequence"),
            ("_r_flw_seq_end", "[a@\n", "flow_sequence"),
            ("_br_flw_seq_end", "a: [b@\n", "flow_sequence"),
            ("_b_flw_seq_end", "[a@\n", "flow_sequence"),
            ("_r_flw_map_bgn", "@a: b}\n", "flow_mapping"),
            ("_br_flw_map_bgn", "a:@}\n", "flow_mapping"),
            ("_b_flw_map_bgn", "a: b@}: c\n", "flow_mapping"),
            ("_r_flw_map_end", "{a@\n", "flow_mapping"),
            ("_br_flw_map_end", "a: {b@\n", "flow_mapping"),
            ("_b_flw_map_end", "{a@\n", "flow_mapping"),
            ("_r_flw_sep_bgn", "[a@ b]\n", "flow_sequence"),
            ("_br_flw_sep_bgn", "a: [b@ c]\n", "flow_sequence"),
            ("_r_flw_key_bgn", "{@ a: b}\n", "flow_pair"),
            ("_br_flw_key_bgn", "a: {@ b: c}\n", "flow_pair"),
            ("_r_flw_jsv_bgn", "{\"a\"@b}\n", "flow_pair"),
            ("_br_flw_jsv_bgn", "a: {\"b\"@ c}\n", "flow_pair"),
            ("_r_flw_njv_bgn", "{a@ b}\n", "flow_pair"),
            ("_br_flw_njv_bgn", "a: {b@ c}\n", "flow_pair"),
            ("_r_dqt_str_bgn", "@a\"\n", "double_quote_scalar"),
            ("_br_dqt_str_bgn", "a:@a\"\n", "double_quote_scalar"),
            ("_b_dqt_str_bgn", "a: b@a\": c\n", "double_quote_scalar"),
            ("_r_dqt_str_ctn", "\"@\"\n", "double_quote_scalar"),
            ("_br_dqt_str_ctn", "a: \"b@\"\n", "double_quote_scalar"),
            ("_r_dqt_esc_nwl", "\"a@b\"\n", "escape_sequence"),
            ("_br_dqt_esc_nwl", "a: \"b@ c\"\n", "escape_sequence"),
            ("_r_dqt_esc_seq", "\"@\"\n", "escape_sequence"),
            ("_br_dqt_esc_seq", "a: \"b@\"\n", "escape_sequence"),
            ("_r_dqt_str_end", "\"a@\n", "double_quote_scalar"),
            ("_br_dqt_str_end", "a: \"b@\n", "double_quote_scalar"),
            ("_r_sqt_str_bgn", "@a'\n", "single_quote_scalar"),
            ("_br_sqt_str_bgn", "a:@a'\n", "single_quote_scalar"),
            ("_b_sqt_str_bgn", "a: b@a': c\n", "single_quote_scalar"),
            ("_r_sqt_str_ctn", "'@'\n", "single_quote_scalar"),
            ("_br_sqt_str_ctn", "a: 'b@'\n", "single_quote_scalar"),
            ("_r_sqt_esc_sqt", "'@'\n", "escape_sequence"),
            ("_br_sqt_esc_sqt", "a: 'b@'\n", "escape_sequence"),
            ("_r_sqt_str_end", "'a@\n", "single_quote_scalar"),
            ("_br_sqt_str_end", "a: 'b@\n", "single_quote_scalar"),
            ("_r_sgl_pln_nul_blk", "a: @\n", "null_scalar"),
            ("_br_sgl_pln_nul_blk", "a:@\n", "null_scalar"),
            ("_b_sgl_pln_nul_blk", "a: b@: c\n", "null_scalar"),
            ("_r_sgl_pln_nul_flw", "[@]\n", "null_scalar"),
            ("_br_sgl_pln_nul_flw", "a: [b,@]\n", "null_scalar"),
            ("_r_sgl_pln_bol_blk", "a: @\n", "boolean_scalar"),
            ("_br_sgl_pln_bol_blk", "a:@\n", "boolean_scalar"),
            ("_b_sgl_pln_bol_blk", "a: b@: c\n", "boolean_scalar"),
            ("_r_sgl_pln_bol_flw", "[@]\n", "boolean_scalar"),
            ("_br_sgl_pln_bol_flw", "a: [b,@]\n", "boolean_scalar"),
            ("_r_sgl_pln_int_blk", "a: @\n", "integer_scalar"),
            ("_br_sgl_pln_int_blk", "a:@\n", "integer_scalar"),
            ("_b_sgl_pln_int_blk", "a: b@: c\n", "integer_scalar"),
            ("_r_sgl_pln_int_flw", "[@]\n", "integer_scalar"),
            ("_br_sgl_pln_int_flw", "a: [b,@]\n", "integer_scalar"),
            ("_r_sgl_pln_flt_blk", "a: @\n", "float_scalar"),
            ("_br_sgl_pln_flt_blk", "a:@\n", "float_scalar"),
            ("_b_sgl_pln_flt_blk", "a: b@: c\n", "float_scalar"),
            ("_r_sgl_pln_flt_flw", "[@]\n", "float_scalar"),
            ("_br_sgl_pln_flt_flw", "a: [b,@]\n", "float_scalar"),
            ("_r_sgl_pln_str_blk", "a: @\n", "string_scalar"),
            ("_br_sgl_pln_str_blk", "a:@\n", "string_scalar"),
            ("_b_sgl_pln_str_blk", "a: b@: c\n", "string_scalar"),
            ("_r_sgl_pln_str_flw", "[@]\n", "string_scalar"),
            ("_br_sgl_pln_str_flw", "a: [b,@]\n", "string_scalar"),
            ("_r_mtl_pln_str_blk", "a: @\n", "string_scalar"),
            ("_br_mtl_pln_str_blk", "a:@\n", "string_scalar"),
            ("_r_mtl_pln_str_flw", "[@]\n", "string_scalar"),
            ("_br_mtl_pln_str_flw", "a: [b,@]\n", "string_scalar"),
            ("_r_tag", "a: @ b\n", "tag"),
            ("_br_tag", "a:@ b\n", "tag"),
            ("_b_tag", "a: b@ b: c\n", "tag"),
            ("_r_acr_bgn", "a: @b c\n", "anchor"),
            ("_br_acr_bgn", "a:@b c\n", "anchor"),
            ("_b_acr_bgn", "a: b@b c: d\n", "anchor"),
            ("_r_acr_ctn", "a: &@ c\n", "anchor_name"),
            ("_r_als_bgn", "a: @b\n", "alias"),
            ("_br_als_bgn", "a:@b\n", "alias"),
            ("_b_als_bgn", "a: b@b : c\n", "alias"),
            ("_r_als_ctn", "a: *@\n", "alias_name"),
            ("_bl", "a:\n b: c@\nd: e\n", "block_mapping"),
            ("comment", "a: b @\n", "comment"),
        ],
        // The scanner reads timestamps only under the YAML 1.1 schema; the crate builds
        // the core schema, where `2001-12-14` is a string. And its error-recovery marker.
        &[
            "_r_sgl_pln_tms_blk",
            "_br_sgl_pln_tms_blk",
            "_b_sgl_pln_tms_blk",
            "_r_sgl_pln_tms_flw",
            "_br_sgl_pln_tms_flw",
            "_err_rec",
        ],
    );
}

#[test]
fn yaml_no_version_drift() {
    check_no_drift(YAML, 20);
}

#[test]
fn yaml_min_yields_parse_in_place() {
    check_min_yields_in_place(YAML, SAMPLE, 25);
}

/// A realistic file that parses cleanly; also reduced by the pass tests of `hdd-core`.
const SAMPLE: &str = include_str!("../../../../grammars/yaml/sample.yaml");
