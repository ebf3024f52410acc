//! Passes: each proposes candidates (edit sets) and learns which one was interesting.

mod bytes;
mod chain;
mod choices;
mod defs;
mod deps;
mod groups;
mod hdd;
mod hoist;
mod inline;
mod lines;
mod literals;
mod members;
mod names;
mod outline;
mod params;
mod perses;
mod rename;
mod returns;
mod simplify;
mod text;
mod tokens;
mod units;
mod whitespace;
mod window;

use crate::pass::Pass;

pub use self::bytes::Bytes;
pub use self::choices::{DeleteBlocks, LowerIntegers, Redistribute, Reorder, ZeroBlocks};
pub use self::defs::Defs;
pub use self::groups::Groups;
pub use self::hdd::{Hdd, HddCoarse};
pub use self::hoist::Hoist;
pub use self::inline::Inline;
pub use self::lines::Lines;
pub use self::literals::Literals;
pub use self::members::Members;
pub use self::names::Names;
pub(crate) use self::outline::Outline;
pub use self::params::Params;
pub use self::perses::Perses;
pub use self::rename::Rename;
pub use self::returns::Returns;
pub use self::simplify::Simplify;
pub use self::tokens::Tokens;
pub use self::whitespace::Whitespace;
pub use self::window::Window;

/// The passes of a run, in the order a round runs them: the tree first (HDD's coarse
/// sweeps, cheap on a big text; definitions by their dependencies; return types to
/// `void` while functions still have their returns; names; full HDD;
/// hoisting; parameters with their arguments), then lines and tokens (fine,
/// language-agnostic), then inlining and the cleanups: literals and types, members to
/// globals, and names, with a grammar, bytes without one, whitespace last.
#[must_use]
pub fn default_passes(grammar: bool) -> Vec<Box<dyn Pass>> {
    let mut passes: Vec<Box<dyn Pass>> = Vec::new();
    if grammar {
        passes.push(Box::new(HddCoarse));
        passes.push(Box::new(Defs));
        passes.push(Box::new(Returns));
        passes.push(Box::new(Names));
        passes.push(Box::new(Hdd));
        passes.push(Box::new(Hoist));
        passes.push(Box::new(Params));
    } else {
        passes.push(Box::new(Groups));
    }
    passes.push(Box::new(Lines));
    passes.push(Box::new(Tokens));
    passes.push(Box::new(Window));
    if grammar {
        passes.push(Box::new(Inline));
        passes.push(Box::new(Simplify));
        passes.push(Box::new(Literals));
        passes.push(Box::new(Members));
        passes.push(Box::new(Rename));
    } else {
        passes.push(Box::new(Bytes));
    }
    passes.push(Box::new(Whitespace));
    passes
}

/// The passes of `--lang bytes` ([`Session::set_bytes_mode`](crate::session::Session::set_bytes_mode)),
/// in the order a round runs them: lines (cheap on a big text), then the choice-sequence
/// passes of Hypothesis' shrinker (blocks deleted, zeroed, integers lowered, values
/// moved, blocks sorted), then ddmin over bytes, so the result is 1-minimal.
#[must_use]
pub fn bytes_passes() -> Vec<Box<dyn Pass>> {
    vec![
        Box::new(Lines),
        Box::new(DeleteBlocks),
        Box::new(ZeroBlocks),
        Box::new(LowerIntegers),
        Box::new(Redistribute),
        Box::new(Reorder),
        Box::new(Bytes),
    ]
}

/// The passes of the lenient tail of [`Session::reduce`](crate::session::Session::reduce):
/// tokens, on candidates that need not parse (the windows pass too cost a quarter more
/// tests on C cases for nothing more).
#[must_use]
pub fn lenient_passes() -> Vec<Box<dyn Pass>> {
    vec![Box::new(Tokens)]
}

#[cfg(test)]
mod tests;
