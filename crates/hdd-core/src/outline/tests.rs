//! Windowed parses agree with a full parse: items, errors and tokens, whatever the
//! window's size and wherever its end falls.

use tree_sitter::Parser;

use super::*;
use crate::document::Document;

fn parser(lang: hdd_grammar::Lang) -> Parser {
    let mut parser = Parser::new();
    parser.set_language(&lang.ts_language()).unwrap();
    parser
}

/// Small C functions, `count` of them, with a comment and a declaration now and then.
fn functions(count: usize) -> String {
    let mut text = String::new();
    for i in 0..count {
        text.push_str(&format!(
            "int f{i}(int a) {{ int b = a * {i}; return b + {}; }}\n",
            i * 7 % 100
        ));
        if i % 7 == 3 {
            text.push_str(&format!("/* note {i} */\nstatic int g{i} = {i};\n"));
        }
    }
    text
}

/// What a full parse says: the root's children, the errors, the tokens.
fn full(parser: &mut Parser, text: &[u8]) -> Outline {
    let doc = Document::parse(parser, text.to_vec()).unwrap();
    let root = doc.tree().unwrap().root_node();
    let mut cursor = root.walk();
    Outline {
        items: root
            .children(&mut cursor)
            .map(|c| c.start_byte()..c.end_byte())
            .collect(),
        errors: doc.error_count(),
        tokens: doc.token_count(),
    }
}

fn windowed(parser: &mut Parser, text: &[u8], window: usize) -> Outline {
    Scan {
        window,
        items: true,
        max_errors: usize::MAX,
    }
    .run(parser, text, &|| false)
    .unwrap()
    .unwrap()
}

fn assert_agree(lang: hdd_grammar::Lang, text: &[u8], windows: &[usize]) {
    let mut parser = parser(lang);
    let whole = full(&mut parser, text);
    for &window in windows {
        let outline = windowed(&mut parser, text, window);
        let differs = outline
            .items
            .iter()
            .zip(&whole.items)
            .find(|(a, b)| a != b)
            .map(|(a, b)| {
                let at = a.start.min(b.start);
                let around = &text[at.saturating_sub(60)..(at + 60).min(text.len())];
                format!("{a:?} for {b:?} in {:?}", String::from_utf8_lossy(around))
            });
        assert_eq!(
            (outline.errors, outline.tokens, outline.items.len()),
            (whole.errors, whole.tokens, whole.items.len()),
            "window {window}: {differs:?}"
        );
        assert_eq!(outline.items, whole.items, "window {window}: {differs:?}");
    }
}

#[test]
fn valid_c_in_windows_of_any_size_is_the_full_parse() {
    // Window ends fall in the middle of functions, tokens, comments.
    let text = functions(200);
    assert_agree(
        hdd_grammar::Lang::C,
        text.as_bytes(),
        &[64, 100, 257, 1000, 4096, 1 << 20],
    );
}

#[test]
fn windows_cut_anywhere_in_a_text_of_one_line() {
    // No line to end a window at: each ends in the middle of a function or a token.
    let text = functions(200).replace('\n', " ");
    assert_agree(
        hdd_grammar::Lang::C,
        text.as_bytes(),
        &[64, 100, 257, 1000, 4096],
    );
    let mut broken = functions(40).replace('\n', " ");
    broken.push_str(" int broken( { return 1 +; } ");
    broken.push_str(&functions(40).replace('\n', " "));
    assert_agree(hdd_grammar::Lang::C, broken.as_bytes(), &[100, 257, 1000]);
}

#[test]
fn errors_are_counted_as_a_full_parse_counts_them() {
    let mut text = functions(30);
    text.push_str("int broken( { return 1 +; }\n");
    text.push_str(&functions(30));
    text.push_str("int x = ;\nint y = 2\n");
    text.push_str(&functions(5));
    let mut parser = parser(hdd_grammar::Lang::C);
    assert!(full(&mut parser, text.as_bytes()).errors > 1);
    assert_agree(
        hdd_grammar::Lang::C,
        text.as_bytes(),
        &[100, 257, 1000, 4096],
    );
}

#[test]
fn an_item_bigger_than_the_window_is_parsed_whole() {
    let mut text = functions(10);
    text.push_str("int big(int a) {\n");
    for i in 0..300 {
        text.push_str(&format!("  a = a * {i} + {i};\n"));
    }
    text.push_str("  return a;\n}\n");
    text.push_str(&functions(10));
    assert!(text.len() > 6000);
    assert_agree(hdd_grammar::Lang::C, text.as_bytes(), &[100, 1000, 4096]);
}

#[test]
fn other_grammars_agree_too() {
    let mut rust = String::new();
    for i in 0..100 {
        rust.push_str(&format!("fn f{i}(a: u8) -> u8 {{\n    a + {i}\n}}\n\n"));
        rust.push_str(&format!("struct S{i} {{ a: u8 }}\n// note\n"));
    }
    assert_agree(hdd_grammar::Lang::Rust, rust.as_bytes(), &[100, 333, 4096]);
    let mut js = String::new();
    for i in 0..100 {
        js.push_str(&format!(
            "function f{i}(a) {{ return a + {i}; }}\nconst c{i} = [{i}, 2];\n"
        ));
    }
    assert_agree(
        hdd_grammar::Lang::JavaScript,
        js.as_bytes(),
        &[100, 333, 4096],
    );
}

#[test]
fn a_scan_gives_up_past_its_errors_and_obeys_a_stop() {
    let mut text = String::from("int x = ;\n");
    text.push_str(&functions(200));
    let mut parser = parser(hdd_grammar::Lang::C);
    let scan = Scan {
        window: 256,
        items: false,
        max_errors: 0,
    };
    let outline = scan
        .run(&mut parser, text.as_bytes(), &|| false)
        .unwrap()
        .unwrap();
    assert!(outline.errors > 0);
    assert!(outline.items.is_empty());
    // Given up after the first window: far fewer tokens than the whole text has.
    assert!(outline.tokens < full(&mut parser, text.as_bytes()).tokens / 10);
    let stopped = Scan::default().run(&mut parser, text.as_bytes(), &|| true);
    assert!(matches!(stopped, Err(Error::Stopped)));
}

#[test]
fn every_window_size_agrees() {
    let mut c = functions(20).replace('\n', " ");
    c.push_str("int broken( { return 1 +; }\n#define M(x) ((x) + 1)\nstruct s { int a; };\n");
    c.push_str(&functions(20));
    let mut js = String::new();
    for i in 0..30 {
        js.push_str(&format!(
            "function f{i}(a) {{ return a + {i}; }} let c{i} = `t${{a}}`\n"
        ));
    }
    let windows: Vec<usize> = (16..400).step_by(3).collect();
    assert_agree(hdd_grammar::Lang::C, c.as_bytes(), &windows);
    assert_agree(hdd_grammar::Lang::JavaScript, js.as_bytes(), &windows);
}

#[test]
fn trailing_and_leading_blanks_cost_one_window() {
    let mut text = "\n".repeat(3000);
    text.push_str(&functions(20));
    text.push_str(&" \n".repeat(5000));
    assert_agree(hdd_grammar::Lang::C, text.as_bytes(), &[100, 1000, 1 << 20]);
    let blank = " ".repeat(10_000);
    let mut parser = parser(hdd_grammar::Lang::C);
    assert_eq!(
        windowed(&mut parser, blank.as_bytes(), 64),
        full(&mut parser, blank.as_bytes())
    );
}
