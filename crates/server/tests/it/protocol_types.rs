//! The protocol's types against their two other copies: the web client's
//! generated TypeScript (`web/src/net/generated/protocol.ts`, which must be what
//! the types generate now) and `docs/protocol.md` (which must document every
//! message type there is, and no other).
//!
//! `QIYUAN_BLESS=1 cargo test -p qiyuan-server --test it protocol_types` writes the
//! TypeScript file again.

use std::collections::BTreeSet;

use qiyuan_testkit::fs::workspace;

#[test]
fn generated_typescript_is_up_to_date() {
    let path = workspace().join("web/src/net/generated/protocol.ts");
    let generated = qiyuan_server::protocol::out::typescript();
    if std::env::var_os("QIYUAN_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &generated).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "{} is out of date: run `QIYUAN_BLESS=1 cargo test -p qiyuan-server --test it protocol_types` and commit it",
        path.display()
    );
    // The union names every message type.
    for t in server_types() {
        assert!(
            committed.contains(&format!("\"t\": \"{t}\"")),
            "{t} missing"
        );
    }
}

/// The message types `ServerMsg` has, read from its generated declaration.
fn server_types() -> BTreeSet<String> {
    let decl = qiyuan_server::protocol::out::server_msg_decl();
    let mut types = BTreeSet::new();
    let mut rest = decl.as_str();
    while let Some(at) = rest.find("\"t\": \"") {
        rest = &rest[at + 6..];
        let end = rest.find('"').expect("a closing quote");
        types.insert(rest[..end].to_string());
        rest = &rest[end..];
    }
    types
}

/// The message types a section of docs/protocol.md lists in its table: every
/// backticked name in the first cell of each row.
fn documented(section: &str) -> BTreeSet<String> {
    let doc = std::fs::read_to_string(workspace().join("docs/protocol.md")).unwrap();
    let start = doc
        .find(&format!("### {section}\n"))
        .unwrap_or_else(|| panic!("no section {section:?} in docs/protocol.md"));
    let body = &doc[start + section.len() + 5..];
    let body = &body[..body.find("\n### ").unwrap_or(body.len())];
    let mut types = BTreeSet::new();
    for line in body.lines() {
        let Some(row) = line.strip_prefix("| ") else {
            continue;
        };
        let cell = row.split(" |").next().unwrap_or("");
        for name in cell.split('`').skip(1).step_by(2) {
            if name != "t" {
                types.insert(name.to_string());
            }
        }
    }
    types
}

#[test]
fn protocol_md_documents_every_server_message_and_no_other() {
    let types = server_types();
    assert!(types.len() >= 10, "too few server messages read: {types:?}");
    assert_eq!(documented("Server → client"), types);
}

#[test]
fn protocol_md_documents_every_client_message_and_no_other() {
    let parsed: BTreeSet<String> = qiyuan_server::protocol::client_types()
        .iter()
        .chain(qiyuan_server::protocol::table_types())
        .map(|t| t.to_string())
        .collect();
    // Each type the lists name is one the parser knows.
    for t in &parsed {
        let text = format!(r#"{{"t":"{t}","d":{{}}}}"#);
        if let Err((e, _)) = qiyuan_server::protocol::parse(&text) {
            assert_ne!(e.code, "unknown_type", "{t} is listed but not parsed");
        }
    }
    let mut documented_types = documented("Client → server");
    documented_types.extend(documented_table_commands());
    assert_eq!(documented_types, parsed);
}

/// The table commands' table, which follows the client messages' one.
fn documented_table_commands() -> BTreeSet<String> {
    let doc = std::fs::read_to_string(workspace().join("docs/protocol.md")).unwrap();
    let start = doc.find("| `t` | extra fields | meaning |").unwrap();
    let body = &doc[start..];
    let body = &body[..body.find("\n\n").unwrap_or(body.len())];
    let mut types = BTreeSet::new();
    for line in body.lines().skip(2) {
        let Some(row) = line.strip_prefix("| ") else {
            continue;
        };
        let cell = row.split(" |").next().unwrap_or("");
        for name in cell.split('`').skip(1).step_by(2) {
            types.insert(name.to_string());
        }
    }
    types
}
