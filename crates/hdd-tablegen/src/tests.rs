//! Unit tests of the table generator on small hand-written grammars.

use serde_json::{Value, json};

use crate::{
    GenerateError, Generated, OwnedKindInfo, generate, generate_with_externals, generate_with_fixed,
};

/// A grammar node of type `kind` with further fields.
fn node(kind: &str, fields: Vec<(&str, Value)>) -> Value {
    let mut map = serde_json::Map::new();
    map.insert("type".to_owned(), Value::from(kind));
    for (key, value) in fields {
        map.insert(key.to_owned(), value);
    }
    Value::Object(map)
}
fn s(value: &str) -> Value {
    node("STRING", vec![("value", value.into())])
}
fn p(value: &str) -> Value {
    node("PATTERN", vec![("value", value.into())])
}
fn sym(name: &str) -> Value {
    node("SYMBOL", vec![("name", name.into())])
}
fn seq(members: &[Value]) -> Value {
    node("SEQ", vec![("members", members.into())])
}
fn choice(members: &[Value]) -> Value {
    node("CHOICE", vec![("members", members.into())])
}
fn repeat(content: Value) -> Value {
    node("REPEAT", vec![("content", content)])
}
fn repeat1(content: Value) -> Value {
    node("REPEAT1", vec![("content", content)])
}
fn blank() -> Value {
    node("BLANK", vec![])
}
fn field(name: &str, content: Value) -> Value {
    node("FIELD", vec![("name", name.into()), ("content", content)])
}
fn prec(content: Value) -> Value {
    node("PREC_LEFT", vec![("value", 1.into()), ("content", content)])
}
fn alias(content: Value, value: &str, named: bool) -> Value {
    node(
        "ALIAS",
        vec![
            ("content", content),
            ("value", value.into()),
            ("named", named.into()),
        ],
    )
}
fn token(content: Value) -> Value {
    node("TOKEN", vec![("content", content)])
}
fn immediate(content: Value) -> Value {
    node("IMMEDIATE_TOKEN", vec![("content", content)])
}
/// `commaSep1(x)`.
fn comma_sep1(x: &Value) -> Value {
    seq(&[x.clone(), repeat(seq(&[s(","), x.clone()]))])
}

/// A grammar.json text from `(name, body)` rules plus extra top-level keys.
fn grammar(rules: &[(&str, Value)], extra: &Value) -> String {
    let mut map = serde_json::Map::new();
    for (name, body) in rules {
        map.insert((*name).to_owned(), body.clone());
    }
    let mut g = json!({"name": "toy", "rules": map, "extras": [], "externals": []});
    if let (Some(g), Some(extra)) = (g.as_object_mut(), extra.as_object()) {
        for (k, v) in extra {
            g.insert(k.clone(), v.clone());
        }
    }
    g.to_string()
}

fn generate_toy(rules: &[(&str, Value)]) -> Generated {
    generate(&grammar(rules, &json!({})), "[]").unwrap()
}

fn kind<'g>(generated: &'g Generated, name: &str) -> &'g OwnedKindInfo {
    generated
        .kinds
        .iter()
        .find(|k| k.name == name)
        .unwrap_or_else(|| panic!("no entry for {name}"))
}

fn min_yield<'g>(generated: &'g Generated, name: &str) -> &'g str {
    &kind(generated, name).min_yield
}

#[test]
fn seq_choice_repeat() {
    let d = generate_toy(&[
        ("program", repeat(sym("statement"))),
        (
            "statement",
            choice(&[sym("block"), seq(&[sym("expression"), s(";")])]),
        ),
        ("block", seq(&[s("{"), repeat(sym("statement")), s("}")])),
        (
            "expression",
            choice(&[sym("call"), sym("number"), sym("identifier")]),
        ),
        (
            "call",
            seq(&[
                sym("expression"),
                s("("),
                choice(&[sym("expression"), blank()]),
                s(")"),
            ]),
        ),
        ("number", p("[0-9]+")),
        ("identifier", p("[a-z]+")),
        ("plus", repeat1(seq(&[sym("identifier"), s("!")]))),
    ]);
    assert_eq!(min_yield(&d, "program"), "");
    assert!(kind(&d, "program").derives_empty);
    // `{ }` and `0 ;` tie on tokens and bytes; the exact one wins.
    assert_eq!(min_yield(&d, "statement"), "{}");
    assert_eq!(kind(&d, "statement").min_tokens, 2);
    assert!(!kind(&d, "statement").derives_empty);
    assert_eq!(min_yield(&d, "block"), "{}");
    assert_eq!(min_yield(&d, "expression"), "0");
    assert_eq!(min_yield(&d, "call"), "0()");
    assert_eq!(min_yield(&d, "plus"), "a!");
    // Sorted by name.
    let names: Vec<&str> = d.kinds.iter().map(|k| k.name.as_str()).collect();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    assert_eq!(names, sorted);
}

#[test]
fn fixpoint_across_mutually_recursive_rules() {
    // `a` is first evaluated before `b` is known, so the first round settles
    // on the long alternative; a later round finds `z z`.
    let d = generate_toy(&[
        (
            "a",
            choice(&[seq(&[s("p"), s("q"), s("r")]), seq(&[sym("b"), sym("b")])]),
        ),
        ("b", choice(&[seq(&[s("("), sym("a"), s(")")]), s("z")])),
        ("c", seq(&[s("["), sym("d"), s("]")])),
        ("d", choice(&[seq(&[sym("c"), sym("c")]), sym("a")])),
    ]);
    assert_eq!(min_yield(&d, "a"), "z z");
    assert_eq!(min_yield(&d, "b"), "z");
    assert_eq!(min_yield(&d, "c"), "[z z]");
    assert!(d.rounds >= 2, "rounds = {}", d.rounds);
}

#[test]
fn cost_is_tokens_then_bytes_then_inexact_tokens() {
    let d = generate_toy(&[
        // Fewer tokens beat fewer bytes.
        ("tokens", choice(&[seq(&[s("x"), s("y")]), s("longer")])),
        // Same token count: fewer bytes.
        ("bytes", choice(&[s("abc"), s("ab")])),
        // Same tokens and bytes: an exact STRING beats a pattern representative.
        ("exact", choice(&[p("[a-z]"), s("q")])),
    ]);
    assert_eq!(min_yield(&d, "tokens"), "longer");
    assert_eq!(min_yield(&d, "bytes"), "ab");
    assert_eq!(min_yield(&d, "exact"), "q");
}

#[test]
fn underivable_rules_are_an_error() {
    let err = generate(
        &grammar(
            &[
                ("start", choice(&[sym("loop"), s("x")])),
                ("loop", seq(&[s("("), sym("loop"), s(")")])),
            ],
            &json!({}),
        ),
        "[]",
    )
    .unwrap_err();
    assert!(matches!(&err, GenerateError::Underivable(names) if names == &["loop"]));
    assert_eq!(err.to_string(), "rules derive no finite string: loop");
}

#[test]
fn aliases() {
    let d = generate_toy(&[
        (
            "start",
            seq(&[
                alias(sym("_ident"), "name", true),
                alias(seq(&[s("long"), s("name")]), "name", true),
                alias(sym("_ident"), "anonymous", false),
                alias(sym("_ident"), "_hidden", true),
                alias(seq(&[s("("), s(")")]), "start", true),
            ]),
        ),
        ("_ident", p(r"\p{XID_Start}\p{XID_Continue}*")),
    ]);
    // The visible alias gets the min over its sites, the hidden rule its own entry.
    assert_eq!(min_yield(&d, "name"), "a");
    assert_eq!(min_yield(&d, "_ident"), "a");
    // A rule name that is also an alias name keeps the rule's own yield: a node
    // of the rule is looked up by its grammar name and may sit where the
    // shorter aliased text would not fit.
    assert_eq!(min_yield(&d, "start"), "a long name a a()");
    // Anonymous and hidden aliases get no entries.
    assert!(
        d.kinds
            .iter()
            .all(|k| k.name != "anonymous" && k.name != "_hidden")
    );
    assert_eq!(d.kinds.len(), 3);
}

#[test]
fn immediate_tokens_are_glued() {
    let d = generate_toy(&[
        (
            "call",
            seq(&[
                sym("identifier"),
                immediate(s("(")),
                s(")"),
                immediate(p(r"\r?\n")),
            ]),
        ),
        ("identifier", p("[a-z]+")),
        ("glued_first", seq(&[immediate(s("!")), s("x")])),
        ("char", seq(&[s("'"), immediate(p("[^'\\n]")), s("'")])),
    ]);
    assert_eq!(min_yield(&d, "call"), "a()\n");
    assert_eq!(kind(&d, "call").min_tokens, 4);
    assert_eq!(min_yield(&d, "glued_first"), "!x");
    assert_eq!(min_yield(&d, "char"), "'a'");
}

#[test]
fn number_before_dot_is_spaced() {
    let d = generate_toy(&[
        ("member", seq(&[sym("number"), s("."), sym("identifier")])),
        ("index", seq(&[sym("identifier"), s("."), sym("number")])),
        ("number", p("[0-9]+")),
        ("identifier", p("[a-z]+")),
    ]);
    // `0.a` would lex as the number `0.` followed by `a`.
    assert_eq!(min_yield(&d, "member"), "0 .a");
    assert_eq!(min_yield(&d, "index"), "a.0");
}

#[test]
fn token_representatives() {
    let d = generate_toy(&[
        (
            "identifier",
            p(r"(\p{XID_Start}|\$|_)(\p{XID_Continue}|\$)*"),
        ),
        (
            "number",
            token(seq(&[choice(&[p("[-+]"), blank()]), repeat1(p(r"\d"))])),
        ),
        ("hex", token(seq(&[s("0x"), repeat1(p("[0-9a-fA-F]"))]))),
        ("word", p(r"\w+")),
        ("space", p(r"\s")),
        ("not_quote", p(r#"[^"\\]+"#)),
        ("unicode", p(r"\u0041")),
        ("alternation", p(r"(abc|de)+")),
        ("counted", p(r"x[0-9]{2,4}")),
        ("keyword_ci", p("[sS][eE][lL][eE][cC][tT]")),
        (
            "keyword_flag",
            json!({"type": "PATTERN", "value": "SELECT", "flags": "i"}),
        ),
        ("literal_token", token(choice(&[s("true"), s("TRUE")]))),
    ]);
    assert_eq!(min_yield(&d, "identifier"), "a");
    assert_eq!(min_yield(&d, "number"), "0");
    assert_eq!(min_yield(&d, "hex"), "0xa");
    assert_eq!(min_yield(&d, "word"), "a");
    assert_eq!(min_yield(&d, "space"), " ");
    assert_eq!(min_yield(&d, "not_quote"), "a");
    assert_eq!(min_yield(&d, "unicode"), "A");
    assert_eq!(min_yield(&d, "alternation"), "de");
    assert_eq!(min_yield(&d, "counted"), "x00");
    assert_eq!(min_yield(&d, "keyword_ci"), "select");
    assert_eq!(min_yield(&d, "keyword_flag"), "select");
    assert_eq!(min_yield(&d, "literal_token"), "true");
}

#[test]
fn representatives_avoid_keywords() {
    let rules = [
        (
            "start",
            seq(&[s("a"), s("B"), sym("identifier"), sym("other")]),
        ),
        ("identifier", p("[a-zA-Z]+")),
        ("other", p("[a-z]")),
        ("_kw", token(choice(&[s("c"), s("+")]))),
        ("select", p("[sS][eE][lL]")),
        ("sel_kw", s("sel")),
    ];
    // With a `word` rule, `a`, `b` (case-insensitively) and `c` are keywords.
    let d = generate(&grammar(&rules, &json!({"word": "identifier"})), "[]").unwrap();
    assert_eq!(min_yield(&d, "identifier"), "d");
    assert_eq!(min_yield(&d, "other"), "d");
    // Every spelling is a keyword: keep the preferred one.
    assert_eq!(min_yield(&d, "select"), "sel");
    // Exact tokens are never changed.
    assert_eq!(min_yield(&d, "_kw"), "c");
    // Without a `word` rule there are no keywords.
    let d = generate(&grammar(&rules, &json!({})), "[]").unwrap();
    assert_eq!(min_yield(&d, "identifier"), "a");
}

#[test]
fn separators() {
    let x = sym("item");
    let d = generate_toy(&[
        ("item", p("[a-z]")),
        // commaSep1 inside brackets, optional, through a field and precedence.
        (
            "comma_list",
            seq(&[
                s("("),
                choice(&[prec(comma_sep1(&field("f", x.clone()))), blank()]),
                s(")"),
            ]),
        ),
        // Terminated list: repeat(seq(X, ";")), also as one alternative.
        (
            "terminated",
            repeat(choice(&[seq(&[x.clone(), s(";")]), sym("other")])),
        ),
        // Different items on both sides: no separator.
        (
            "mismatch",
            seq(&[x.clone(), repeat(seq(&[s(","), sym("other")]))]),
        ),
        ("other", p("[0-9]")),
        // Inside a token the shape is lexical, not a list.
        (
            "number",
            token(seq(&[
                repeat1(p("[0-9]")),
                repeat(seq(&[s("'"), repeat1(p("[0-9]"))])),
            ])),
        ),
        ("plain", seq(&[s("{"), repeat(x.clone()), s("}")])),
        ("aliased", alias(sym("comma_list"), "visible_list", true)),
    ]);
    let sep = |name| kind(&d, name).list_separator.as_deref();
    assert_eq!(sep("comma_list"), Some(","));
    assert_eq!(sep("terminated"), Some(";"));
    assert_eq!(sep("mismatch"), None);
    assert_eq!(sep("number"), None);
    assert_eq!(sep("plain"), None);
    assert_eq!(sep("item"), None);
    // An alias-only kind inherits the separator of the aliased rule.
    assert_eq!(sep("visible_list"), Some(","));
}

#[test]
fn externals() {
    let text = grammar(
        &[(
            "start",
            seq(&[sym("_open"), sym("heredoc"), sym("_newline")]),
        )],
        &json!({"externals": [sym("_open"), sym("heredoc"), sym("_newline"), s("||")]}),
    );
    let err = generate_with_externals(&text, "[]", &[("_open", "<<")]).unwrap_err();
    assert!(matches!(&err, GenerateError::UnknownExternal(n) if n == "heredoc"));
    assert!(err.to_string().contains("`heredoc`"), "{err}");

    let d = generate_with_externals(
        &text,
        "[]",
        &[("_open", "<<"), ("heredoc", "x"), ("_newline", "")],
    )
    .unwrap();
    assert_eq!(min_yield(&d, "start"), "<<x");
    assert_eq!(min_yield(&d, "heredoc"), "x");
    assert!(kind(&d, "_newline").derives_empty);
}

#[test]
fn fixed_yields_replace_a_rule_and_its_aliases() {
    // Python's shape: a suite is an indented block (zero-width indentation tokens, so it
    // derives nothing) or a newline aliased to a block; both must yield the fixed text.
    let text = grammar(
        &[
            ("def", seq(&[s("def"), s(":"), sym("_suite")])),
            (
                "_suite",
                choice(&[
                    seq(&[sym("_indent"), sym("block")]),
                    alias(sym("_newline"), "block", true),
                ]),
            ),
            ("block", seq(&[repeat(s("pass")), sym("_dedent")])),
        ],
        &json!({"externals": [sym("_indent"), sym("_dedent"), sym("_newline")]}),
    );
    let externals = [("_indent", ""), ("_dedent", ""), ("_newline", "\n")];
    let plain = generate_with_externals(&text, "[]", &externals).unwrap();
    assert_eq!(min_yield(&plain, "def"), "def:");
    let fixed = generate_with_fixed(&text, "[]", &externals, &[("block", "0")]).unwrap();
    assert_eq!(min_yield(&fixed, "block"), "0");
    assert_eq!(min_yield(&fixed, "def"), "def:0");
    let err = generate_with_fixed(&text, "[]", &externals, &[("nothing", "0")]).unwrap_err();
    assert!(matches!(&err, GenerateError::UnknownOverride(n) if n == "nothing"));
}

#[test]
fn malformed_grammars() {
    let err = generate(
        &grammar(&[("a", json!({"type": "WEIRD"}))], &json!({})),
        "[]",
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "rule `a`: unknown grammar node type `WEIRD`"
    );
    let err = generate(&grammar(&[("a", sym("b"))], &json!({})), "[]").unwrap_err();
    assert_eq!(err.to_string(), "rule `a` refers to undefined symbol `b`");
    let err = generate(&grammar(&[("a", token(sym("a")))], &json!({})), "[]").unwrap_err();
    assert_eq!(err.to_string(), "rule `a`: symbol `a` inside a token");
    let err = generate(&grammar(&[("a", p(r"\p{Klingon}"))], &json!({})), "[]").unwrap_err();
    assert!(err.to_string().contains("Klingon"), "{err}");
    assert!(matches!(
        generate("{", "[]"),
        Err(GenerateError::GrammarJson(_))
    ));
    assert!(matches!(
        generate(&grammar(&[("a", s("x"))], &json!({})), "{"),
        Err(GenerateError::NodeTypesJson(_))
    ));
}

const TOY_NODE_TYPES: &str = r#"[
  {"type": "expression", "named": true, "subtypes": [
    {"type": "primary", "named": true}, {"type": "binary", "named": true}]},
  {"type": "primary", "named": true, "subtypes": [{"type": "identifier", "named": true}]},
  {"type": "binary", "named": true, "fields": {
    "right": {"multiple": false, "required": true, "types": [{"type": "expression", "named": true}]},
    "left": {"multiple": false, "required": true, "types": [{"type": "expression", "named": true}]}
  }},
  {"type": "call", "named": true, "fields": {
    "args": {"multiple": true, "required": false, "types": [{"type": "expression", "named": true}]}
  }, "children": {"multiple": true, "required": true, "types": [{"type": "identifier", "named": true}]}},
  {"type": "identifier", "named": true},
  {"type": "+", "named": false}
]"#;

#[test]
fn supertypes_and_slots() {
    let rules = [
        ("expression", choice(&[sym("primary"), sym("binary")])),
        ("primary", sym("identifier")),
        (
            "binary",
            seq(&[sym("expression"), s("+"), sym("expression")]),
        ),
        ("call", seq(&[sym("identifier"), repeat(sym("expression"))])),
        ("identifier", p("[a-z]+")),
    ];
    let d = generate(&grammar(&rules, &json!({})), TOY_NODE_TYPES).unwrap();
    assert_eq!(kind(&d, "identifier").supertypes, ["expression", "primary"]);
    assert_eq!(kind(&d, "binary").supertypes, ["expression"]);
    assert!(kind(&d, "expression").supertypes.is_empty());
    assert!(kind(&d, "call").supertypes.is_empty());
    let slots: Vec<(&str, Option<&str>, bool, bool)> = d
        .slots
        .iter()
        .map(|s| (s.kind.as_str(), s.field.as_deref(), s.required, s.multiple))
        .collect();
    assert_eq!(
        slots,
        [
            ("binary", Some("left"), true, false),
            ("binary", Some("right"), true, false),
            ("call", None, true, true),
            ("call", Some("args"), false, true),
        ]
    );
}
