//! The module graph of every crate in a list of sources, and its cycles.
//!
//! Crate roots are found by path: `<pkg>/src/lib.rs`, `<pkg>/src/main.rs`,
//! `<pkg>/src/bin/<x>.rs` or `<x>/main.rs`, and `<dir>/{tests,benches,examples}/<x>.rs` or
//! `<x>/main.rs` unless another root declares that file as a module (the root `tests/e2e.rs`
//! declares `mod corpus;`, so `tests/corpus.rs` is a module, not a crate). A crate's modules
//! are the files reached from its root through `mod x;` declarations (`x.rs` or `x/mod.rs`
//! beside a root or a `mod.rs`, under `<file stem>/` otherwise; `#[path]` is not followed).
//! Inline `mod x { ... }` blocks belong to their file's module, except that `super::` and
//! `self::` inside them count from the inline module, as the compiler does.
//!
//! Module A has an edge to module B when A's code (comments and literals aside) mentions a
//! path that resolves to B: `crate::b::…`, `super::…`, `self::b::…`, a bare `b::…` when `b`
//! is a child of A, `use` trees included (`pub use self::b::X` is an edge A -> b). A path
//! resolves to the longest prefix that is a module, so `super::Item` is an edge to the
//! parent. Declaring a child (`mod b;`) is no edge. Test modules count like any other.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use petgraph::algo::tarjan_scc;
use petgraph::graph::{DiGraph, NodeIndex};

use super::syntax::{FileSyntax, PathRef, scan};

type ModPath = Vec<String>;

/// One edge of a cycle, with the first place that makes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Step {
    pub(super) from: String,
    pub(super) to: String,
    pub(super) file: String,
    pub(super) line: usize,
    /// The path as written there.
    pub(super) text: String,
}

/// A strongly connected component of more than one module, and one shortest cycle through
/// its first module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Cycle {
    pub(super) members: Vec<String>,
    pub(super) steps: Vec<Step>,
}

/// One crate's module graph, summed up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct CrateGraph {
    pub(super) name: String,
    pub(super) root: String,
    pub(super) modules: usize,
    pub(super) edges: usize,
    pub(super) cycles: Vec<Cycle>,
}

struct Root {
    name: String,
    file: String,
    /// A tests/benches/examples file, which may be a module of another root instead.
    maybe_module: bool,
}

/// A module of a crate: its path and its file.
struct Module {
    path: ModPath,
    file: String,
}

fn display(path: &[String]) -> String {
    if path.is_empty() {
        "crate".to_owned()
    } else {
        path.join("::")
    }
}

/// The crate roots among `files` (see the module doc), sorted by file.
fn roots(files: &BTreeMap<&str, FileSyntax>) -> Vec<Root> {
    let mut roots = Vec::new();
    for &file in files.keys() {
        let parts: Vec<&str> = file.split('/').collect();
        let Some((&last, dirs)) = parts.split_last() else {
            continue;
        };
        let tail: Vec<&str> = dirs.iter().rev().take(3).copied().collect();
        let package = |up: usize| {
            let pkg = &dirs[..dirs.len() - up];
            let name = pkg.last().copied().unwrap_or("(root)").to_owned();
            (pkg.join("/"), name)
        };
        let root = match (last, tail.as_slice()) {
            ("lib.rs", ["src", ..]) => Some((package(1).1, false)),
            ("main.rs", ["src", ..]) => {
                let (pkg, name) = package(1);
                let lib = if pkg.is_empty() {
                    "src/lib.rs".to_owned()
                } else {
                    format!("{pkg}/src/lib.rs")
                };
                let bin = if files.contains_key(lib.as_str()) {
                    " (bin)"
                } else {
                    ""
                };
                Some((format!("{name}{bin}"), false))
            }
            (x, ["bin", "src", ..]) => Some((format!("{} (bin {x})", package(2).1), false)),
            ("main.rs", [x, "bin", "src", ..]) => {
                Some((format!("{} (bin {x})", package(3).1), false))
            }
            (_, ["tests" | "benches" | "examples", ..]) if !dirs.contains(&"src") => {
                Some((file.trim_end_matches(".rs").to_owned(), true))
            }
            ("main.rs", [_, "tests" | "benches" | "examples", ..]) if !dirs.contains(&"src") => {
                Some((dirs.join("/"), true))
            }
            _ => None,
        };
        if let Some((name, maybe_module)) = root {
            roots.push(Root {
                name,
                file: file.to_owned(),
                maybe_module,
            });
        }
    }
    roots
}

/// The modules reached from `root` through `mod x;` declarations, root first.
fn tree(root: &str, files: &BTreeMap<&str, FileSyntax>) -> Vec<Module> {
    let mut modules = vec![Module {
        path: Vec::new(),
        file: root.to_owned(),
    }];
    let mut next = 0;
    while next < modules.len() {
        let (path, file) = (modules[next].path.clone(), modules[next].file.clone());
        next += 1;
        let Some(syntax) = files.get(file.as_str()) else {
            continue;
        };
        let own_dir = path.is_empty() || file.ends_with("/mod.rs") || file == "mod.rs";
        let dir = if own_dir {
            file.rsplit_once('/').map_or("", |(d, _)| d).to_owned()
        } else {
            file.trim_end_matches(".rs").to_owned()
        };
        for decl in &syntax.mods {
            let base: Vec<&str> = std::iter::once(dir.as_str())
                .chain(decl.inline.iter().map(String::as_str))
                .filter(|d| !d.is_empty())
                .collect();
            let base = base.join("/");
            let prefix = if base.is_empty() {
                String::new()
            } else {
                format!("{base}/")
            };
            let candidates = [
                format!("{prefix}{}.rs", decl.name),
                format!("{prefix}{}/mod.rs", decl.name),
            ];
            if let Some(child) = candidates.iter().find(|c| files.contains_key(c.as_str())) {
                let mut child_path = path.clone();
                child_path.extend(decl.inline.iter().cloned());
                child_path.push(decl.name.clone());
                if modules.iter().all(|m| m.file != *child) {
                    modules.push(Module {
                        path: child_path,
                        file: child.clone(),
                    });
                }
            }
        }
    }
    modules
}

/// The module `path` (written in `module`) resolves to: the longest prefix of the path it
/// names that is a module; `None` for a path outside the crate.
fn resolve(known: &BTreeSet<ModPath>, module: &[String], path: &PathRef) -> Option<ModPath> {
    let segments = &path.segments;
    let context: ModPath = module.iter().chain(&path.inline).cloned().collect();
    let first = segments.first()?.as_str();
    let (base, rest): (ModPath, &[String]) = match first {
        "crate" => (Vec::new(), &segments[1..]),
        "super" => {
            let ups = segments.iter().take_while(|s| *s == "super").count();
            let kept = context.len().checked_sub(ups)?;
            (context[..kept].to_vec(), &segments[ups..])
        }
        "self" => (context, &segments[1..]),
        _ => {
            let mut child = module.to_vec();
            child.push(first.to_owned());
            if !known.contains(&child) {
                return None;
            }
            (module.to_vec(), &segments[..])
        }
    };
    let full: ModPath = base.into_iter().chain(rest.iter().cloned()).collect();
    (0..=full.len())
        .rev()
        .map(|n| full[..n].to_vec())
        .find(|prefix| known.contains(prefix))
}

/// One shortest cycle through `start` inside `component`.
fn shortest_cycle(
    graph: &DiGraph<String, ()>,
    component: &BTreeSet<NodeIndex>,
    start: NodeIndex,
) -> Vec<NodeIndex> {
    let mut parent: BTreeMap<NodeIndex, NodeIndex> = BTreeMap::new();
    let mut queue = VecDeque::from([start]);
    while let Some(node) = queue.pop_front() {
        let mut next: Vec<NodeIndex> = graph.neighbors(node).collect();
        next.sort_by_key(|n| &graph[*n]);
        for succ in next {
            if succ == start {
                let mut cycle = vec![node];
                while let Some(&p) = parent.get(cycle.last().expect("not empty")) {
                    cycle.push(p);
                }
                cycle.reverse();
                return cycle;
            }
            if component.contains(&succ) && !parent.contains_key(&succ) && succ != start {
                parent.insert(succ, node);
                queue.push_back(succ);
            }
        }
    }
    vec![start]
}

/// The module graph of every crate of `files` (path, contents), sorted by crate name.
pub(super) fn crate_graphs(files: &[(&str, &str)]) -> Vec<CrateGraph> {
    let syntax: BTreeMap<&str, FileSyntax> = files
        .iter()
        .map(|&(path, text)| (path, scan(text)))
        .collect();
    let candidates: Vec<(Root, Vec<Module>)> = roots(&syntax)
        .into_iter()
        .map(|root| {
            let modules = tree(&root.file, &syntax);
            (root, modules)
        })
        .collect();
    let modules_elsewhere: BTreeSet<&str> = candidates
        .iter()
        .flat_map(|(_, modules)| modules.iter().skip(1).map(|m| m.file.as_str()))
        .collect();
    let mut graphs: Vec<CrateGraph> = candidates
        .iter()
        .filter(|(root, _)| !(root.maybe_module && modules_elsewhere.contains(root.file.as_str())))
        .map(|(root, modules)| crate_graph(root, modules, &syntax))
        .collect();
    graphs.sort_by(|a, b| a.name.cmp(&b.name));
    graphs
}

fn crate_graph(root: &Root, modules: &[Module], syntax: &BTreeMap<&str, FileSyntax>) -> CrateGraph {
    let known: BTreeSet<ModPath> = modules.iter().map(|m| m.path.clone()).collect();
    let mut graph: DiGraph<String, ()> = DiGraph::new();
    let index: BTreeMap<&ModPath, NodeIndex> = modules
        .iter()
        .map(|m| (&m.path, graph.add_node(display(&m.path))))
        .collect();
    // The first place each edge is made.
    let mut edges: BTreeMap<(NodeIndex, NodeIndex), (String, usize, String)> = BTreeMap::new();
    for module in modules {
        let Some(file_syntax) = syntax.get(module.file.as_str()) else {
            continue;
        };
        let from = index[&module.path];
        for path in &file_syntax.paths {
            let Some(target) = resolve(&known, &module.path, path) else {
                continue;
            };
            let to = index[&target];
            if to != from && !edges.contains_key(&(from, to)) {
                graph.add_edge(from, to, ());
                edges.insert((from, to), (module.file.clone(), path.line, path.text()));
            }
        }
    }
    let mut cycles = Vec::new();
    for component in tarjan_scc(&graph) {
        if component.len() < 2 {
            continue;
        }
        let members: BTreeSet<NodeIndex> = component.iter().copied().collect();
        let start = *component
            .iter()
            .min_by_key(|n| &graph[**n])
            .expect("a component is never empty");
        let cycle = shortest_cycle(&graph, &members, start);
        let steps = cycle
            .iter()
            .zip(cycle.iter().skip(1).chain([&start]))
            .map(|(&from, &to)| {
                let (file, line, text) = edges[&(from, to)].clone();
                Step {
                    from: graph[from].clone(),
                    to: graph[to].clone(),
                    file,
                    line,
                    text,
                }
            })
            .collect();
        let mut names: Vec<String> = component.iter().map(|n| graph[*n].clone()).collect();
        names.sort();
        cycles.push(Cycle {
            members: names,
            steps,
        });
    }
    cycles.sort_by(|a, b| a.members.cmp(&b.members));
    CrateGraph {
        name: root.name.clone(),
        root: root.file.clone(),
        modules: modules.len(),
        edges: edges.len(),
        cycles,
    }
}
