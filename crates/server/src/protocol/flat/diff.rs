//! The patch between two indexed texts, written straight as JSON text: the
//! operations of [`crate::protocol::patch::diff`], a subtree whose text did not
//! change skipped whole.

use std::fmt::Write as _;

use super::{Flat, Kind, Node, inner};

/// A step of the path being walked: a key's JSON text, or an index.
#[derive(Clone, Copy)]
enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

struct Differ<'a, 'o> {
    a: &'a Flat,
    b: &'a Flat,
    path: Vec<Step<'a>>,
    out: &'o mut String,
    first: bool,
}

/// Appends the patch that turns `old` into `new` to `out`: its operations as
/// JSON objects separated by commas (no brackets), nothing if they are equal.
pub fn diff_into(old: &Flat, new: &Flat, out: &mut String) {
    if old.nodes.is_empty() || new.nodes.is_empty() {
        if old.text != new.text {
            whole_into(&new.text, out);
        }
        return;
    }
    let mut d = Differ {
        a: old,
        b: new,
        path: Vec::new(),
        out,
        first: true,
    };
    d.at(0, 0);
}

/// Appends to `out` (after a comma if `comma`) the operations that turn an
/// array a client holds at `path` (JSON keys with their quotes, separated by
/// commas: `"game","moves"`) into `list`: the client's array has `had` items,
/// the first `kept` of which are `list`'s first. A `trunc` to `kept` items if
/// it had more, then a `push` of `list`'s items after them; a `set` of the
/// whole list if `list` is not an indexed array of at least `kept` items.
/// `start`: where in `list`'s text its item `kept` starts, if the caller knows
/// (else its items are walked to find it). Whether it wrote anything.
pub fn array_ops_into(
    path: &str,
    list: &Flat,
    kept: usize,
    start: Option<u32>,
    had: usize,
    comma: bool,
    out: &mut String,
) -> bool {
    let op = |out: &mut String, comma: bool, op: &str| {
        if comma {
            out.push(',');
        }
        out.push_str(r#"{"op":""#);
        out.push_str(op);
        out.push_str(r#"","path":["#);
        out.push_str(path);
        out.push(']');
    };
    let len = match list.nodes.first() {
        Some(root) if root.kind == Kind::Array && root.children as usize >= kept => {
            root.children as usize
        }
        _ => {
            op(out, comma, "set");
            out.push_str(r#","value":"#);
            out.push_str(&list.text);
            out.push('}');
            return true;
        }
    };
    let mut wrote = false;
    if had > kept {
        op(out, comma, "trunc");
        let _ = write!(out, r#","len":{kept}}}"#);
        wrote = true;
    }
    if len > kept {
        // The items after the kept ones: to the array's closing bracket.
        let start = start.map(|s| s as usize).or_else(|| {
            let item = list.children(0).nth(kept)?;
            Some(list.nodes[item].start as usize)
        });
        let end = list.text.len() - 1;
        if let Some(items) = start.and_then(|s| list.text.get(s..end)) {
            op(out, comma || wrote, "push");
            out.push_str(r#","values":["#);
            out.push_str(items);
            out.push_str("]}");
            wrote = true;
        }
    }
    wrote
}

/// Appends the one operation that sets the whole view (its JSON text).
pub fn whole_into(view: &str, out: &mut String) {
    out.push_str(r#"{"op":"set","path":[],"value":"#);
    out.push_str(view);
    out.push('}');
}

impl<'a> Differ<'a, '_> {
    fn op(&mut self, op: &str) {
        if !self.first {
            self.out.push(',');
        }
        self.first = false;
        self.out.push_str(r#"{"op":""#);
        self.out.push_str(op);
        self.out.push_str(r#"","path":["#);
        for (k, step) in self.path.iter().enumerate() {
            if k > 0 {
                self.out.push(',');
            }
            match step {
                Step::Key(key) => self.out.push_str(key),
                Step::Index(i) => {
                    let _ = write!(self.out, "{i}");
                }
            }
        }
        self.out.push(']');
    }

    fn set(&mut self, b: usize) {
        self.op("set");
        self.out.push_str(r#","value":"#);
        self.raw(&self.b.nodes[b]);
        self.out.push('}');
    }

    fn raw(&mut self, n: &Node) {
        let text = &self.b.text[n.start as usize..n.end as usize];
        self.out.push_str(text);
    }

    fn at(&mut self, ia: usize, ib: usize) {
        let (na, nb) = (self.a.nodes[ia], self.b.nodes[ib]);
        if self.a.of(&na) == self.b.of(&nb) {
            return;
        }
        match (na.kind, nb.kind) {
            (Kind::Object, Kind::Object) => self.objects(ia, ib),
            (Kind::Array, Kind::Array) => self.arrays(ia, ib),
            _ => self.set(ib),
        }
    }

    fn objects(&mut self, ia: usize, ib: usize) {
        let (a, b) = (self.a, self.b);
        // The common case, a typed view's struct: the same keys in the same
        // order. Walked in that order, with nothing collected or sorted.
        let key_a = |i: usize| a.key(&a.nodes[i]);
        let key_b = |i: usize| b.key(&b.nodes[i]);
        if a.nodes[ia].children == b.nodes[ib].children
            && a.children(ia)
                .zip(b.children(ib))
                .all(|(x, y)| key_a(x) == key_b(y))
        {
            for (x, y) in a.children(ia).zip(b.children(ib)) {
                self.path.push(Step::Key(key_b(y)));
                self.at(x, y);
                self.path.pop();
            }
            return;
        }
        let sorted = |f: &'a Flat, i: usize| {
            let mut members: Vec<(&'a str, usize)> =
                f.children(i).map(|c| (f.key(&f.nodes[c]), c)).collect();
            // As `serde_json`'s map orders them: by the key.
            if !members.is_sorted_by(|x, y| inner(x.0) <= inner(y.0)) {
                members.sort_by(|x, y| inner(x.0).cmp(inner(y.0)));
            }
            members
        };
        let (old, new) = (sorted(a, ia), sorted(b, ib));
        let (mut x, mut y) = (0, 0);
        while x < old.len() || y < new.len() {
            let order = match (old.get(x), new.get(y)) {
                (Some((ka, _)), Some((kb, _))) if ka == kb => std::cmp::Ordering::Equal,
                (Some((ka, _)), Some((kb, _))) => inner(ka).cmp(inner(kb)),
                (Some(_), None) => std::cmp::Ordering::Less,
                _ => std::cmp::Ordering::Greater,
            };
            match order {
                std::cmp::Ordering::Equal => {
                    self.path.push(Step::Key(new[y].0));
                    self.at(old[x].1, new[y].1);
                    self.path.pop();
                    x += 1;
                    y += 1;
                }
                std::cmp::Ordering::Less => {
                    // Only in the old view.
                    self.path.push(Step::Key(old[x].0));
                    self.op("del");
                    self.out.push('}');
                    self.path.pop();
                    x += 1;
                }
                std::cmp::Ordering::Greater => {
                    // Only in the new view.
                    self.path.push(Step::Key(new[y].0));
                    self.set(new[y].1);
                    self.path.pop();
                    y += 1;
                }
            }
        }
    }

    fn arrays(&mut self, ia: usize, ib: usize) {
        let (a, b) = (self.a, self.b);
        let (la, lb) = (a.nodes[ia].children as usize, b.nodes[ib].children as usize);
        let item_a = |i: usize| a.of(&a.nodes[i]);
        let item_b = |i: usize| b.of(&b.nodes[i]);
        // Whether the first `n` items are the same: their texts from the
        // first's start to the `n`th's end are (one comparison: a list of
        // values with commas between them reads one way only).
        let same_prefix = |n: usize| {
            let Some(last) = n.checked_sub(1) else {
                return true;
            };
            let span = |f: &'a Flat, i: usize| {
                let first = f.nodes[i + 1];
                let end = f.children(i).nth(last).map(|c| f.nodes[c].end);
                end.map(|end| &f.text.as_bytes()[first.start as usize..end as usize])
            };
            span(a, ia).is_some_and(|x| span(b, ib) == Some(x))
        };
        if la == lb && b.children(ib).all(|y| b.nodes[y].kind == Kind::Scalar) {
            // A list of plain values (legal moves): the changed items, or the
            // whole list when most of it changed.
            let changed = a
                .children(ia)
                .zip(b.children(ib))
                .filter(|&(x, y)| item_a(x) != item_b(y))
                .count();
            if changed > 0 && lb > 1 && changed * 2 > lb {
                self.set(ib);
            } else if changed > 0 {
                for (i, (x, y)) in a.children(ia).zip(b.children(ib)).enumerate() {
                    if item_a(x) != item_b(y) {
                        self.path.push(Step::Index(i));
                        self.set(y);
                        self.path.pop();
                    }
                }
            }
        } else if la == lb {
            // Item by item (a seat changed, a stone was placed).
            for (i, (x, y)) in a.children(ia).zip(b.children(ib)).enumerate() {
                self.path.push(Step::Index(i));
                self.at(x, y);
                self.path.pop();
            }
        } else if lb > la && same_prefix(la) {
            // The items after the old ones (compact JSON: with their commas).
            let mut added = b.children(ib).skip(la).map(|y| b.nodes[y]);
            let Some(first) = added.next() else { return };
            let last = added.last().unwrap_or(first);
            self.op("push");
            self.out.push_str(r#","values":["#);
            self.out
                .push_str(&b.text[first.start as usize..last.end as usize]);
            self.out.push_str("]}");
        } else if lb < la && same_prefix(lb) {
            self.op("trunc");
            let _ = write!(self.out, r#","len":{lb}}}"#);
        } else {
            self.set(ib);
        }
    }
}
