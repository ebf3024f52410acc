//! The server's main loop: the client's messages, the answers to the server's own
//! requests (trust prompt, progress token, edit), and the end of the running reduction.
//!
//! One reduction runs at a time, on a worker thread ([`job`]); the loop stays free for
//! the client meanwhile (its edits to the buffer, a cancel). The command's answer is sent
//! once the result is applied (or refused), with the figures of the run.

use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Instant;

use crossbeam_channel::{Receiver, Sender};
use hdd::Lang;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::{CodeActionParams, Position};
use serde_json::{Value, json};

use crate::config::{Loaded, Origin, load};
use crate::job::{self, Job, Outcome, Progress};
use crate::text::{offset, position, uri_path};
use crate::trust::TrustStore;

/// The commands the server runs.
pub const MINIMIZE_SELECTION: &str = "hdd.minimizeSelection";
/// Reduces the whole buffer.
pub const MINIMIZE_FILE: &str = "hdd.minimizeFile";
/// Stops the running reduction (its best so far is applied).
pub const CANCEL: &str = "hdd.cancel";

/// The answer of the trust prompt that allows a configuration to run.
const TRUST: &str = "Trust and run";

/// An open buffer.
#[derive(Debug)]
struct Doc {
    version: i32,
    text: String,
    language_id: String,
}

/// A reduction asked for, before and while it runs.
#[derive(Debug)]
struct Start {
    /// The `workspace/executeCommand` request to answer.
    request: RequestId,
    uri: String,
    version: i32,
    /// The bytes of the selection; `None`: the whole buffer.
    selection: Option<Range<usize>>,
    /// The buffer's text when the command came.
    text: String,
    lang: Option<Lang>,
    loaded: Loaded,
    /// The progress token (the client's, or one the server created); `None`: no progress.
    token: Option<Value>,
}

/// A request of the server's, waiting for the client's answer.
#[derive(Debug)]
enum Pending {
    /// `window/showMessageRequest`: may this configuration run?
    Trust(Box<Start>),
    /// `window/workDoneProgress/create`.
    Create(Box<Start>),
    /// `workspace/applyEdit`, and the command's answer once it is applied.
    Apply { request: RequestId, result: Value },
}

#[derive(Debug)]
struct Running {
    start: Box<Start>,
    stop: Arc<AtomicBool>,
    thread: JoinHandle<()>,
    started: Instant,
}

/// The server's state.
pub(crate) struct Server<'c> {
    conn: &'c Connection,
    root: PathBuf,
    init_options: Option<Value>,
    /// The client shows `$/progress` for tokens the server creates.
    progress: bool,
    docs: HashMap<String, Doc>,
    pending: HashMap<RequestId, Pending>,
    running: Option<Running>,
    next_id: u64,
    done: (Sender<Outcome>, Receiver<Outcome>),
    trust: Option<TrustStore>,
}

impl<'c> Server<'c> {
    pub(crate) fn new(
        conn: &'c Connection,
        root: PathBuf,
        init_options: Option<Value>,
        progress: bool,
        trust: Option<TrustStore>,
    ) -> Server<'c> {
        Server {
            conn,
            root,
            init_options,
            progress,
            docs: HashMap::new(),
            pending: HashMap::new(),
            running: None,
            next_id: 0,
            done: crossbeam_channel::unbounded(),
            trust,
        }
    }

    /// Serves until the client shuts the server down or goes away.
    pub(crate) fn main_loop(&mut self) -> Result<(), lsp_server::ProtocolError> {
        let done = self.done.1.clone();
        loop {
            crossbeam_channel::select! {
                recv(self.conn.receiver) -> msg => {
                    let Ok(msg) = msg else { break };
                    match msg {
                        Message::Request(req) => {
                            if self.conn.handle_shutdown(&req)? {
                                break;
                            }
                            self.request(req);
                        }
                        Message::Notification(n) => self.notification(n),
                        Message::Response(r) => self.response(r),
                    }
                }
                recv(done) -> outcome => {
                    if let Ok(outcome) = outcome {
                        self.finished(outcome);
                    }
                }
            }
        }
        // Shut down or disconnected: a running reduction stops, its tests killed.
        if let Some(running) = self.running.take() {
            running.stop.store(true, Ordering::SeqCst);
            let _ = running.thread.join();
        }
        Ok(())
    }

    fn request(&mut self, req: Request) {
        match req.method.as_str() {
            "textDocument/codeAction" => {
                let actions = self.code_actions(&req.params);
                self.respond(Response::new_ok(req.id, actions));
            }
            "workspace/executeCommand" => self.execute(req),
            _ => self.respond(Response::new_err(
                req.id,
                ErrorCode::MethodNotFound as i32,
                format!("hdd: no method {}", req.method),
            )),
        }
    }

    fn notification(&mut self, n: Notification) {
        use lsp_types::notification::{
            Cancel, DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument,
            Notification as _, WorkDoneProgressCancel,
        };
        let method = n.method.clone();
        match method.as_str() {
            DidOpenTextDocument::METHOD => {
                let Some(p) = params::<DidOpenTextDocument>(n) else {
                    return;
                };
                let d = p.text_document;
                let doc = Doc {
                    version: d.version,
                    text: d.text,
                    language_id: d.language_id,
                };
                self.docs.insert(d.uri.as_str().to_owned(), doc);
            }
            DidChangeTextDocument::METHOD => {
                let Some(mut p) = params::<DidChangeTextDocument>(n) else {
                    return;
                };
                // Full synchronization: the last change holds the whole text.
                if let (Some(change), Some(doc)) = (
                    p.content_changes.pop(),
                    self.docs.get_mut(p.text_document.uri.as_str()),
                ) {
                    doc.text = change.text;
                    doc.version = p.text_document.version;
                }
            }
            DidCloseTextDocument::METHOD => {
                if let Some(p) = params::<DidCloseTextDocument>(n) {
                    self.docs.remove(p.text_document.uri.as_str());
                }
            }
            WorkDoneProgressCancel::METHOD => {
                if let Some(p) = params::<WorkDoneProgressCancel>(n)
                    && let Some(running) = &self.running
                    && running.start.token == serde_json::to_value(p.token).ok()
                {
                    running.stop.store(true, Ordering::SeqCst);
                }
            }
            Cancel::METHOD => {
                if let Some(p) = params::<Cancel>(n)
                    && let Some(running) = &self.running
                    && serde_json::to_value(p.id).ok() == Some(json!(running.start.request))
                {
                    running.stop.store(true, Ordering::SeqCst);
                }
            }
            _ => {}
        }
    }

    /// The actions for a range of an open buffer: minimize the selection (when it is not
    /// empty), minimize the file.
    fn code_actions(&self, params: &Value) -> Value {
        let Ok(params) = serde_json::from_value::<CodeActionParams>(params.clone()) else {
            return json!([]);
        };
        let uri = params.text_document.uri.as_str();
        let Some(doc) = self.docs.get(uri) else {
            return json!([]);
        };
        let range = params.range;
        let mut actions = Vec::new();
        if range.start != range.end {
            let arguments = json!({"uri": uri, "range": range, "version": doc.version});
            actions.push(code_action("selection", MINIMIZE_SELECTION, arguments));
        }
        let arguments = json!({"uri": uri, "version": doc.version});
        actions.push(code_action("file", MINIMIZE_FILE, arguments));
        Value::Array(actions)
    }

    fn execute(&mut self, req: Request) {
        let command = req.params["command"].as_str().unwrap_or("").to_owned();
        if command == CANCEL {
            let cancelled = self
                .running
                .as_ref()
                .map(|r| r.stop.store(true, Ordering::SeqCst));
            self.respond(Response::new_ok(
                req.id,
                json!({"cancelled": cancelled.is_some()}),
            ));
            return;
        }
        if command != MINIMIZE_SELECTION && command != MINIMIZE_FILE {
            return self.fail(req.id, format!("hdd: unknown command {command}"));
        }
        if self.busy() {
            return self.fail(req.id, "hdd: a reduction is already running".into());
        }
        let start = match self.prepare(&req, command == MINIMIZE_SELECTION) {
            Ok(start) => start,
            Err(message) => return self.fail(req.id, message),
        };
        if let Origin::File { path, hash } = &start.loaded.origin {
            let trusted = self
                .trust
                .as_ref()
                .is_some_and(|t| t.is_trusted(&start.loaded.root, hash));
            if !trusted {
                let message = format!(
                    "hdd: {} asks to run `{}` on this workspace's files. Run it? (Once \
                     trusted, this content of the file is not asked about again; a changed \
                     file is.)",
                    path.display(),
                    start.loaded.describe()
                );
                let params = json!({
                    "type": 2,
                    "message": message,
                    "actions": [{"title": TRUST}, {"title": "Cancel"}],
                });
                self.send_request("window/showMessageRequest", params, Pending::Trust(start));
                return;
            }
        }
        self.with_token(start);
    }

    /// The reduction a command asks for, checked: an open buffer at the version the
    /// action was offered for, a configuration.
    fn prepare(&self, req: &Request, selection: bool) -> Result<Box<Start>, String> {
        let arg = &req.params["arguments"][0];
        let uri = arg["uri"]
            .as_str()
            .ok_or("hdd: the command has no document")?;
        let doc = self
            .docs
            .get(uri)
            .ok_or_else(|| format!("hdd: {uri} is not open"))?;
        if let Some(version) = arg["version"].as_i64()
            && version != i64::from(doc.version)
        {
            return Err("hdd: the buffer changed since the action was offered; ask again".into());
        }
        let selection = if selection {
            let pos = |v: &Value| {
                serde_json::from_value::<Position>(v.clone())
                    .map_err(|e| format!("hdd: a bad range: {e}"))
            };
            let start = offset(&doc.text, pos(&arg["range"]["start"])?);
            let mut end = offset(&doc.text, pos(&arg["range"]["end"])?);
            // A selection of whole lines ends at the start of the next one: the newline
            // before it stays, or the next line could be glued to what is left.
            if end > start
                && arg["range"]["end"]["character"] == 0
                && doc.text[..end].ends_with('\n')
            {
                end -= 1;
            }
            if start >= end {
                return Err("hdd: the selection is empty".into());
            }
            Some(start..end)
        } else {
            None
        };
        let loaded = load(&self.root, self.init_options.as_ref())?.ok_or_else(|| {
            format!(
                "hdd: no test configured: write {} at the workspace root ({}) with \
                 test = \"./test.sh\" (exit 0 = still interesting), or give the server \
                 initializationOptions",
                crate::config::CONFIG_FILE,
                self.root.display()
            )
        })?;
        let path = uri_path(uri);
        let lang = match loaded.config.lang.as_deref() {
            Some(name) if name.eq_ignore_ascii_case("text") => None,
            Some(name) => Some(
                Lang::from_name(name).ok_or_else(|| format!("hdd: unknown language '{name}'"))?,
            ),
            None => path
                .as_deref()
                .and_then(Lang::from_path)
                .or_else(|| Lang::from_name(&doc.language_id)),
        };
        Ok(Box::new(Start {
            request: req.id.clone(),
            uri: uri.to_owned(),
            version: doc.version,
            selection,
            text: doc.text.clone(),
            lang,
            loaded,
            token: non_null(&req.params["workDoneToken"]),
        }))
    }

    /// Starts `start` with a progress token: the client's, or a new one once the client
    /// has made it (`window/workDoneProgress/create`), or none.
    fn with_token(&mut self, mut start: Box<Start>) {
        if start.token.is_some() || !self.progress {
            return self.launch(start);
        }
        let token = json!(format!("hdd-{}", self.next_id));
        start.token = Some(token.clone());
        self.send_request(
            "window/workDoneProgress/create",
            json!({ "token": token }),
            Pending::Create(start),
        );
    }

    fn launch(&mut self, start: Box<Start>) {
        let file_name = uri_path(&start.uri)
            .and_then(|p| p.file_name().map(ToOwned::to_owned))
            .unwrap_or_else(|| "input".into());
        let command = match start.loaded.test_command(file_name) {
            Ok(command) => command,
            Err(message) => return self.fail(start.request.clone(), message),
        };
        let what = what(&start);
        self.progress_value(
            start.token.as_ref(),
            json!({"kind": "begin", "title": format!("hdd: minimize {what}"), "cancellable": true,
                   "message": format!("testing the {what}")}),
        );
        let job = Job {
            text: start.text.clone(),
            range: start.selection.clone(),
            lang: start.lang,
            command,
            jobs: start.loaded.jobs(),
        };
        let stop = Arc::new(AtomicBool::new(false));
        let sender = self.conn.sender.clone();
        let token = start.token.clone();
        let done = self.done.0.clone();
        let thread_stop = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            let mut report = |p: Progress| {
                if let Some(token) = &token {
                    let message = format!(
                        "{} -> {} bytes, {} tests, {}",
                        p.before, p.now, p.tests, p.pass
                    );
                    let value = json!({"kind": "report", "message": message, "cancellable": true});
                    let _ = sender.send(progress_message(token, value));
                }
            };
            // A bug in the reduction must not leave the server waiting for ever.
            let run = std::panic::AssertUnwindSafe(|| job::run(&job, thread_stop, &mut report));
            let outcome = std::panic::catch_unwind(run).unwrap_or_else(|_| {
                Outcome::Failed("hdd: the reduction failed (a bug in hdd; please report it)".into())
            });
            let _ = done.send(outcome);
        });
        self.running = Some(Running {
            start,
            stop,
            thread,
            started: Instant::now(),
        });
    }

    /// The running reduction ended: apply its result, or say why not.
    fn finished(&mut self, outcome: Outcome) {
        let Some(running) = self.running.take() else {
            return;
        };
        let _ = running.thread.join();
        let start = running.start;
        let end = |message: &str| json!({"kind": "end", "message": message});
        let (text, range, tests, stopped) = match outcome {
            Outcome::Reduced {
                text,
                range,
                tests,
                stopped,
            } => (text, range, tests, stopped),
            Outcome::Refused(message) | Outcome::Failed(message) => {
                self.progress_value(start.token.as_ref(), end("failed"));
                return self.fail(start.request, message);
            }
        };
        let selection = start.selection.clone().unwrap_or(0..start.text.len());
        let result = json!({
            "before": selection.len(),
            "after": range.len(),
            "tests": tests,
            "elapsed_ms": running.started.elapsed().as_millis() as u64,
            "stopped": stopped,
        });
        let summary = format!(
            "{} -> {} bytes in {} tests{}",
            selection.len(),
            range.len(),
            tests,
            if stopped {
                " (stopped: best so far)"
            } else {
                ""
            }
        );
        self.progress_value(start.token.as_ref(), end(&summary));
        let current = self.docs.get(&start.uri).map(|d| d.version);
        if current != Some(start.version) {
            let message = format!(
                "hdd: the buffer changed during the reduction, so its result ({summary}) was \
                 not applied"
            );
            self.show(2, &message);
            let mut result = result;
            result["applied"] = json!(false);
            return self.respond(Response::new_ok(start.request, result));
        }
        let edit = json!({
            "label": "hdd: minimize",
            "edit": {"documentChanges": [{
                "textDocument": {"uri": start.uri, "version": start.version},
                "edits": [{
                    "range": {
                        "start": position(&start.text, selection.start),
                        "end": position(&start.text, selection.end),
                    },
                    "newText": &text[range],
                }],
            }]},
        });
        let request = start.request;
        self.send_request(
            "workspace/applyEdit",
            edit,
            Pending::Apply { request, result },
        );
    }

    fn response(&mut self, r: Response) {
        let Some(pending) = self.pending.remove(&r.id) else {
            return;
        };
        let answer = r.response_result.ok();
        match pending {
            Pending::Trust(start) => {
                let chosen = answer.as_ref().and_then(|v| v["title"].as_str());
                if chosen != Some(TRUST) {
                    let message = "hdd: the workspace's .hdd.toml was not trusted: nothing ran";
                    return self.fail(start.request, message.into());
                }
                if let (Some(store), Origin::File { hash, .. }) =
                    (&self.trust, &start.loaded.origin)
                    && let Err(e) = store.trust(&start.loaded.root, hash)
                {
                    self.show(2, &format!("hdd: could not remember the trust: {e}"));
                }
                self.with_token(start);
            }
            Pending::Create(mut start) => {
                if answer.is_none() {
                    start.token = None;
                }
                self.launch(start);
            }
            Pending::Apply {
                request,
                mut result,
            } => {
                let applied = answer
                    .as_ref()
                    .is_some_and(|v| v["applied"].as_bool() == Some(true));
                result["applied"] = json!(applied);
                if !applied {
                    let reason = answer
                        .as_ref()
                        .and_then(|v| v["failureReason"].as_str())
                        .unwrap_or("no reason given");
                    self.show(
                        2,
                        &format!("hdd: the editor did not apply the result: {reason}"),
                    );
                }
                self.respond(Response::new_ok(request, result));
            }
        }
    }

    fn busy(&self) -> bool {
        self.running.is_some()
            || self
                .pending
                .values()
                .any(|p| matches!(p, Pending::Trust(_) | Pending::Create(_)))
    }

    fn send_request(&mut self, method: &str, params: Value, pending: Pending) {
        self.next_id += 1;
        let id = RequestId::from(format!("hdd-{}", self.next_id));
        self.pending.insert(id.clone(), pending);
        self.send(Request::new(id, method.to_owned(), params).into());
    }

    fn progress_value(&self, token: Option<&Value>, value: Value) {
        if let Some(token) = token {
            self.send(progress_message(token, value));
        }
    }

    /// Tells the user `message` (`window/showMessage`; 1 error, 2 warning) and answers
    /// the command `id` with it as an error.
    fn fail(&self, id: RequestId, message: String) {
        self.show(1, &message);
        self.respond(Response::new_err(id, -32803, message));
    }

    fn show(&self, typ: u8, message: &str) {
        let params = json!({"type": typ, "message": message});
        self.send(Notification::new("window/showMessage".into(), params).into());
    }

    fn respond(&self, response: Response) {
        self.send(response.into());
    }

    fn send(&self, message: Message) {
        // The client went away: the main loop sees it next.
        let _ = self.conn.sender.send(message);
    }
}

fn progress_message(token: &Value, value: Value) -> Message {
    Notification::new("$/progress".into(), json!({"token": token, "value": value})).into()
}

/// The code action "hdd: minimize `what`" running `command` with `arguments`.
fn code_action(what: &str, command: &str, arguments: Value) -> Value {
    let title = format!("hdd: minimize {what}");
    json!({
        "title": title,
        "kind": "refactor.rewrite",
        "command": {"title": title, "command": command, "arguments": [arguments]},
    })
}

/// What a reduction minimizes: the selection or the file.
fn what(start: &Start) -> &'static str {
    if start.selection.is_some() {
        "selection"
    } else {
        "file"
    }
}

/// The params of notification `n` of kind `N`; `None` when they do not parse (a client's
/// bug the server can only ignore).
fn params<N: lsp_types::notification::Notification>(n: Notification) -> Option<N::Params> {
    n.extract(N::METHOD).ok()
}

/// `value`, unless it is JSON null (or missing).
fn non_null(value: &Value) -> Option<Value> {
    (!value.is_null()).then(|| value.clone())
}

/// The workspace root the client names (its first folder, else its root URI), else the
/// server's working folder.
pub(crate) fn workspace_root(params: &Value) -> PathBuf {
    params["workspaceFolders"][0]["uri"]
        .as_str()
        .or_else(|| params["rootUri"].as_str())
        .and_then(uri_path)
        .or_else(|| params["rootPath"].as_str().map(PathBuf::from))
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_else(|| Path::new("/").to_owned())
}
