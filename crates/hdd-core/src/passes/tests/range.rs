//! A reduction confined to a range ([`Session::set_range`]) on every grammar language:
//! the text before and after the range reaches the test byte for byte, and the range
//! shrinks.

use hdd_grammar::Lang;

use crate::exec::ClosureExecutor;
use crate::{Error, Event, Session};

/// A file of every grammar language: a corpus case's input, or the grammar's sample.
fn input_of(lang: Lang) -> &'static str {
    match lang {
        Lang::C => include_str!("../../../../../corpus/c/warn-shift-overflow-framer/framer.c"),
        Lang::Cpp => include_str!("../../../../../grammars/cpp/sample.cpp"),
        Lang::Rust => {
            include_str!("../../../../../corpus/rust/error-mismatched-types-ledger/ledger.rs")
        }
        Lang::JavaScript => {
            include_str!("../../../../../corpus/javascript/typeerror-undefined-author-blog/blog.js")
        }
        Lang::TypeScript => include_str!("../../../../../grammars/typescript/sample.ts"),
        Lang::Tsx => include_str!("../../../../../grammars/tsx/sample.tsx"),
        Lang::Json => {
            include_str!("../../../../../corpus/json/typeerror-methods-string-gateway/gateway.json")
        }
        Lang::Sql => {
            include_str!("../../../../../corpus/sql/no-such-column-shop-report/shop_report.sql")
        }
        Lang::Python => include_str!("../../../../../grammars/python/sample.py"),
        Lang::Css => include_str!("../../../../../grammars/css/sample.css"),
        Lang::Go => include_str!("../../../../../grammars/go/sample.go"),
        Lang::Java => include_str!("../../../../../grammars/java/Sample.java"),
        Lang::Html => include_str!("../../../../../grammars/html/sample.html"),
        Lang::Bash => include_str!("../../../../../grammars/bash/sample.sh"),
        Lang::Yaml => include_str!("../../../../../grammars/yaml/sample.yaml"),
        Lang::Toml => include_str!("../../../../../grammars/toml/sample.toml"),
        other => panic!("no input for {other:?}: add one here"),
    }
}

/// The bytes of the middle third of `text`'s lines.
fn middle_lines(text: &str) -> std::ops::Range<usize> {
    let starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .filter(|&i| i < text.len())
        .collect();
    let n = starts.len();
    starts[n / 3]..starts[2 * n / 3]
}

/// The longest word of `text` (the first of those), which the test will ask for.
fn longest_word(text: &str) -> &str {
    text.split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .fold("", |best, w| if w.len() > best.len() { w } else { best })
}

#[test]
fn a_confined_reduction_changes_nothing_outside_its_range_in_every_language() {
    for &lang in Lang::ALL {
        let input = input_of(lang);
        let range = middle_lines(input);
        let (before, inside, after) = (
            &input.as_bytes()[..range.start],
            &input[range.clone()],
            &input.as_bytes()[range.end..],
        );
        let word = longest_word(inside);
        assert!(word.len() >= 3, "{lang:?}: {inside}");
        // The test looks only for the word: anything outside the range could go, and
        // nothing outside may change.
        let outside_changed = std::cell::Cell::new(0);
        let mut exec = ClosureExecutor::new(|t: &[u8]| {
            if !(t.starts_with(before) && t.ends_with(after)) {
                outside_changed.set(outside_changed.get() + 1);
            }
            t.windows(word.len()).any(|w| w == word.as_bytes())
        });
        let mut observer = |_: Event<'_>| Ok(());
        let mut session = Session::new(
            Some(lang),
            input.as_bytes().to_vec(),
            &mut exec,
            &mut observer,
        )
        .unwrap();
        session.set_range(range.clone()).unwrap();
        session.reduce().unwrap();
        let reduced = session.range_of(session.current());
        let (doc, stats) = session.finish();
        let text = doc.text();
        assert_eq!(outside_changed.get(), 0, "{lang:?}");
        assert!(
            text.starts_with(before) && text.ends_with(after),
            "{lang:?}"
        );
        assert_eq!(reduced.start, range.start, "{lang:?}");
        assert_eq!(text.len() - reduced.end, after.len(), "{lang:?}");
        assert!(
            reduced.len() * 2 < range.len(),
            "{lang:?}: {} of {} bytes left: {}",
            reduced.len(),
            range.len(),
            String::from_utf8_lossy(&text[reduced.clone()])
        );
        assert!(stats.tests > 0);
    }
}

#[test]
fn a_range_outside_the_input_is_refused() {
    let mut exec = ClosureExecutor::new(|_: &[u8]| true);
    let mut observer = |_: Event<'_>| Ok(());
    let mut session = Session::new(
        Some(Lang::C),
        b"int x;\n".to_vec(),
        &mut exec,
        &mut observer,
    )
    .unwrap();
    assert!(matches!(session.set_range(2..9), Err(Error::Range(_))));
    let backwards = std::ops::Range { start: 5, end: 3 };
    assert!(matches!(session.set_range(backwards), Err(Error::Range(_))));
    assert!(session.set_range(0..7).is_ok());
}
