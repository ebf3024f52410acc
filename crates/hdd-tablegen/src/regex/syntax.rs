//! The syntax tree of a regular expression ([`Re`]) and its character classes.

/// A parsed regular expression (or a lexical grammar subtree turned into one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Re {
    /// The empty string (also anchors, word boundaries and lookarounds).
    Empty,
    /// One literal character.
    Char(char),
    /// A character class.
    Class(Class),
    /// Concatenation.
    Concat(Vec<Re>),
    /// Alternation.
    Alt(Vec<Re>),
    /// Repetition `{min,max}`; `max == None` is unbounded.
    Repeat {
        inner: Box<Re>,
        min: u32,
        max: Option<u32>,
    },
}

impl Re {
    /// A literal string.
    pub(crate) fn literal(s: &str) -> Re {
        Re::Concat(s.chars().map(Re::Char).collect())
    }
}

/// A set of characters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Class {
    negated: bool,
    case_insensitive: bool,
    items: Vec<Item>,
}

/// One member of a class: a range or a named set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Item {
    Range(char, char),
    /// A named set (`\d`, `\p{L}`, ...); `true` when negated (`\D`, `\P{L}`).
    Set(Set, bool),
}

/// A named set of characters (`\d`, `\w`, `\s`, a Unicode property).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Set {
    Digit,
    Word,
    Space,
    Letter,
    Upper,
    Lower,
    IdContinue,
    Number,
    Separator,
    Punct,
    Symbol,
    Control,
    Any,
}

impl Set {
    fn contains(self, c: char) -> bool {
        match self {
            Set::Digit => c.is_ascii_digit(),
            Set::Word => c.is_ascii_alphanumeric() || c == '_',
            Set::Space => c.is_whitespace(),
            Set::Letter => c.is_alphabetic(),
            Set::Upper => c.is_uppercase(),
            Set::Lower => c.is_lowercase(),
            Set::IdContinue => c.is_alphanumeric() || c == '_',
            Set::Number => c.is_numeric(),
            Set::Separator => c.is_whitespace() && !c.is_control(),
            Set::Punct => c.is_ascii_punctuation() && !"$+<=>^`|~".contains(c),
            Set::Symbol => "$+<=>^`|~".contains(c),
            Set::Control => c.is_control(),
            Set::Any => true,
        }
    }

    /// The set named by a `\p{...}` property (general category, script-free
    /// binary property, or the identifier properties tree-sitter grammars use).
    pub(super) fn from_property(name: &str) -> Option<Set> {
        let name = name.strip_prefix("General_Category=").unwrap_or(name);
        let name = name.strip_prefix("gc=").unwrap_or(name);
        Some(match name {
            "L" | "Letter" | "Lo" | "Other_Letter" | "Lm" | "Modifier_Letter" | "Lt"
            | "Titlecase_Letter" | "Alpha" | "Alphabetic" | "XID_Start" | "ID_Start" | "XIDS"
            | "IDS" => Set::Letter,
            "Lu" | "Uppercase_Letter" | "Upper" | "Uppercase" => Set::Upper,
            "Ll" | "Lowercase_Letter" | "Lower" | "Lowercase" => Set::Lower,
            "XID_Continue" | "ID_Continue" | "XIDC" | "IDC" => Set::IdContinue,
            "N" | "Number" | "Nd" | "Decimal_Number" | "digit" | "Nl" | "Letter_Number" | "No"
            | "Other_Number" => Set::Number,
            "Z"
            | "Separator"
            | "Zs"
            | "Space_Separator"
            | "Zl"
            | "Line_Separator"
            | "Zp"
            | "Paragraph_Separator" => Set::Separator,
            "White_Space" | "WSpace" | "space" | "Whitespace" => Set::Space,
            "P"
            | "Punctuation"
            | "Pc"
            | "Connector_Punctuation"
            | "Pd"
            | "Dash_Punctuation"
            | "Ps"
            | "Open_Punctuation"
            | "Pe"
            | "Close_Punctuation"
            | "Pi"
            | "Initial_Punctuation"
            | "Pf"
            | "Final_Punctuation"
            | "Po"
            | "Other_Punctuation" => Set::Punct,
            "S" | "Symbol" | "Sm" | "Math_Symbol" | "Sc" | "Currency_Symbol" | "Sk"
            | "Modifier_Symbol" | "So" | "Other_Symbol" => Set::Symbol,
            "C" | "Other" | "Cc" | "Control" | "Cf" | "Format" => Set::Control,
            "Any" | "Assigned" => Set::Any,
            _ => return None,
        })
    }
}

impl Class {
    pub(super) fn of(items: Vec<Item>, negated: bool, case_insensitive: bool) -> Class {
        Class {
            negated,
            case_insensitive,
            items,
        }
    }

    fn raw_contains(&self, c: char) -> bool {
        self.items.iter().any(|item| match *item {
            Item::Range(lo, hi) => lo <= c && c <= hi,
            Item::Set(set, negated) => set.contains(c) != negated,
        })
    }

    /// Whether the class contains `c`.
    pub(super) fn contains(&self, c: char) -> bool {
        let mut hit = self.raw_contains(c);
        if !hit && self.case_insensitive {
            hit = c.to_lowercase().any(|l| self.raw_contains(l))
                || c.to_uppercase().any(|u| self.raw_contains(u));
        }
        hit != self.negated
    }
}
