//! The `hdd` command line: argument parsing, the `reduce` and `langs` commands, the
//! summary, and the mapping of errors to exit codes. The only crate that prints.

/// `eprintln!` that cannot panic: when stderr is gone (the terminal closed, a closed
/// pipe), hdd goes on and ends as it would have.
macro_rules! eprintln_safe {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// `println!` that cannot panic (`hdd langs | head -1` closes the pipe early).
macro_rules! println_safe {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

mod args;
mod bisect;
mod checks;
mod entropy;
mod exit;
mod files;
mod range;
mod reduce;
mod report;
mod setup;
mod summary;

use std::ffi::OsString;
use std::panic::AssertUnwindSafe;
use std::process::ExitCode;
use std::sync::{Arc, Mutex, PoisonError};

use clap::{CommandFactory as _, Parser as _};

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
    let json = match &cli.command {
        args::Command::Reduce(args) => args.json,
        args::Command::Bisect(args) => args.json,
        args::Command::Entropy(args) => args.json,
        _ => false,
    };
    match guarded(|| run(cli)) {
        Ok(code) => code,
        Err(panic) => {
            report_internal_error(&panic, json);
            ExitCode::from(exit::INTERNAL)
        }
    }
}

fn run(cli: args::Cli) -> ExitCode {
    let result = match cli.command {
        args::Command::Reduce(args) => reduce::run(&args).map(|()| exit::OK),
        args::Command::Bisect(args) => bisect::run(&args).map(|()| exit::OK),
        args::Command::Entropy(args) => entropy::run(&args),
        args::Command::Langs => {
            langs();
            Ok(exit::OK)
        }
        args::Command::Lsp => hdd_lsp::serve_stdio()
            .map(|()| exit::OK)
            .map_err(|e| Failure {
                error: anyhow::anyhow!("hdd lsp: {e}"),
                code: exit::FAILED,
            }),
        args::Command::Completions { shell } => {
            let mut cmd = args::Cli::command();
            clap_complete::generate(shell, &mut cmd, "hdd", &mut std::io::stdout());
            Ok(exit::OK)
        }
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(failure) => {
            {
                eprintln_safe!("hdd: error: {:#}", failure.error);
            }
            ExitCode::from(failure.code)
        }
    }
}

/// Runs `body`; a panic of this thread in it comes back as one line (its message and
/// where it happened) instead of the default report. Panics of other threads are
/// reported as before.
fn guarded<T>(body: impl FnOnce() -> T) -> Result<T, String> {
    type Hook = Box<dyn Fn(&std::panic::PanicHookInfo<'_>) + Sync + Send + 'static>;
    let caught: Arc<Mutex<Option<String>>> = Arc::default();
    let previous: Arc<Hook> = Arc::new(std::panic::take_hook());
    let me = std::thread::current().id();
    {
        let caught = Arc::clone(&caught);
        let previous = Arc::clone(&previous);
        std::panic::set_hook(Box::new(move |info| {
            if std::thread::current().id() != me {
                return previous(info);
            }
            let message = info
                .payload()
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| info.payload().downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".to_owned());
            let at = info
                .location()
                .map(|l| format!(" at {}:{}", l.file(), l.line()))
                .unwrap_or_default();
            *caught.lock().unwrap_or_else(PoisonError::into_inner) = Some(message + &at);
        }));
    }
    let result = std::panic::catch_unwind(AssertUnwindSafe(body));
    let _ = std::panic::take_hook();
    if let Ok(previous) = Arc::try_unwrap(previous) {
        std::panic::set_hook(previous);
    }
    result.map_err(|_| {
        caught
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
            .unwrap_or_else(|| "a panic".to_owned())
    })
}

/// One line on stderr (and the `error` event with `--json`) for a bug of hdd's.
fn report_internal_error(panic: &str, json: bool) {
    let message = format!(
        "internal error (a bug in hdd; please report it): {panic}; every file hdd wrote is \
         whole, the best result so far is on disk"
    );
    if json {
        let event = serde_json::json!({
            "event": "error",
            "message": message,
            "exit_code": exit::INTERNAL,
        });
        {
            println_safe!("{event}");
        }
    }
    {
        eprintln_safe!("hdd: error: {message}");
    }
}

/// Writes the man pages of `hdd` and of each of its commands (`hdd.1`,
/// `hdd-reduce.1`, …) into `dir`, made if missing; returns their paths.
///
/// # Errors
/// When `dir` or a page cannot be written.
pub fn man_pages(dir: &std::path::Path) -> std::io::Result<Vec<std::path::PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let cmd = args::Cli::command();
    let mut pages = Vec::new();
    let mut write = |name: String, cmd: clap::Command| -> std::io::Result<()> {
        let path = dir.join(format!("{name}.1"));
        let mut out = Vec::new();
        // clap names are &'static; a few bytes per page, once.
        let title: &'static str = name.clone().leak();
        clap_mangen::Man::new(cmd.name(title)).render(&mut out)?;
        std::fs::write(&path, out)?;
        pages.push(path);
        Ok(())
    };
    for sub in cmd.get_subcommands() {
        write(format!("hdd-{}", sub.get_name()), sub.clone())?;
    }
    write("hdd".into(), cmd)?;
    Ok(pages)
}

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
        setup::TEXT.into(),
        "(any other)".into(),
        "none: lines, then words, then bytes".into(),
    ]);
    rows.push([
        setup::BYTES.into(),
        "(by --lang only)".into(),
        "none: choice sequences and binary inputs (blocks, integers, order)".into(),
    ]);
    let width = |c: usize| rows.iter().map(|r| r[c].len()).max().unwrap_or(0);
    let (w0, w1) = (width(0), width(1));
    for [name, exts, grammar] in &rows {
        println_safe!("{name:<w0$}  {exts:<w1$}  {grammar}");
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_panic_becomes_one_line_and_the_hook_comes_back() {
        let caught = super::guarded(|| -> u8 { panic!("boom {}", 42) });
        let line = caught.unwrap_err();
        assert!(line.starts_with("boom 42 at "), "{line}");
        assert!(line.contains("lib.rs:"), "{line}");
        assert_eq!(super::guarded(|| 7), Ok(7));
        // The default hook is back: a panic elsewhere is reported as usual.
        let other = std::thread::spawn(|| super::guarded(|| panic!("inner")));
        assert!(other.join().unwrap().is_err());
    }

    #[test]
    fn man_pages_cover_every_command_and_option() {
        let dir = tempfile::tempdir().unwrap();
        let pages = super::man_pages(dir.path()).unwrap();
        let names: Vec<String> = pages
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        for name in ["hdd.1", "hdd-reduce.1", "hdd-langs.1", "hdd-completions.1"] {
            assert!(names.iter().any(|n| n == name), "{names:?}");
        }
        let reduce = std::fs::read_to_string(dir.path().join("hdd-reduce.1")).unwrap();
        assert!(
            reduce.starts_with(".ie") || reduce.contains(".TH"),
            "{reduce}"
        );
        for option in ["same\\-crash", "allow\\-empty", "deterministic", "json"] {
            assert!(
                reduce.contains(option),
                "{option} missing from hdd-reduce.1"
            );
        }
    }
}
