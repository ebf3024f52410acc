//! The hdd reduction engine, sans I/O.
//!
//! A [`Session`] holds the current best [`Document`] (text + tree-sitter tree; a text of
//! many megabytes is held without its tree until the outline phase has cut it down,
//! [`Session::set_outline_threshold`]), a verdict [`Cache`] and an [`Executor`] that runs
//! the user's test. [`Pass`]es propose
//! candidates as [`EditSet`]s against a document; the session filters them (they must be
//! smaller, parse with no new errors, and be untested) and has the executor test them.
//! Last, a lenient tail drops the parse check, if the test tolerates a syntax error
//! ([`Session::set_lenient_tail`]): this test does, so the `;` it does not need goes.
//!
//! ```
//! use hdd_core::{ClosureExecutor, Session};
//! use hdd_grammar::Lang;
//!
//! let src = b"int f(void) { return 1; }\nint keep;\n".to_vec();
//! let mut exec = ClosureExecutor::new(|t: &[u8]| t.windows(8).any(|w| w == b"int keep"));
//! let mut observer = |_: hdd_core::Event<'_>| Ok(());
//! let mut session = Session::new(Some(Lang::C), src, &mut exec, &mut observer).unwrap();
//! session.check_original().unwrap();
//! session.reduce().unwrap();
//! assert_eq!(session.current().text(), b"int keep\n");
//! ```
#![deny(missing_docs)]

mod cache;
mod ddmin;
mod document;
mod edit;
mod error;
mod event;
mod exec;
mod flight;
mod history;
mod kept;
mod merge;
mod ordered;
mod outline;
mod pass;
pub mod passes;
mod patience;
mod rounds;
mod session;
mod stats;

pub use crate::cache::{Cache, TextKey};
pub use crate::ddmin::{Configs, Ddmin, DdminOptions, Round, Schedule, ddmin};
pub use crate::document::{Document, Stop, count_errors, leaves};
pub use crate::edit::{Edit, EditSet};
pub use crate::error::Error;
pub use crate::event::{Event, Observer};
pub use crate::exec::{BoxError, ClosureExecutor, Executor, Ticket};
pub use crate::kept::Kept;
pub use crate::pass::Pass;
pub use crate::patience::Patience;
pub use crate::session::Session;
pub use crate::stats::{PassStats, Stats};
