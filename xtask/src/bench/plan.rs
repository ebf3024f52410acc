//! What runs: the tools `--tools` accepts and the mode's defaults, and the plan of
//! (case, tool, -j) runs limited to the programs that are installed.

use std::collections::BTreeSet;

use anyhow::{Result, bail};

use super::cases::Case;

/// Every tool `--tools` accepts, in column order: hdd, then the peers `run-tool.sh` knows.
pub(super) const TOOLS: [&str; 6] = [
    "hdd",
    "creduce",
    "cvise",
    "treereduce",
    "picire",
    "shrinkray",
];
/// `--parallel`: the job counts, the default case filter and the default tools.
pub(super) const PARALLEL_JOBS: [u32; 5] = [1, 2, 4, 8, 16];
pub(super) const PARALLEL_CASE: &str = "c-warn-300-slow";
const PARALLEL_TOOLS: [&str; 2] = ["hdd", "cvise"];

/// One planned run of the harness.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Run {
    /// The index of the case in the selected cases.
    pub(super) case: usize,
    pub(super) tool: String,
    pub(super) jobs: u32,
}

/// The tools to run (`--tools`, or the mode's default when `None`), validated, deduplicated,
/// in the order given.
pub(super) fn selected_tools(requested: Option<&[String]>, parallel: bool) -> Result<Vec<String>> {
    let requested: Vec<String> = match requested {
        Some(tools) => tools.iter().map(|t| t.trim().to_owned()).collect(),
        None if parallel => PARALLEL_TOOLS.iter().map(|t| (*t).to_owned()).collect(),
        None => TOOLS.iter().map(|t| (*t).to_owned()).collect(),
    };
    let mut tools = Vec::new();
    for tool in requested {
        if !TOOLS.contains(&tool.as_str()) {
            bail!("unknown tool `{tool}`; known: {}", TOOLS.join(", "));
        }
        if !tools.contains(&tool) {
            tools.push(tool);
        }
    }
    if tools.is_empty() {
        bail!("--tools is empty");
    }
    Ok(tools)
}

/// The program a tool runs as for a language, or `None` when the tool has no frontend for it.
fn tool_binary(tool: &str, language: &str) -> Option<String> {
    match tool {
        "treereduce" => ["c", "rust", "javascript"]
            .contains(&language)
            .then(|| format!("treereduce-{language}")),
        _ => Some(tool.to_owned()),
    }
}

/// Every (case, tool, jobs) run whose program is installed, and the programs that are not.
/// A tool without a frontend for a case's language (treereduce on JSON) is silently not run.
pub(super) fn plan_runs(
    cases: &[Case],
    tools: &[String],
    jobs: &[u32],
    installed: impl Fn(&str) -> bool,
) -> (Vec<Run>, BTreeSet<String>) {
    let mut runs = Vec::new();
    let mut missing = BTreeSet::new();
    for (index, case) in cases.iter().enumerate() {
        for tool in tools {
            let Some(binary) = tool_binary(tool, &case.language) else {
                continue;
            };
            if !installed(&binary) {
                missing.insert(binary);
                continue;
            }
            for &jobs in jobs {
                runs.push(Run {
                    case: index,
                    tool: tool.clone(),
                    jobs,
                });
            }
        }
    }
    (runs, missing)
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    #[test]
    fn plans_only_installed_tools_with_a_frontend() {
        let case = |name: &str, language: &str| Case {
            name: name.to_owned(),
            language: language.to_owned(),
            file: "f".to_owned(),
            dir: PathBuf::new(),
            corpus_description: None,
        };
        let cases = [case("a", "c"), case("b", "json")];
        let tools: Vec<String> = ["hdd", "treereduce", "cvise"]
            .iter()
            .map(|t| (*t).to_owned())
            .collect();
        let (runs, missing) = plan_runs(&cases, &tools, &[1, 2], |bin| {
            bin == "hdd" || bin == "treereduce-c"
        });
        let planned: Vec<(usize, &str, u32)> = runs
            .iter()
            .map(|r| (r.case, r.tool.as_str(), r.jobs))
            .collect();
        assert_eq!(
            planned,
            [
                (0, "hdd", 1),
                (0, "hdd", 2),
                (0, "treereduce", 1),
                (0, "treereduce", 2),
                (1, "hdd", 1),
                (1, "hdd", 2),
            ]
        );
        assert_eq!(missing.into_iter().collect::<Vec<_>>(), ["cvise"]);
    }
}
