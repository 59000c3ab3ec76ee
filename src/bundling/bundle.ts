import { readFile, realpath } from "node:fs/promises";
import { extname, isAbsolute, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import $RefParser, { type FileInfo } from "@apidevtools/json-schema-ref-parser";
import { stringify } from "yaml";
import { BundleError } from "./errors.ts";
import { findExternalRefs } from "./external-refs.ts";
import { ownPlaces, treeWithInternalRefs } from "./shared-nodes.ts";
import { parseSource, SourceSyntaxError } from "./source-file.ts";
import { collectSpecFiles, readInsideWorkspace, type SpecFile, workspaceRelative } from "./spec-files.ts";

export interface BundleOptions {
  /** Absolute; no reference may lead outside it. */
  workspace: string;
}

export interface BundledSpec {
  /** What the PUT sends. */
  text: string;
  /** False when the file had no external refs and `text` is the file's exact bytes. */
  bundled: boolean;
  /** Every file that went into it, workspace-relative, '/'-separated, root first. */
  files: string[];
}

/**
 * Turns the spec at `absolutePath` into one document without external references, in the root's format
 * (YAML or JSON), internal references kept. A spec without external references is returned untouched.
 * `sourceText` and `rootDocument` (the root already read and parsed, as discovery has them) spare a second
 * read and parse; a root whose document has no external reference is then returned at once.
 */
export async function bundleSpec(
  absolutePath: string,
  options: BundleOptions,
  sourceText?: string,
  rootDocument?: unknown,
): Promise<BundledSpec> {
  const workspace = resolve(options.workspace);
  const rootPath = resolve(workspace, absolutePath);
  const rootRelative = workspaceRelative(workspace, rootPath);
  if (rootRelative.startsWith("../") || rootRelative === ".." || isAbsolute(rootRelative)) {
    throw new BundleError(`is outside the workspace ${workspace}; specs must be files of the repository.`, {
      file: rootPath,
      ref: "",
    });
  }
  const text = sourceText ?? (await readFile(rootPath, "utf8"));
  if (sourceText !== undefined && rootDocument !== undefined && findExternalRefs(rootDocument).length === 0) {
    return { text, bundled: false, files: [rootRelative] };
  }
  const root: SpecFile = { path: rootPath, relative: rootRelative, source: parseRoot(text, rootRelative) };
  if (!root.source.refs.some((occurrence) => !occurrence.ref.startsWith("#"))) {
    return { text, bundled: false, files: [rootRelative] };
  }

  const files = await collectSpecFiles(root, workspace, readInsideWorkspace(await realpath(workspace)));
  const rootPlaces = ownPlaces(root.source.value);
  const graph = await dereference(files).catch(explainLibraryError(rootRelative));
  const document = treeWithInternalRefs(graph, rootPlaces);
  const leftOver = findExternalRefs(document);
  if (leftOver.length > 0) {
    throw new Error(`Bundling ${rootRelative} left external references behind: ${leftOver.join(", ")}`);
  }
  return {
    text: serialize(document, rootPath, text),
    bundled: true,
    files: files.map((file) => file.relative),
  };
}

function parseRoot(text: string, rootRelative: string): SpecFile["source"] {
  try {
    return parseSource(text);
  } catch (error) {
    if (!(error instanceof SourceSyntaxError)) throw error;
    throw new BundleError(`is not valid YAML or JSON: ${error.message}`, {
      file: rootRelative,
      ref: "",
      ...(error.line === undefined ? {} : { line: error.line, column: error.column }),
    });
  }
}

/**
 * json-schema-ref-parser resolves the references: its dereferenced document holds one shared object per
 * referenced node, which `treeWithInternalRefs` writes once. It only sees the files already read and
 * checked by `collectSpecFiles`: its file and HTTP resolvers and its parsers are switched off.
 */
async function dereference(files: SpecFile[]): Promise<unknown> {
  const [root] = files;
  if (!root) throw new Error("collectSpecFiles returned no file");
  const values = new Map(files.map((file) => [file.path, file.source.value]));
  const collectedValue = (file: FileInfo): unknown => {
    const path = file.url.startsWith("file:") ? fileURLToPath(file.url) : decodeURIComponent(file.url);
    if (!values.has(path)) throw new Error(`${path} was not collected before bundling`);
    return values.get(path);
  };
  return $RefParser.dereference(root.path, root.source.value, {
    resolve: {
      external: true,
      file: false,
      http: false,
      collected: { order: 1, canRead: true, read: (file: FileInfo) => collectedValue(file) as object },
    },
    parse: {
      json: false,
      yaml: false,
      text: false,
      binary: false,
      collected: { order: 1, canParse: true, parse: (file: FileInfo) => file.data },
    },
    dereference: { circular: true, maxDepth: Number.POSITIVE_INFINITY },
  });
}

/**
 * The checks in `collectSpecFiles` resolve every ref against its file, so the library only fails where it
 * resolves differently: a schema's absolute `$id` makes the refs inside it resolve against that URL.
 */
function explainLibraryError(rootRelative: string): (error: unknown) => never {
  return (error) => {
    const source =
      typeof error === "object" && error !== null && "source" in error ? error.source : undefined;
    const ref = typeof source === "string" ? source : "";
    const detail = error instanceof Error ? error.message : String(error);
    throw new BundleError(
      `could not be bundled (${detail}). If a schema declares an absolute \`$id\`, the references inside ` +
        "it resolve against that URL, not the file: remove the `$id` or use the `source: url` input.",
      { file: rootRelative, ref },
    );
  };
}

function serialize(document: unknown, rootPath: string, rootText: string): string {
  if (isJson(rootPath, rootText)) return `${JSON.stringify(document, null, 2)}\n`;
  return stringify(document, { aliasDuplicateObjects: false, lineWidth: 0 });
}

function isJson(path: string, text: string): boolean {
  const extension = extname(path).toLowerCase();
  if (extension === ".json") return true;
  if (extension === ".yaml" || extension === ".yml") return false;
  return text.trimStart().startsWith("{");
}
