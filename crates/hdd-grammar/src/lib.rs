//! Languages, tree-sitter parsers and grammar tables for hdd: what the
//! reducer knows about each node kind (minimal yields, list separators,
//! supertypes, optional and repeated child slots).
#![deny(missing_docs)]

pub mod derive;
mod lang;
pub mod table;
pub mod tables;

pub use lang::Lang;
pub use table::{KindInfo, SlotInfo, Table};
pub use tables::{
    GRAMMAR_SOURCES, GrammarSource, c_table, javascript_table, json_table, rust_table, sql_table,
};
