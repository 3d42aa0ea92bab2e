//! Files the tests read and write: the workspace, the reference data beside it
//! (`../shared/data`), the fuzz targets' committed inputs, and scratch folders.

use std::path::{Path, PathBuf};

/// The workspace's root folder.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `name` in the reference data shared by the projects (`../shared/data`
/// beside the workspace), which must be there.
pub fn shared_data(name: &str) -> PathBuf {
    let path = workspace().join("../shared/data").join(name);
    assert!(
        path.exists(),
        "the reference data {} is missing (see shared/data/README.md)",
        path.display()
    );
    path
}

/// The text of the reference data file `name` (see [`shared_data`]).
pub fn read_shared_data(name: &str) -> String {
    let path = shared_data(name);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reference data {} is unreadable: {e}", path.display()))
}

/// The committed inputs of the fuzz target `target` (`fuzz/seeds/<target>`
/// and `fuzz/regressions/<target>`): each file's path and bytes. There must be
/// some.
pub fn fuzz_inputs(target: &str) -> Vec<(String, Vec<u8>)> {
    let fuzz = workspace().join("fuzz");
    let mut found = Vec::new();
    for dir in ["seeds", "regressions"] {
        let Ok(entries) = std::fs::read_dir(fuzz.join(dir).join(target)) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            found.push((path.display().to_string(), std::fs::read(&path).unwrap()));
        }
    }
    assert!(
        !found.is_empty(),
        "no committed inputs for the fuzz target {target}"
    );
    found
}

/// The committed inputs of a fuzz target whose input is text, as the target
/// reads them (invalid UTF-8 replaced): see [`fuzz_inputs`].
pub fn fuzz_texts(target: &str) -> Vec<(String, String)> {
    fuzz_inputs(target)
        .into_iter()
        .map(|(path, bytes)| (path, String::from_utf8_lossy(&bytes).into_owned()))
        .collect()
}

/// A new empty folder under the system's temporary folder, named after `what`
/// and unique to this call. The caller removes it (or leaves it for a
/// post-mortem).
pub fn temp_dir(what: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("qiyuan-{}", crate::db::unique(what)));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
