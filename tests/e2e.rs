//! End-to-end tests of the `hdd` binary: every corpus case, the invariants that need
//! files and processes, and the error messages.

mod cache;
mod common;
mod corpus;
mod cousins;
mod editor;
mod errors;
mod hostile;
mod invariants;
mod parallel;
mod processes;
mod safety;
mod slurm;
mod stops;
mod trust;
