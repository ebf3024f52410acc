//! The server in process, over lsp-server's in-memory connection, with real tests (shell
//! scripts run by hdd's executor): initialize, code actions, a reduction applied as one
//! versioned edit with its progress, cancel, a stale buffer, an untrusted `.hdd.toml`.

use std::fs;
use std::os::unix::fs::PermissionsExt as _;
use std::path::Path;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use serde_json::{Value, json};

use crate::trust::TrustStore;

const SOURCE: &str = "int keep(void) { return 1; }\n\
int f(int x) {\n\
    int a = x + 1;\n\
    int b = a * 2;\n\
    crash(b);\n\
    return a - b;\n\
}\n\
int also_kept(void) { return 2; }\n";

/// A client on one end of an in-memory connection, the server on the other.
struct Client {
    conn: Connection,
    server: Option<JoinHandle<()>>,
    next: i32,
    /// Every `$/progress` value and `window/showMessage` text seen.
    progress: Vec<Value>,
    messages: Vec<String>,
    /// How to answer `window/showMessageRequest` (the title chosen), and the prompts seen.
    choose: Option<&'static str>,
    prompts: Vec<String>,
    /// The text of the open buffer, edited by the server's `workspace/applyEdit`.
    text: String,
    version: i32,
    /// `workspace/applyEdit` answers `applied: false` when set.
    refuse_edits: bool,
}

impl Client {
    /// Starts a server on `root` (a workspace folder), `init` as initializationOptions,
    /// and opens `main.c` with `SOURCE`.
    fn start(root: &Path, init: Value) -> Client {
        let (server, conn) = Connection::memory();
        let trust = TrustStore::at(&root.join("data"));
        let handle = std::thread::spawn(move || crate::serve(&server, Some(trust)).unwrap());
        let mut client = Client {
            conn,
            server: Some(handle),
            next: 0,
            progress: Vec::new(),
            messages: Vec::new(),
            choose: None,
            prompts: Vec::new(),
            text: SOURCE.to_owned(),
            version: 1,
            refuse_edits: false,
        };
        let uri = format!("file://{}", root.display());
        let init = json!({
            "processId": null,
            "rootUri": uri,
            "capabilities": {"window": {"workDoneProgress": true}, "workspace": {"applyEdit": true}},
            "initializationOptions": init,
        });
        let answer = client.call("initialize", init);
        assert!(
            answer["capabilities"]["codeActionProvider"].is_object(),
            "{answer}"
        );
        client.notify("initialized", json!({}));
        client.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": client.uri(root), "languageId": "c", "version": 1,
                                    "text": SOURCE}}),
        );
        client
    }

    fn uri(&self, root: &Path) -> String {
        format!("file://{}/main.c", root.display())
    }

    fn notify(&self, method: &str, params: Value) {
        let n = Notification::new(method.into(), params);
        self.conn.sender.send(n.into()).unwrap();
    }

    fn send(&mut self, method: &str, params: Value) -> RequestId {
        self.next += 1;
        let id = RequestId::from(self.next);
        let r = Request::new(id.clone(), method.into(), params);
        self.conn.sender.send(r.into()).unwrap();
        id
    }

    /// Sends a request and handles what the server sends meanwhile until its answer;
    /// `Err` holds an error answer's message.
    fn call_result(&mut self, method: &str, params: Value) -> Result<Value, String> {
        let id = self.send(method, params);
        self.until(&id, |_| {})
    }

    fn call(&mut self, method: &str, params: Value) -> Value {
        self.call_result(method, params).unwrap()
    }

    /// Handles the server's messages until the answer to `id`; `each` sees the params of
    /// every `$/progress` (token and value) as they come.
    fn until(&mut self, id: &RequestId, mut each: impl FnMut(&Value)) -> Result<Value, String> {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let msg = self
                .conn
                .receiver
                .recv_timeout(left)
                .expect("the server answers");
            match msg {
                Message::Response(r) if r.id == *id => {
                    return r.response_result.map_err(|e| e.message);
                }
                Message::Response(r) => panic!("an answer to nothing: {r:?}"),
                Message::Notification(n) if n.method == "$/progress" => {
                    each(&n.params);
                    self.progress.push(n.params["value"].clone());
                }
                Message::Notification(n) if n.method == "window/showMessage" => {
                    self.messages
                        .push(n.params["message"].as_str().unwrap().to_owned());
                }
                Message::Notification(_) => {}
                Message::Request(r) => {
                    let result = self.server_request(&r);
                    let answer = Response::new_ok(r.id, result);
                    self.conn.sender.send(answer.into()).unwrap();
                }
            }
        }
    }

    fn server_request(&mut self, r: &Request) -> Value {
        match r.method.as_str() {
            "window/workDoneProgress/create" => Value::Null,
            "window/showMessageRequest" => {
                self.prompts
                    .push(r.params["message"].as_str().unwrap().to_owned());
                self.choose
                    .map_or(Value::Null, |title| json!({"title": title}))
            }
            "workspace/applyEdit" => {
                let change = &r.params["edit"]["documentChanges"][0];
                assert_eq!(change["textDocument"]["version"], json!(self.version));
                let edits = change["edits"].as_array().unwrap();
                assert_eq!(edits.len(), 1, "one edit, one undo step");
                if self.refuse_edits {
                    return json!({"applied": false, "failureReason": "refused"});
                }
                let range = &edits[0]["range"];
                let pos = |v: &Value| serde_json::from_value(v.clone()).unwrap();
                let start = crate::text::offset(&self.text, pos(&range["start"]));
                let end = crate::text::offset(&self.text, pos(&range["end"]));
                let new = edits[0]["newText"].as_str().unwrap();
                self.text.replace_range(start..end, new);
                self.version += 1;
                // As an editor does, it tells the server about its own change.
                let uri = change["textDocument"]["uri"].clone();
                self.notify(
                    "textDocument/didChange",
                    json!({"textDocument": {"uri": uri, "version": self.version},
                           "contentChanges": [{"text": self.text}]}),
                );
                json!({"applied": true})
            }
            other => panic!("unexpected request {other}"),
        }
    }

    /// The code actions for lines `first..last` (0-based, `last` excluded).
    fn actions(&mut self, root: &Path, first: u32, last: u32) -> Vec<Value> {
        let params = json!({
            "textDocument": {"uri": self.uri(root)},
            "range": {"start": {"line": first, "character": 0},
                      "end": {"line": last, "character": 0}},
            "context": {"diagnostics": []},
        });
        self.call("textDocument/codeAction", params)
            .as_array()
            .unwrap()
            .clone()
    }

    fn shutdown(mut self) {
        self.call("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        self.server.take().unwrap().join().unwrap();
    }
}

/// A workspace with an executable `test.sh` (run on `main.c`).
fn workspace(test: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("test.sh");
    fs::write(&path, format!("#!/bin/sh\n{test}\n")).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

fn command_of(action: &Value) -> Value {
    json!({
        "command": action["command"]["command"],
        "arguments": action["command"]["arguments"],
    })
}

#[test]
fn minimize_selection_applies_one_versioned_edit_with_progress() {
    let ws = workspace("grep -q 'crash(' main.c");
    let mut client = Client::start(ws.path(), json!({"test": "./test.sh", "jobs": 2}));
    // Lines 1..7: the function `f`.
    let actions = client.actions(ws.path(), 1, 7);
    assert_eq!(actions[0]["title"], "hdd: minimize selection");
    assert_eq!(actions[0]["kind"], "refactor.rewrite");
    assert_eq!(actions[1]["command"]["command"], crate::MINIMIZE_FILE);
    let result = client.call("workspace/executeCommand", command_of(&actions[0]));
    assert_eq!(result["applied"], json!(true), "{result}");
    let lines: Vec<&str> = client.text.lines().collect();
    assert_eq!(lines.first(), Some(&"int keep(void) { return 1; }"));
    assert_eq!(lines.last(), Some(&"int also_kept(void) { return 2; }"));
    assert!(client.text.contains("crash("), "{}", client.text);
    let f = &client.text[SOURCE.find("int f").unwrap()..client.text.find("int also").unwrap()];
    assert!(f.len() * 3 < 90, "{f:?}");
    assert!(result["tests"].as_u64().unwrap() > 2, "{result}");
    let kinds: Vec<&str> = client
        .progress
        .iter()
        .map(|v| v["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds.first(), Some(&"begin"), "{kinds:?}");
    assert_eq!(kinds.last(), Some(&"end"), "{kinds:?}");
    client.shutdown();
}

/// Runs the selection's reduction with slow tests and cancels it at its first progress
/// report that shows a gain, by the progress token or else by the command's request id.
fn cancelled_run(by_token: bool) {
    let ws = workspace("sleep 0.2; grep -q 'crash(' main.c");
    let mut client = Client::start(ws.path(), json!({"test": "./test.sh", "jobs": 1}));
    let action = client.actions(ws.path(), 1, 7)[0].clone();
    let id = client.send("workspace/executeCommand", command_of(&action));
    let sender = client.conn.sender.clone();
    let mut cancelled = false;
    let request = json!(id);
    let result = client
        .until(&id, |params| {
            let value = &params["value"];
            // A report reads `BEFORE -> NOW bytes, …`.
            let sizes: Vec<&str> = value["message"]
                .as_str()
                .unwrap_or("")
                .split(' ')
                .take(3)
                .collect();
            let gained = value["kind"] == "report" && sizes.len() == 3 && sizes[0] != sizes[2];
            if gained && !cancelled {
                cancelled = true;
                let n = if by_token {
                    let cancel = json!({"token": params["token"]});
                    Notification::new("window/workDoneProgress/cancel".into(), cancel)
                } else {
                    Notification::new("$/cancelRequest".into(), json!({"id": request}))
                };
                sender.send(n.into()).unwrap();
            }
        })
        .unwrap();
    assert!(cancelled);
    assert_eq!(result["stopped"], json!(true), "{result}");
    assert_eq!(result["applied"], json!(true), "{result}");
    let (before, after) = (result["before"].as_u64(), result["after"].as_u64());
    assert!(after < before, "{result}");
    assert!(client.text.contains("crash("));
    assert!(client.text.starts_with("int keep(void)"));
    client.shutdown();
}

#[test]
fn cancel_applies_the_best_so_far() {
    cancelled_run(true);
}

#[test]
fn a_cancelled_request_applies_the_best_so_far_too() {
    cancelled_run(false);
}

#[test]
fn a_stale_version_and_a_dull_selection_are_refused() {
    let ws = workspace("grep -q 'crash(' main.c");
    let mut client = Client::start(ws.path(), json!({"test": "./test.sh"}));
    let action = client.actions(ws.path(), 1, 7)[0].clone();
    // The buffer changes after the action was offered.
    client.version = 2;
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": client.uri(ws.path()), "version": 2},
               "contentChanges": [{"text": SOURCE}]}),
    );
    let err = client
        .call_result("workspace/executeCommand", command_of(&action))
        .unwrap_err();
    assert!(
        err.contains("changed since the action was offered"),
        "{err}"
    );
    // A buffer the test does not find interesting: the test's ending is shown.
    client.version = 3;
    let dull = SOURCE.replace("crash(", "calm(");
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": client.uri(ws.path()), "version": 3},
               "contentChanges": [{"text": dull}]}),
    );
    let action = client.actions(ws.path(), 1, 7)[0].clone();
    let err = client
        .call_result("workspace/executeCommand", command_of(&action))
        .unwrap_err();
    assert!(
        err.contains("the selection is not interesting: the test ended with exit code 1"),
        "{err}"
    );
    assert_eq!(client.messages.last(), Some(&err));
    client.shutdown();
}

#[test]
fn no_configuration_is_explained() {
    let ws = workspace("exit 0");
    let mut client = Client::start(ws.path(), Value::Null);
    let action = client.actions(ws.path(), 1, 7)[0].clone();
    let err = client
        .call_result("workspace/executeCommand", command_of(&action))
        .unwrap_err();
    assert!(err.contains("no test configured: write .hdd.toml"), "{err}");
    client.shutdown();
}

#[test]
fn an_untrusted_hdd_toml_runs_nothing_until_approved() {
    // The test leaves a mark when it runs.
    let ws = workspace("touch \"$0.ran\"; grep -q 'crash(' main.c");
    fs::write(ws.path().join(".hdd.toml"), "test = \"./test.sh\"\n").unwrap();
    let ran = ws.path().join("test.sh.ran");
    let mut client = Client::start(ws.path(), Value::Null);
    let action = client.actions(ws.path(), 1, 7)[0].clone();
    client.choose = Some("Cancel");
    let err = client
        .call_result("workspace/executeCommand", command_of(&action))
        .unwrap_err();
    assert!(err.contains("not trusted: nothing ran"), "{err}");
    assert!(
        client.prompts[0].contains("asks to run `./test.sh`"),
        "{:?}",
        client.prompts
    );
    assert!(!ran.exists());
    // Approved once: it runs, and is not asked about again.
    client.choose = Some("Trust and run");
    let result = client.call("workspace/executeCommand", command_of(&action));
    assert_eq!(result["applied"], json!(true), "{result}");
    assert!(ran.exists());
    assert_eq!(client.prompts.len(), 2);
    let action = client.actions(ws.path(), 0, 1)[1].clone();
    client.call("workspace/executeCommand", command_of(&action));
    assert_eq!(client.prompts.len(), 2);
    // A changed file is asked about again.
    fs::write(
        ws.path().join(".hdd.toml"),
        "test = \"./test.sh\"\njobs = 1\n",
    )
    .unwrap();
    client.choose = None;
    let action = client.actions(ws.path(), 0, 1)[1].clone();
    let err = client
        .call_result("workspace/executeCommand", command_of(&action))
        .unwrap_err();
    assert!(err.contains("not trusted"), "{err}");
    assert_eq!(client.prompts.len(), 3);
    client.shutdown();
}

#[test]
fn a_buffer_edited_during_the_run_is_not_overwritten() {
    let ws = workspace("sleep 0.2; grep -q 'crash(' main.c");
    let mut client = Client::start(ws.path(), json!({"test": "./test.sh", "jobs": 1}));
    let action = client.actions(ws.path(), 1, 7)[0].clone();
    let id = client.send("workspace/executeCommand", command_of(&action));
    let sender = client.conn.sender.clone();
    let uri = client.uri(ws.path());
    let mut edited = false;
    let result = client
        .until(&id, |params| {
            if params["value"]["kind"] == "report" && !edited {
                edited = true;
                let change = json!({"textDocument": {"uri": uri, "version": 5},
                                    "contentChanges": [{"text": "typed meanwhile\n"}]});
                let n = Notification::new("textDocument/didChange".into(), change);
                sender.send(n.into()).unwrap();
            }
        })
        .unwrap();
    assert!(edited);
    assert_eq!(result["applied"], json!(false), "{result}");
    assert!(
        client
            .messages
            .last()
            .unwrap()
            .contains("the buffer changed during the reduction"),
        "{:?}",
        client.messages
    );
    assert_eq!(client.text, SOURCE);
    client.shutdown();
}

#[test]
fn a_flaky_test_is_reported_and_nothing_applied() {
    // Interesting for its first three runs only: the original's check and the reduction's
    // two tests pass, the re-check of the result does not.
    let ws = workspace(
        "n=$(cat \"$0.count\" 2>/dev/null || echo 0)\necho $((n + 1)) > \"$0.count\"\n[ \"$n\" -lt 3 ]",
    );
    let mut client = Client::start(ws.path(), json!({"test": "./test.sh", "jobs": 1}));
    let action = client.actions(ws.path(), 1, 7)[0].clone();
    let err = client
        .call_result("workspace/executeCommand", command_of(&action))
        .unwrap_err();
    assert!(err.contains("the test is flaky"), "{err}");
    assert!(err.contains("exit code 1"), "{err}");
    assert_eq!(client.text, SOURCE);
    client.shutdown();
}
