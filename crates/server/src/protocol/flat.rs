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

use std::fmt::Write as _;

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

/// A value's JSON text and, unless the formatter could not follow it, its
/// index made while it was written; `None` if it does not serialise.
fn written(value: &impl serde::Serialize, capacity: usize) -> Option<(String, Option<Vec<Node>>)> {
    let at = std::cell::Cell::new(0);
    let mut out = Counted {
        buf: Vec::with_capacity(capacity),
        at: &at,
    };
    let mut indexer = Indexer {
        at: &at,
        nodes: Vec::with_capacity(capacity / 16 + 1),
        open: Vec::with_capacity(8),
        key: (0, 0),
        in_key: false,
        followed: true,
    };
    value
        .serialize(&mut serde_json::Serializer::with_formatter(
            &mut out,
            &mut indexer,
        ))
        .ok()?;
    let text = String::from_utf8(out.buf).ok()?;
    let followed = indexer.followed
        && indexer.open.is_empty()
        && text.len() < u32::MAX as usize
        && indexer
            .nodes
            .first()
            .is_some_and(|n| n.start == 0 && n.end as usize == text.len());
    Some((text, followed.then_some(indexer.nodes)))
}

/// The serialiser's output, counting the bytes written so far for the
/// [`Indexer`] (which sees the writer only as a generic one).
struct Counted<'c> {
    buf: Vec<u8>,
    at: &'c std::cell::Cell<usize>,
}

impl std::io::Write for Counted<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(bytes);
        self.at.set(self.buf.len());
        Ok(bytes.len())
    }

    fn write_all(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.buf.extend_from_slice(bytes);
        self.at.set(self.buf.len());
        Ok(())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A formatter that writes as `serde_json`'s compact one does and builds the
/// text's index as it goes: a value's node when it begins, its end and size
/// when it ends, an object member's key from its key string. Inside a key
/// (which `serde_json` may write as a number in quotes) nothing is a value.
struct Indexer<'c> {
    at: &'c std::cell::Cell<usize>,
    nodes: Vec<Node>,
    /// The objects and arrays begun and not yet ended.
    open: Vec<usize>,
    /// The key of the member whose value comes next.
    key: (u32, u32),
    in_key: bool,
    /// False once something was written that is not followed (a raw fragment).
    followed: bool,
}

impl Indexer<'_> {
    fn at(&self) -> u32 {
        self.at.get() as u32
    }

    /// A value begins here: its node, counted in its parent's children.
    fn begin(&mut self, kind: Kind) -> usize {
        if let Some(&parent) = self.open.last() {
            self.nodes[parent].children += 1;
        }
        let at = self.at();
        self.nodes.push(Node {
            kind,
            start: at,
            end: at,
            key: std::mem::take(&mut self.key),
            size: 1,
            children: 0,
        });
        self.nodes.len() - 1
    }

    fn scalar(&mut self, write: impl FnOnce() -> std::io::Result<()>) -> std::io::Result<()> {
        if self.in_key {
            return write();
        }
        let node = self.begin(Kind::Scalar);
        write()?;
        self.nodes[node].end = self.at();
        Ok(())
    }

    fn end(&mut self) {
        if let Some(node) = self.open.pop() {
            let size = (self.nodes.len() - node) as u32;
            let end = self.at();
            let n = &mut self.nodes[node];
            n.end = end;
            n.size = size;
        } else {
            self.followed = false;
        }
    }
}

macro_rules! indexed_scalars {
    ($($method:ident: $t:ty),* $(,)?) => {$(
        fn $method<W: ?Sized + std::io::Write>(
            &mut self,
            w: &mut W,
            value: $t,
        ) -> std::io::Result<()> {
            self.scalar(|| serde_json::ser::CompactFormatter.$method(w, value))
        }
    )*};
}

impl serde_json::ser::Formatter for &mut Indexer<'_> {
    indexed_scalars!(
        write_bool: bool, write_i8: i8, write_i16: i16, write_i32: i32, write_i64: i64,
        write_i128: i128, write_u8: u8, write_u16: u16, write_u32: u32, write_u64: u64,
        write_u128: u128, write_f32: f32, write_f64: f64, write_number_str: &str,
    );

    fn write_null<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.scalar(|| serde_json::ser::CompactFormatter.write_null(w))
    }

    fn begin_string<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        if self.in_key {
            self.key.0 = self.at();
        } else {
            self.begin(Kind::Scalar);
        }
        serde_json::ser::CompactFormatter.begin_string(w)
    }

    fn end_string<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        serde_json::ser::CompactFormatter.end_string(w)?;
        let at = self.at();
        if self.in_key {
            self.key.1 = at;
        } else if let Some(n) = self.nodes.last_mut() {
            // (A string holds no value: its node is the last one begun.)
            n.end = at;
        }
        Ok(())
    }

    fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        let node = self.begin(Kind::Array);
        self.open.push(node);
        serde_json::ser::CompactFormatter.begin_array(w)
    }

    fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        serde_json::ser::CompactFormatter.end_array(w)?;
        self.end();
        Ok(())
    }

    fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        let node = self.begin(Kind::Object);
        self.open.push(node);
        serde_json::ser::CompactFormatter.begin_object(w)
    }

    fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        serde_json::ser::CompactFormatter.end_object(w)?;
        self.end();
        Ok(())
    }

    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.in_key = true;
        serde_json::ser::CompactFormatter.begin_object_key(w, first)
    }

    fn end_object_key<W: ?Sized + std::io::Write>(&mut self, _w: &mut W) -> std::io::Result<()> {
        self.in_key = false;
        Ok(())
    }

    fn write_raw_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        self.followed = false;
        serde_json::ser::CompactFormatter.write_raw_fragment(w, fragment)
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

fn skip_ws(t: &[u8], mut i: usize) -> usize {
    while matches!(t.get(i), Some(b' ' | b'\n' | b'\r' | b'\t')) {
        i += 1;
    }
    i
}

/// The end of the string starting at `i` (its opening quote), past its closing quote.
fn string_end(t: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    loop {
        let rest = t.get(j..)?;
        let k = rest.iter().position(|&c| c == b'"' || c == b'\\')?;
        if rest[k] == b'"' {
            return Some(j + k + 1);
        }
        // An escape: the character after the backslash is not the end.
        j += k + 2;
    }
}

/// Reads an object member's key and its colon at `i`; returns the key's range
/// and where its value starts.
fn read_key(t: &[u8], i: usize) -> Option<((u32, u32), usize)> {
    let i = skip_ws(t, i);
    if t.get(i) != Some(&b'"') {
        return None;
    }
    let end = string_end(t, i)?;
    let colon = skip_ws(t, end);
    (t.get(colon) == Some(&b':')).then_some(((i as u32, end as u32), colon + 1))
}

/// The index of a JSON text; `None` if it is not one.
fn scan(t: &[u8]) -> Option<Vec<Node>> {
    let mut nodes: Vec<Node> = Vec::with_capacity(t.len() / 12 + 1);
    let mut open: Vec<usize> = Vec::new();
    let mut key = (0, 0);
    let mut i = 0;
    loop {
        // At a value: the text's, an array's item or an object member's.
        i = skip_ws(t, i);
        let start = i;
        if let Some(&parent) = open.last() {
            nodes[parent].children += 1;
        }
        let mut node = Node {
            kind: Kind::Scalar,
            start: start as u32,
            end: 0,
            key,
            size: 1,
            children: 0,
        };
        key = (0, 0);
        match *t.get(i)? {
            c @ (b'{' | b'[') => {
                node.kind = if c == b'{' { Kind::Object } else { Kind::Array };
                open.push(nodes.len());
                nodes.push(node);
                i = skip_ws(t, i + 1);
                let close = if c == b'{' { b'}' } else { b']' };
                if t.get(i) != Some(&close) {
                    if c == b'{' {
                        (key, i) = read_key(t, i)?;
                    }
                    continue;
                }
            }
            b'"' => {
                i = string_end(t, i)?;
                node.end = i as u32;
                nodes.push(node);
            }
            _ => {
                while i < t.len()
                    && !matches!(t[i], b',' | b'}' | b']' | b' ' | b'\n' | b'\r' | b'\t')
                {
                    i += 1;
                }
                if i == start {
                    return None;
                }
                node.end = i as u32;
                nodes.push(node);
            }
        }
        // After a value: close what ends here, then on to the next value.
        loop {
            i = skip_ws(t, i);
            let Some(&top) = open.last() else {
                return (i == t.len()).then_some(nodes);
            };
            let object = nodes[top].kind == Kind::Object;
            match *t.get(i)? {
                b',' => {
                    i += 1;
                    if object {
                        (key, i) = read_key(t, i)?;
                    }
                    break;
                }
                b'}' if object => {}
                b']' if !object => {}
                _ => return None,
            }
            i += 1;
            nodes[top].end = i as u32;
            nodes[top].size = (nodes.len() - top) as u32;
            open.pop();
        }
    }
}

/// A key's text less its quotes (the keys of views have no escapes, so this
/// orders them as `serde_json`'s map does).
fn inner(key: &str) -> &str {
    key.get(1..key.len().saturating_sub(1)).unwrap_or(key)
}

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

#[cfg(test)]
mod tests {
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
}
