//! The generator's output: a language's table as owned values ([`Generated`]).

/// An owned `hdd_grammar::KindInfo`, as the generator produces it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnedKindInfo {
    /// Rule name or visible alias name.
    pub name: String,
    /// The shortest text the rule derives (tokens joined by one space,
    /// IMMEDIATE tokens glued to their predecessor).
    pub min_yield: String,
    /// Number of tokens in `min_yield`.
    pub min_tokens: u32,
    /// Whether the rule can derive the empty string.
    pub derives_empty: bool,
    /// Transitive supertypes from `node-types.json`, sorted.
    pub supertypes: Vec<String>,
    /// The separator of the separated list the rule holds, if any.
    pub list_separator: Option<String>,
}

/// An owned `hdd_grammar::SlotInfo`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnedSlotInfo {
    /// The visible parent kind.
    pub kind: String,
    /// The field name, `None` for the named children outside any field.
    pub field: Option<String>,
    /// Whether at least one child must fill the slot.
    pub required: bool,
    /// Whether the slot holds a list of children.
    pub multiple: bool,
    /// The named kinds (visible kinds and supertypes) a child in the slot may have,
    /// sorted.
    pub types: Vec<String>,
}

/// An owned `hdd_grammar::SpellingInfo`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnedSpellingInfo {
    /// The kind whose rule is a token of words only.
    pub kind: String,
    /// Its spellings, shortest first, then in byte order.
    pub spellings: Vec<String>,
}

/// The generated table of one language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generated {
    /// One entry per rule, external token and visible alias name, sorted by name.
    pub kinds: Vec<OwnedKindInfo>,
    /// One entry per child slot, sorted by `(kind, field)` with `None` first.
    pub slots: Vec<OwnedSlotInfo>,
    /// The kinds whose rule is a token of words only, sorted by kind.
    pub spellings: Vec<OwnedSpellingInfo>,
    /// How many rounds over all rules the minimal-yield fixed point took
    /// (the last round changes nothing).
    pub rounds: usize,
}
