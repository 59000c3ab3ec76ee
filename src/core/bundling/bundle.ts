import { readFile, realpath } from "node:fs/promises";
import { resolve } from "node:path";
import { formatOf } from "../documents/format.ts";
import { parseSource, SourceSyntaxError } from "../documents/source-text.ts";
import { isWithin } from "../files/containment.ts";
import { placeComponents } from "./components.ts";
import { BundleError, BundleFailure } from "./errors.ts";
import { findExternalRefs, mayReferenceOtherFiles } from "./external-refs.ts";
import { type NodeType, specVersion, typesFor } from "./openapi-types.ts";
import {
  collectSpecGraph,
  readInsideWorkspace,
  type SpecFile,
  type SpecGraph,
  workspaceRelative,
} from "./spec-files.ts";
import { writeBundle } from "./write.ts";
import { toYaml } from "./yaml-text.ts";

export interface BundleOptions {
  /** Absolute; no reference may lead outside it. */
  workspace: string;
}

export interface BundledSpec {
  /** What the PUT sends. */
  text: string;
  /** False when the file had no external refs and `text` is the file's exact bytes. */
  bundled: boolean;
  /**
   * The root references no other file (literal data aside): `text` is the file's whatever other files
   * hold. False for a bundle, and when references to files that could not be read (an example wholly a
   * `$ref`) were left as written: the same root could bundle otherwise once they can be read.
   */
  standalone: boolean;
  /** Every file that went into it, workspace-relative, '/'-separated, root first. */
  files: string[];
  /** The bundled document that `text` writes, when `bundled`: spares reading the text back. */
  document?: unknown;
  /**
   * When `bundled`: every node that a `$ref` reaches in another file than the root, where it is written
   * and the type of a position it is reached from, for checks that point into those files.
   */
  referenced?: readonly ReferencedNode[];
}

/** A node of another file than the root, reached by a `$ref`. */
export interface ReferencedNode {
  /** Workspace-relative, '/'-separated. */
  file: string;
  /** The file's text as read. */
  text: string;
  /** Where the node is in its file. */
  tokens: readonly string[];
  node: unknown;
  /** The type of (one of) the positions it is reached from. */
  type: NodeType;
  /** Where the `$ref`s that reach it are written, in their own files (the root's or another's). */
  from: readonly (readonly string[])[];
}

/**
 * Turns the spec at `absolutePath` into one document without references to other files, in the root's
 * format (YAML or JSON): see `placeComponents` for what becomes a named component and `writeBundle` for
 * where everything else goes. A spec without references to other files (literal data aside) is returned
 * byte for byte. `sourceText` and `rootDocument` (the root already read, and parsed or parsed on demand,
 * as loading a spec gives them) spare a second read and parse. Throws `BundleFailure` listing every
 * problem found.
 */
export async function bundleSpec(
  absolutePath: string,
  options: BundleOptions,
  sourceText?: string,
  rootDocument?: unknown | (() => unknown),
): Promise<BundledSpec> {
  const workspace = resolve(options.workspace);
  const rootPath = resolve(workspace, absolutePath);
  const rootRelative = workspaceRelative(workspace, rootPath);
  if (!isWithin(workspace, rootPath)) {
    throw new BundleFailure([
      new BundleError(`is outside the workspace ${workspace}; specs must be files of the repository.`, {
        file: rootPath,
        ref: "",
      }),
    ]);
  }
  const text = sourceText ?? (await readFile(rootPath, "utf8"));
  // A root already parsed (discovery read it) that provably references no other file needs no walk.
  if (rootDocument !== undefined && !mayReferenceOtherFiles(text)) {
    return { text, bundled: false, standalone: true, files: [rootRelative] };
  }
  const value =
    sourceText !== undefined && rootDocument !== undefined
      ? typeof rootDocument === "function"
        ? rootDocument()
        : rootDocument
      : parseRoot(text, rootPath, rootRelative);
  if (findExternalRefs(value).length === 0) {
    return { text, bundled: false, standalone: true, files: [rootRelative] };
  }

  const root: SpecFile = { path: rootPath, relative: rootRelative, text, value, isText: false };
  const version = specVersion(value);
  const types = typesFor(version);
  const { graph, problems } = await collectSpecGraph(
    root,
    types,
    workspace,
    readInsideWorkspace(await realpath(workspace)),
  );
  if (problems.length > 0) throw new BundleFailure(problems);
  if (nothingFromOtherFiles(graph)) return { text, bundled: false, standalone: false, files: [rootRelative] };
  const placement = placeComponents(graph, root, types, version);
  const document = writeBundle(graph, root, placement, types, version);
  return {
    text: serialize(document, rootPath, text),
    bundled: true,
    standalone: false,
    files: graph.files.map((file) => file.relative),
    document,
    referenced: referencedNodes(graph, root),
  };
}

function referencedNodes(graph: SpecGraph, root: SpecFile): ReferencedNode[] {
  const sites = new Map<object, (readonly string[])[]>();
  for (const site of graph.refs.values()) {
    if (!site.target) continue;
    const known = sites.get(site.target);
    if (known) known.push(site.tokens);
    else sites.set(site.target, [site.tokens]);
  }
  const nodes: ReferencedNode[] = [];
  for (const target of graph.targets.values()) {
    const { file, tokens, node, types } = target;
    const [type] = types;
    if (file === root || file.isText || type === undefined) continue;
    nodes.push({ file: file.relative, text: file.text, tokens, node, type, from: sites.get(target) ?? [] });
  }
  return nodes;
}

/** Only examples' references to files that cannot be read: they stay as written, and so does the text. */
function nothingFromOtherFiles(graph: SpecGraph): boolean {
  if (graph.files.length > 1) return false;
  for (const site of graph.refs.values()) {
    if (site.target && !site.ref.startsWith("#")) return false;
  }
  return true;
}

function parseRoot(text: string, rootPath: string, rootRelative: string): unknown {
  try {
    return parseSource(text, isJson(rootPath, text));
  } catch (error) {
    if (!(error instanceof SourceSyntaxError)) throw error;
    throw new BundleFailure([
      new BundleError(`is not valid YAML or JSON: ${error.message}`, {
        file: rootRelative,
        ref: "",
        ...(error.line === undefined ? {} : { line: error.line, column: error.column }),
      }),
    ]);
  }
}

function serialize(document: unknown, rootPath: string, rootText: string): string {
  if (isJson(rootPath, rootText)) return `${JSON.stringify(document, null, 2)}\n`;
  return toYaml(document);
}

function isJson(path: string, text: string): boolean {
  return formatOf(path, text) === "json";
}
