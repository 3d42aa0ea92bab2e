//! A view as JSON text with its structure indexed ([`Flat`]), and the patch
//! between two of them written straight as JSON text ([`diff_into`]): the same
//! operations as [`super::patch::diff`] computes from two `serde_json::Value`
//! trees, without building either tree. The fan-out keeps
//! each socket's last view this way: a view is serialised once (from the typed
//! view), indexed by one pass over its bytes, and compared subtree by subtree
//! with `memcmp` — a subtree whose text did not change is skipped whole.
//!
//! The operations are `patch::diff`'s; only siblings may come in another order
//! (which does not change what the patch does: each touches its own member).
//! Two objects with the same keys in the same order — a typed view's structs,
//! whose fields the serialiser always writes in declaration order — are
//! walked in that order; others, by key, as `patch::diff` walks a `Value`'s
//! sorted map. Values in the operations are the view's own text (the same
//! JSON, its keys in the typed view's order). Equal text is equal JSON here
//! because both views come from the same serialiser, which writes a value the
//! same way every time.

mod diff;
mod index;
#[cfg(test)]
mod tests;

pub use diff::{array_ops_into, diff_into, whole_into};
use index::{scan, written};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Object,
    Array,
    Scalar,
}

/// One value of the text, in document order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Node {
    kind: Kind,
    /// The value's text: `text[start..end]`.
    start: u32,
    end: u32,
    /// An object member's key as its JSON text, quotes included (empty for an
    /// array's item or the root).
    key: (u32, u32),
    /// Nodes in this subtree, itself included: the next sibling's index is this
    /// one's plus `size`.
    size: u32,
    /// Direct children.
    children: u32,
}

/// A JSON text and its index.
#[derive(Debug)]
pub struct Flat {
    text: String,
    /// Empty if the text could not be indexed (then a patch from or to it is
    /// the whole view: always right, only larger).
    nodes: Vec<Node>,
}

impl Flat {
    /// Indexes a JSON text (as `serde_json` writes it; whitespace is allowed).
    pub fn new(text: String) -> Flat {
        let nodes = if text.len() < u32::MAX as usize {
            scan(text.as_bytes()).unwrap_or_default()
        } else {
            Vec::new()
        };
        Flat { text, nodes }
    }

    /// A value written as JSON and indexed as it is written, without reading
    /// the text again: the text `serde_json::to_string` writes and the index
    /// `Flat::new` makes of it (`null` should the value not serialise). The
    /// serialiser's formatter notes where each value starts and ends
    /// ([`Indexer`]); a text it could not follow is indexed by [`scan`].
    /// `capacity`: the bytes to make room for at first.
    pub fn of_value(value: &impl serde::Serialize, capacity: usize) -> Flat {
        match written(value, capacity) {
            Some((text, Some(nodes))) => Flat { text, nodes },
            Some((text, None)) => Flat::new(text),
            None => Flat::new("null".into()),
        }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// `[]`, indexed.
    pub fn empty_array() -> Flat {
        Flat {
            text: "[]".into(),
            nodes: vec![Node {
                kind: Kind::Array,
                start: 0,
                end: 2,
                key: (0, 0),
                size: 1,
                children: 0,
            }],
        }
    }

    /// An indexed array with its items after the first `len` dropped, its
    /// index kept (the same as `Flat::new` of the shorter text). `false`, and
    /// nothing changed, if this is not an indexed array.
    pub fn truncate_items(&mut self, len: usize) -> bool {
        let Some(root) = self.nodes.first() else {
            return false;
        };
        if root.kind != Kind::Array {
            return false;
        }
        if len >= root.children as usize {
            return true;
        }
        let (nodes, text) = match len.checked_sub(1) {
            None => (1, 1),
            Some(last) => {
                let Some(last) = self.children(0).nth(last) else {
                    return false;
                };
                let n = self.nodes[last];
                (last + n.size as usize, n.end as usize)
            }
        };
        self.nodes.truncate(nodes);
        self.text.truncate(text);
        self.text.push(']');
        let root = &mut self.nodes[0];
        root.end = self.text.len() as u32;
        root.size = nodes as u32;
        root.children = len as u32;
        true
    }

    /// An indexed array with `items` appended (each an indexed value), its
    /// index kept (the same as `Flat::new` of the longer text). `false`, and
    /// nothing changed, if this is not an indexed array, an item is not
    /// indexed, or the text would be too long to index.
    /// Where in the text each item starts is appended to `starts`.
    pub fn push_items(&mut self, items: &[Flat], starts: &mut Vec<u32>) -> bool {
        let added: usize = items.iter().map(|i| i.text.len() + 1).sum();
        if self.nodes.first().is_none_or(|r| r.kind != Kind::Array)
            || items.iter().any(|i| i.nodes.is_empty())
            || !self.text.ends_with(']')
            || self.text.len() + added >= u32::MAX as usize
        {
            return false;
        }
        self.text.pop();
        self.text.reserve(added + 1);
        let mut children = self.nodes[0].children;
        for item in items {
            if children > 0 {
                self.text.push(',');
            }
            let base = self.text.len() as u32;
            starts.push(base);
            self.text.push_str(&item.text);
            self.nodes.extend(item.nodes.iter().map(|n| Node {
                start: n.start + base,
                end: n.end + base,
                key: moved_key(n.key, &|pos| pos + base),
                ..*n
            }));
            children += 1;
        }
        self.text.push(']');
        let (end, size) = (self.text.len() as u32, self.nodes.len() as u32);
        let root = &mut self.nodes[0];
        root.end = end;
        root.size = size;
        root.children = children;
        true
    }

    /// Whether the index is the one `Flat::new` makes of the text (for tests
    /// of indexes made otherwise).
    #[cfg(test)]
    pub(crate) fn index_is_fresh(&self) -> bool {
        self.nodes == Flat::new(self.text.clone()).nodes
    }

    /// The node of the value at `path` (object keys, without their quotes: the
    /// keys of views need no escapes), pushing the nodes the path passes
    /// through (its ancestors, the root first) to `through`; `None` if there is
    /// none, or the text is not indexed.
    fn find_under(&self, path: &[&str], through: &mut Vec<usize>) -> Option<usize> {
        let mut at = 0;
        self.nodes.first()?;
        for key in path {
            if self.nodes[at].kind != Kind::Object {
                return None;
            }
            through.push(at);
            at = self
                .children(at)
                .find(|&c| inner(self.key(&self.nodes[c])) == *key)?;
        }
        Some(at)
    }

    /// Whether the value at `path` (object keys, without their quotes) is an
    /// object.
    pub fn is_object_at(&self, path: &[&str]) -> bool {
        self.find_under(path, &mut Vec::new())
            .is_some_and(|n| self.nodes[n].kind == Kind::Object)
    }

    /// This text with the values at some paths replaced (each by one indexed
    /// JSON value), indexed without reading any text again: the nodes outside
    /// the replaced values are this index's, moved, and those inside the
    /// replacements' own. The same as `Flat::new` of the replaced text. `None`
    /// if a path is not found, one replaced value holds another, or a
    /// replacement is not indexed.
    pub fn replaced(&self, parts: &[(&[&str], &Flat)]) -> Option<Flat> {
        struct Part<'t> {
            /// The replaced node, and the nodes above it.
            node: usize,
            above: Vec<usize>,
            text: &'t str,
            /// The replacement's index (offsets in `text`).
            nodes: &'t [Node],
            /// How many bytes and nodes it adds (or removes).
            bytes: i64,
            count: i64,
        }
        let mut found = Vec::with_capacity(parts.len());
        for (path, part) in parts {
            let mut above = Vec::with_capacity(path.len());
            let node = self.find_under(path, &mut above)?;
            let old = self.nodes[node];
            if part.nodes.is_empty() {
                return None;
            }
            let (text, nodes) = (part.text.as_str(), &part.nodes[..]);
            found.push(Part {
                node,
                above,
                text,
                bytes: text.len() as i64 - i64::from(old.end - old.start),
                count: nodes.len() as i64 - i64::from(old.size),
                nodes,
            });
        }
        found.sort_by_key(|p| p.node);
        if found
            .windows(2)
            .any(|w| w[1].node < w[0].node + self.nodes[w[0].node].size as usize)
        {
            return None;
        }
        let total: i64 = found.iter().map(|p| p.bytes).sum();
        let len = usize::try_from(self.text.len() as i64 + total).ok()?;
        if len >= u32::MAX as usize {
            return None;
        }
        let by = |pos: u32, shift: i64| (i64::from(pos) + shift) as u32;
        let moved = |n: &Node, shift: i64| Node {
            start: by(n.start, shift),
            end: by(n.end, shift),
            key: moved_key(n.key, &|pos| by(pos, shift)),
            ..*n
        };
        let mut text = String::with_capacity(len);
        let mut nodes = Vec::with_capacity((self.nodes.len() as i64 + 16).max(0) as usize);
        // Between two replaced values every node moves by the same bytes: those
        // the replacements before it add. (Its ancestors' ends move further,
        // below.)
        let (mut shift, mut next, mut copied) = (0i64, 0, 0);
        for part in &found {
            let old = self.nodes[part.node];
            nodes.extend(self.nodes[next..part.node].iter().map(|n| moved(n, shift)));
            text.push_str(&self.text[copied..old.start as usize]);
            let base = by(old.start, shift);
            nodes.extend(part.nodes.iter().enumerate().map(|(k, n)| Node {
                key: if k == 0 {
                    moved_key(old.key, &|pos| by(pos, shift))
                } else {
                    moved_key(n.key, &|pos| pos + base)
                },
                ..moved(n, i64::from(base))
            }));
            text.push_str(part.text);
            shift += part.bytes;
            next = part.node + old.size as usize;
            copied = old.end as usize;
        }
        nodes.extend(self.nodes[next..].iter().map(|n| moved(n, shift)));
        text.push_str(&self.text[copied..]);
        // The values holding a replaced one end that much further and hold
        // that many more nodes.
        for part in &found {
            for &a in &part.above {
                let before: i64 = found.iter().filter(|p| p.node < a).map(|p| p.count).sum();
                let n = &mut nodes[(a as i64 + before) as usize];
                n.end = by(n.end, part.bytes);
                n.size = (i64::from(n.size) + part.count) as u32;
            }
        }
        Some(Flat { text, nodes })
    }

    fn of(&self, n: &Node) -> &[u8] {
        &self.text.as_bytes()[n.start as usize..n.end as usize]
    }

    fn key(&self, n: &Node) -> &str {
        &self.text[n.key.0 as usize..n.key.1 as usize]
    }

    /// The indices of node `i`'s children.
    fn children(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        let mut next = i + 1;
        (0..self.nodes[i].children).map(move |_| {
            let at = next;
            next += self.nodes[at].size as usize;
            at
        })
    }
}

/// A member's key range moved as its value (none stays none).
fn moved_key(key: (u32, u32), moved: &impl Fn(u32) -> u32) -> (u32, u32) {
    if key == (0, 0) {
        key
    } else {
        (moved(key.0), moved(key.1))
    }
}

/// A key's text less its quotes (the keys of views have no escapes, so this
/// orders them as `serde_json`'s map does).
fn inner(key: &str) -> &str {
    key.get(1..key.len().saturating_sub(1)).unwrap_or(key)
}
