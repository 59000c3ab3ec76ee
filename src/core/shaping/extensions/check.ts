import { bundledPathSource } from "../../bundling/bundled-locations.ts";
import type { ReferencedNode } from "../../bundling/index.ts";
import { childType, type NodeType, specVersion, typesFor } from "../../bundling/openapi-types.ts";
import type { LoadedSpec, LocatedProblem } from "../../discovery/types.ts";
import { formatOf, type TextFormat } from "../../documents/format.ts";
import type { Logger } from "../../logger.ts";
import { escapeUntrusted } from "../../text/log-protocol.ts";
import { truncate, truncateMiddle } from "../../text/truncate.ts";
import { type DocumentPath, pathLocator } from "./locate.ts";
import {
  CODE_SAMPLE_KEYS,
  checkCodeSample,
  type ExtensionRule,
  RULES,
  type TagIndex,
  type Where,
} from "./rules.ts";

/** A problem with one of GitBook's extensions, at a path of the document. */
export interface ExtensionProblem {
  path: DocumentPath;
  message: string;
}

/** More than this many in one file are summed up in one last warning. */
export const MAX_WARNINGS_PER_FILE = 50;

const RULES_BY_KEY = new Map<string, ExtensionRule[]>();
for (const rule of RULES) {
  for (const key of rule.keys) RULES_BY_KEY.set(key, [...(RULES_BY_KEY.get(key) ?? []), rule]);
}

/** A quick look for any key of the table, so that a spec using none is neither parsed nor walked here. */
const ANY_KEY = new RegExp(
  `(?:${[...RULES_BY_KEY.keys()].map((key) => key.replace(/[-]/g, "\\-")).join("|")})["']?\\s*:`,
);

/** False when no key of the table is written in the text: nothing to check, nothing to parse. */
export function mayUseGitBookExtensions(text: string): boolean {
  return ANY_KEY.test(text);
}

/**
 * Warns, at its file, line and column, about every use of GitBook's OpenAPI extensions that GitBook
 * cannot use as written (rules.ts). Warnings only: the spec is published all the same.
 */
export function warnAboutGitBookExtensions(spec: LoadedSpec, logger: Logger): void {
  for (const problem of gitBookExtensionWarnings(spec)) warn(problem, logger);
}

/**
 * As the validation warns (validation/index.ts): the place once, in the location, not in the message.
 * The message quotes the spec's own names and values (a tag's name, an enum value), so it is escaped: a
 * newline or `::` written there stays inert text on the warning's one line.
 */
function warn({ file, line, column, message }: LocatedProblem, logger: Logger): void {
  logger.warning(escapeUntrusted(message), {
    file,
    ...(line !== undefined ? { line } : {}),
    ...(column !== undefined ? { column } : {}),
  });
}

/** The warnings of {@link warnAboutGitBookExtensions}, located in the spec's own file. */
export function gitBookExtensionWarnings(
  spec: Pick<LoadedSpec, "path" | "text" | "format" | "document" | "referencesOtherFiles">,
): LocatedProblem[] {
  const { text } = spec;
  if (!mayUseGitBookExtensions(text)) return [];
  const problems = checkGitBookExtensions(documentOf(spec));
  return problems.length === 0 ? [] : locateProblems(spec.path, text, spec.format, problems);
}

/** Problems of one file located in its text, in line order, capped at {@link MAX_WARNINGS_PER_FILE}. */
function locateProblems(
  file: string,
  text: string,
  format: TextFormat,
  problems: readonly ExtensionProblem[],
): LocatedProblem[] {
  const locate = pathLocator(text, format);
  const located: LocatedProblem[] = problems
    .slice(0, MAX_WARNINGS_PER_FILE)
    .map(({ path, message }) => ({ file, ...locate(path), message }))
    .sort((a, b) => a.line - b.line || a.column - b.column);
  const more = problems.length - MAX_WARNINGS_PER_FILE;
  if (more > 0) {
    located.push({
      file,
      message: `${more} more uses of GitBook's extensions like the ones above; fix those first.`,
    });
  }
  return located;
}

/**
 * The spec's own document (`spec.document`), except for a JSON spec sent as written: that one is parsed
 * here, for this check only, so that it keeps no parsed document through its upload (discovery/load.ts
 * parses on first use and keeps it). A JSON spec that may reference other files is parsed through
 * `spec.document` all the same, by the bundler (src/core/prepare/prepare.ts), which then finds it parsed.
 */
function documentOf(
  spec: Pick<LoadedSpec, "text" | "format" | "document" | "referencesOtherFiles">,
): unknown {
  if (spec.format !== "json" || spec.referencesOtherFiles !== false) return spec.document;
  try {
    return JSON.parse(spec.text.charCodeAt(0) === 0xfeff ? spec.text.slice(1) : spec.text);
  } catch {
    return spec.document;
  }
}

const OPERATION_KEYS = new Set([
  "get",
  "put",
  "post",
  "delete",
  "options",
  "head",
  "patch",
  "trace",
  "query",
]);

/** Every problem of the table's rules in one walk of the document, in document order. */
export function checkGitBookExtensions(document: unknown): ExtensionProblem[] {
  if (!isMapping(document)) return [];
  const problems: ExtensionProblem[] = [];
  const walker = { tags: indexTags(document), problems, seen: new WeakSet<object>(), subjectOf };
  walk(walker, document, typesFor(specVersion(document)).root, ["root"], []);
  return problems;
}

interface Walker {
  tags: TagIndex;
  problems: ExtensionProblem[];
  /** Each node once: one shared by YAML aliases or reached twice is reported once. */
  seen: WeakSet<object>;
  subjectOf(holder: Record<string, unknown>, wheres: readonly Where[], path: DocumentPath): string;
}

/**
 * How deep the walk goes: a document nested thousands of levels deep (`properties` in `properties`) would
 * overflow the stack, and no extension GitBook reads sits that deep.
 */
const MAX_DEPTH = 1000;

function walk(
  walker: Walker,
  value: object,
  type: NodeType,
  wheres: readonly Where[],
  path: (string | number)[],
): void {
  if (walker.seen.has(value) || path.length > MAX_DEPTH) return;
  walker.seen.add(value);
  if (!Array.isArray(value)) applyRules(value as Record<string, unknown>, wheres, path, walker);
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.map((item, index) => [index, item])
    : Object.entries(value);
  for (const [key, child] of entries) {
    if (!isObject(child)) continue;
    const childTypeOf = Array.isArray(value) ? type : childType(type, String(key));
    if (childTypeOf.data) continue;
    path.push(key);
    walk(walker, child, childTypeOf, wheresOf(childTypeOf, wheres, path), path);
    path.pop();
  }
}

/**
 * The warnings in the files a split spec reaches by `$ref`, each located in its own file: every node
 * reached is walked as the type of the position it is reached from. Tags are the root's (`tags` cannot be
 * referenced), so `x-parent` is judged against them.
 */
export function referencedFileWarnings(
  rootDocument: unknown,
  referenced: readonly ReferencedNode[],
): LocatedProblem[] {
  const tags = indexTags(isMapping(rootDocument) ? rootDocument : {});
  const seen = new WeakSet<object>();
  const byFile = new Map<string, { text: string; problems: ExtensionProblem[] }>();
  const usesByFile = new Map<string, boolean>();
  for (const { file, text, tokens, node, type, from } of referenced) {
    const sample = codeSampleSite(from);
    if (sample) {
      const which = `this code sample (item ${sample.index + 1} of \`${sample.key}\` that reaches it by $ref)`;
      const problems = checkCodeSample(node, which).map(({ at, message }) => ({
        path: [...tokens, ...(at ?? [])],
        message,
      }));
      if (problems.length > 0) {
        const entry = byFile.get(file) ?? { text, problems: [] };
        byFile.set(file, entry);
        entry.problems.push(...problems);
      }
      continue;
    }
    if (!isObject(node)) continue;
    // Once per file: a file of components can hold thousands of the nodes reached.
    if (!usesByFile.has(file)) usesByFile.set(file, mayUseGitBookExtensions(text));
    if (!usesByFile.get(file)) continue;
    const entry = byFile.get(file) ?? { text, problems: [] };
    byFile.set(file, entry);
    const path: (string | number)[] = [...tokens];
    walk(
      { tags, problems: entry.problems, seen, subjectOf: referencedSubjectOf },
      node,
      type,
      wheresOf(type, [], path),
      path,
    );
  }
  const located: LocatedProblem[] = [];
  for (const [file, { text, problems }] of [...byFile].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (problems.length > 0) located.push(...locateProblems(file, text, formatOf(file, text), problems));
  }
  return located;
}

/**
 * The warnings of what GitBook receives from a split spec: its bundled document, checked whole (a
 * `$ref` the bundle inlines is judged as what it brought: a code sample's `source` read from a code file
 * is text), each warning located where its key is written, in the root file or in the file a `$ref`
 * brought it from (the structural check's way: src/core/bundling/bundled-locations.ts).
 */
export function bundledExtensionWarnings(
  root: Pick<LoadedSpec, "path" | "text" | "format" | "document">,
  bundled: unknown,
  referenced: readonly ReferencedNode[],
): LocatedProblem[] {
  const texts = new Set([root.text, ...referenced.map((entry) => entry.text)]);
  if (![...texts].some(mayUseGitBookExtensions)) return [];
  return locateInSpecFiles(root, referenced, checkGitBookExtensions(bundled));
}

/**
 * Problems found on a spec's document (bundled when `referenced` is given), each located where its key
 * is written: in the root file, or in the file a `$ref` led to.
 */
export function locateInSpecFiles(
  root: Pick<LoadedSpec, "path" | "text" | "format" | "document">,
  referenced: readonly ReferencedNode[] | undefined,
  problems: readonly ExtensionProblem[],
): LocatedProblem[] {
  if (problems.length === 0) return [];
  if (!referenced) return locateProblems(root.path, root.text, root.format, problems);
  const rootSource = { file: root.path, text: root.text, format: root.format, document: root.document };
  const byFile = new Map<string, { text: string; format: TextFormat; problems: ExtensionProblem[] }>();
  for (const { path, message } of problems) {
    // A key no node has, last: a value written as a `$ref` (a code sample brought from its own file) is
    // followed to where it is written, and the path ends there.
    const source = bundledPathSource(rootSource, referenced, [...path.map(String), "\u0000"]);
    const entry = byFile.get(source.file) ?? { text: source.text, format: source.format, problems: [] };
    byFile.set(source.file, entry);
    entry.problems.push({ path: source.keyPath, message });
  }
  const rootFirst = [...byFile].sort(
    ([a], [b]) => (a === root.path ? 0 : 1) - (b === root.path ? 0 : 1) || (a < b ? -1 : a > b ? 1 : 0),
  );
  return rootFirst.flatMap(([file, { text, format, problems: inFile }]) =>
    locateProblems(file, text, format, inFile),
  );
}

/** Warns about located problems, as {@link warnAboutGitBookExtensions} does. */
export function warnAboutLocated(problems: readonly LocatedProblem[], logger: Logger): void {
  for (const problem of problems) warn(problem, logger);
}

/** Warns about what {@link bundledExtensionWarnings} finds, as {@link warnAboutGitBookExtensions} does. */
export function warnAboutGitBookExtensionsInBundle(
  root: Pick<LoadedSpec, "path" | "text" | "format" | "document">,
  bundled: unknown,
  referenced: readonly ReferencedNode[],
  logger: Logger,
): void {
  for (const problem of bundledExtensionWarnings(root, bundled, referenced)) warn(problem, logger);
}

/** The code sample list and index of a `$ref` written as an item of `x-codeSamples` (or an alias), if any. */
function codeSampleSite(from: readonly (readonly string[])[]): { key: string; index: number } | undefined {
  for (const tokens of from) {
    const key = tokens[tokens.length - 2];
    const index = tokens[tokens.length - 1];
    if (key !== undefined && CODE_SAMPLE_KEYS.has(key) && index !== undefined && /^\d+$/.test(index)) {
      return { key, index: Number(index) };
    }
  }
  return undefined;
}

/** How a message names a mapping of a referenced file, whose path in the document is not known here. */
function referencedSubjectOf(_holder: unknown, wheres: readonly Where[], path: DocumentPath): string {
  const last = path[path.length - 1];
  if (wheres.includes("operation")) {
    return typeof last === "string" && OPERATION_KEYS.has(last)
      ? `the ${last.toUpperCase()} operation`
      : "the operation";
  }
  if (wheres.includes("response")) return last === undefined ? "the response" : `response ${String(last)}`;
  if (wheres.includes("securityScheme"))
    return last === undefined ? "the security scheme" : `security scheme ${String(last)}`;
  return path.length > 0 ? spell(path) : "the top of the file";
}

/** What kind of place the mapping at `path` is, from the bundler's table of OpenAPI types and its path. */
function wheresOf(type: NodeType, parent: readonly Where[], path: DocumentPath): Where[] {
  const wheres: Where[] = ["anywhere"];
  const [first, second] = path;
  const key = path[path.length - 1];
  const parentKey = path[path.length - 2];
  if (path.length === 2 && first === "tags" && typeof second === "number") wheres.push("tag");
  if (path.length === 2 && first === "securityDefinitions") wheres.push("securityScheme");
  if (type.name === "Operation") wheres.push("operation");
  else if (type.name === "PathItem") wheres.push("pathItem");
  else if (type.name === "Response") wheres.push("response");
  else if (type.name === "SecurityScheme") wheres.push("securityScheme");
  else if (type.name === "Schema") {
    wheres.push("schema");
    if (
      (path.length === 3 && first === "components" && second === "schemas") ||
      (path.length === 2 && first === "definitions")
    ) {
      wheres.push("componentSchema");
    }
  }
  // Servers are not in the bundler's table: a list `servers` of the root, a path item or an operation.
  if (parentKey === "servers" && typeof key === "number" && parent.includes("serverList"))
    wheres.push("server");
  if (
    key === "servers" &&
    (parent.includes("root") || parent.includes("pathItem") || parent.includes("operation"))
  ) {
    wheres.push("serverList");
  }
  if (key === "variables" && parent.includes("server")) wheres.push("serverVariables");
  if (parent.includes("serverVariables")) wheres.push("serverVariable");
  return wheres;
}

function applyRules(
  holder: Record<string, unknown>,
  wheres: readonly Where[],
  path: DocumentPath,
  walker: Walker,
): void {
  let subject: string | undefined;
  for (const key in holder) {
    const rules = RULES_BY_KEY.get(key);
    if (!rules || !Object.hasOwn(holder, key)) continue;
    const value = holder[key];
    // A `$ref` is checked where it leads to (referencedFileWarnings), not here.
    if (isMapping(value) && typeof value.$ref === "string") continue;
    for (const rule of rules) {
      if (!rule.where.some((where) => wheres.includes(where))) continue;
      subject ??= walker.subjectOf(holder, wheres, path);
      const found = rule.check(value, key, { holder, subject, tags: walker.tags });
      if (found === undefined) continue;
      const findings = typeof found === "string" ? [{ message: found }] : found;
      for (const { at, message } of findings) {
        walker.problems.push({ path: [...path, key, ...(at ?? [])], message });
      }
    }
  }
}

/** How a message names the mapping: "the document", "tag `users`", "GET /pets", "responses.200 of GET /pets". */
function subjectOf(holder: Record<string, unknown>, wheres: readonly Where[], path: DocumentPath): string {
  if (path.length === 0) return "the document";
  if (wheres.includes("tag"))
    return typeof holder.name === "string"
      ? `tag \`${truncate(holder.name, 60)}\``
      : `tag ${Number(path[1]) + 1}`;
  const [first, second, third] = path;
  if ((first === "paths" || first === "webhooks") && typeof third === "string" && OPERATION_KEYS.has(third)) {
    const operation = `${first === "webhooks" ? "webhook " : ""}${third.toUpperCase()} ${String(second)}`;
    const rest = path.slice(3);
    return rest.length === 0 ? operation : `${spell(rest)} of ${operation}`;
  }
  return spell(path);
}

/** The path as messages write it, cut in its middle past 200 characters (a path can be 1,000 keys deep). */
function spell(path: DocumentPath): string {
  const spelled = path
    .map((part, index) => (typeof part === "number" ? `[${part}]` : index === 0 ? part : `.${part}`))
    .join("");
  return truncateMiddle(spelled, 200);
}

/** The declared and hidden tags, and where a nesting cycle is to be reported. */
function indexTags(document: Record<string, unknown>): TagIndex {
  const list = Array.isArray(document.tags) ? document.tags.filter(isMapping) : [];
  const declared = new Set<string>();
  const hidden = new Set<string>();
  const byName = new Map<string, Record<string, unknown>>();
  for (const tag of list) {
    if (typeof tag.name !== "string") continue;
    declared.add(tag.name);
    if (tag["x-internal"] === true || tag["x-gitbook-ignore"] === true) hidden.add(tag.name);
    if (!byName.has(tag.name)) byName.set(tag.name, tag);
  }
  const parentOf = (tag: Record<string, unknown>) => {
    // GitBook reads `parent` first, then `x-parent`.
    const parent = typeof tag.parent === "string" ? tag.parent : tag["x-parent"];
    return typeof parent === "string" ? byName.get(parent) : undefined;
  };
  // Each tag is followed once (a chain of 10,000 parents stays linear): `state` is the walk that reached
  // it, and a walk that meets its own tag again has found a cycle, reported at its first tag in `tags`.
  const cycleAt = new Map<Record<string, unknown>, string[]>();
  const state = new Map<Record<string, unknown>, number>();
  const order = new Map<Record<string, unknown>, number>();
  list.forEach((tag, index) => {
    if (!order.has(tag)) order.set(tag, index);
  });
  list.forEach((start, walk) => {
    const chain: Record<string, unknown>[] = [];
    let at: Record<string, unknown> | undefined = start;
    while (at && !state.has(at)) {
      state.set(at, walk);
      chain.push(at);
      at = parentOf(at);
    }
    if (!at || state.get(at) !== walk) return;
    const cycle = chain.slice(chain.indexOf(at));
    const first = cycle.reduce((a, b) => ((order.get(b) as number) < (order.get(a) as number) ? b : a));
    const rotated = [...cycle.slice(cycle.indexOf(first)), ...cycle.slice(0, cycle.indexOf(first))];
    cycleAt.set(
      first,
      [...rotated, first].map((tag) => String(tag.name)),
    );
  });
  return { declared, hidden, cycleAt };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return isObject(value) && !Array.isArray(value);
}
