//! Rendering a [`Generated`] table as the Rust source of `grammars/<lang>/tables.rs`,
//! already in rustfmt's style.

use std::fmt::Write as _;

use crate::generated::{Generated, OwnedKindInfo, OwnedSlotInfo};

/// Renders a generated table as the Rust source of `grammars/<lang>/tables.rs`:
/// `header` (plain `//` comment lines) followed by
/// `pub(crate) static TABLE: crate::table::Table`. The output is already in
/// rustfmt's style (the generated file is checked by `cargo fmt --check`).
#[must_use]
pub fn render(generated: &Generated, header: &str) -> String {
    let mut out = String::new();
    for line in header.lines() {
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push('\n');
    out.push_str("pub(crate) static TABLE: crate::table::Table = crate::table::Table {\n");
    let kinds: Vec<Vec<String>> = generated.kinds.iter().map(kind_fields).collect();
    render_array(&mut out, "kinds", "crate::table::KindInfo", &kinds);
    let slots: Vec<Vec<String>> = generated.slots.iter().map(slot_fields).collect();
    render_array(&mut out, "slots", "crate::table::SlotInfo", &slots);
    let spellings: Vec<Vec<String>> = generated
        .spellings
        .iter()
        .map(|s| {
            vec![
                format!("kind: {:?},", s.kind),
                str_array_field("spellings", &s.spellings),
            ]
        })
        .collect();
    render_array(
        &mut out,
        "spellings",
        "crate::table::SpellingInfo",
        &spellings,
    );
    out.push_str("};\n");
    out
}

/// One `key: &[Type { .. }, ..],` field of the table literal, each element
/// given as its field lines (continuation lines relative to the field).
fn render_array(out: &mut String, key: &str, type_name: &str, elements: &[Vec<String>]) {
    let field_lines = |out: &mut String, fields: &[String], indent: &str| {
        for field in fields {
            for line in field.lines() {
                let _ = writeln!(out, "{indent}{line}");
            }
        }
    };
    match elements {
        [] => {
            let _ = writeln!(out, "    {key}: &[],");
        }
        // rustfmt lets a lone struct literal overflow into the brackets.
        [only] => {
            let _ = writeln!(out, "    {key}: &[{type_name} {{");
            field_lines(out, only, "        ");
            out.push_str("    }],\n");
        }
        _ => {
            let _ = writeln!(out, "    {key}: &[");
            for fields in elements {
                let _ = writeln!(out, "        {type_name} {{");
                field_lines(out, fields, "            ");
                out.push_str("        },\n");
            }
            out.push_str("    ],\n");
        }
    }
}

/// `key: &[…],` as rustfmt writes it: on one line while its items and separators fit
/// in 60 columns (`array_width`), otherwise one item per line.
fn str_array_field(key: &str, items: &[String]) -> String {
    let quoted: Vec<String> = items.iter().map(|s| format!("{s:?}")).collect();
    let joined = quoted.join(", ");
    if joined.len() <= 60 {
        format!("{key}: &[{joined}],")
    } else {
        let mut field = format!("{key}: &[\n");
        for q in &quoted {
            let _ = writeln!(field, "    {q},");
        }
        field.push_str("],");
        field
    }
}

fn kind_fields(kind: &OwnedKindInfo) -> Vec<String> {
    let supertypes = str_array_field("supertypes", &kind.supertypes);
    vec![
        format!("name: {:?},", kind.name),
        format!("min_yield: {:?},", kind.min_yield),
        format!("min_tokens: {},", kind.min_tokens),
        format!("derives_empty: {},", kind.derives_empty),
        supertypes,
        format!(
            "list_separator: {},",
            option_literal(kind.list_separator.as_deref())
        ),
    ]
}

fn slot_fields(slot: &OwnedSlotInfo) -> Vec<String> {
    vec![
        format!("kind: {:?},", slot.kind),
        format!("field: {},", option_literal(slot.field.as_deref())),
        format!("required: {},", slot.required),
        format!("multiple: {},", slot.multiple),
        str_array_field("types", &slot.types),
    ]
}

fn option_literal(value: Option<&str>) -> String {
    value.map_or_else(|| "None".to_owned(), |v| format!("Some({v:?})"))
}

#[cfg(test)]
mod tests {
    use super::render;
    use crate::generated::{Generated, OwnedKindInfo, OwnedSlotInfo};

    #[test]
    fn render_is_rustfmt_style() {
        let generated = Generated {
            kinds: vec![
                OwnedKindInfo {
                    name: "a".into(),
                    min_yield: "\"x\" \\ \n".into(),
                    min_tokens: 3,
                    derives_empty: false,
                    supertypes: vec!["expression".into(), "_declarator".into()],
                    list_separator: Some(",".into()),
                },
                OwnedKindInfo {
                    name: "b".into(),
                    min_yield: String::new(),
                    min_tokens: 0,
                    derives_empty: true,
                    supertypes: vec![
                        "_abstract_declarator".into(),
                        "_field_declarator".into(),
                        "_type_declarator".into(),
                    ],
                    list_separator: None,
                },
            ],
            slots: vec![OwnedSlotInfo {
                kind: "a".into(),
                field: Some("body".into()),
                required: true,
                multiple: false,
                types: vec!["compound_statement".into()],
            }],
            spellings: Vec::new(),
            rounds: 1,
        };
        let expected = r#"// Header line.

pub(crate) static TABLE: crate::table::Table = crate::table::Table {
    kinds: &[
        crate::table::KindInfo {
            name: "a",
            min_yield: "\"x\" \\ \n",
            min_tokens: 3,
            derives_empty: false,
            supertypes: &["expression", "_declarator"],
            list_separator: Some(","),
        },
        crate::table::KindInfo {
            name: "b",
            min_yield: "",
            min_tokens: 0,
            derives_empty: true,
            supertypes: &[
                "_abstract_declarator",
                "_field_declarator",
                "_type_declarator",
            ],
            list_separator: None,
        },
    ],
    slots: &[crate::table::SlotInfo {
        kind: "a",
        field: Some("body"),
        required: true,
        multiple: false,
        types: &["compound_statement"],
    }],
    spellings: &[],
};
"#;
        assert_eq!(render(&generated, "// Header line.\n"), expected);
    }
}
