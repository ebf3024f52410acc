//! The languages hdd knows, how to recognise them, and their parsers and tables.

use std::path::Path;

use crate::table::Table;

/// A language hdd can reduce.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Lang {
    /// C (tree-sitter-c).
    C,
}

impl Lang {
    /// Every language, in the order `hdd langs` lists them.
    pub const ALL: &'static [Lang] = &[Lang::C];

    /// The name used on the command line (`--lang c`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Lang::C => "c",
        }
    }

    /// File extensions (without the dot) that select this language.
    #[must_use]
    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            Lang::C => &["c", "h"],
        }
    }

    /// The grammar crate and version the parser and table come from.
    #[must_use]
    pub fn grammar_version(self) -> &'static str {
        match self {
            Lang::C => "tree-sitter-c 0.24.2",
        }
    }

    /// The language named `name` on the command line, if any.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Lang> {
        Lang::ALL
            .iter()
            .copied()
            .find(|l| l.name().eq_ignore_ascii_case(name))
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
        }
    }

    /// The grammar table derived from the vendored `grammar.json`.
    #[must_use]
    pub fn table(self) -> Table {
        match self {
            Lang::C => crate::c_table(),
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
        }
    }

    #[test]
    fn extension_selects_language() {
        assert_eq!(Lang::from_path(Path::new("dir/crash.c")), Some(Lang::C));
        assert_eq!(Lang::from_path(Path::new("x.H")), Some(Lang::C));
        assert_eq!(Lang::from_path(Path::new("x.txt")), None);
        assert_eq!(Lang::from_path(Path::new("noext")), None);
    }
}
