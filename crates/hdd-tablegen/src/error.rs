//! Why a table could not be generated: [`GenerateError`].

/// Why a table could not be generated.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GenerateError {
    /// `grammar.json` is not JSON.
    #[error("grammar.json is not valid JSON: {0}")]
    GrammarJson(#[source] serde_json::Error),
    /// `node-types.json` is not JSON.
    #[error("node-types.json is not valid JSON: {0}")]
    NodeTypesJson(#[source] serde_json::Error),
    /// A JSON value does not have the expected shape.
    #[error("malformed {what}: {detail}")]
    Malformed {
        /// Which part of the input.
        what: &'static str,
        /// What is wrong with it.
        detail: String,
    },
    /// A grammar node has a `type` the generator does not know.
    #[error("rule `{rule}`: unknown grammar node type `{kind}`")]
    UnknownNodeType {
        /// The rule containing the node.
        rule: String,
        /// The unknown `type`.
        kind: String,
    },
    /// An external token has no entry in the hand table of external yields.
    #[error(
        "external token `{0}` has no entry in the externals table (add its shortest text to the language's external yields)"
    )]
    UnknownExternal(String),
    /// A fixed yield names no rule and no named alias of the grammar.
    #[error("fixed yield for `{0}`, which is neither a rule nor a named alias of the grammar")]
    UnknownOverride(String),
    /// A SYMBOL names neither a rule nor an external token.
    #[error("rule `{rule}` refers to undefined symbol `{symbol}`")]
    UndefinedSymbol {
        /// The referring rule.
        rule: String,
        /// The undefined name.
        symbol: String,
    },
    /// A SYMBOL occurs inside a lexical (TOKEN) context.
    #[error("rule `{rule}`: symbol `{symbol}` inside a token")]
    SymbolInToken {
        /// The rule containing the token.
        rule: String,
        /// The symbol.
        symbol: String,
    },
    /// A PATTERN could not be parsed or matches nothing.
    #[error("rule `{rule}`: pattern /{pattern}/: {reason}")]
    Pattern {
        /// The rule containing the pattern (or token).
        rule: String,
        /// The pattern source (or a description of the token).
        pattern: String,
        /// What went wrong.
        reason: String,
    },
    /// The fixed point left rules without any finite derivation.
    #[error("rules derive no finite string: {}", .0.join(", "))]
    Underivable(Vec<String>),
}

/// A [`GenerateError::Malformed`].
pub(crate) fn malformed(what: &'static str, detail: impl Into<String>) -> GenerateError {
    GenerateError::Malformed {
        what,
        detail: detail.into(),
    }
}
