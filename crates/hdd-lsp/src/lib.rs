//! `hdd lsp`: a language server that minimizes a selection in the editor.
//!
//! For a non-empty selection the server offers the code action "hdd: minimize
//! selection" (kind `refactor.rewrite`, command `hdd.minimizeSelection`), and "hdd:
//! minimize file" (`hdd.minimizeFile`) for any range. Running one reduces the buffer's
//! text as it is in the editor (saved or not), confined to the selection (the test sees
//! the whole file, the rest stays byte for byte), on a worker thread: `$/progress`
//! reports the sizes and test counts, `window/workDoneProgress/cancel` (or
//! `$/cancelRequest`, or the command `hdd.cancel`) kills the running tests and applies
//! the best result so far, and the result comes as one versioned `workspace/applyEdit`
//! (one undo step; an edited buffer is left as it is, and the server says so). The test
//! comes from `.hdd.toml` at the workspace root, which runs nothing until the user has
//! trusted it, or from the client's `initializationOptions` ([`config`]).
//!
//! Synchronous, on lsp-server's channels (as rust-analyzer): no async runtime.
//!
//! ```no_run
//! hdd_lsp::serve_stdio().unwrap();
//! ```

pub mod config;
pub mod job;
mod server;
pub mod text;
pub mod trust;

#[cfg(test)]
mod tests;

use lsp_server::Connection;
use serde_json::json;

pub use server::{CANCEL, MINIMIZE_FILE, MINIMIZE_SELECTION};

/// Errors of the protocol or of the connection.
pub type Error = Box<dyn std::error::Error + Send + Sync>;

/// Serves over stdin and stdout until the client shuts the server down.
///
/// # Errors
/// When the client breaks the protocol or the connection fails.
pub fn serve_stdio() -> Result<(), Error> {
    let (connection, io) = Connection::stdio();
    serve(&connection, trust::TrustStore::from_env())?;
    drop(connection);
    io.join()?;
    Ok(())
}

/// Serves over `connection`: the `initialize` handshake, then requests until `shutdown`.
/// `trust` remembers which workspace configurations the user allowed (`None`: ask every
/// time).
///
/// # Errors
/// When the client breaks the protocol.
pub fn serve(connection: &Connection, trust: Option<trust::TrustStore>) -> Result<(), Error> {
    let capabilities = json!({
        "textDocumentSync": {"openClose": true, "change": 1},
        "codeActionProvider": {"codeActionKinds": ["refactor.rewrite"]},
        "executeCommandProvider": {
            "commands": [MINIMIZE_SELECTION, MINIMIZE_FILE, CANCEL],
        },
    });
    let (id, params) = connection.initialize_start()?;
    connection.initialize_finish(
        id,
        json!({
            "capabilities": capabilities,
            "serverInfo": {"name": "hdd", "version": env!("CARGO_PKG_VERSION")},
        }),
    )?;
    let root = server::workspace_root(&params);
    let progress = params["capabilities"]["window"]["workDoneProgress"] == json!(true);
    let init = params.get("initializationOptions").cloned();
    server::Server::new(connection, root, init, progress, trust).main_loop()?;
    Ok(())
}
