// The import graph of src/ (relative specifiers only, type-only imports included) and its circles.
// `node scripts/import-graph.ts` prints the file and src/core folder circles; test/tools/import-graph.test.ts
// holds the tree to none.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}\/[^"']+)["']/g;

/** Each .ts file under `root` (paths relative to `base`, with `/`) and the files it imports. */
export function importGraph(base: string, root = "src"): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const files = readdirSync(join(base, root), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts"))
    .map((file) => join(root, file).split("\\").join("/"));
  for (const file of files) {
    const text = readFileSync(join(base, file), "utf8");
    const targets = new Set<string>();
    for (const match of text.matchAll(SPECIFIER)) {
      const target = relative(base, resolve(base, dirname(file), match[1] as string))
        .split("\\")
        .join("/");
      if (target.endsWith(".ts")) targets.add(target);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** The folder of src/core a file belongs to (`core/run`), or the file itself when it sits in src/core. */
export function coreFolderOf(file: string): string | undefined {
  const parts = file.split("/");
  if (parts[0] !== "src" || parts[1] !== "core") return undefined;
  return `core/${parts[2]}`;
}

/** The graph between src/core's folders (self-edges dropped). */
export function folderGraph(graph: ReadonlyMap<string, readonly string[]>): Map<string, string[]> {
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    const from = coreFolderOf(file);
    if (from === undefined) continue;
    const edges = folders.get(from) ?? new Set<string>();
    folders.set(from, edges);
    for (const target of targets) {
      const to = coreFolderOf(target);
      if (to !== undefined && to !== from) edges.add(to);
    }
  }
  return new Map([...folders].map(([folder, edges]) => [folder, [...edges].sort()]));
}

/** The strongly connected parts of more than one node (Tarjan), each sorted: the circles. */
export function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node) as number, low.get(target) as number));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node) as number, index.get(target) as number));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const part: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      part.push(member);
    } while (member !== node);
    if (part.length > 1) found.push(part.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return found;
}

if (import.meta.main) {
  const graph = importGraph(join(import.meta.dirname, ".."));
  console.log("file circles:", JSON.stringify(circles(graph), null, 1));
  console.log("folder circles:", JSON.stringify(circles(folderGraph(graph)), null, 1));
}
