//! Just enough Rust syntax for the module graph: a lexer that drops comments, string and
//! char literals and lifetimes, and a scan for `mod` declarations and the paths a file
//! mentions (`use` trees expanded), each with its line and enclosing inline modules.

/// A token of the cut-down lexer.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    /// An identifier or keyword (raw identifiers without their `r#`).
    Ident(String),
    /// `::`
    PathSep,
    /// Any other punctuation character.
    Punct(char),
}

#[derive(Debug, Clone)]
struct Token {
    tok: Tok,
    line: usize,
}

/// A `mod name;` declaration (a child module in its own file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct ModDecl {
    pub(super) name: String,
    /// The inline modules (`mod x { ... }`) it is declared in, outermost first.
    pub(super) inline: Vec<String>,
}

/// A path the file mentions, as written: `crate::a::B`, `super::*`, `b::f`, ...
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct PathRef {
    pub(super) segments: Vec<String>,
    /// The inline modules the path is written in, outermost first.
    pub(super) inline: Vec<String>,
    pub(super) line: usize,
}

impl PathRef {
    /// The path as written (a `use` tree's branch spelled out).
    pub(super) fn text(&self) -> String {
        self.segments.join("::")
    }
}

/// What the module graph needs from one file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct FileSyntax {
    pub(super) mods: Vec<ModDecl>,
    pub(super) paths: Vec<PathRef>,
}

fn is_ident_start(c: char) -> bool {
    c == '_' || c.is_alphabetic()
}

fn is_ident_char(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

/// The tokens of `src`, without comments, literals and lifetimes.
fn lex(src: &str) -> Vec<Token> {
    let chars: Vec<char> = src.chars().collect();
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    let mut tokens = Vec::new();
    let mut line = 1;
    let mut i = 0;
    // Skips to the end of a quoted literal (escapes honoured) whose opening quote is at `i`.
    let skip_quoted = |mut i: usize, quote: char, line: &mut usize| {
        i += 1;
        while i < chars.len() && chars[i] != quote {
            if chars[i] == '\\' {
                i += 1;
            }
            if at(i) == '\n' {
                *line += 1;
            }
            i += 1;
        }
        i + 1
    };
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && at(i + 1) == '/' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    line += usize::from(chars[i] == '\n');
                    i += 1;
                }
            }
        } else if c == '"' {
            i = skip_quoted(i, '"', &mut line);
        } else if c == '\'' {
            if at(i + 1) == '\\' || at(i + 2) == '\'' {
                i = skip_quoted(i, '\'', &mut line);
            } else {
                // A lifetime or a label: its name is no path.
                i += 1;
                while is_ident_char(at(i)) {
                    i += 1;
                }
            }
        } else if c.is_ascii_digit() {
            while is_ident_char(at(i)) || (at(i) == '.' && at(i + 1).is_ascii_digit()) {
                i += 1;
            }
        } else if is_ident_start(c) {
            let start = i;
            while is_ident_char(at(i)) {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            let raw_string = matches!(word.as_str(), "r" | "br" | "cr")
                && (at(i) == '"' || (at(i) == '#' && matches!(at(i + 1), '#' | '"')));
            if raw_string {
                let hashes = chars[i..].iter().take_while(|&&c| c == '#').count();
                i += hashes + 1;
                loop {
                    if i >= chars.len() {
                        break;
                    }
                    if chars[i] == '"' && chars[i + 1..].iter().take(hashes).all(|&c| c == '#') {
                        i += 1 + hashes;
                        break;
                    }
                    line += usize::from(chars[i] == '\n');
                    i += 1;
                }
            } else if matches!(word.as_str(), "b" | "c") && at(i) == '"' {
                i = skip_quoted(i, '"', &mut line);
            } else if word == "b" && at(i) == '\'' {
                i = skip_quoted(i, '\'', &mut line);
            } else if word == "r" && at(i) == '#' && is_ident_start(at(i + 1)) {
                let start = i + 1;
                i = start;
                while is_ident_char(at(i)) {
                    i += 1;
                }
                let name = chars[start..i].iter().collect();
                tokens.push(Token {
                    tok: Tok::Ident(name),
                    line,
                });
            } else {
                tokens.push(Token {
                    tok: Tok::Ident(word),
                    line,
                });
            }
        } else if c == ':' && at(i + 1) == ':' {
            tokens.push(Token {
                tok: Tok::PathSep,
                line,
            });
            i += 2;
        } else {
            tokens.push(Token {
                tok: Tok::Punct(c),
                line,
            });
            i += 1;
        }
    }
    tokens
}

/// The branches of the `use` tree at `tokens[i..]`, each prefixed by `prefix`, and the index
/// after the tree. A `self` branch (`use a::{self, B}`) is the prefix itself.
fn use_tree(tokens: &[Token], mut i: usize, prefix: &[String]) -> (Vec<Vec<String>>, usize) {
    let mut segments = prefix.to_vec();
    loop {
        match tokens.get(i).map(|t| &t.tok) {
            Some(Tok::PathSep) => i += 1,
            Some(Tok::Ident(name)) => {
                if name != "self" || segments.is_empty() {
                    segments.push(name.clone());
                }
                i += 1;
                if tokens.get(i).map(|t| &t.tok) == Some(&Tok::PathSep) {
                    i += 1;
                    continue;
                }
                if matches!(tokens.get(i).map(|t| &t.tok), Some(Tok::Ident(a)) if a == "as") {
                    i += 2;
                }
                return (vec![segments], i);
            }
            Some(Tok::Punct('*')) => return (vec![segments], i + 1),
            Some(Tok::Punct('{')) => {
                i += 1;
                let mut branches = Vec::new();
                while i < tokens.len() {
                    match tokens[i].tok {
                        Tok::Punct('}') => {
                            i += 1;
                            break;
                        }
                        Tok::Punct(',') => i += 1,
                        _ => {
                            let (more, next) = use_tree(tokens, i, &segments);
                            branches.extend(more);
                            i = next.max(i + 1);
                        }
                    }
                }
                return (branches, i);
            }
            _ if segments.is_empty() => return (Vec::new(), i),
            _ => return (vec![segments], i),
        }
    }
}

/// The `mod` declarations and paths of a Rust source file.
pub(super) fn scan(src: &str) -> FileSyntax {
    let tokens = lex(src);
    let tok = |i: usize| tokens.get(i).map(|t| &t.tok);
    let ident = |i: usize| match tok(i) {
        Some(Tok::Ident(name)) => Some(name.as_str()),
        _ => None,
    };
    let mut out = FileSyntax::default();
    // Inline modules open around `i`, with the brace depth inside each.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut pending_inline: Option<String> = None;
    let mut depth = 0;
    let names = |inline: &[(String, usize)]| -> Vec<String> {
        inline.iter().map(|(n, _)| n.clone()).collect()
    };
    let mut i = 0;
    while i < tokens.len() {
        let line = tokens[i].line;
        match &tokens[i].tok {
            Tok::Punct('{') => {
                depth += 1;
                if let Some(name) = pending_inline.take() {
                    inline.push((name, depth));
                }
                i += 1;
            }
            Tok::Punct('}') => {
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
                i += 1;
            }
            Tok::Ident(word) if word == "mod" && ident(i + 1).is_some() => {
                let name = ident(i + 1).unwrap_or_default().to_owned();
                match tok(i + 2) {
                    Some(Tok::Punct(';')) => out.mods.push(ModDecl {
                        name,
                        inline: names(&inline),
                    }),
                    Some(Tok::Punct('{')) => pending_inline = Some(name),
                    _ => {}
                }
                i += 2;
            }
            Tok::Ident(word) if word == "use" && tok(i + 1) != Some(&Tok::Punct('<')) => {
                let (branches, next) = use_tree(&tokens, i + 1, &[]);
                for segments in branches {
                    out.paths.push(PathRef {
                        segments,
                        inline: names(&inline),
                        line,
                    });
                }
                i = next.max(i + 1);
            }
            Tok::Ident(first) => {
                let continued =
                    i > 0 && matches!(tokens[i - 1].tok, Tok::PathSep | Tok::Punct('.'));
                let mut segments = vec![first.clone()];
                let mut j = i + 1;
                while tok(j) == Some(&Tok::PathSep) {
                    let Some(next) = ident(j + 1) else { break };
                    segments.push(next.to_owned());
                    j += 2;
                }
                if !continued && segments.len() > 1 {
                    out.paths.push(PathRef {
                        segments,
                        inline: names(&inline),
                        line,
                    });
                }
                i = j;
            }
            _ => i += 1,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(src: &str) -> Vec<String> {
        scan(src).paths.iter().map(PathRef::text).collect()
    }

    #[test]
    fn expands_use_trees() {
        assert_eq!(
            texts("pub use crate::{a::{self, B}, c::*};\nuse super::super::d as e;"),
            ["crate::a", "crate::a::B", "crate::c", "super::super::d"]
        );
        assert_eq!(texts("use std::fmt;"), ["std::fmt"]);
    }

    #[test]
    fn skips_comments_literals_and_lifetimes() {
        let src = "// crate::a::x\n/* crate::b /* nested */ */ let s = \"crate::c::x\";\n\
                   let r = r#\"crate::d::x\"#; let c = '\"'; fn f<'a>(x: &'a str) { crate::e::g(x) }";
        let syntax = scan(src);
        assert_eq!(syntax.paths.len(), 1, "{syntax:?}");
        assert_eq!(syntax.paths[0].text(), "crate::e::g");
        assert_eq!(syntax.paths[0].line, 3);
    }

    #[test]
    fn tracks_mod_declarations_and_inline_modules() {
        let src = "mod a;\npub(crate) mod b;\n#[cfg(test)]\nmod tests {\n    use super::*;\n    mod c;\n}\nfn f() { x.y::z(); b::g(); }";
        let syntax = scan(src);
        let mods: Vec<(&str, Vec<String>)> = syntax
            .mods
            .iter()
            .map(|m| (m.name.as_str(), m.inline.clone()))
            .collect();
        assert_eq!(
            mods,
            [
                ("a", vec![]),
                ("b", vec![]),
                ("c", vec!["tests".to_owned()])
            ]
        );
        let paths: Vec<(String, Vec<String>)> = syntax
            .paths
            .iter()
            .map(|p| (p.text(), p.inline.clone()))
            .collect();
        assert_eq!(
            paths,
            [
                ("super".to_owned(), vec!["tests".to_owned()]),
                ("b::g".to_owned(), vec![])
            ]
        );
    }
}
