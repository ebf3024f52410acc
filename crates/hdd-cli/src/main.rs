//! The `hdd` binary: parses arguments, runs the command, maps the outcome to an exit code.

fn main() -> std::process::ExitCode {
    hdd_cli::main(std::env::args_os())
}
