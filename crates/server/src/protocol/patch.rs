//! What changed in a viewer's view: the patch an `event` carries instead of the
//! whole view (docs/protocol.md, "Patches"). A patch is computed from the two
//! views themselves, the one the socket last received and the one it gets now,
//! each already filtered for its viewer by `Game::view`; so a patch can tell no
//! more than the new view does, and secrecy stays exactly as the views make it.
//!
//! The operations, applied in order, each at a path of object keys and array
//! indices from the view's root:
//! - `set`: the value at the path is replaced (or the key added); the empty path
//!   replaces the whole view;
//! - `push`: the array at the path grew: these values are appended;
//! - `trunc`: the array at the path shrank to its first `len` elements (a takeback);
//! - `del`: the object key at the path is gone.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use ts_rs::TS;

/// A step of a path: an object's key or an array's index.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(untagged)]
pub enum PathKey {
    Key(String),
    Index(usize),
}

/// One change of a view.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum PatchOp {
    /// The value at `path` is `value` (the whole view for the empty path).
    Set {
        path: Vec<PathKey>,
        #[ts(type = "unknown")]
        value: Value,
    },
    /// The array at `path` has `values` appended.
    Push {
        path: Vec<PathKey>,
        #[ts(type = "Array<unknown>")]
        values: Vec<Value>,
    },
    /// The array at `path` keeps its first `len` elements.
    Trunc { path: Vec<PathKey>, len: usize },
    /// The object key at `path` is removed.
    Del { path: Vec<PathKey> },
}

/// The patch that turns `old` into `new`.
pub fn diff(old: &Value, new: &Value) -> Vec<PatchOp> {
    let mut ops = Vec::new();
    let mut path = Vec::new();
    diff_at(old, new, &mut path, &mut ops);
    ops
}

/// The patch that sets the whole view (for a socket that has none yet).
pub fn whole(view: Value) -> Vec<PatchOp> {
    vec![PatchOp::Set {
        path: Vec::new(),
        value: view,
    }]
}

/// A step of the path being walked, borrowed from the views (owned only in the
/// operations emitted).
#[derive(Clone, Copy)]
enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

fn owned(path: &[Step<'_>]) -> Vec<PathKey> {
    path.iter()
        .map(|s| match s {
            Step::Key(k) => PathKey::Key((*k).to_string()),
            Step::Index(i) => PathKey::Index(*i),
        })
        .collect()
}

fn set(path: &[Step<'_>], value: &Value) -> PatchOp {
    PatchOp::Set {
        path: owned(path),
        value: value.clone(),
    }
}

fn diff_at<'a>(old: &'a Value, new: &'a Value, path: &mut Vec<Step<'a>>, ops: &mut Vec<PatchOp>) {
    match (old, new) {
        (Value::Object(a), Value::Object(b)) => diff_objects(a, b, path, ops),
        (Value::Array(a), Value::Array(b)) => diff_arrays(a, b, path, ops),
        _ if old == new => {}
        _ => ops.push(set(path, new)),
    }
}

fn diff_objects<'a>(
    a: &'a Map<String, Value>,
    b: &'a Map<String, Value>,
    path: &mut Vec<Step<'a>>,
    ops: &mut Vec<PatchOp>,
) {
    // Both maps iterate in key order (serde_json's map is sorted: the test
    // `maps_iterate_in_key_order` keeps it so): walked side by side, each key
    // is compared once, with no lookups.
    let (mut old, mut new) = (a.iter().peekable(), b.iter().peekable());
    loop {
        let gone = match (old.peek(), new.peek()) {
            (None, None) => break,
            (Some((ka, _)), Some((kb, _))) if ka == kb => {
                if let (Some((key, x)), Some((_, y))) = (old.next(), new.next()) {
                    path.push(Step::Key(key));
                    diff_at(x, y, path, ops);
                    path.pop();
                }
                continue;
            }
            (Some((ka, _)), Some((kb, _))) => ka < kb,
            (Some(_), None) => true,
            (None, Some(_)) => false,
        };
        if gone {
            // Only in the old view.
            if let Some((key, _)) = old.next() {
                path.push(Step::Key(key));
                ops.push(PatchOp::Del { path: owned(path) });
                path.pop();
            }
        } else if let Some((key, y)) = new.next() {
            // Only in the new view.
            path.push(Step::Key(key));
            ops.push(set(path, y));
            path.pop();
        }
    }
}

fn diff_arrays<'a>(
    a: &'a [Value],
    b: &'a [Value],
    path: &mut Vec<Step<'a>>,
    ops: &mut Vec<PatchOp>,
) {
    let plain = |v: &Value| !v.is_object() && !v.is_array();
    if a.len() == b.len() && b.iter().all(plain) {
        // A list of plain values (legal moves): the changed items, or the
        // whole list when most of it changed.
        let changed = a.iter().zip(b).filter(|(x, y)| x != y).count();
        if changed > 0 && b.len() > 1 && changed * 2 > b.len() {
            ops.push(PatchOp::Set {
                path: owned(path),
                value: Value::Array(b.to_vec()),
            });
        } else if changed > 0 {
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                if x != y {
                    path.push(Step::Index(i));
                    ops.push(set(path, y));
                    path.pop();
                }
            }
        }
    } else if a.len() == b.len() {
        // Item by item (a seat changed, a stone was placed).
        for (i, (x, y)) in a.iter().zip(b).enumerate() {
            path.push(Step::Index(i));
            diff_at(x, y, path, ops);
            path.pop();
        }
    } else if b.len() > a.len() && b[..a.len()] == *a {
        ops.push(PatchOp::Push {
            path: owned(path),
            values: b[a.len()..].to_vec(),
        });
    } else if b.len() < a.len() && a[..b.len()] == *b {
        ops.push(PatchOp::Trunc {
            path: owned(path),
            len: b.len(),
        });
    } else {
        ops.push(PatchOp::Set {
            path: owned(path),
            value: Value::Array(b.to_vec()),
        });
    }
}

/// The error of a patch that does not fit the view it is applied to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Misfit;

/// A subscriber's copy of its view, kept up to date from the messages it gets:
/// a `sync`'s whole `state`, then each `event`'s patch (the server's own
/// subscribers — the Lichess API's streams — follow a table this way).
#[derive(Debug, Default)]
pub struct Follower {
    view: Option<Value>,
}

impl Follower {
    /// Takes in a table message; returns the view after it for a `sync` or an
    /// `event`, `None` for anything else or a patch that does not fit (which
    /// cannot happen for a subscriber that missed nothing: the server diffs
    /// against what it sent).
    pub fn feed(&mut self, msg: &Value) -> Option<&Value> {
        match msg["t"].as_str()? {
            "sync" => self.view = Some(msg["d"]["state"].clone()),
            "event" => {
                let ops: Vec<PatchOp> = serde_json::from_value(msg["d"]["patch"].clone()).ok()?;
                let mut view = self.view.take().unwrap_or(Value::Null);
                apply(&mut view, &ops).ok()?;
                self.view = Some(view);
            }
            _ => return None,
        }
        self.view.as_ref()
    }
}

/// Applies `ops` to `view` in place (a client's side of [`diff`]).
pub fn apply(view: &mut Value, ops: &[PatchOp]) -> Result<(), Misfit> {
    for op in ops {
        match op {
            PatchOp::Set { path, value } => *at(view, path)? = value.clone(),
            PatchOp::Push { path, values } => match at(view, path)? {
                Value::Array(items) => items.extend(values.iter().cloned()),
                _ => return Err(Misfit),
            },
            PatchOp::Trunc { path, len } => match at(view, path)? {
                Value::Array(items) if items.len() >= *len => items.truncate(*len),
                _ => return Err(Misfit),
            },
            PatchOp::Del { path } => {
                let (last, parent) = path.split_last().ok_or(Misfit)?;
                match (at(view, parent)?, last) {
                    (Value::Object(map), PathKey::Key(k)) => {
                        map.remove(k);
                    }
                    _ => return Err(Misfit),
                }
            }
        }
    }
    Ok(())
}

/// The value at `path`; an object's missing last key is added (as null).
fn at<'a>(mut v: &'a mut Value, path: &[PathKey]) -> Result<&'a mut Value, Misfit> {
    for key in path {
        v = match (v, key) {
            (Value::Object(map), PathKey::Key(k)) => map.entry(k.clone()).or_insert(Value::Null),
            (Value::Array(items), PathKey::Index(i)) => items.get_mut(*i).ok_or(Misfit)?,
            _ => return Err(Misfit),
        };
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn round_trip(old: Value, new: Value) -> Vec<PatchOp> {
        let ops = diff(&old, &new);
        let mut patched = old.clone();
        apply(&mut patched, &ops).expect("the patch fits");
        assert_eq!(patched, new, "{old} + {ops:?}");
        ops
    }

    #[test]
    fn equal_views_need_nothing() {
        let v = json!({"a": [1, 2], "b": {"c": null}});
        assert!(round_trip(v.clone(), v).is_empty());
    }

    #[test]
    fn a_grown_list_is_sent_as_its_suffix() {
        let ops = round_trip(
            json!({"moves": [{"a": 1}, {"a": 2}], "v": 1}),
            json!({"moves": [{"a": 1}, {"a": 2}, {"a": 3}], "v": 2}),
        );
        assert_eq!(
            serde_json::to_value(&ops).unwrap(),
            json!([
                {"op": "push", "path": ["moves"], "values": [{"a": 3}]},
                {"op": "set", "path": ["v"], "value": 2},
            ])
        );
    }

    #[test]
    fn shrinking_changing_and_removing() {
        round_trip(json!({"m": [1, 2, 3]}), json!({"m": [1]}));
        round_trip(json!({"m": [1, 2, 3]}), json!({"m": [4, 5]}));
        round_trip(json!({"m": [1, 2, 3]}), json!({"m": []}));
        round_trip(json!({"g": null}), json!({"g": {"x": [1]}}));
        round_trip(json!({"g": {"x": 1, "y": 2}}), json!({"g": {"y": 3}}));
        round_trip(json!([1, 2]), json!({"a": 1}));
        let ops = round_trip(
            json!({"board": [[0, 0, 0], [0, 0, 0], [0, 0, 0]]}),
            json!({"board": [[0, 0, 0], [0, 1, 0], [0, 0, 0]]}),
        );
        assert_eq!(ops.len(), 1, "one stone is one change: {ops:?}");
    }

    #[test]
    fn a_list_of_plain_values_by_item_or_whole() {
        let one = round_trip(
            json!({"l": ["a", "b", "c", "d"]}),
            json!({"l": ["a", "x", "c", "d"]}),
        );
        assert_eq!(
            serde_json::to_value(&one).unwrap(),
            json!([{"op": "set", "path": ["l", 1], "value": "x"}])
        );
        let all = round_trip(json!({"l": ["a", "b", "c"]}), json!({"l": ["x", "y", "c"]}));
        assert_eq!(
            serde_json::to_value(&all).unwrap(),
            json!([{"op": "set", "path": ["l"], "value": ["x", "y", "c"]}])
        );
    }

    #[test]
    fn maps_iterate_in_key_order() {
        // The diff walks two objects side by side: their keys must come sorted
        // (serde_json without `preserve_order`).
        let mut m = Map::new();
        m.insert("b".into(), json!(1));
        m.insert("a".into(), json!(2));
        assert_eq!(m.keys().collect::<Vec<_>>(), ["a", "b"]);
        round_trip(
            json!({"a": 1, "c": 2, "e": 3}),
            json!({"b": 1, "c": 3, "d": 4}),
        );
    }

    #[test]
    fn a_patch_that_does_not_fit_is_an_error() {
        let ops = diff(&json!({"m": [1]}), &json!({"m": [1, 2]}));
        assert_eq!(apply(&mut json!({"m": 3}), &ops), Err(Misfit));
        let ops = diff(&json!([[1], [2]]), &json!([[1], [3]]));
        assert_eq!(apply(&mut json!([]), &ops), Err(Misfit));
    }
}
