//! The flat patch against `patch::diff` of the same views, and the index
//! against a fresh scan of the same text.

use super::*;
use crate::protocol::patch;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};

/// The flat patch of two texts, parsed.
fn flat_patch(old: &str, new: &str) -> Value {
    let mut out = String::from("[");
    diff_into(&Flat::new(old.into()), &Flat::new(new.into()), &mut out);
    out.push(']');
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

/// A patch's operations as texts, in order of their paths (siblings are
/// the only operations whose order may differ, and their paths differ).
fn by_path(patch: &Value) -> Vec<String> {
    let mut ops: Vec<String> = patch
        .as_array()
        .expect("a patch is a list")
        .iter()
        .map(|op| format!("{} {op}", op["path"]))
        .collect();
    ops.sort();
    ops
}

/// The flat diff of two values' texts is the `Value` diff, operation for
/// operation (siblings perhaps in another order), and turns the old value
/// into the new one.
fn same_as_value_diff(old: &Value, new: &Value) {
    let want = serde_json::to_value(patch::diff(old, new)).unwrap();
    let got = flat_patch(&old.to_string(), &new.to_string());
    assert_eq!(by_path(&got), by_path(&want), "{old} -> {new}");
    let ops: Vec<patch::PatchOp> = serde_json::from_value(got).unwrap();
    let mut applied = old.clone();
    patch::apply(&mut applied, &ops).expect("the patch fits");
    assert_eq!(&applied, new, "{old} -> {new}");
}

#[test]
fn a_value_is_found_by_its_path() {
    let f = Flat::new(r#"{"you":1,"game":{"claims":[],"board":{"x":"y"}},"z":null}"#.into());
    let at = |path: &[&str]| {
        f.find_under(path, &mut Vec::new())
            .map(|n| std::str::from_utf8(f.of(&f.nodes[n])).unwrap())
    };
    assert_eq!(at(&["you"]), Some("1"));
    assert_eq!(at(&["game", "board"]), Some(r#"{"x":"y"}"#));
    assert_eq!(at(&["game", "claims"]), Some("[]"));
    assert_eq!(at(&[]), Some(f.text()));
    assert_eq!(at(&["game", "nothing"]), None);
    assert_eq!(at(&["you", "deeper"]), None);
    assert_eq!(Flat::new("{".into()).find_under(&[], &mut Vec::new()), None);
}

#[test]
fn a_replaced_index_is_the_replaced_texts_index() {
    let mut rng = StdRng::seed_from_u64(7);
    let mut replaced = 0;
    for _ in 0..3000 {
        let old = random_value(&mut rng, 4);
        let flat = Flat::new(old.to_string());
        // Up to three members of the top two levels, replaced by random values.
        let mut paths: Vec<Vec<String>> = Vec::new();
        if let Some(map) = old.as_object() {
            for (k, v) in map {
                paths.push(vec![k.clone()]);
                if let Some(inner) = v.as_object() {
                    paths.extend(inner.keys().map(|k2| vec![k.clone(), k2.clone()]));
                }
            }
        }
        let chosen: Vec<Vec<String>> = paths
            .into_iter()
            .filter(|_| rng.gen_bool(0.4))
            .take(3)
            .collect();
        let parts: Vec<(Vec<&str>, String)> = chosen
            .iter()
            .map(|p| {
                let path = p.iter().map(String::as_str).collect();
                (path, random_value(&mut rng, 2).to_string())
            })
            .collect();
        let parts: Vec<(&[&str], Flat)> = parts
            .iter()
            .map(|(p, t)| (p.as_slice(), Flat::new(t.clone())))
            .collect();
        let nested = chosen
            .iter()
            .any(|a| chosen.iter().any(|b| a != b && b.starts_with(a)));
        let refs: Vec<(&[&str], &Flat)> = parts.iter().map(|(p, f)| (*p, f)).collect();
        let Some(got) = flat.replaced(&refs) else {
            assert!(nested, "refused {chosen:?} in {old}");
            continue;
        };
        assert!(!nested, "replaced nested {chosen:?} in {old}");
        let want = Flat::new(got.text.clone());
        assert_eq!(got.nodes, want.nodes, "{chosen:?} in {old} -> {}", got.text);
        // And the text is the old one with those values replaced.
        let mut value = old.clone();
        for (path, part) in &parts {
            let mut at = &mut value;
            for key in path.iter() {
                at = &mut at[*key];
            }
            *at = serde_json::from_str(part.text()).unwrap();
        }
        assert_eq!(serde_json::from_str::<Value>(&got.text).unwrap(), value);
        replaced += 1;
    }
    assert!(replaced > 1000, "only {replaced} cases");
}

#[test]
fn an_array_grown_and_cut_keeps_its_index() {
    let mut rng = StdRng::seed_from_u64(19);
    for _ in 0..200 {
        let mut flat = Flat::empty_array();
        let mut model: Vec<Value> = Vec::new();
        for _ in 0..20 {
            if rng.gen_bool(0.7) {
                let items: Vec<Value> = (0..rng.gen_range(0..4))
                    .map(|_| random_value(&mut rng, 2))
                    .collect();
                let flats: Vec<Flat> = items.iter().map(|v| Flat::of_value(v, 16)).collect();
                assert!(flat.push_items(&flats, &mut Vec::new()));
                model.extend(items);
            } else {
                let len = rng.gen_range(0..=model.len() + 1);
                assert!(flat.truncate_items(len));
                model.truncate(len);
            }
            assert_eq!(flat.text, serde_json::to_string(&model).unwrap());
            assert!(flat.index_is_fresh(), "{}", flat.text);
        }
    }
    // Not an array: refused, unchanged.
    let mut object = Flat::new(r#"{"a":1}"#.into());
    assert!(!object.push_items(&[Flat::new("1".into())], &mut Vec::new()));
    assert!(!object.truncate_items(0));
    assert_eq!(object.text, r#"{"a":1}"#);
    let mut unindexed = Flat::empty_array();
    assert!(!unindexed.push_items(&[Flat::new("[1,".into())], &mut Vec::new()));
    assert_eq!(unindexed.text, "[]");
}

#[test]
fn the_index_finds_every_value() {
    let f = Flat::new(r#" {"a" : [1, "x\"]", {}], "b":{"c":null},"d":[]} "#.into());
    let kinds: Vec<Kind> = f.nodes.iter().map(|n| n.kind).collect();
    use Kind::*;
    assert_eq!(
        kinds,
        [Object, Array, Scalar, Scalar, Object, Object, Scalar, Array]
    );
    assert_eq!(f.nodes[0].children, 3);
    assert_eq!(f.nodes[1].children, 3);
    assert_eq!(f.nodes[1].size, 4);
    assert_eq!(f.key(&f.nodes[5]), r#""b""#);
    assert_eq!(f.of(&f.nodes[3]), br#""x\"]""#);
    for bad in [
        "",
        "{",
        r#"{"a"}"#,
        "[1,]x",
        r#"{"a":1]"#,
        "[1] 2",
        r#""abc"#,
    ] {
        assert!(Flat::new(bad.into()).nodes.is_empty(), "{bad}");
    }
}

#[test]
fn like_the_value_diff_on_the_patch_cases() {
    let cases = [
        (
            json!({"a": [1, 2], "b": {"c": null}}),
            json!({"a": [1, 2], "b": {"c": null}}),
        ),
        (
            json!({"moves": [{"a": 1}, {"a": 2}], "v": 1}),
            json!({"moves": [{"a": 1}, {"a": 2}, {"a": 3}], "v": 2}),
        ),
        (json!({"m": [1, 2, 3]}), json!({"m": [1]})),
        (json!({"m": [1, 2, 3]}), json!({"m": [4, 5]})),
        (json!({"m": [1, 2, 3]}), json!({"m": []})),
        (json!({"m": []}), json!({"m": [{"x": 1}]})),
        (json!({"g": null}), json!({"g": {"x": [1]}})),
        (json!({"g": {"x": 1, "y": 2}}), json!({"g": {"y": 3}})),
        (json!([1, 2]), json!({"a": 1})),
        (
            json!({"board": [[0, 0, 0], [0, 0, 0], [0, 0, 0]]}),
            json!({"board": [[0, 0, 0], [0, 1, 0], [0, 0, 0]]}),
        ),
        (
            json!({"l": ["a", "b", "c", "d"]}),
            json!({"l": ["a", "x", "c", "d"]}),
        ),
        (json!({"l": ["a", "b", "c"]}), json!({"l": ["x", "y", "c"]})),
        (
            json!({"a": 1, "c": 2, "e": 3}),
            json!({"b": 1, "c": 3, "d": 4}),
        ),
        (json!({"a": "x"}), json!({"a": "x\"y\\"})),
        (json!({"ab": 1, "a": 2}), json!({"a": 3, "ab": 4})),
    ];
    for (old, new) in &cases {
        same_as_value_diff(old, new);
    }
}

#[test]
fn members_in_a_typed_order_are_walked_in_that_order() {
    // A typed view writes its fields in declaration order, not sorted.
    let old = r#"{"z":1,"moves":["e4"],"a":{"y":1,"b":2}}"#;
    let new = r#"{"z":2,"moves":["e4","e5"],"a":{"y":1,"b":3}}"#;
    let (o, n): (Value, Value) = (
        serde_json::from_str(old).unwrap(),
        serde_json::from_str(new).unwrap(),
    );
    same_as_value_diff(&o, &n);
    let paths: Vec<Value> = flat_patch(old, new)
        .as_array()
        .unwrap()
        .iter()
        .map(|op| op["path"].clone())
        .collect();
    assert_eq!(paths, [json!(["z"]), json!(["moves"]), json!(["a", "b"])]);
    // Keys that differ: by key, as the `Value` diff walks them.
    let added = r#"{"z":2,"moves":["e4","e5"],"a":{"y":1,"b":3},"c":true}"#;
    let want = patch::diff(&o, &serde_json::from_str(added).unwrap());
    assert_eq!(flat_patch(old, added), serde_json::to_value(want).unwrap());
}

fn random_value(rng: &mut StdRng, depth: u32) -> Value {
    match rng.gen_range(0..if depth == 0 { 4 } else { 7 }) {
        0 => Value::Null,
        1 => json!(rng.gen_range(0..4)),
        2 => json!(["a", "b", "é\n"][rng.gen_range(0..3)]),
        3 => json!(rng.gen_bool(0.5)),
        4 | 5 => {
            let n = rng.gen_range(0..4);
            let keys = ["a", "b", "c", "moves", "seat"];
            Value::Object(
                (0..n)
                    .map(|_| {
                        let k = keys[rng.gen_range(0..keys.len())].to_string();
                        (k, random_value(rng, depth - 1))
                    })
                    .collect(),
            )
        }
        _ => {
            let n = rng.gen_range(0..5);
            Value::Array((0..n).map(|_| random_value(rng, depth - 1)).collect())
        }
    }
}

#[test]
fn an_index_made_while_writing_is_the_scanned_one() {
    // Random values, and what a typed view may hold besides: escapes,
    // characters beyond ASCII, numbers of every kind, map keys that are
    // numbers (written in quotes), empty members, unit and newtype variants.
    #[derive(serde::Serialize)]
    enum Shape {
        Unit,
        New(u8),
        Tuple(i64, f64),
        Named { a: Option<u32>, b: Vec<()> },
    }
    #[derive(serde::Serialize)]
    struct Typed {
        text: &'static str,
        numbers: (i8, u128, i128, f32, f64, f64),
        keys: std::collections::BTreeMap<u32, &'static str>,
        empty: (Vec<u8>, std::collections::BTreeMap<String, u8>),
        shapes: Vec<Shape>,
        bytes: serde_bytes_like::Bytes,
        c: char,
    }
    mod serde_bytes_like {
        pub struct Bytes(pub &'static [u8]);
        impl serde::Serialize for Bytes {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_bytes(self.0)
            }
        }
    }
    let typed = Typed {
        text: "a \"quoted\" \\ back\u{1}slash\n, 棋苑 ✓ \u{1F600}",
        numbers: (-8, u128::MAX, i128::MIN, 1.5, f64::NAN, -0.25e-300),
        keys: [(1, "one"), (22, "二十二")].into_iter().collect(),
        empty: (Vec::new(), Default::default()),
        shapes: vec![
            Shape::Unit,
            Shape::New(7),
            Shape::Tuple(-1, 2.0),
            Shape::Named {
                a: None,
                b: vec![(), ()],
            },
        ],
        bytes: serde_bytes_like::Bytes(&[0, 255]),
        c: '"',
    };
    let same = |text: &str, nodes: Option<Vec<Node>>| {
        let nodes = nodes.unwrap_or_else(|| panic!("not followed: {text}"));
        assert_eq!(nodes, scan(text.as_bytes()).unwrap(), "{text}");
    };
    let (text, nodes) = written(&typed, 8).unwrap();
    assert_eq!(text, serde_json::to_string(&typed).unwrap());
    same(&text, nodes);
    let mut rng = StdRng::seed_from_u64(11);
    for _ in 0..3000 {
        let v = random_value(&mut rng, 5);
        let (text, nodes) = written(&v, 16).unwrap();
        assert_eq!(text, v.to_string());
        same(&text, nodes);
        assert!(Flat::of_value(&v, 16).index_is_fresh());
    }
    // A raw fragment is not followed: the text is indexed by reading it.
    #[derive(serde::Serialize)]
    struct WithRaw {
        raw: Box<serde_json::value::RawValue>,
    }
    let raw = serde_json::value::RawValue::from_string(r#"{"x": [1, 2]}"#.into()).unwrap();
    let with_raw = WithRaw { raw };
    assert_eq!(written(&with_raw, 16).unwrap().1, None);
    let flat = Flat::of_value(&with_raw, 16);
    assert_eq!(flat.text(), r#"{"raw":{"x": [1, 2]}}"#);
    assert!(
        !flat.nodes.is_empty() && flat.index_is_fresh(),
        "{}",
        flat.text()
    );
}

/// A changed copy: some values replaced, arrays grown or cut.
fn mutate(rng: &mut StdRng, v: &Value, depth: u32) -> Value {
    if rng.gen_range(0..8) == 0 {
        return random_value(rng, depth);
    }
    match v {
        Value::Object(m) => {
            let mut kept = serde_json::Map::new();
            for (k, x) in m {
                if rng.gen_range(0..10) > 0 {
                    kept.insert(k.clone(), mutate(rng, x, depth.saturating_sub(1)));
                }
            }
            let mut m = kept;
            if rng.gen_range(0..5) == 0 {
                m.insert("new".into(), random_value(rng, 1));
            }
            Value::Object(m)
        }
        Value::Array(items) => {
            let mut items: Vec<Value> = items.clone();
            for x in &mut items {
                if rng.gen_range(0..4) == 0 {
                    *x = mutate(rng, x, depth.saturating_sub(1));
                }
            }
            match rng.gen_range(0..4) {
                0 => items.push(random_value(rng, 1)),
                1 => {
                    items.pop();
                }
                _ => {}
            }
            Value::Array(items)
        }
        _ => v.clone(),
    }
}

#[test]
fn like_the_value_diff_on_random_changes() {
    let mut rng = StdRng::seed_from_u64(19);
    for _ in 0..5000 {
        let old = random_value(&mut rng, 4);
        let new = mutate(&mut rng, &old, 4);
        same_as_value_diff(&old, &new);
        let mut applied = old.clone();
        let ops: Vec<patch::PatchOp> =
            serde_json::from_value(flat_patch(&old.to_string(), &new.to_string())).unwrap();
        patch::apply(&mut applied, &ops).unwrap();
        assert_eq!(applied, new);
    }
}

#[test]
fn a_text_it_cannot_index_is_patched_whole() {
    let old = Flat::new("{".into());
    let new = Flat::new(r#"{"a":1}"#.into());
    let mut out = String::new();
    diff_into(&old, &new, &mut out);
    assert_eq!(out, r#"{"op":"set","path":[],"value":{"a":1}}"#);
}
