/**
 * Reads a V8 heap snapshot (the JSON the inspector's HeapProfiler streams) and attributes every
 * byte: each node's retained bytes go to its nearest owner on the dominator tree (a module's
 * Script, its SourceTextModule or its top-level context), then each owner's bytes are split by
 * kind (source text, compiled code, schemas, strings, buffers, other objects). Used by
 * `deno task bench lean` to say where an idle daemon's heap goes.
 */

/** The snapshot JSON as V8 writes it (only the fields this reader uses). */
export interface HeapSnapshotJson {
  snapshot: {
    meta: {
      node_fields: string[];
      node_types: [string[], ...unknown[]];
      edge_fields: string[];
      edge_types: [string[], ...unknown[]];
    };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}

/** What a byte is. */
export type HeapKind =
  | "module source text"
  | "compiled code"
  | "schemas (zod)"
  | "strings"
  | "buffers"
  | "objects, arrays, closures";

/** Bytes of one owner (a module URL, or a group of them) by kind. */
export interface HeapShare {
  owner: string;
  total: number;
  byKind: Partial<Record<HeapKind, number>>;
}

/** The indexed graph: nodes and edges as typed arrays, as DevTools reads them. */
class Graph {
  readonly count: number;
  readonly type: Uint8Array;
  readonly name: Uint32Array;
  readonly selfSize: Float64Array;
  readonly firstEdge: Uint32Array;
  readonly edgeType: Uint8Array;
  readonly edgeName: Uint32Array;
  readonly edgeTo: Uint32Array;
  readonly nodeTypes: string[];
  readonly edgeTypes: string[];
  readonly strings: string[];

  constructor(json: HeapSnapshotJson) {
    const meta = json.snapshot.meta;
    const nodeFields = meta.node_fields.length;
    const edgeFields = meta.edge_fields.length;
    const at = (fields: string[], field: string) => fields.indexOf(field);
    const [typeAt, nameAt, sizeAt, edgeCountAt] = ["type", "name", "self_size", "edge_count"]
      .map((field) => at(meta.node_fields, field));
    const [edgeTypeAt, edgeNameAt, toAt] = ["type", "name_or_index", "to_node"]
      .map((field) => at(meta.edge_fields, field));
    this.nodeTypes = meta.node_types[0];
    this.edgeTypes = meta.edge_types[0];
    this.strings = json.strings;
    this.count = json.nodes.length / nodeFields;
    this.type = new Uint8Array(this.count);
    this.name = new Uint32Array(this.count);
    this.selfSize = new Float64Array(this.count);
    this.firstEdge = new Uint32Array(this.count + 1);
    const edgeCount = json.edges.length / edgeFields;
    this.edgeType = new Uint8Array(edgeCount);
    this.edgeName = new Uint32Array(edgeCount);
    this.edgeTo = new Uint32Array(edgeCount);
    let edge = 0;
    for (let node = 0; node < this.count; node++) {
      const base = node * nodeFields;
      this.type[node] = json.nodes[base + typeAt];
      this.name[node] = json.nodes[base + nameAt];
      this.selfSize[node] = json.nodes[base + sizeAt];
      this.firstEdge[node] = edge;
      edge += json.nodes[base + edgeCountAt];
    }
    this.firstEdge[this.count] = edge;
    for (let index = 0; index < edgeCount; index++) {
      const base = index * edgeFields;
      this.edgeType[index] = json.edges[base + edgeTypeAt];
      this.edgeName[index] = json.edges[base + edgeNameAt];
      this.edgeTo[index] = json.edges[base + toAt] / nodeFields;
    }
  }

  nodeName(node: number): string {
    return this.strings[this.name[node]];
  }

  nodeType(node: number): string {
    return this.nodeTypes[this.type[node]];
  }

  /** The named edge's name ("" for element and hidden edges, whose name is an index). */
  edgeLabel(edge: number): string {
    const type = this.edgeTypes[this.edgeType[edge]];
    return type === "element" || type === "hidden" ? "" : this.strings[this.edgeName[edge]];
  }

  isWeak(edge: number): boolean {
    return this.edgeTypes[this.edgeType[edge]] === "weak" ||
      this.edgeTypes[this.edgeType[edge]] === "shortcut";
  }
}

/**
 * The immediate dominator of every node reachable from the root (node 0), weak edges left out:
 * Cooper, Harvey and Kennedy's iterative algorithm over a reverse post-order, as DevTools does.
 */
function dominators(graph: Graph): Int32Array {
  const count = graph.count;
  const order = new Int32Array(count).fill(-1); // post-order index of a node
  const byOrder = new Int32Array(count);
  let visited = 0;
  const stack = new Int32Array(count);
  const edgeCursor = new Uint32Array(count);
  const seen = new Uint8Array(count);
  let top = 0;
  stack[top++] = 0;
  seen[0] = 1;
  edgeCursor[0] = graph.firstEdge[0];
  while (top > 0) {
    const node = stack[top - 1];
    let pushed = false;
    while (edgeCursor[node] < graph.firstEdge[node + 1]) {
      const edge = edgeCursor[node]++;
      if (graph.isWeak(edge)) continue;
      const target = graph.edgeTo[edge];
      if (seen[target]) continue;
      seen[target] = 1;
      edgeCursor[target] = graph.firstEdge[target];
      stack[top++] = target;
      pushed = true;
      break;
    }
    if (!pushed) {
      top--;
      order[node] = visited;
      byOrder[visited++] = node;
    }
  }
  // Predecessors (strong edges) of reachable nodes, as post-order indexes.
  const predecessorCount = new Uint32Array(visited + 1);
  for (let node = 0; node < count; node++) {
    if (order[node] < 0) continue;
    for (let edge = graph.firstEdge[node]; edge < graph.firstEdge[node + 1]; edge++) {
      if (!graph.isWeak(edge)) predecessorCount[order[graph.edgeTo[edge]]]++;
    }
  }
  const firstPredecessor = new Uint32Array(visited + 1);
  for (let index = 0; index < visited; index++) {
    firstPredecessor[index + 1] = firstPredecessor[index] + predecessorCount[index];
  }
  const predecessors = new Uint32Array(firstPredecessor[visited]);
  const filled = new Uint32Array(visited);
  for (let node = 0; node < count; node++) {
    if (order[node] < 0) continue;
    for (let edge = graph.firstEdge[node]; edge < graph.firstEdge[node + 1]; edge++) {
      if (graph.isWeak(edge)) continue;
      const target = order[graph.edgeTo[edge]];
      predecessors[firstPredecessor[target] + filled[target]++] = order[node];
    }
  }
  const rootIndex = visited - 1;
  const dominator = new Int32Array(visited).fill(-1);
  dominator[rootIndex] = rootIndex;
  let changed = true;
  while (changed) {
    changed = false;
    for (let index = rootIndex - 1; index >= 0; index--) {
      let candidate = -1;
      for (let at = firstPredecessor[index]; at < firstPredecessor[index + 1]; at++) {
        let predecessor = predecessors[at];
        if (dominator[predecessor] < 0) continue;
        if (candidate < 0) {
          candidate = predecessor;
          continue;
        }
        let other = candidate;
        while (predecessor !== other) {
          while (predecessor < other) predecessor = dominator[predecessor];
          while (other < predecessor) other = dominator[other];
        }
        candidate = predecessor;
      }
      if (candidate >= 0 && dominator[index] !== candidate) {
        dominator[index] = candidate;
        changed = true;
      }
    }
  }
  const result = new Int32Array(count).fill(-1);
  for (let index = 0; index < visited; index++) {
    result[byOrder[index]] = byOrder[dominator[index]];
  }
  return result;
}

const scriptPrefix = "system / Script / ";

/** The kind of one node, from its V8 type and name. */
function kindOf(graph: Graph, node: number, sourceStrings: Set<number>): HeapKind {
  const type = graph.nodeType(node);
  const name = graph.nodeName(node);
  if (sourceStrings.has(node)) return "module source text";
  if (type === "code") return "compiled code";
  if (type === "object" && /^\$?Zod[A-Z]/.test(name)) return "schemas (zod)";
  if (type.endsWith("string")) return "strings";
  if (
    type === "native" && /ArrayBuffer|BackingStore/.test(name) ||
    /^(ArrayBuffer|Uint8Array|Buffer|DataView|Float64Array|Uint32Array)$/.test(name)
  ) return "buffers";
  return "objects, arrays, closures";
}

/**
 * Attributes every reachable byte to a module URL (or "(runtime)" when no module owns it): a node
 * belongs to the nearest dominator that is a module's Script, SourceTextModule or top-level
 * context; zod schemas count as schemas with everything they dominate.
 */
export function attributeHeap(json: HeapSnapshotJson): HeapShare[] {
  const graph = new Graph(json);
  const dominator = dominators(graph);
  // Owners: Scripts by URL; a SourceTextModule and its context belong to its Script's URL
  // through the module's functions, found below by walking owners up the dominator tree.
  const owner = new Int32Array(graph.count).fill(-1); // index into owners
  const owners: string[] = [];
  const ownerIndex = new Map<string, number>();
  const ownerOf = (url: string) => {
    let index = ownerIndex.get(url);
    if (index === undefined) {
      index = owners.push(url) - 1;
      ownerIndex.set(url, index);
    }
    return index;
  };
  const sourceStrings = new Set<number>();
  for (let node = 0; node < graph.count; node++) {
    const name = graph.nodeName(node);
    if (!name.startsWith(scriptPrefix)) continue;
    const url = name.slice(scriptPrefix.length);
    owner[node] = ownerOf(url);
    for (let edge = graph.firstEdge[node]; edge < graph.firstEdge[node + 1]; edge++) {
      const target = graph.edgeTo[edge];
      if (graph.nodeType(target).endsWith("string")) {
        sourceStrings.add(target);
        owner[target] = owner[node];
      }
    }
  }
  // A closure names its script (closure → shared → script); it and its SharedFunctionInfo belong
  // to that module, and so does a context every closure of which comes from that one module (a
  // module's top-level variables: its caches, schemas and tables).
  const contextOwner = new Int32Array(graph.count).fill(-1); // -1 none yet, -3 shared by modules
  for (let node = 0; node < graph.count; node++) {
    if (owner[node] >= 0 || graph.nodeType(node) !== "closure") continue;
    let script = -1;
    let context = -1;
    for (let edge = graph.firstEdge[node]; edge < graph.firstEdge[node + 1]; edge++) {
      const label = graph.edgeLabel(edge);
      if (label === "context") context = graph.edgeTo[edge];
      if (label !== "shared") continue;
      const shared = graph.edgeTo[edge];
      for (let inner = graph.firstEdge[shared]; inner < graph.firstEdge[shared + 1]; inner++) {
        if (graph.edgeLabel(inner) === "script" && owner[graph.edgeTo[inner]] >= 0) {
          script = owner[graph.edgeTo[inner]];
          owner[shared] = script;
        }
      }
    }
    if (script < 0) continue;
    owner[node] = script;
    if (context >= 0 && owner[context] < 0) {
      contextOwner[context] = contextOwner[context] === -1 || contextOwner[context] === script
        ? script
        : -3;
    }
  }
  for (let node = 0; node < graph.count; node++) {
    if (contextOwner[node] >= 0) owner[node] = contextOwner[node];
  }
  const resolved = new Int32Array(graph.count).fill(-2); // -2 unknown, -1 runtime
  const resolve = (start: number): number => {
    const path: number[] = [];
    let node = start;
    let result = -1;
    while (node >= 0) {
      if (resolved[node] !== -2) {
        result = resolved[node];
        break;
      }
      if (owner[node] >= 0) {
        result = owner[node];
        break;
      }
      path.push(node);
      const up = dominator[node];
      if (up === node || up < 0) break;
      node = up;
    }
    for (const visitedNode of path) resolved[visitedNode] = result;
    return result;
  };
  // Schemas: everything a zod object dominates counts as schema bytes.
  const inSchema = new Uint8Array(graph.count);
  const kinds = new Array<HeapKind>(graph.count);
  for (let node = 0; node < graph.count; node++) {
    kinds[node] = kindOf(graph, node, sourceStrings);
  }
  const schemaOwner = (start: number): boolean => {
    let node = start;
    for (let depth = 0; depth < 32 && node > 0; depth++) {
      if (inSchema[node] === 1) return true;
      if (inSchema[node] === 2) return false;
      if (kinds[node] === "schemas (zod)") return true;
      if (kinds[node] === "module source text" || graph.nodeName(node).startsWith(scriptPrefix)) {
        return false;
      }
      node = dominator[node];
    }
    return false;
  };
  const shares = new Map<string, HeapShare>();
  for (let node = 1; node < graph.count; node++) {
    if (dominator[node] < 0) continue;
    const index = resolve(node);
    const url = index < 0 ? "(runtime)" : owners[index];
    let kind = kinds[node];
    if (kind === "objects, arrays, closures" || kind === "strings") {
      const schema = schemaOwner(node);
      inSchema[node] = schema ? 1 : 2;
      if (schema) kind = "schemas (zod)";
    }
    let share = shares.get(url);
    if (!share) shares.set(url, share = { owner: url, total: 0, byKind: {} });
    const size = graph.selfSize[node];
    share.total += size;
    share.byKind[kind] = (share.byKind[kind] ?? 0) + size;
  }
  return [...shares.values()].sort((a, b) => b.total - a.total);
}

/** Sums shares into groups named by `groupOf(owner)`. */
export function groupShares(
  shares: HeapShare[],
  groupOf: (owner: string) => string,
): HeapShare[] {
  const groups = new Map<string, HeapShare>();
  for (const share of shares) {
    const name = groupOf(share.owner);
    let group = groups.get(name);
    if (!group) groups.set(name, group = { owner: name, total: 0, byKind: {} });
    group.total += share.total;
    for (const [kind, bytes] of Object.entries(share.byKind) as Array<[HeapKind, number]>) {
      group.byKind[kind] = (group.byKind[kind] ?? 0) + bytes;
    }
  }
  return [...groups.values()].sort((a, b) => b.total - a.total);
}
