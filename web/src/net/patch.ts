// A table view kept up to date from the server's messages (docs/protocol.md,
// "Patches"): a `sync` gives the whole view, each `event` a patch from the view
// this socket last received. Applying a patch copies what it changes and shares
// the rest, so a changed part is a new object and an unchanged one the same.
import type { PatchOp, PathKey } from './generated/protocol';

/** A patch that does not fit the view it is applied to: resync. */
export class PatchMisfit extends Error {}

type Node = unknown;

function child(node: Node, key: PathKey): Node {
  if (typeof key === 'number') {
    if (!Array.isArray(node) || key < 0 || key >= node.length) throw new PatchMisfit(`no element ${key}`);
    return node[key] as Node;
  }
  if (node === null || typeof node !== 'object' || Array.isArray(node)) throw new PatchMisfit(`no object at ${key}`);
  return (node as Record<string, Node>)[key] ?? null;
}

function withChild(node: Node, key: PathKey, value: Node): Node {
  if (typeof key === 'number') {
    const copy = (node as Node[]).slice();
    copy[key] = value;
    return copy;
  }
  return { ...(node as Record<string, Node>), [key]: value };
}

/** `node` with the value at `path` replaced by `f` of it. */
function update(node: Node, path: PathKey[], f: (at: Node) => Node): Node {
  if (path.length === 0) return f(node);
  const [key, ...rest] = path;
  return withChild(node, key, update(child(node, key), rest, f));
}

function array(at: Node): Node[] {
  if (!Array.isArray(at)) throw new PatchMisfit('not an array');
  return at as Node[];
}

/** The view after `ops`, applied in order; `view` itself is not changed. */
export function applyPatch<V>(view: V | null, ops: readonly PatchOp[]): V {
  let v: Node = view;
  for (const op of ops) {
    if (v === null && op.path.length > 0) throw new PatchMisfit('a patch without a view');
    switch (op.op) {
      case 'set':
        v = update(v, op.path, () => op.value);
        break;
      case 'push':
        v = update(v, op.path, (at) => [...array(at), ...op.values]);
        break;
      case 'trunc':
        v = update(v, op.path, (at) => {
          const items = array(at);
          if (items.length < op.len) throw new PatchMisfit('trunc beyond the end');
          return items.slice(0, op.len);
        });
        break;
      case 'del': {
        const parent = op.path.slice(0, -1);
        const key = op.path[op.path.length - 1];
        if (typeof key !== 'string') throw new PatchMisfit('del without a key');
        v = update(v, parent, (at) => {
          if (at === null || typeof at !== 'object' || Array.isArray(at)) throw new PatchMisfit('del in no object');
          const copy = { ...(at as Record<string, Node>) };
          delete copy[key];
          return copy;
        });
        break;
      }
    }
  }
  return v as V;
}
