//! The languages hdd knows, how to recognise them, and their parsers and tables.

use std::path::Path;

use crate::table::Table;
use crate::tables::{c_table, javascript_table, json_table, rust_table, sql_table};

/// A language hdd can reduce.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Lang {
    /// C (tree-sitter-c).
    C,
    /// Rust (tree-sitter-rust).
    Rust,
    /// JavaScript, including JSX (tree-sitter-javascript).
    JavaScript,
    /// JSON (tree-sitter-json).
    Json,
    /// SQL, a permissive dialect mix (tree-sitter-sequel, derekstride's tree-sitter-sql).
    Sql,
}

impl Lang {
    /// Every language, in the order `hdd langs` lists them.
    pub const ALL: &'static [Lang] =
        &[Lang::C, Lang::Rust, Lang::JavaScript, Lang::Json, Lang::Sql];

    /// The name used on the command line (`--lang c`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Lang::C => "c",
            Lang::Rust => "rust",
            Lang::JavaScript => "javascript",
            Lang::Json => "json",
            Lang::Sql => "sql",
        }
    }

    /// Other names `from_name` accepts (`js`, `rs`).
    #[must_use]
    pub fn aliases(self) -> &'static [&'static str] {
        match self {
            Lang::Rust => &["rs"],
            Lang::JavaScript => &["js"],
            Lang::C | Lang::Json | Lang::Sql => &[],
        }
    }

    /// File extensions (without the dot) that select this language.
    #[must_use]
    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            Lang::C => &["c", "h"],
            Lang::Rust => &["rs"],
            Lang::JavaScript => &["js", "mjs", "cjs", "jsx"],
            Lang::Json => &["json"],
            Lang::Sql => &["sql"],
        }
    }

    /// The grammar crate and version the parser and table come from.
    #[must_use]
    pub fn grammar_version(self) -> &'static str {
        match self {
            Lang::C => "tree-sitter-c 0.24.2",
            Lang::Rust => "tree-sitter-rust 0.24.2",
            Lang::JavaScript => "tree-sitter-javascript 0.25.0",
            Lang::Json => "tree-sitter-json 0.24.8",
            Lang::Sql => "tree-sitter-sequel 0.3.11",
        }
    }

    /// The language named `name` (or one of its aliases) on the command line, if any.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Lang> {
        Lang::ALL.iter().copied().find(|l| {
            l.name().eq_ignore_ascii_case(name)
                || l.aliases().iter().any(|a| a.eq_ignore_ascii_case(name))
        })
    }

    /// The language a file's extension selects, if any.
    #[must_use]
    pub fn from_path(path: &Path) -> Option<Lang> {
        let ext = path.extension()?.to_str()?;
        Lang::ALL
            .iter()
            .copied()
            .find(|l| l.extensions().iter().any(|e| e.eq_ignore_ascii_case(ext)))
    }

    /// The tree-sitter language.
    #[must_use]
    pub fn ts_language(self) -> tree_sitter::Language {
        match self {
            Lang::C => tree_sitter_c::LANGUAGE.into(),
            Lang::Rust => tree_sitter_rust::LANGUAGE.into(),
            Lang::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
            Lang::Json => tree_sitter_json::LANGUAGE.into(),
            Lang::Sql => tree_sitter_sequel::LANGUAGE.into(),
        }
    }

    /// The grammar table generated from the vendored `grammar.json`.
    #[must_use]
    pub fn table(self) -> Table {
        match self {
            Lang::C => c_table(),
            Lang::Rust => rust_table(),
            Lang::JavaScript => javascript_table(),
            Lang::Json => json_table(),
            Lang::Sql => sql_table(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_loads_into_a_parser() {
        for &lang in Lang::ALL {
            let mut parser = tree_sitter::Parser::new();
            parser
                .set_language(&lang.ts_language())
                .expect("grammar ABI is supported by the linked tree-sitter");
            assert_eq!(Lang::from_name(lang.name()), Some(lang));
            for alias in lang.aliases() {
                assert_eq!(Lang::from_name(alias), Some(lang), "{alias}");
            }
            assert!(
                !lang.table().kinds.is_empty(),
                "{} has an empty table",
                lang.name()
            );
        }
        assert_eq!(Lang::ALL.len(), 5);
    }

    #[test]
    fn names_and_aliases() {
        assert_eq!(Lang::from_name("JS"), Some(Lang::JavaScript));
        assert_eq!(Lang::from_name("javascript"), Some(Lang::JavaScript));
        assert_eq!(Lang::from_name("rs"), Some(Lang::Rust));
        assert_eq!(Lang::from_name("Rust"), Some(Lang::Rust));
        assert_eq!(Lang::from_name("json"), Some(Lang::Json));
        assert_eq!(Lang::from_name("sql"), Some(Lang::Sql));
        assert_eq!(Lang::from_name("text"), None);
        assert_eq!(Lang::Sql.grammar_version(), "tree-sitter-sequel 0.3.11");
        assert_eq!(Lang::Rust.grammar_version(), "tree-sitter-rust 0.24.2");
    }

    #[test]
    fn extension_selects_language() {
        assert_eq!(Lang::from_path(Path::new("dir/crash.c")), Some(Lang::C));
        assert_eq!(Lang::from_path(Path::new("x.H")), Some(Lang::C));
        assert_eq!(Lang::from_path(Path::new("src/main.rs")), Some(Lang::Rust));
        for js in ["a.js", "a.mjs", "a.cjs", "App.jsx"] {
            assert_eq!(
                Lang::from_path(Path::new(js)),
                Some(Lang::JavaScript),
                "{js}"
            );
        }
        assert_eq!(Lang::from_path(Path::new("data.JSON")), Some(Lang::Json));
        assert_eq!(Lang::from_path(Path::new("schema.sql")), Some(Lang::Sql));
        assert_eq!(Lang::from_path(Path::new("x.txt")), None);
        assert_eq!(Lang::from_path(Path::new("noext")), None);
    }
}
