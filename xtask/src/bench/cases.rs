//! The benchmark cases: discovery of the corpus cases and the shared bench cases, the name
//! filter, and a writable copy of a case folder (with the `case.json` the harness reads).

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result, bail};
use hdd_grammar::Lang;
use serde_json::Value;

use super::fsutil::{copy_dir, file_name, sorted_dirs};

/// The corpus folder names, which are also hdd's `--lang` values: every grammar's name (as
/// `hdd langs` lists them) and `text`.
fn langs() -> impl Iterator<Item = &'static str> {
    Lang::ALL.iter().map(|l| l.name()).chain(["text"])
}

/// One benchmark case, wherever it comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Case {
    /// The folder name, which is also the harness's `case` field.
    pub(super) name: String,
    /// hdd's `--lang` value (one of [`langs`]).
    pub(super) language: String,
    /// The input file's name inside the case folder.
    pub(super) file: String,
    pub(super) dir: PathBuf,
    /// `Some(description)` for a corpus case (whose `case.json` is generated); `None` for a
    /// bench case, which has its own `case.json`.
    pub(super) corpus_description: Option<String>,
}

/// The cases to run: the corpus cases, then the bench cases of `bench_cases` (a note when that
/// folder is missing), those whose name contains `filter`. Fails when names clash or nothing
/// is left; every warning becomes a note.
pub(super) fn select_cases(
    corpus: &Path,
    bench_cases: &Path,
    filter: Option<&str>,
    notes: &mut Vec<String>,
) -> Result<Vec<Case>> {
    let (mut cases, warnings) = discover_corpus(corpus)?;
    notes.extend(warnings);
    if bench_cases.is_dir() {
        let (more, warnings) = discover_bench(bench_cases)?;
        cases.extend(more);
        notes.extend(warnings);
    } else {
        notes.push(format!(
            "bench folder {} not found: only the corpus cases run",
            bench_cases.display()
        ));
    }
    check_unique_names(&cases)?;
    let cases = filter_cases(cases, filter);
    if cases.is_empty() {
        let notes: String = notes.iter().map(|n| format!("\nnote: {n}")).collect();
        bail!(
            "no case name contains `{}`{notes}",
            filter.unwrap_or_default()
        );
    }
    Ok(cases)
}

/// The corpus cases `corpus/<lang>/<case>/` (the input is the one file besides `test.sh` and
/// `README.md`), and a warning for every folder that is not a well-formed case.
fn discover_corpus(corpus: &Path) -> Result<(Vec<Case>, Vec<String>)> {
    let mut cases = Vec::new();
    let mut warnings = Vec::new();
    for lang_dir in sorted_dirs(corpus)? {
        let language = file_name(&lang_dir);
        // Not cases: the systems under test of `hdd entropy`'s tests.
        if language == "generators" {
            continue;
        }
        if !langs().any(|l| l == language) {
            warnings.push(format!(
                "{}: not a language folder ({}), skipped",
                lang_dir.display(),
                langs().collect::<Vec<_>>().join(", ")
            ));
            continue;
        }
        for dir in sorted_dirs(&lang_dir)? {
            let mut inputs = Vec::new();
            for entry in fs::read_dir(&dir).with_context(|| format!("reading {}", dir.display()))? {
                let name = entry?.file_name().to_string_lossy().into_owned();
                if name != "test.sh" && name != "README.md" {
                    inputs.push(name);
                }
            }
            inputs.sort();
            if !dir.join("test.sh").is_file() {
                warnings.push(format!("{}: no test.sh, skipped", dir.display()));
                continue;
            }
            let [file] = inputs.as_slice() else {
                warnings.push(format!(
                    "{}: expected one input file besides test.sh and README.md, found [{}], skipped",
                    dir.display(),
                    inputs.join(", ")
                ));
                continue;
            };
            let readme = fs::read_to_string(dir.join("README.md")).unwrap_or_default();
            let description = readme
                .lines()
                .next()
                .unwrap_or_default()
                .trim_start_matches('#')
                .trim()
                .to_owned();
            cases.push(Case {
                name: file_name(&dir),
                language: language.clone(),
                file: file.clone(),
                dir,
                corpus_description: Some(description),
            });
        }
    }
    Ok((cases, warnings))
}

/// The shared bench cases `cases/<case>/` with their `case.json`.
fn discover_bench(cases_dir: &Path) -> Result<(Vec<Case>, Vec<String>)> {
    let mut cases = Vec::new();
    let mut warnings = Vec::new();
    for dir in sorted_dirs(cases_dir)? {
        let json = dir.join("case.json");
        let parsed = fs::read_to_string(&json)
            .with_context(|| format!("reading {}", json.display()))
            .and_then(|text| Ok(serde_json::from_str::<Value>(&text)?));
        let value = match parsed {
            Ok(value) => value,
            Err(err) => {
                warnings.push(format!("{}: {err:#}, skipped", dir.display()));
                continue;
            }
        };
        let language = value.get("language").and_then(Value::as_str);
        let file = value.get("file").and_then(Value::as_str);
        let (Some(language), Some(file)) = (language, file) else {
            warnings.push(format!(
                "{}: no \"language\" or \"file\", skipped",
                json.display()
            ));
            continue;
        };
        cases.push(Case {
            name: file_name(&dir),
            language: language.to_owned(),
            file: file.to_owned(),
            dir,
            corpus_description: None,
        });
    }
    Ok((cases, warnings))
}

/// The harness reports a case by its folder name, so names must be unique.
fn check_unique_names(cases: &[Case]) -> Result<()> {
    let mut seen = BTreeSet::new();
    for case in cases {
        if !seen.insert(case.name.as_str()) {
            bail!(
                "two cases are named `{}` (one is {}): the results would mix",
                case.name,
                case.dir.display()
            );
        }
    }
    Ok(())
}

fn filter_cases(cases: Vec<Case>, filter: Option<&str>) -> Vec<Case> {
    match filter {
        Some(needle) => cases
            .into_iter()
            .filter(|c| c.name.contains(needle))
            .collect(),
        None => cases,
    }
}

/// A writable copy of the case under `root/<corpus|bench>/<name>`, with a generated
/// `case.json` for a corpus case. Returns the copy's folder.
pub(super) fn materialize_case(case: &Case, root: &Path) -> Result<PathBuf> {
    let kind = if case.corpus_description.is_some() {
        "corpus"
    } else {
        "bench"
    };
    let dst = root.join(kind).join(&case.name);
    copy_dir(&case.dir, &dst)?;
    if let Some(description) = &case.corpus_description {
        let json = case_json(case, description);
        fs::write(dst.join("case.json"), json)
            .with_context(|| format!("writing {}/case.json", dst.display()))?;
    }
    Ok(dst)
}

fn case_json(case: &Case, description: &str) -> String {
    let value = serde_json::json!({
        "language": case.language,
        "file": case.file,
        "description": description,
    });
    format!("{value:#}\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::fsutil::write;

    #[test]
    fn discovers_corpus_cases_on_a_fixture() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let corpus = tmp.path();
        write(&corpus.join("README.md"), "# corpus\n");
        write(&corpus.join("BENCH.md"), "# bench\n");
        write(&corpus.join("c/shift/framer.c"), "int x;\n");
        write(&corpus.join("c/shift/test.sh"), "#!/bin/sh\n");
        write(&corpus.join("c/shift/README.md"), "# shift\n\nmore\n");
        write(&corpus.join("json/null/inv.json"), "{}\n");
        write(&corpus.join("json/null/test.sh"), "#!/bin/sh\n");
        // two inputs: skipped with a warning
        write(&corpus.join("c/leftover/a.c"), "");
        write(&corpus.join("c/leftover/a.c.orig"), "");
        write(&corpus.join("c/leftover/test.sh"), "");
        // no test.sh
        write(&corpus.join("sql/notest/q.sql"), "");
        // not a language
        write(&corpus.join("cobol/x/x.cob"), "");

        let (cases, warnings) = discover_corpus(corpus).expect("discovers");
        let summary: Vec<(&str, &str, &str)> = cases
            .iter()
            .map(|c| (c.name.as_str(), c.language.as_str(), c.file.as_str()))
            .collect();
        assert_eq!(
            summary,
            [("shift", "c", "framer.c"), ("null", "json", "inv.json")]
        );
        assert_eq!(cases[0].corpus_description.as_deref(), Some("shift"));
        assert_eq!(cases[1].corpus_description.as_deref(), Some(""));
        assert_eq!(cases[0].dir, corpus.join("c/shift"));
        assert_eq!(warnings.len(), 3, "{warnings:?}");
        assert!(warnings[0].contains("leftover") && warnings[0].contains("a.c, a.c.orig"));
        assert!(warnings[1].contains("cobol"));
        assert!(warnings[2].contains("notest"));

        // the generated case.json is what run-tool.sh reads
        let json: Value = serde_json::from_str(&case_json(&cases[0], "shift")).expect("json");
        assert_eq!(json["language"], "c");
        assert_eq!(json["file"], "framer.c");
        assert_eq!(json["description"], "shift");

        // a writable copy with case.json
        let dst = materialize_case(&cases[0], &tmp.path().join("out")).expect("copies");
        assert_eq!(dst, tmp.path().join("out/corpus/shift"));
        for name in ["framer.c", "test.sh", "README.md", "case.json"] {
            assert!(dst.join(name).is_file(), "{name}");
        }
    }

    #[test]
    fn discovers_bench_cases_and_filters_by_name() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let cases_dir = tmp.path();
        write(
            &cases_dir.join("c-warn-300/case.json"),
            r#"{"language": "c", "file": "prog.c"}"#,
        );
        write(
            &cases_dir.join("c-warn-300-slow/case.json"),
            r#"{"language": "c", "file": "prog.c"}"#,
        );
        write(&cases_dir.join("broken/case.json"), r#"{"file": "x"}"#);
        write(&cases_dir.join("nojson/x.c"), "");
        let (cases, warnings) = discover_bench(cases_dir).expect("discovers");
        let names: Vec<&str> = cases.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["c-warn-300", "c-warn-300-slow"]);
        assert!(cases.iter().all(|c| c.corpus_description.is_none()));
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        let slow = filter_cases(cases.clone(), Some("300-slow"));
        assert_eq!(slow.len(), 1);
        assert_eq!(filter_cases(cases.clone(), None).len(), 2);
        assert!(check_unique_names(&cases).is_ok());
        let twice = [cases[0].clone(), cases[0].clone()];
        assert!(check_unique_names(&twice).is_err());
    }
}
