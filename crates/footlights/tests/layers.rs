//! The runtime's layers, as the crate documentation's "Layers" table states them, are the
//! layers the code keeps.
//!
//! How it reads the code: a module is the first path component of a file under `src/`
//! (`scheduler/worker.rs` belongs to `scheduler`); it *imports* another module when any of
//! its files names `crate::other` (or `crate::{other, ...}`) outside comments and before
//! the file's first `#[cfg(test)]` item (tests may reach anywhere). Inside the crate, items
//! are imported from the module that defines them, never through the crate root's
//! re-exports, so these paths are every edge there is.
//!
//! What it checks: every module of `src/` has a row in the table; each imports only the
//! modules its row lists under "knows" ("nothing", a list, or "everything below it": the
//! rows above its own); and the modules form no cycle (found by a depth-first search that
//! reports the first cycle it meets, in import order).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module a file belongs to: its first path component under `src/`, without `.rs`.
fn module_of(file: &Path) -> String {
    let rel = file.strip_prefix(src()).expect("a file under src/");
    let first = rel.components().next().expect("a path component");
    let name = first.as_os_str().to_string_lossy();
    name.strip_suffix(".rs").unwrap_or(&name).to_owned()
}

/// The code of a file that the layers constrain: before its first `#[cfg(test)]` item,
/// with `//` comments (doc comments included) removed.
fn constrained_code(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("#[cfg(test)]") || trimmed.starts_with("#[cfg(all(test") {
            break;
        }
        let code = match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        };
        out.push_str(code);
        out.push('\n');
    }
    out
}

/// The module names a piece of code mentions as `crate::name` or `crate::{name, ...}`.
fn mentioned_modules(code: &str) -> BTreeSet<String> {
    mentioned_after(code, "crate::")
}

/// The names a piece of code mentions as `<prefix>name` or `<prefix>{name, ...}`.
fn mentioned_after(code: &str, prefix: &str) -> BTreeSet<String> {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut found = BTreeSet::new();
    for (at, _) in code.match_indices(prefix) {
        let rest = &code[at + prefix.len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            // Nested groups are rare; the top level of the group is what names modules.
            let mut depth = 0;
            let mut item = String::new();
            for c in group[..end].chars() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        found.insert(ident(item.trim()));
                        item.clear();
                    }
                    _ if depth == 0 => item.push(c),
                    _ => {}
                }
            }
            found.insert(ident(item.trim()));
        } else {
            found.insert(ident(rest));
        }
    }
    found.retain(|m| !m.is_empty());
    found
}

/// The import graph: module to the other modules it imports.
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let module = module_of(file);
        if module == "lib" {
            continue;
        }
        let text = fs::read_to_string(file).expect("a readable source file");
        let used = mentioned_modules(&constrained_code(&text));
        graph.entry(module).or_default().extend(used);
    }
    let modules: BTreeSet<String> = graph.keys().cloned().collect();
    for (module, used) in &mut graph {
        used.retain(|m| modules.contains(m) && m != module);
    }
    graph
}

/// One row of the table: the modules of the layer and what they may import (`None` for
/// "everything below it").
struct Row {
    modules: Vec<String>,
    knows: Option<Vec<String>>,
}

/// The backticked names of a table cell: `` `a`, [`b`] `` gives `a` and `b`.
fn names(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

/// The rows of lib.rs's "Layers" table, in order (bottom layer first).
fn layer_table() -> Vec<Row> {
    let lib = fs::read_to_string(src().join("lib.rs")).expect("src/lib.rs");
    let mut rows = Vec::new();
    let mut in_layers = false;
    for line in lib.lines() {
        let Some(doc) = line.strip_prefix("//!") else {
            continue;
        };
        let doc = doc.trim();
        if doc.starts_with('#') {
            in_layers = doc == "# Layers";
            continue;
        }
        if !in_layers || !doc.starts_with('|') || doc.starts_with("|---") {
            continue;
        }
        let cells: Vec<&str> = doc.trim_matches('|').split('|').map(str::trim).collect();
        if cells.len() < 2 || cells[0] == "layer" {
            continue;
        }
        let knows = match cells[1] {
            "everything below it" => None,
            "nothing" => Some(Vec::new()),
            other => Some(names(other)),
        };
        rows.push(Row {
            modules: names(cells[0]),
            knows,
        });
    }
    assert!(!rows.is_empty(), "lib.rs has no \"# Layers\" table");
    rows
}

#[test]
fn every_module_is_in_the_layer_table() {
    let table: BTreeSet<String> = layer_table()
        .into_iter()
        .flat_map(|row| row.modules)
        .collect();
    let missing: Vec<String> = imports()
        .into_keys()
        .filter(|m| !table.contains(m))
        .collect();
    assert!(
        missing.is_empty(),
        "modules without a row in lib.rs's Layers table: {missing:?}"
    );
}

#[test]
fn each_module_imports_only_what_its_layer_knows() {
    let table = layer_table();
    let graph = imports();
    let mut below: BTreeSet<String> = BTreeSet::new();
    let mut wrong = Vec::new();
    for row in &table {
        let allowed: BTreeSet<String> = match &row.knows {
            Some(knows) => knows.iter().cloned().collect(),
            None => below.clone(),
        };
        for module in &row.modules {
            for used in graph.get(module).into_iter().flatten() {
                if !allowed.contains(used) {
                    wrong.push(format!("{module} imports {used}"));
                }
            }
        }
        below.extend(row.modules.iter().cloned());
    }
    assert!(
        wrong.is_empty(),
        "imports the Layers table in lib.rs does not allow (change the code, or the \
         table if the design changed): {wrong:?}"
    );
}

/// The first cycle a depth-first search of `graph` meets, if any.
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    // Colours of a depth-first search: absent = unvisited, false = on the path, true = done.
    let mut state: BTreeMap<&str, bool> = BTreeMap::new();
    let mut path: Vec<&str> = Vec::new();

    fn visit<'g>(
        module: &'g str,
        graph: &'g BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<&'g str, bool>,
        path: &mut Vec<&'g str>,
    ) -> Option<Vec<String>> {
        state.insert(module, false);
        path.push(module);
        for next in graph.get(module).into_iter().flatten() {
            match state.get(next.as_str()) {
                Some(false) => {
                    let from = path.iter().position(|m| m == next).expect("on the path");
                    let mut cycle: Vec<String> =
                        path[from..].iter().map(|m| (*m).to_owned()).collect();
                    cycle.push(next.clone());
                    return Some(cycle);
                }
                Some(true) => {}
                None => {
                    if let Some(cycle) = visit(next, graph, state, path) {
                        return Some(cycle);
                    }
                }
            }
        }
        path.pop();
        state.insert(module, true);
        None
    }

    for module in graph.keys() {
        if !state.contains_key(module.as_str()) {
            if let Some(cycle) = visit(module, graph, &mut state, &mut path) {
                return Some(cycle);
            }
        }
    }
    None
}

#[test]
fn the_modules_form_no_cycle() {
    if let Some(cycle) = find_cycle(&imports()) {
        panic!(
            "the modules import each other in a circle: {}",
            cycle.join(" -> ")
        );
    }
}

/// The scheduler's files: a file directly in `src/scheduler/` is one (`park.rs` is
/// `park`), and so is a folder there (`worker/` and everything in it is `worker`);
/// `mod.rs` itself, the scheduler's shared types, is none. A folder's `tests.rs` (a
/// module compiled only for tests) may reach anywhere, as tests do.
fn scheduler_imports() -> BTreeMap<String, BTreeSet<String>> {
    let dir = src().join("scheduler");
    let mut files = Vec::new();
    rust_files(&dir, &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let rel = file.strip_prefix(&dir).expect("a file under scheduler/");
        let mut parts = rel.components();
        let first = parts.next().expect("a path component");
        let nested = parts.next().is_some();
        if file.file_name().is_some_and(|f| f == "tests.rs") {
            continue;
        }
        let name = first.as_os_str().to_string_lossy();
        let name = name.strip_suffix(".rs").unwrap_or(&name).to_owned();
        if name == "mod" {
            continue;
        }
        let text = fs::read_to_string(file).expect("a readable source file");
        let code = constrained_code(&text);
        // A file of a folder reaches its siblings' files through `super::super::`.
        let up = if nested { "super::super::" } else { "super::" };
        let mut used = mentioned_after(&code, up);
        used.extend(mentioned_after(&code, "crate::scheduler::"));
        graph.entry(name).or_default().extend(used);
    }
    let names: BTreeSet<String> = graph.keys().cloned().collect();
    for (name, used) in &mut graph {
        used.retain(|m| names.contains(m) && m != name);
    }
    graph
}

/// The rows of the scheduler's "Files" table (in `scheduler/mod.rs`): each file and the
/// files it may import.
fn scheduler_table() -> BTreeMap<String, BTreeSet<String>> {
    let text = fs::read_to_string(src().join("scheduler").join("mod.rs")).expect("mod.rs");
    let mut rows = BTreeMap::new();
    let mut in_files = false;
    for line in text.lines() {
        let Some(doc) = line.strip_prefix("//!") else {
            continue;
        };
        let doc = doc.trim();
        if doc.starts_with('#') {
            in_files = doc == "# Files";
            continue;
        }
        if !in_files || !doc.starts_with('|') || doc.starts_with("|---") {
            continue;
        }
        let cells: Vec<&str> = doc.trim_matches('|').split('|').map(str::trim).collect();
        if cells.len() < 2 || cells[0] == "file" {
            continue;
        }
        let may: BTreeSet<String> = names(cells[1]).into_iter().collect();
        for file in names(cells[0]) {
            rows.insert(file, may.clone());
        }
    }
    assert!(
        !rows.is_empty(),
        "scheduler/mod.rs has no \"# Files\" table"
    );
    rows
}

#[test]
fn each_scheduler_file_imports_only_what_its_row_allows() {
    let table = scheduler_table();
    let mut wrong = Vec::new();
    for (file, used) in scheduler_imports() {
        let Some(may) = table.get(&file) else {
            wrong.push(format!("{file} has no row"));
            continue;
        };
        for u in used.difference(may) {
            wrong.push(format!("{file} imports {u}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "the scheduler's files break their \"Files\" table in scheduler/mod.rs: {wrong:?}"
    );
}

#[test]
fn the_scheduler_files_form_no_cycle() {
    if let Some(cycle) = find_cycle(&scheduler_imports()) {
        panic!(
            "the scheduler's files import each other in a circle: {}",
            cycle.join(" -> ")
        );
    }
}

#[test]
fn the_reader_sees_grouped_and_plain_paths() {
    let code = constrained_code(
        "use crate::cell::Cell;\nuse crate::{sync::Arc, mailbox};\n// crate::system\n\
         #[cfg(test)]\nuse crate::system;",
    );
    let found: Vec<String> = mentioned_modules(&code).into_iter().collect();
    assert_eq!(found, ["cell", "mailbox", "sync"]);
}
