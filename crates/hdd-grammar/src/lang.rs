//! The languages hdd knows, how to recognise them, and their parsers and tables.

use std::path::Path;

use tree_sitter_language::LanguageFn;

use crate::table::Table;
use crate::tables;

/// A language hdd can reduce.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Lang {
    /// C (tree-sitter-c).
    C,
    /// C++, including preprocessed sources (tree-sitter-cpp).
    Cpp,
    /// Rust (tree-sitter-rust).
    Rust,
    /// JavaScript, including JSX (tree-sitter-javascript).
    JavaScript,
    /// TypeScript (tree-sitter-typescript).
    TypeScript,
    /// TypeScript with JSX (tree-sitter-typescript's TSX grammar).
    Tsx,
    /// JSON (tree-sitter-json).
    Json,
    /// SQL, a permissive dialect mix (tree-sitter-sequel, derekstride's tree-sitter-sql).
    Sql,
    /// Python (tree-sitter-python).
    Python,
    /// CSS (tree-sitter-css).
    Css,
    /// Go (tree-sitter-go).
    Go,
    /// Java (tree-sitter-java).
    Java,
    /// HTML (tree-sitter-html).
    Html,
    /// Bash and POSIX shell scripts (tree-sitter-bash).
    Bash,
    /// YAML (tree-sitter-yaml).
    Yaml,
    /// TOML (tree-sitter-toml-ng).
    Toml,
}

/// What hdd knows of one language: [`SPECS`] holds one per [`Lang`] variant, in order.
struct Spec {
    name: &'static str,
    aliases: &'static [&'static str],
    extensions: &'static [&'static str],
    grammar_version: &'static str,
    language: LanguageFn,
    table: &'static Table,
}

const SPECS: &[Spec] = &[
    Spec {
        name: "c",
        aliases: &[],
        extensions: &["c", "h"],
        grammar_version: "tree-sitter-c 0.24.2",
        language: tree_sitter_c::LANGUAGE,
        table: &tables::c::TABLE,
    },
    Spec {
        name: "cpp",
        aliases: &["c++", "cxx"],
        extensions: &["cpp", "cc", "cxx", "c++", "hpp", "hh", "hxx", "ii"],
        grammar_version: "tree-sitter-cpp 0.23.4",
        language: tree_sitter_cpp::LANGUAGE,
        table: &tables::cpp::TABLE,
    },
    Spec {
        name: "rust",
        aliases: &["rs"],
        extensions: &["rs"],
        grammar_version: "tree-sitter-rust 0.24.2",
        language: tree_sitter_rust::LANGUAGE,
        table: &tables::rust::TABLE,
    },
    Spec {
        name: "javascript",
        aliases: &["js"],
        extensions: &["js", "mjs", "cjs", "jsx"],
        grammar_version: "tree-sitter-javascript 0.25.0",
        language: tree_sitter_javascript::LANGUAGE,
        table: &tables::javascript::TABLE,
    },
    Spec {
        name: "typescript",
        aliases: &["ts"],
        extensions: &["ts", "mts", "cts"],
        grammar_version: "tree-sitter-typescript 0.23.2",
        language: tree_sitter_typescript::LANGUAGE_TYPESCRIPT,
        table: &tables::typescript::TABLE,
    },
    Spec {
        name: "tsx",
        aliases: &[],
        extensions: &["tsx"],
        grammar_version: "tree-sitter-typescript 0.23.2",
        language: tree_sitter_typescript::LANGUAGE_TSX,
        table: &tables::tsx::TABLE,
    },
    Spec {
        name: "json",
        aliases: &[],
        extensions: &["json"],
        grammar_version: "tree-sitter-json 0.24.8",
        language: tree_sitter_json::LANGUAGE,
        table: &tables::json::TABLE,
    },
    Spec {
        name: "sql",
        aliases: &[],
        extensions: &["sql"],
        grammar_version: "tree-sitter-sequel 0.3.11",
        language: tree_sitter_sequel::LANGUAGE,
        table: &tables::sql::TABLE,
    },
    Spec {
        name: "python",
        aliases: &["py"],
        extensions: &["py", "pyi"],
        grammar_version: "tree-sitter-python 0.25.0",
        language: tree_sitter_python::LANGUAGE,
        table: &tables::python::TABLE,
    },
    Spec {
        name: "css",
        aliases: &[],
        extensions: &["css"],
        grammar_version: "tree-sitter-css 0.25.0",
        language: tree_sitter_css::LANGUAGE,
        table: &tables::css::TABLE,
    },
    Spec {
        name: "go",
        aliases: &[],
        extensions: &["go"],
        grammar_version: "tree-sitter-go 0.25.0",
        language: tree_sitter_go::LANGUAGE,
        table: &tables::go::TABLE,
    },
    Spec {
        name: "java",
        aliases: &[],
        extensions: &["java"],
        grammar_version: "tree-sitter-java 0.23.5",
        language: tree_sitter_java::LANGUAGE,
        table: &tables::java::TABLE,
    },
    Spec {
        name: "html",
        aliases: &["htm"],
        extensions: &["html", "htm"],
        grammar_version: "tree-sitter-html 0.23.2",
        language: tree_sitter_html::LANGUAGE,
        table: &tables::html::TABLE,
    },
    Spec {
        name: "bash",
        aliases: &["sh", "shell"],
        extensions: &["sh", "bash"],
        grammar_version: "tree-sitter-bash 0.25.1",
        language: tree_sitter_bash::LANGUAGE,
        table: &tables::bash::TABLE,
    },
    Spec {
        name: "yaml",
        aliases: &["yml"],
        extensions: &["yaml", "yml"],
        grammar_version: "tree-sitter-yaml 0.7.2",
        language: tree_sitter_yaml::LANGUAGE,
        table: &tables::yaml::TABLE,
    },
    Spec {
        name: "toml",
        aliases: &[],
        extensions: &["toml"],
        grammar_version: "tree-sitter-toml-ng 0.7.0",
        language: tree_sitter_toml_ng::LANGUAGE,
        table: &tables::toml::TABLE,
    },
];

impl Lang {
    /// Every language, in the order `hdd langs` lists them.
    pub const ALL: &'static [Lang] = &[
        Lang::C,
        Lang::Cpp,
        Lang::Rust,
        Lang::JavaScript,
        Lang::TypeScript,
        Lang::Tsx,
        Lang::Json,
        Lang::Sql,
        Lang::Python,
        Lang::Css,
        Lang::Go,
        Lang::Java,
        Lang::Html,
        Lang::Bash,
        Lang::Yaml,
        Lang::Toml,
    ];

    fn spec(self) -> &'static Spec {
        &SPECS[self as usize]
    }

    /// The name used on the command line (`--lang c`).
    #[must_use]
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// Other names `from_name` accepts (`js`, `rs`).
    #[must_use]
    pub fn aliases(self) -> &'static [&'static str] {
        self.spec().aliases
    }

    /// File extensions (without the dot) that select this language.
    #[must_use]
    pub fn extensions(self) -> &'static [&'static str] {
        self.spec().extensions
    }

    /// The grammar crate and version the parser and table come from.
    #[must_use]
    pub fn grammar_version(self) -> &'static str {
        self.spec().grammar_version
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
        self.spec().language.into()
    }

    /// The grammar table generated from the vendored `grammar.json`.
    #[must_use]
    pub fn table(self) -> Table {
        *self.spec().table
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
        assert_eq!(Lang::ALL.len(), SPECS.len());
        for (i, &lang) in Lang::ALL.iter().enumerate() {
            assert_eq!(
                lang as usize,
                i,
                "{}: ALL and SPECS follow the enum",
                lang.name()
            );
        }
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
