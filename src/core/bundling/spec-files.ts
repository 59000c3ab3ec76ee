import { realpathSync } from "node:fs";
import { dirname, relative, sep } from "node:path";
import { formatOf } from "../documents/format.ts";
import { parseSource, SourceSyntaxError, valueLocator } from "../documents/source-text.ts";
import { isWithin } from "../files/containment.ts";
import { MAX_SPEC_BYTES, readRegularText } from "../files/read-regular.ts";
import { BundleError } from "./errors.ts";
import type { NodeType, SpecTypes } from "./openapi-types.ts";
import { isRecord, pointerFromTokens, pointerTokens } from "./pointer.ts";
import { locateRef, type RefTarget } from "./ref-target.ts";
import { walkReferences } from "./walk.ts";

/** One file of a multi-file spec. `path` is absolute, `relative` workspace-relative with '/'. */
export interface SpecFile {
  path: string;
  relative: string;
  /** The file as read. */
  text: string;
  /** Its parsed value; for a text file (not YAML or JSON), its text. */
  value: unknown;
  isText: boolean;
}

/** Reads a file of the workspace; rejects with `code: "ENOENT"` when it does not exist. */
export type ReadText = (absolutePath: string) => Promise<string>;

/** A node of a file, by a JSON pointer that passes through no `$ref`. */
export interface Location {
  key: string;
  file: SpecFile;
  tokens: readonly string[];
  node: unknown;
}

/** A node that is referenced, and the types of the positions it is referenced from. */
export interface Target extends Location {
  types: Set<NodeType>;
}

/** A `$ref` object outside literal data. */
export interface RefSite {
  file: SpecFile;
  tokens: readonly string[];
  ref: string;
  /** An `example` that is wholly a `$ref` to another file: replaced by a copy of it when it can be read,
   * left as written otherwise. */
  optional: boolean;
  /** Unset for a root's internal reference that is not a JSON pointer, which is left as written. */
  target?: Target;
}

/** A discriminator `mapping` whose values name schemas by reference; `targets` by mapping key. */
export interface MappingSite {
  file: SpecFile;
  tokens: readonly string[];
  targets: Map<string, Target>;
}

export interface SpecGraph {
  /** Every file that went in, root first. */
  files: SpecFile[];
  /** By the `$ref` object itself, so that the same objects met when writing are recognised. */
  refs: Map<object, RefSite>;
  mappings: Map<object, MappingSite>;
  targets: Map<string, Target>;
}

export function workspaceRelative(workspace: string, absolutePath: string): string {
  return relative(workspace, absolutePath).split(sep).join("/");
}

const isJsonPath = (path: string) => formatOf(path) === "json";

/**
 * Reads every file reachable from `root` through `$ref`s and discriminator mappings (literal data is not
 * looked into), each once, and resolves every reference to the node it names. Every problem is collected
 * and thrown together as `BundleError`s, each naming the file, the reference and its position.
 */
export async function collectSpecGraph(
  root: SpecFile,
  types: SpecTypes,
  workspace: string,
  readText: ReadText,
): Promise<{ graph: SpecGraph; problems: BundleError[] }> {
  const collector = new Collector(root, types, workspace, readText);
  await collector.run();
  return { graph: collector.graph, problems: collector.locatedProblems() };
}

interface Problem {
  file: SpecFile;
  /** Where the offending string is written. */
  valueTokens: readonly string[];
  ref: string;
  message: string;
}

type Resolution =
  | { kind: "resolved"; location: Location }
  | { kind: "waiting"; path: string; isText: boolean }
  | { kind: "problem"; message: string }
  | { kind: "unresolved" };

/** A reference waiting to be resolved: a `$ref` (`mappingKey` undefined) or one value of a mapping. */
interface Pending {
  file: SpecFile;
  /** Where the reference string is written. */
  valueTokens: readonly string[];
  ref: string;
  type: NodeType;
  site: RefSite | MappingSite;
  mappingKey?: string;
  /** Left as written, without a problem, when it cannot be resolved. */
  optional?: boolean;
}

class Collector {
  readonly graph: SpecGraph;
  private readonly filesByPath = new Map<string, SpecFile>();
  private readonly failedLoads = new Map<string, string>();
  private readonly problems: Problem[] = [];
  private readonly walked = new WeakMap<object, Set<NodeType>>();
  private readonly resolved = new Map<string, Resolution>();
  private readonly located = new Map<string, RefTarget>();
  private pending: Pending[] = [];

  private readonly root: SpecFile;
  private readonly types: SpecTypes;
  private readonly workspace: string;
  private readonly readText: ReadText;

  constructor(root: SpecFile, types: SpecTypes, workspace: string, readText: ReadText) {
    this.root = root;
    this.types = types;
    this.workspace = workspace;
    this.readText = readText;
    this.graph = { files: [root], refs: new Map(), mappings: new Map(), targets: new Map() };
    this.filesByPath.set(root.path, root);
  }

  async run(): Promise<void> {
    this.walk(this.root, this.root.value, [], this.types.root);
    while (this.pending.length > 0) {
      const current = this.pending;
      this.pending = [];
      const waiting: Pending[] = [];
      const loads = new Map<string, boolean>();
      for (const item of current) {
        const resolution = this.resolve(item.ref, item.file);
        switch (resolution.kind) {
          case "resolved":
            this.settle(item, resolution.location);
            break;
          case "waiting":
            loads.set(resolution.path, resolution.isText);
            waiting.push(item);
            break;
          case "problem":
            if (item.optional) break;
            this.problems.push({
              file: item.file,
              valueTokens: item.valueTokens,
              ref: item.ref,
              message: resolution.message,
            });
            break;
          case "unresolved":
            break;
        }
      }
      await Promise.all([...loads].map(([path, isText]) => this.load(path, isText)));
      this.pending.push(...waiting);
    }
  }

  private settle(item: Pending, location: Location): void {
    const target = this.target(location, item.type);
    if (item.mappingKey === undefined) (item.site as RefSite).target = target;
    else (item.site as MappingSite).targets.set(item.mappingKey, target);
  }

  /** The target at `location`, walked (once per type) as a node of `type`. */
  private target(location: Location, type: NodeType): Target {
    let target = this.graph.targets.get(location.key);
    if (!target) {
      target = { ...location, types: new Set() };
      this.graph.targets.set(location.key, target);
    }
    if (!target.types.has(type)) {
      target.types.add(type);
      this.walk(target.file, target.node, target.tokens, type);
    }
    return target;
  }

  /** Records the references under `node`, a node of `file` at `tokens` of type `type`. */
  private walk(file: SpecFile, node: unknown, tokens: readonly string[], type: NodeType): void {
    if (file.isText) return;
    walkReferences(node, tokens, type, this.walked, {
      ref: (value, at, ref, valueType, optional) => {
        // An example's internal reference stays as written: it is data, and means the same in the bundle.
        if (optional && ref.startsWith("#")) return;
        this.recordRef(file, value, at(), ref, valueType, optional);
      },
      mapping: (mapping, at) => this.recordMapping(file, mapping, at),
    });
  }

  private recordRef(
    file: SpecFile,
    node: object,
    tokens: readonly string[],
    ref: string,
    type: NodeType,
    optional: boolean,
  ): void {
    const valueTokens = [...tokens, "$ref"];
    const known = this.graph.refs.get(node);
    if (known) {
      // Met again through another type: its target (once resolved) is walked as that type too.
      if (known.target) this.target(known.target, type);
      else this.pending.push({ file, valueTokens, ref, type, site: known, optional: known.optional });
      return;
    }
    const site: RefSite = { file, tokens, ref, optional };
    this.graph.refs.set(node, site);
    this.pending.push({ file, valueTokens, ref, type, site, optional });
  }

  private recordMapping(file: SpecFile, mapping: Record<string, unknown>, tokens: readonly string[]): void {
    let site = this.graph.mappings.get(mapping);
    if (!site) {
      site = { file, tokens, targets: new Map() };
      this.graph.mappings.set(mapping, site);
    }
    for (const [key, value] of Object.entries(mapping)) {
      if (typeof value !== "string" || !isMappingReference(value)) continue;
      const valueTokens = [...tokens, key];
      this.pending.push({ file, valueTokens, ref: value, type: this.types.schema, site, mappingKey: key });
    }
  }

  /**
   * The node `ref` (written in `file`) names, following references a pointer passes through; or the file
   * that must be read first; or why it cannot be bundled.
   */
  private resolve(ref: string, file: SpecFile, depth = 0): Resolution {
    // The same reference is often written hundreds of times in a file (a shared header, an error
    // response): resolved once.
    const cacheKey = `${file.path}\0${ref}`;
    const cached = this.resolved.get(cacheKey);
    if (cached) return cached;
    const resolution = this.resolveUncached(ref, file, depth);
    if (resolution.kind === "resolved" || resolution.kind === "problem")
      this.resolved.set(cacheKey, resolution);
    return resolution;
  }

  private resolveUncached(ref: string, file: SpecFile, depth: number): Resolution {
    if (depth > 50)
      return { kind: "problem", message: "is part of a loop of references that never reaches a value." };
    const located = this.locate(ref, file);
    if (located.kind === "refused") return { kind: "problem", message: located.reason };
    let target: SpecFile;
    let pointer: string;
    if (located.kind === "internal") {
      if (located.pointer === undefined) {
        if (file === this.root) return { kind: "unresolved" };
        return {
          kind: "problem",
          message:
            'has a fragment that is not a JSON pointer. Write it as "#/path/to/node", e.g. "#/components/schemas/Pet".',
        };
      }
      target = file;
      pointer = located.pointer;
    } else {
      const loaded = this.filesByPath.get(located.path);
      if (!loaded) {
        const failure = this.failedLoads.get(located.path);
        if (failure !== undefined) return { kind: "problem", message: failure };
        return { kind: "waiting", path: located.path, isText: located.text };
      }
      target = loaded;
      pointer = located.pointer;
    }

    let node = target.value;
    let current = target;
    let at: string[] = [];
    for (const token of pointerTokens(pointer)) {
      for (
        let hops = 0;
        isRecord(node) && typeof node.$ref === "string" && !Object.hasOwn(node, token);
        hops++
      ) {
        if (hops > 50) return { kind: "problem", message: "passes through a loop of references." };
        const through = this.resolve(node.$ref, current, depth + 1);
        if (through.kind !== "resolved") {
          return through.kind === "problem"
            ? {
                kind: "problem",
                message: `cannot be followed: ${pointerFromTokens(at)} in ${current.relative} ${through.message}`,
              }
            : through;
        }
        ({ node } = through.location);
        current = through.location.file;
        at = [...through.location.tokens];
      }
      if (!isRecord(node) || !Object.hasOwn(node, token)) {
        return {
          kind: "problem",
          message: `points to #${pointer} in ${target.relative}, which has no such node.`,
        };
      }
      node = node[token];
      at.push(token);
    }
    return {
      kind: "resolved",
      location: { key: `${current.path}#${pointerFromTokens(at)}`, file: current, tokens: at, node },
    };
  }

  /** `locateRef`, once per folder and reference: files of one folder write the same references. */
  private locate(ref: string, file: SpecFile): RefTarget {
    if (ref.startsWith("#") || ref.startsWith("?") || ref === "")
      return locateRef(ref, file.path, this.workspace);
    const key = `${dirname(file.path)}\0${ref}`;
    let located = this.located.get(key);
    if (!located) {
      located = locateRef(ref, file.path, this.workspace);
      this.located.set(key, located);
    }
    return located;
  }

  private async load(path: string, isText: boolean): Promise<void> {
    const loaded = await loadFile(path, this.workspace, this.readText, isText);
    if (typeof loaded === "string") {
      this.failedLoads.set(path, loaded);
      return;
    }
    this.filesByPath.set(path, loaded);
    this.graph.files.push(loaded);
  }

  /**
   * The problems as `BundleError`s with positions (each file with problems is parsed once more), by file
   * and position.
   */
  locatedProblems(): BundleError[] {
    const locators = new Map<SpecFile, ReturnType<typeof valueLocator>>();
    const located = this.problems.map((problem) => {
      let locate = locators.get(problem.file);
      if (!locate) {
        locate = valueLocator(problem.file.text);
        locators.set(problem.file, locate);
      }
      const { line, column } = locate(problem.valueTokens);
      return new BundleError(problem.message, {
        file: problem.file.relative,
        ref: problem.ref,
        line,
        column,
      });
    });
    return located.sort(
      (a, b) =>
        (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
        (a.line ?? 0) - (b.line ?? 0) ||
        (a.column ?? 0) - (b.column ?? 0),
    );
  }
}

/**
 * Whether a discriminator mapping value names a schema by reference (`./Cat.yaml`, `Cat.json`,
 * `models/pets.yaml#/Cat`, `#/components/schemas/Cat`) rather than by its name in `components/schemas`.
 * URLs and absolute paths are left as written.
 */
export function isMappingReference(value: string): boolean {
  if (/^[a-z][a-z0-9+.-]*:/i.test(value) || value.startsWith("/") || value.startsWith("\\")) return false;
  return value.includes("/") || value.includes("#") || /\.(ya?ml|json)$/i.test(value);
}

/**
 * Reads and parses the file at `path`: its value, or the problem (phrased to follow a `$ref` and its
 * position) that keeps it out.
 */
export async function loadFile(
  path: string,
  workspace: string,
  readText: ReadText,
  isText: boolean,
): Promise<SpecFile | string> {
  const relativePath = workspaceRelative(workspace, path);
  let text: string;
  try {
    text = await readText(path);
  } catch (error) {
    if (isMissing(error))
      return `points to ${relativePath}, which does not exist. Check the path and its case.`;
    return `points to ${relativePath}, which cannot be read: ${describe(error)}`;
  }
  if (isText) {
    if (text.includes("\u0000") || text.includes("\uFFFD")) {
      return `points to ${relativePath}, which is neither YAML, JSON nor UTF-8 text.`;
    }
    // A byte order mark is how the file was saved, not part of its text.
    const value = text.startsWith("\ufeff") ? text.slice(1) : text;
    return { path, relative: relativePath, text, value, isText: true };
  }
  try {
    return { path, relative: relativePath, text, value: parseSource(text, isJsonPath(path)), isText: false };
  } catch (error) {
    if (!(error instanceof SourceSyntaxError)) throw error;
    const at = error.line === undefined ? "" : ` at line ${error.line}, column ${error.column}`;
    return `points to ${relativePath}, which is not valid YAML or JSON${at}: ${error.message}`;
  }
}

/**
 * Reads a file whose real path (symbolic links followed) must stay inside the real workspace. Synchronous
 * underneath: for the thousands of small files of a split spec that is three times faster than
 * `fs/promises` (2,850 files: 120 ms against 400 ms), and bundling is CPU-bound anyway.
 */
export function readInsideWorkspace(realWorkspace: string): ReadText {
  return async (absolutePath) => {
    const real = realpathSync.native(absolutePath);
    if (!isWithin(realWorkspace, real)) {
      throw new Error(`it is a symbolic link to ${real}, outside the workspace`);
    }
    return readRegularText(real, { maxBytes: MAX_SPEC_BYTES, label: relative(realWorkspace, real) });
  };
}

function isMissing(error: unknown): boolean {
  return typeof error === "object" && error !== null && "code" in error && error.code === "ENOENT";
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
