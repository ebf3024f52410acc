//! The inputs of `cargo xtask bench --big`, generated: C made of small functions, text
//! made of lines of words, JSON nested 100,000 deep (objects and arrays), each with the
//! grep test that needs one small part of it.

/// One generated input and its test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct BigInput {
    /// The row's name (and the folder's, under `target/bench/big/`).
    pub(super) name: &'static str,
    /// The file name of the input (its extension picks the language).
    pub(super) file: &'static str,
    /// `--lang` when the extension does not say it.
    pub(super) lang: Option<&'static str>,
    /// How to make it.
    pub(super) shape: Shape,
}

/// What an input is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Shape {
    /// C functions of about 50 bytes, about this many bytes of them; the test needs the
    /// one named `MAGIC`, in the middle.
    C(usize),
    /// Lines of eight words and a number, about this many bytes; the test needs the line
    /// with `MAGIC`, in the middle.
    Text(usize),
    /// `{"a":` nested this deep around `42`; the test needs 42 and 300 levels.
    JsonObjects(usize),
    /// `[` nested this deep around `42`; the test needs 42 and 300 levels.
    JsonArrays(usize),
    /// An array of records (an id, a name, tags, a nested object), about this many
    /// bytes, one line each; the test needs the record whose name is `MAGIC`, in the
    /// middle.
    JsonRecords(usize),
}

/// How many levels of nesting the JSON inputs' test needs.
pub(super) const JSON_LEVELS: usize = 300;

const MB: usize = 1_000_000;

/// Every input of the big benchmark, smallest first within each kind.
pub(super) fn all() -> Vec<BigInput> {
    let c = |name, bytes| BigInput {
        name,
        file: "big.c",
        lang: None,
        shape: Shape::C(bytes),
    };
    vec![
        c("c-1mb", MB),
        c("c-5mb", 5 * MB),
        c("c-50mb", 50 * MB),
        BigInput {
            name: "json-5mb",
            file: "big.json",
            lang: None,
            shape: Shape::JsonRecords(5 * MB),
        },
        BigInput {
            name: "text-50mb",
            file: "big.txt",
            lang: Some("text"),
            shape: Shape::Text(50 * MB),
        },
        BigInput {
            name: "json-objects-100k-deep",
            file: "deep.json",
            lang: None,
            shape: Shape::JsonObjects(100_000),
        },
        BigInput {
            name: "json-arrays-100k-deep",
            file: "deep.json",
            lang: None,
            shape: Shape::JsonArrays(100_000),
        },
    ]
}

impl BigInput {
    /// The input's text.
    pub(super) fn text(&self) -> String {
        match self.shape {
            Shape::C(bytes) => c_functions(bytes),
            Shape::Text(bytes) => text_lines(bytes),
            Shape::JsonObjects(depth) => nested("{\"a\":", "}", depth),
            Shape::JsonArrays(depth) => nested("[", "]", depth),
            Shape::JsonRecords(bytes) => json_records(bytes),
        }
    }

    /// The body of the test script (after `#!/bin/sh`), the candidate in `$HDD_FILE`.
    pub(super) fn test_body(&self) -> String {
        match self.shape {
            Shape::C(_) | Shape::Text(_) | Shape::JsonRecords(_) => {
                "grep -q MAGIC \"$HDD_FILE\"".to_owned()
            }
            Shape::JsonObjects(_) => json_test("{\"a\":"),
            Shape::JsonArrays(_) => json_test("["),
        }
    }
}

/// `open` `depth` times, `42`, `close` `depth` times, and a newline.
fn nested(open: &str, close: &str, depth: usize) -> String {
    format!("{}42{}\n", open.repeat(depth), close.repeat(depth))
}

/// A test that needs 42 and [`JSON_LEVELS`] levels opened by `open`.
fn json_test(open: &str) -> String {
    format!(
        "grep -q 42 \"$HDD_FILE\" && grep -qF '{}' \"$HDD_FILE\"",
        open.repeat(JSON_LEVELS)
    )
}

/// One line of C: a function of about 50 bytes.
fn c_function(i: usize) -> String {
    format!(
        "int f{i}(int a) {{ int b = a * {i}; return b + {}; }}\n",
        i * 7 % 1000
    )
}

/// C functions up to about `bytes` bytes, the one named `MAGIC` in the middle.
fn c_functions(bytes: usize) -> String {
    let mut text = String::with_capacity(bytes + 64);
    let mut i = 0;
    while text.len() < bytes / 2 {
        text.push_str(&c_function(i));
        i += 1;
    }
    text.push_str("int MAGIC(int a) { return a; }\n");
    while text.len() < bytes {
        text.push_str(&c_function(i));
        i += 1;
    }
    text
}

/// A JSON array of records, one a line, up to about `bytes` bytes; the one named `MAGIC`
/// in the middle.
fn json_records(bytes: usize) -> String {
    let mut text = String::with_capacity(bytes + 256);
    text.push_str("[\n");
    let mut i = 0;
    let mut magic = false;
    while text.len() < bytes {
        let name = if !magic && text.len() >= bytes / 2 {
            magic = true;
            "MAGIC".to_owned()
        } else {
            format!("item-{i}")
        };
        text.push_str(&format!(
            "  {{\"id\": {i}, \"name\": \"{name}\", \"tags\": [\"t{}\", \"t{}\"],              \"price\": {}.{:02}, \"stock\": {{\"here\": {}, \"there\": null}}}},\n",
            i % 13,
            i % 7,
            i % 500,
            i % 100,
            i % 31,
        ));
        i += 1;
    }
    text.push_str("  {\"id\": -1}\n]\n");
    text
}

/// Lines of eight words (picked by a fixed linear congruential generator) and their
/// number, up to about `bytes` bytes; the line `the MAGIC line` in the middle.
fn text_lines(bytes: usize) -> String {
    const WORDS: [&str; 12] = [
        "lorem",
        "ipsum",
        "dolor",
        "sit",
        "amet",
        "consectetur",
        "adipiscing",
        "elit",
        "sed",
        "do",
        "eiusmod",
        "tempor",
    ];
    let mut state: u64 = 0x5eed;
    let mut word = || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        WORDS[usize::try_from(state >> 33).unwrap_or(0) % WORDS.len()]
    };
    let mut text = String::with_capacity(bytes + 128);
    let mut line = 0;
    let mut magic = false;
    while text.len() < bytes {
        if !magic && text.len() >= bytes / 2 {
            text.push_str("the MAGIC line\n");
            magic = true;
        }
        for _ in 0..8 {
            text.push_str(word());
            text.push(' ');
        }
        text.push_str(&line.to_string());
        text.push('\n');
        line += 1;
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_have_their_size_and_what_their_test_needs() {
        let c = c_functions(10_000);
        assert!((10_000..10_100).contains(&c.len()), "{}", c.len());
        assert_eq!(c.matches("MAGIC").count(), 1);
        assert!(c.lines().all(|l| l.starts_with("int ") && l.ends_with('}')));
        let text = text_lines(10_000);
        assert!((10_000..10_200).contains(&text.len()), "{}", text.len());
        assert_eq!(text.matches("MAGIC").count(), 1);
        let deep = nested("{\"a\":", "}", 3);
        assert_eq!(deep, "{\"a\":{\"a\":{\"a\":42}}}\n");
        assert!(json_test("[").contains(&"[".repeat(JSON_LEVELS)));
        let records = json_records(10_000);
        assert!(
            (10_000..10_300).contains(&records.len()),
            "{}",
            records.len()
        );
        assert_eq!(records.matches("MAGIC").count(), 1);
        let mut parser = tree_sitter::Parser::new();
        parser
            .set_language(&hdd_grammar::Lang::Json.ts_language())
            .unwrap();
        let tree = parser.parse(&records, None).unwrap();
        assert!(!tree.root_node().has_error(), "the records are valid JSON");
    }

    #[test]
    fn every_input_has_a_name_of_its_own() {
        let inputs = all();
        let mut names: Vec<&str> = inputs.iter().map(|i| i.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), inputs.len());
    }
}
