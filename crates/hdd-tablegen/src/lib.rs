//! Generation of hdd's grammar tables from a tree-sitter grammar's `grammar.json`
//! and `node-types.json`: minimal yields (a least fixed point over the rules),
//! list separators, supertypes and child slots; and rendering of the result as
//! the Rust source of `grammars/<lang>/tables.rs`, which `hdd-grammar` includes.
//!
//! Everything here is pure (no I/O): text in, a [`Generated`] table or Rust source
//! out. `cargo xtask grammars` reads the inputs and writes the files, and
//! `hdd-grammar`'s freshness test checks that the checked-in files match.
//!
//! ```
//! let grammar = r#"{"name": "toy", "rules": {
//!     "block": {"type": "SEQ", "members": [
//!         {"type": "STRING", "value": "{"},
//!         {"type": "REPEAT", "content": {"type": "SYMBOL", "name": "block"}},
//!         {"type": "STRING", "value": "}"}]}}}"#;
//! let table = hdd_tablegen::generate(grammar, "[]").unwrap();
//! assert_eq!(table.kinds[0].name, "block");
//! assert_eq!(table.kinds[0].min_yield, "{}");
//! let source = hdd_tablegen::render(&table, "// Generated.\n");
//! assert!(source.contains("min_yield: \"{}\","));
//! ```
#![deny(missing_docs)]

pub use crate::error::GenerateError;
pub use crate::generated::{Generated, OwnedKindInfo, OwnedSlotInfo, OwnedSpellingInfo};
pub use crate::render::render;

mod error;
mod generated;
mod grammar;
mod json;
mod kinds;
mod node_types;
mod regex;
mod render;
mod rule;
mod separators;
mod spellings;
mod yields;

use serde_json::Value;

use crate::grammar::Grammar;
use crate::node_types::NodeTypes;

/// Generates the table of a grammar without external tokens.
///
/// # Errors
/// See [`generate_with_externals`].
pub fn generate(grammar_json: &str, node_types_json: &str) -> Result<Generated, GenerateError> {
    generate_with_externals(grammar_json, node_types_json, &[])
}

/// Generates the table of a grammar. `externals` maps each external token
/// (produced by a hand-written scanner, so invisible to `grammar.json`) to
/// its shortest text: `""` for a token that may be empty, otherwise one token.
///
/// # Errors
/// Malformed JSON, unknown grammar node types, undefined symbols, external
/// tokens missing from `externals`, unsupported patterns, and rules that
/// derive no finite string.
pub fn generate_with_externals(
    grammar_json: &str,
    node_types_json: &str,
    externals: &[(&str, &str)],
) -> Result<Generated, GenerateError> {
    generate_with_fixed(grammar_json, node_types_json, externals, &[])
}

/// [`generate_with_externals`], where `fixed` gives some kinds a yield of their own,
/// in place of the one their rule derives, wherever a node of that kind is made (by its
/// rule or by a named alias): a kind whose shortest derivation the parser accepts but
/// the language does not (Python's `block`, empty when the indentation tokens are
/// zero-width, gets `0`). One token each, as external yields.
///
/// # Errors
/// Those of [`generate_with_externals`], and a fixed kind that is neither a rule nor a
/// named alias.
pub fn generate_with_fixed(
    grammar_json: &str,
    node_types_json: &str,
    externals: &[(&str, &str)],
    fixed: &[(&str, &str)],
) -> Result<Generated, GenerateError> {
    let grammar: Value = serde_json::from_str(grammar_json).map_err(GenerateError::GrammarJson)?;
    let node_types: Value =
        serde_json::from_str(node_types_json).map_err(GenerateError::NodeTypesJson)?;
    let raw = grammar;
    let mut grammar = Grammar::load(&raw, externals)?;
    grammar.fix(fixed)?;
    let (best, rounds) = yields::least_fixed_point(&grammar)?;
    let node_types = NodeTypes::load(&node_types)?;
    let kinds = kinds::kinds(&grammar, &best, &node_types.supertypes);
    Ok(Generated {
        kinds,
        slots: node_types.slots,
        spellings: spellings::spellings(&raw),
        rounds,
    })
}

#[cfg(test)]
mod tests;
