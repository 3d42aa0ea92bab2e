//! Indexing a JSON text: as `serde_json` writes it ([`written`], whose
//! formatter notes where each value starts and ends) or by one pass over its
//! bytes ([`scan`]).

use super::{Kind, Node};

/// A value's JSON text and, unless the formatter could not follow it, its
/// index made while it was written; `None` if it does not serialise.
pub(super) fn written(
    value: &impl serde::Serialize,
    capacity: usize,
) -> Option<(String, Option<Vec<Node>>)> {
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
pub(super) fn scan(t: &[u8]) -> Option<Vec<Node>> {
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
