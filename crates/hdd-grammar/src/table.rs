//! The shape of a grammar table: what hdd knows about each node kind of a language.
//!
//! Tables are generated from a grammar's `grammar.json` and `node-types.json` by
//! the `hdd-tablegen` crate and checked in as Rust source under
//! `grammars/<lang>/tables.rs` (`cargo xtask grammars` writes them; a test fails
//! when they are stale).

/// What hdd knows about one grammar rule, keyed by the rule's name as
/// `tree_sitter::Node::grammar_name()` reports it (the name before any ALIAS),
/// plus one entry per visible alias name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KindInfo {
    /// Rule name (or visible alias name).
    pub name: &'static str,
    /// The shortest text the rule derives: its tokens joined by one space,
    /// IMMEDIATE tokens glued to the previous one. PATTERN terminals are
    /// rendered by a representative (`a` for identifiers, `0` for numbers).
    pub min_yield: &'static str,
    /// Number of tokens in `min_yield`.
    pub min_tokens: u32,
    /// Whether the rule can derive the empty string.
    pub derives_empty: bool,
    /// The supertypes this kind is a subtype of, transitively (e.g. C
    /// `if_statement` -> `statement`): a node may be replaced by a descendant
    /// of the same kind or of a kind sharing one of these supertypes.
    pub supertypes: &'static [&'static str],
    /// For a rule holding a separated list (`seq(x, repeat(seq(SEP, x)))` and
    /// similar shapes), the separator token (`,` in C `parameter_list`).
    pub list_separator: Option<&'static str>,
}

/// One child slot of a visible node kind, from `node-types.json`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SlotInfo {
    /// The visible parent kind (`Node::kind()`).
    pub kind: &'static str,
    /// The field name, or `None` for the named children outside any field.
    pub field: Option<&'static str>,
    /// Whether at least one child must fill the slot.
    pub required: bool,
    /// Whether the slot holds a list of children.
    pub multiple: bool,
    /// The named kinds a child in the slot may have: visible kinds and supertypes (a
    /// child fits when its kind or one of its supertypes is listed), sorted.
    pub types: &'static [&'static str],
}

/// The spellings of a token kind that is a choice of words (C's `primitive_type`:
/// `int`, `bool`, `char`, `void`, …), from the grammar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpellingInfo {
    /// The kind.
    pub kind: &'static str,
    /// Every spelling, shortest first (then in byte order).
    pub spellings: &'static [&'static str],
}

/// A language's complete table, sorted by name so lookups are binary searches.
#[derive(Debug, Clone, Copy)]
pub struct Table {
    /// Every rule and visible alias, sorted by `name`.
    pub kinds: &'static [KindInfo],
    /// Every child slot, sorted by `(kind, field)` with `None` first.
    pub slots: &'static [SlotInfo],
    /// The kinds whose rule is a token of words only, sorted by `kind`.
    pub spellings: &'static [SpellingInfo],
}

impl Table {
    /// The spellings of token kind `kind`, when its rule is a choice of words (empty
    /// otherwise).
    #[must_use]
    pub fn spellings(&self, kind: &str) -> &'static [&'static str] {
        let all = self.spellings;
        all.binary_search_by(|s| s.kind.cmp(kind))
            .map_or(&[], |i| all[i].spellings)
    }

    /// The entry for a rule or visible kind name.
    #[must_use]
    pub fn kind(&self, name: &str) -> Option<&'static KindInfo> {
        let kinds = self.kinds;
        kinds
            .binary_search_by(|k| k.name.cmp(name))
            .ok()
            .map(|i| &kinds[i])
    }

    /// Whether a node of visible kind `kind` may fill `slot` (its kind, or one of its
    /// supertypes, is among the slot's types).
    #[must_use]
    pub fn fits(&self, slot: &SlotInfo, kind: &str) -> bool {
        slot.types.binary_search(&kind).is_ok()
            || self.kind(kind).is_some_and(|k| {
                k.supertypes
                    .iter()
                    .any(|s| slot.types.binary_search(s).is_ok())
            })
    }

    /// The slot of a visible parent kind for a field (`None` = unnamed children).
    #[must_use]
    pub fn slot(&self, kind: &str, field: Option<&str>) -> Option<&'static SlotInfo> {
        let slots = self.slots;
        slots
            .binary_search_by(|s| (s.kind, s.field).cmp(&(kind, field)))
            .ok()
            .map(|i| &slots[i])
    }
}
