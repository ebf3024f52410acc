//! The cousins of reduction, as searches that never run a test themselves: the caller
//! hands each one a function that runs a batch of probes (all at once, on as many jobs as
//! it has) and answers them.
//!
//! - [`bisect`]: where a sequence of values (commits, pass counts, flags) turns from
//!   good to bad, in about log2(n) probes, or log(n) / log(jobs + 1) rounds of `jobs`
//!   probes at once; values that cannot be tested are skipped, as `git bisect run`
//!   skips.
//! - [`smallest_failing`]: the smallest entropy budget (a byte count) at which some seed
//!   makes a system under test fail; the bytes of a (size, seed) come from [`Stream`], a
//!   generator whose output is fixed for ever (SplitMix64), so a failure replays on any
//!   machine and version.
#![deny(missing_docs)]

mod bisect;
mod entropy;
mod stream;

pub use crate::bisect::{Answer, Bisection, bisect};
pub use crate::entropy::{Found, SizeSearch, Trial, smallest_failing};
pub use crate::stream::{Stream, stream};
