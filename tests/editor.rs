//! Minimizing a selection: `--range` and `--byte-range` end to end.

use std::fs;

use crate::common::{hdd, root, stderr};

/// The C corpus case confined to the function that holds the bug (lines 139-152 of
/// framer.c, `decoder_init`): every byte before and after stays, the function shrinks,
/// the real test (gcc) still passes.
#[test]
fn a_range_of_lines_is_all_that_changes() {
    let case = root().join("corpus/c/warn-shift-overflow-framer");
    let tmp = tempfile::tempdir().unwrap();
    let input = fs::read(case.join("framer.c")).unwrap();
    fs::write(tmp.path().join("framer.c"), &input).unwrap();
    fs::copy(case.join("test.sh"), tmp.path().join("test.sh")).unwrap();
    let lines: Vec<&[u8]> = input.split_inclusive(|&b| b == b'\n').collect();
    assert!(lines[138].starts_with(b"static void decoder_init("));
    let before: Vec<u8> = lines[..138].concat();
    let after: Vec<u8> = lines[152..].concat();
    let out = hdd(
        tmp.path(),
        &[
            "reduce",
            "-j",
            "2",
            "--range",
            "139:152",
            "--json",
            "framer.c",
            "./test.sh",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let result = fs::read(tmp.path().join("framer.c")).unwrap();
    assert!(result.starts_with(&before) && result.ends_with(&after));
    let inside = &result[before.len()..result.len() - after.len()];
    let original: usize = lines[138..152].iter().map(|l| l.len()).sum();
    assert!(
        inside.len() * 3 < original,
        "{}",
        String::from_utf8_lossy(inside)
    );
    // The whitespace pass collapsed the range's indentation, and only the range's.
    assert!(
        !inside.windows(2).any(|w| w == b"  "),
        "{}",
        String::from_utf8_lossy(inside)
    );
    let start = String::from_utf8_lossy(&out.stdout);
    let first = start.lines().next().unwrap();
    assert!(
        first.contains(&format!(
            "\"range\":[{},{}]",
            before.len(),
            before.len() + original - 1
        )),
        "{first}"
    );
}

/// `--byte-range` on a text-mode file: the bytes outside the range stay even where the
/// test would accept their deletion.
#[test]
fn a_byte_range_keeps_every_other_byte() {
    let tmp = tempfile::tempdir().unwrap();
    let text = "keep this line\nnoise noise BUG noise noise\nand this one\n";
    fs::write(tmp.path().join("log.txt"), text).unwrap();
    crate::common::script(&tmp.path().join("test.sh"), "grep -q BUG log.txt");
    let start = text.find("noise").unwrap();
    let end = text.find("\nand").unwrap();
    let out = hdd(
        tmp.path(),
        &[
            "reduce",
            "--byte-range",
            &format!("{start}:{end}"),
            "log.txt",
            "./test.sh",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        fs::read_to_string(tmp.path().join("log.txt")).unwrap(),
        "keep this line\nBUG\nand this one\n"
    );
}

/// `hdd lsp` over stdio, the real binary: a client's whole session, from `initialize`
/// to `exit`, minimizing a selection of a C buffer.
#[test]
fn the_language_server_minimizes_a_selection_over_stdio() {
    use std::io::{BufRead, BufReader, Read, Write};
    use std::process::{Command, Stdio};

    let tmp = tempfile::tempdir().unwrap();
    crate::common::script(&tmp.path().join("test.sh"), "grep -q 'crash(' main.c");
    let text = "int keep(void) { return 1; }\nint f(int x) {\n  int a = x + 1;\n  crash(a);\n  return a;\n}\n";
    let mut server = Command::new(env!("CARGO_BIN_EXE_hdd"))
        .arg("lsp")
        .env("HDD_DATA_DIR", tmp.path().join("data"))
        .current_dir(tmp.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = server.stdin.take().unwrap();
    let mut output = BufReader::new(server.stdout.take().unwrap());
    let mut send = |msg: serde_json::Value| {
        let body = msg.to_string();
        write!(input, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        input.flush().unwrap();
    };
    let mut receive = || -> serde_json::Value {
        let mut len = 0;
        loop {
            let mut line = String::new();
            output.read_line(&mut line).unwrap();
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(n) = line.strip_prefix("Content-Length: ") {
                len = n.parse().unwrap();
            }
        }
        let mut body = vec![0; len];
        output.read_exact(&mut body).unwrap();
        serde_json::from_slice(&body).unwrap()
    };
    let root = format!("file://{}", tmp.path().display());
    let uri = format!("{root}/main.c");
    send(
        serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "processId": null, "rootUri": root,
        "capabilities": {"window": {"workDoneProgress": true}},
        "initializationOptions": {"test": "./test.sh", "jobs": 2}}}),
    );
    assert!(receive()["result"]["capabilities"]["executeCommandProvider"].is_object());
    send(serde_json::json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
    send(
        serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": {"uri": uri, "languageId": "c", "version": 7, "text": text}}}),
    );
    send(
        serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "textDocument/codeAction",
        "params": {"textDocument": {"uri": uri},
                   "range": {"start": {"line": 1, "character": 0}, "end": {"line": 6, "character": 0}},
                   "context": {"diagnostics": []}}}),
    );
    let actions = receive();
    let command = &actions["result"][0]["command"];
    assert_eq!(command["command"], "hdd.minimizeSelection", "{actions}");
    send(
        serde_json::json!({"jsonrpc": "2.0", "id": 3, "method": "workspace/executeCommand",
        "params": {"command": command["command"], "arguments": command["arguments"]}}),
    );
    let mut kinds = Vec::new();
    let mut new_text = None;
    let result = loop {
        let msg = receive();
        match msg["method"].as_str() {
            Some("$/progress") => kinds.push(msg["params"]["value"]["kind"].to_string()),
            Some("window/workDoneProgress/create") => {
                send(serde_json::json!({"jsonrpc": "2.0", "id": msg["id"], "result": null}));
            }
            Some("workspace/applyEdit") => {
                let change = &msg["params"]["edit"]["documentChanges"][0];
                assert_eq!(change["textDocument"]["version"], 7);
                new_text = Some(change["edits"][0]["newText"].as_str().unwrap().to_owned());
                send(serde_json::json!({"jsonrpc": "2.0", "id": msg["id"],
                                        "result": {"applied": true}}));
            }
            Some(_) => {}
            None => break msg,
        }
    };
    assert_eq!(result["id"], 3, "{result}");
    assert_eq!(result["result"]["applied"], true, "{result}");
    let new_text = new_text.unwrap();
    assert!(
        new_text.contains("crash(") && new_text.len() < 30,
        "{new_text:?}"
    );
    assert_eq!(kinds.first().map(String::as_str), Some("\"begin\""));
    assert_eq!(kinds.last().map(String::as_str), Some("\"end\""));
    send(serde_json::json!({"jsonrpc": "2.0", "id": 4, "method": "shutdown"}));
    assert_eq!(receive()["id"], 4);
    send(serde_json::json!({"jsonrpc": "2.0", "method": "exit"}));
    assert!(server.wait().unwrap().success());
}

/// A real client: headless Neovim (tests/nvim/minimize_selection.lua) opens the C corpus
/// case, selects `decoder_init` (lines 139-152), runs "hdd: minimize selection" through
/// `hdd lsp`, and its buffer ends with the function minimized, every other line as it
/// was, the case's test still passing. `.ci/run` installs Neovim when it is missing.
#[test]
fn neovim_minimizes_a_selection_through_the_language_server() {
    use std::process::Command;

    let case = root().join("corpus/c/warn-shift-overflow-framer");
    let tmp = tempfile::tempdir().unwrap();
    let input = fs::read(case.join("framer.c")).unwrap();
    fs::write(tmp.path().join("framer.c"), &input).unwrap();
    fs::copy(case.join("test.sh"), tmp.path().join("test.sh")).unwrap();
    let result = tmp.path().join("result.c");
    let started = std::time::Instant::now();
    let out = crate::common::oracle_env(&mut Command::new("nvim"))
        .args(["--headless", "--clean", "-c"])
        .arg(format!(
            "luafile {}",
            root().join("tests/nvim/minimize_selection.lua").display()
        ))
        .env("HDD", env!("CARGO_BIN_EXE_hdd"))
        .env("HDD_DATA_DIR", tmp.path().join("data"))
        .env("TARGET", "framer.c")
        .env("FIRST", "139")
        .env("LAST", "152")
        .env("RESULT", &result)
        .current_dir(tmp.path())
        .output()
        .expect("nvim runs (apt-get install neovim; .ci/run installs it)");
    let log = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{log}");
    eprintln!("neovim: {log} ({:.1} s)", started.elapsed().as_secs_f64());
    let after = fs::read(&result).unwrap();
    let lines: Vec<&[u8]> = input.split_inclusive(|&b| b == b'\n').collect();
    let (before, rest) = (lines[..138].concat(), lines[152..].concat());
    assert!(
        after.starts_with(&before) && after.ends_with(&rest),
        "{log}"
    );
    let inside = &after[before.len()..after.len() - rest.len()];
    let original: usize = lines[138..152].iter().map(|l| l.len()).sum();
    assert!(
        inside.len() * 3 < original,
        "{}",
        String::from_utf8_lossy(inside)
    );
    let progress = fs::read_to_string(tmp.path().join("result.c.progress")).unwrap();
    assert!(
        progress.starts_with("begin\n") && progress.ends_with("end\n"),
        "{progress}"
    );
    // The buffer's text is still interesting.
    fs::write(tmp.path().join("framer.c"), &after).unwrap();
    let check = crate::common::oracle_env(&mut Command::new("./test.sh"))
        .current_dir(tmp.path())
        .status()
        .unwrap();
    assert!(check.success());
}
