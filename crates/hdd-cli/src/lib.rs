//! The `hdd` command line: argument parsing, the `reduce` and `langs` commands, the
//! summary, and the mapping of errors to exit codes. The only crate that prints.

mod args;
mod exit;
mod reduce;
mod report;

use std::ffi::OsString;
use std::process::ExitCode;

use clap::Parser as _;

pub use crate::exit::Failure;

/// Runs `hdd` with these arguments (the first is the program name).
#[must_use]
pub fn main(args: impl IntoIterator<Item = OsString>) -> ExitCode {
    let cli = match args::Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(err) => {
            let _ = err.print();
            return ExitCode::from(if err.use_stderr() {
                exit::USAGE
            } else {
                exit::OK
            });
        }
    };
    let result = match cli.command {
        args::Command::Reduce(args) => reduce::run(&args),
        args::Command::Langs => {
            langs();
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::from(exit::OK),
        Err(failure) => {
            #[expect(clippy::print_stderr, reason = "the CLI reports errors on stderr")]
            {
                eprintln!("hdd: error: {:#}", failure.error);
            }
            ExitCode::from(failure.code)
        }
    }
}

#[expect(
    clippy::print_stdout,
    reason = "listing languages is the command's output"
)]
fn langs() {
    let mut rows: Vec<[String; 3]> =
        vec![["language".into(), "extensions".into(), "grammar".into()]];
    for &lang in hdd::Lang::ALL {
        let exts: Vec<String> = lang.extensions().iter().map(|e| format!(".{e}")).collect();
        rows.push([
            lang.name().into(),
            exts.join(" "),
            lang.grammar_version().into(),
        ]);
    }
    rows.push([
        reduce::TEXT.into(),
        "(any other)".into(),
        "none: lines, then words, then bytes".into(),
    ]);
    let width = |c: usize| rows.iter().map(|r| r[c].len()).max().unwrap_or(0);
    let (w0, w1) = (width(0), width(1));
    for [name, exts, grammar] in &rows {
        println!("{name:<w0$}  {exts:<w1$}  {grammar}");
    }
}
