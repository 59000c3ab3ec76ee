/**
 * OpenAPI Overlays 1.0.x and 1.1.x: each action's JSONPath `target` (`json-p3`) gets its `update`,
 * `remove` or `copy`, in order. A malformed overlay throws {@link OverlayError} at its file and line; a
 * target that selects nothing is a warning. Choices, deviations and bounds: docs/design/overlays.md.
 */
import {
  JSONPathEnvironment,
  JSONPathError,
  JSONPathNode,
  JSONPathQuery,
  type JSONValue,
  jsonpath,
} from "json-p3";
import { parseSource, SourceSyntaxError, valueLocator } from "../documents/source-text.ts";
import { formatBytes } from "../files/read-regular.ts";
import {
  compileWork,
  depthOf,
  describePath,
  MAX_ADDED_BYTES,
  MAX_DOCUMENT_DEPTH,
  MAX_OVERLAY_TEXT,
  MAX_PATTERN_WORK,
  MAX_SELECTED,
  MAX_TARGET_LENGTH,
  MAX_TARGET_NESTING,
  MAX_WALKED,
  ShapingBudget,
} from "./bounds.ts";
import { compilePattern, PatternError } from "./patterns.ts";

export interface OverlayLocation {
  /** Workspace-relative, `/`-separated. */
  file: string;
  line?: number;
  column?: number;
}

/** The overlay cannot be applied: the message starts with its `file:line`. */
export class OverlayError extends Error {
  override readonly name = "OverlayError";
  readonly location: OverlayLocation;
  /** The message without its place. */
  readonly reason: string;

  constructor(message: string, location: OverlayLocation) {
    super(`${where(location)}: ${message}`);
    this.location = location;
    this.reason = message;
  }
}

export interface OverlayAction {
  /** 0-based, in the file's order. */
  index: number;
  line: number;
  target: string;
  query: JSONPathQuery;
  /** Set when the action updates (absent for `remove`). */
  update?: unknown;
  /** A 1.1 `copy`: the JSONPath of the one node whose value is merged like an update. */
  copy?: { path: string; query: JSONPathQuery };
  remove: boolean;
}

export interface Overlay {
  file: string;
  /** Its text's size in bytes: what reading it cost (a spec's overlays are bounded together). */
  bytes: number;
  /** What compiling its patterns cost, in the units of `MAX_PATTERN_WORK`. */
  patternWork: number;
  /** `1.0` or `1.1`: what `update` means on arrays and primitives. */
  version: "1.0" | "1.1";
  actions: OverlayAction[];
}

/** Told each action whose target selected nothing. */
export type OverlayWarn = (message: string, location: OverlayLocation) => void;

const ROOT_FIELDS = new Set(["overlay", "info", "extends", "actions"]);
const INFO_FIELDS = new Set(["title", "version", "description"]);
const ACTION_FIELDS = new Set(["target", "description", "update", "remove", "copy"]);

/** While an overlay is read: what compiling its targets' patterns costs (./bounds.ts), charged when applied. */
let parsing: ShapingBudget | undefined;

/** Counts pattern work against the overlay being read, or the spec being shaped; throws past the bound. */
function chargePatterns(units: number, fn: "match" | "search"): void {
  const account = parsing ?? activeBudget;
  if (!account) return;
  account.patternWork += units;
  if (account.patternWork > MAX_PATTERN_WORK)
    throw new PatternError(
      `its ${fn}() patterns, with those before them, have done ${MAX_PATTERN_WORK.toLocaleString("en-US")} units of work (compiling, and pattern size × text length), the limit for one spec; narrow the target before the filter, or use fewer and shorter patterns`,
    );
}

/**
 * The JSONPath environment of every overlay query: strict RFC 9535, no non-standard selectors, patterns
 * run by ./patterns.ts. Its `..` stops at json-p3's recursion limit (50 levels by default, which a real
 * spec may pass): ours lets it reach every node of the deepest document shaping accepts, whose own
 * bound, reported with its path, comes first.
 */
export const JSONPATH = new (class extends JSONPathEnvironment {
  /** json-p3's own hook for every mapping its `..`, `*` and filters walk: counted against the spec. */
  override entries(obj: Record<string, JSONValue>): Array<[string, JSONValue]> {
    const entries = super.entries(obj);
    if (activeBudget) {
      activeBudget.walked += entries.length + 1;
      if (activeBudget.walked > MAX_WALKED) throw new WalkBoundError();
    }
    return entries;
  }
})({ strict: true, maxRecursionDepth: MAX_DOCUMENT_DEPTH + 2 });

/** A spec's targets walked past {@link MAX_WALKED}: thrown from inside json-p3, placed by `select`. */
class WalkBoundError extends Error {}

/** The budget of the spec being shaped: set while an overlay applies (all of it is synchronous). */
let activeBudget: ShapingBudget | undefined;

// `match()` and `search()` run their I-Regexp with a linear-time engine (./patterns.ts), never with
// JavaScript's backtracking RegExp, where `(a+)+$` takes time exponential in the text's length and
// `.*.*.*.*.*.*Z` polynomial (a 3,000-character description held a run for hours).
for (const name of ["match", "search"] as const) {
  const inner = JSONPATH.functionRegister.get(name);
  if (!inner) continue;
  JSONPATH.functionRegister.set(name, {
    argTypes: inner.argTypes,
    returnType: inner.returnType,
    call: (value: unknown, pattern: unknown) => {
      // RFC 9535: a value or pattern that is not a string makes the function false.
      if (typeof value !== "string" || typeof pattern !== "string") return false;
      const compiled = compilePattern(pattern, name, (size) => chargePatterns(compileWork(size), name));
      chargePatterns(compiled.size * (value.length + 1), name);
      return compiled.test(value);
    },
  });
}

/**
 * Reads an overlay's text (YAML or JSON) into its checked actions, each query compiled. `file` is how
 * messages name it (workspace-relative).
 */
export function parseOverlay(text: string, file: string): Overlay {
  const outer = parsing;
  parsing = new ShapingBudget();
  try {
    return { ...readOverlay(text, file), patternWork: parsing.patternWork };
  } finally {
    parsing = outer;
  }
}

function readOverlay(text: string, file: string): Omit<Overlay, "patternWork"> {
  let value: unknown;
  try {
    value = parseSource(text, file.toLowerCase().endsWith(".json"));
  } catch (error) {
    const position =
      error instanceof SourceSyntaxError && error.line !== undefined
        ? { line: error.line, ...(error.column !== undefined ? { column: error.column } : {}) }
        : {};
    throw new OverlayError(`is not valid YAML or JSON: ${(error as Error).message.split("\n")[0]}`, {
      file,
      ...position,
    });
  }
  let locate: ((tokens: readonly string[]) => { line: number; column: number }) | undefined;
  const at = (...tokens: string[]): OverlayLocation => {
    locate ??= valueLocator(text);
    return { file, ...locate(tokens) };
  };
  const fail = (message: string, ...tokens: string[]) => new OverlayError(message, at(...tokens));
  if (!isObject(value)) throw fail("an overlay is a mapping with `overlay`, `info` and `actions`.");
  const declared = value.overlay;
  const version = typeof declared === "string" ? /^1\.([01])\.\d+$/.exec(declared)?.[1] : undefined;
  if (version === undefined) {
    throw fail(
      declared === undefined
        ? "not an overlay: it has no `overlay` field; the first line of an overlay is `overlay: 1.0.0`."
        : `\`overlay: ${String(declared)}\` is not a supported Overlay Specification version; write \`overlay: 1.0.0\` (or 1.1.0), quoted if your editor reads it as a number.`,
      "overlay",
    );
  }
  unknownFields(value, ROOT_FIELDS, fail, []);
  const info = value.info;
  if (!isObject(info)) throw fail("`info` must be a mapping with a `title` and a `version`.", "info");
  for (const key of ["title", "version"] as const) {
    if (typeof info[key] !== "string")
      throw fail(`\`info.${key}\` must be a text (it is ${describe(info[key])}).`, "info", key);
  }
  unknownFields(info, INFO_FIELDS, fail, ["info"]);
  if (value.extends !== undefined && typeof value.extends !== "string")
    throw fail("`extends` must be a text (a URI reference).", "extends");
  const actions = value.actions;
  if (!Array.isArray(actions) || actions.length === 0)
    throw fail("`actions` must be a list of at least one action.", "actions");
  const parsed = actions.map((action, index) =>
    parseAction(action, index, version === "1" ? "1.1" : "1.0", fail, at),
  );
  return {
    file,
    bytes: Buffer.byteLength(text),
    version: version === "1" ? "1.1" : "1.0",
    actions: parsed,
  };
}

function parseAction(
  action: unknown,
  index: number,
  version: Overlay["version"],
  fail: (message: string, ...tokens: string[]) => OverlayError,
  at: (...tokens: string[]) => OverlayLocation,
): OverlayAction {
  const token = String(index);
  const name = `action ${index + 1}`;
  if (!isObject(action)) throw fail(`${name} must be a mapping with a \`target\`.`, "actions", token);
  unknownFields(action, ACTION_FIELDS, fail, ["actions", token]);
  const { target, description, update, remove, copy } = action;
  if (typeof target !== "string")
    throw fail(`${name} needs a \`target\`: a JSONPath such as \`$.paths['/pets'].get\`.`, "actions", token);
  if (description !== undefined && typeof description !== "string")
    throw fail(`the \`description\` of ${name} must be a text.`, "actions", token, "description");
  if (remove !== undefined && typeof remove !== "boolean")
    throw fail(`\`remove\` of ${name} must be true or false.`, "actions", token, "remove");
  if (copy !== undefined && (version === "1.0" || typeof copy !== "string"))
    throw fail(
      version === "1.0"
        ? `${name} has \`copy\`, which Overlay 1.1 added; declare \`overlay: 1.1.0\`.`
        : `\`copy\` of ${name} must be a JSONPath text.`,
      "actions",
      token,
      "copy",
    );
  const modifiers = [update !== undefined, remove === true, copy !== undefined].filter(Boolean).length;
  if (modifiers === 0)
    throw fail(
      `${name} (${target}) neither updates nor removes anything: give it \`update\`${version === "1.1" ? ", `copy`" : ""} or \`remove: true\`.`,
      "actions",
      token,
    );
  if (modifiers > 1)
    throw fail(
      `${name} (${target}) has more than one of \`update\`, \`copy\` and \`remove: true\`; the specification then ignores all but \`remove\`, so say only what the action does.`,
      "actions",
      token,
    );
  const { line } = at("actions", token);
  if (update !== undefined && depthOf(update) > MAX_DOCUMENT_DEPTH)
    throw fail(
      `the \`update\` of ${name} nests deeper than ${MAX_DOCUMENT_DEPTH} levels, the most a shaped document may have.`,
      "actions",
      token,
      "update",
    );
  const compiled = compileQuery(target, () => at("actions", token, "target"), `the target of ${name}`);
  const copied =
    typeof copy === "string"
      ? { path: copy, query: compileQuery(copy, () => at("actions", token, "copy"), `\`copy\` of ${name}`) }
      : undefined;
  return {
    index,
    line: line ?? 1,
    target,
    query: compiled,
    ...(update !== undefined ? { update } : {}),
    ...(copied ? { copy: copied } : {}),
    remove: remove === true,
  };
}

function compileQuery(path: string, at: () => OverlayLocation, what: string): JSONPathQuery {
  const quoted = JSON.stringify(brief(path));
  // Checked before json-p3 reads it: its parser recurses into each bracket and parenthesis.
  if (path.length > MAX_TARGET_LENGTH)
    throw new OverlayError(
      `${what} is ${path.length.toLocaleString("en-US")} characters long, over the ${MAX_TARGET_LENGTH.toLocaleString("en-US")} a JSONPath query may have here.`,
      at(),
    );
  const nesting = bracketNesting(path);
  if (nesting > MAX_TARGET_NESTING)
    throw new OverlayError(
      `${what}, ${quoted}, nests brackets, parentheses and negations ${nesting.toLocaleString("en-US")} deep, over the ${MAX_TARGET_NESTING} a JSONPath query may have here.`,
      at(),
    );
  let query: JSONPathQuery;
  try {
    query = JSONPATH.compile(path);
  } catch (error) {
    const reason = (error as Error).message.replace(/\s+/g, " ").trim();
    const hint = /(^|[.])[A-Za-z_][\w]*-/.test(path)
      ? " A name with `-` (such as `x-internal`) is written in brackets: `@['x-internal']`."
      : "";
    throw new OverlayError(`${what}, ${quoted}, is not a JSONPath query (RFC 9535): ${reason}.${hint}`, at());
  }
  const { segments, patterns } = inspectQuery(query);
  if (segments > MAX_DOCUMENT_DEPTH)
    throw new OverlayError(
      `${what}, ${quoted}, has ${segments.toLocaleString("en-US")} segments; each goes one level down, and a shaped document is at most ${MAX_DOCUMENT_DEPTH} levels deep, so it could select nothing.`,
      at(),
    );
  for (const { fn, pattern } of patterns) {
    try {
      compilePattern(pattern, fn, (size) => chargePatterns(compileWork(size), fn));
    } catch (error) {
      if (error instanceof PatternError) throw new OverlayError(`${what}: ${error.message}.`, at());
      throw error;
    }
  }
  return query;
}

/**
 * The deepest nesting of `[…]`, `(…)` and `!` (each negation nests the expression it negates) in a
 * query's text, outside its string literals.
 */
function bracketNesting(path: string): number {
  let depth = 0;
  let deepest = 0;
  let negations = 0;
  let quote: string | undefined;
  for (let i = 0; i < path.length; i++) {
    const char = path[i];
    if (quote !== undefined) {
      if (char === "\\") i++;
      else if (char === quote) quote = undefined;
      continue;
    }
    if (char === "!" && path[i + 1] !== "=") deepest = Math.max(deepest, depth + ++negations);
    else if (char !== " ") negations = 0;
    if (char === "'" || char === '"') quote = char;
    else if (char === "[" || char === "(") deepest = Math.max(deepest, ++depth);
    else if (char === "]" || char === ")") depth--;
  }
  return deepest;
}

/**
 * The most segments of any one query within `query` (itself, or one inside its filters), and the
 * patterns its `match()`/`search()` calls give as literals, to be checked before anything runs.
 */
function inspectQuery(query: JSONPathQuery): {
  segments: number;
  patterns: Array<{ fn: "match" | "search"; pattern: string }>;
} {
  const { FunctionExtension, StringLiteral } = jsonpath.expressions;
  let segments = 0;
  const patterns: Array<{ fn: "match" | "search"; pattern: string }> = [];
  const seen = new Set<object>();
  const stack: unknown[] = [query];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== "object" || node === null || seen.has(node)) continue;
    seen.add(node);
    if (node instanceof JSONPathQuery) segments = Math.max(segments, node.segments.length);
    if (node instanceof FunctionExtension && (node.name === "match" || node.name === "search")) {
      const pattern = node.args[1];
      if (pattern instanceof StringLiteral) patterns.push({ fn: node.name, pattern: pattern.value });
    }
    for (const [key, child] of Object.entries(node))
      if (key !== "environment" && key !== "token") stack.push(child);
  }
  return { segments, patterns };
}

function unknownFields(
  value: Record<string, unknown>,
  known: ReadonlySet<string>,
  fail: (message: string, ...tokens: string[]) => OverlayError,
  tokens: string[],
): void {
  for (const key of Object.keys(value)) {
    if (known.has(key) || key.startsWith("x-")) continue;
    const where = tokens.length === 0 ? "an overlay" : tokens[0] === "info" ? "`info`" : "an action";
    throw fail(
      `unknown field \`${key}\` in ${where}; the fields are ${[...known].map((k) => `\`${k}\``).join(", ")} and \`x-\` extensions.`,
      ...tokens,
      key,
    );
  }
}

/**
 * Applies the overlay's actions in order to `document`, in place, and returns it (a `$` target replaced by
 * an update is the same object). Throws {@link OverlayError} for an action that cannot apply, and when the
 * spec's overlays together pass a bound of `budget` (./bounds.ts): one budget serves every overlay of a
 * spec, so that splitting an overlay into many files buys nothing.
 */
export function applyOverlay(
  document: unknown,
  overlay: Overlay,
  warn: OverlayWarn,
  budget: ShapingBudget = new ShapingBudget(),
): unknown {
  budget.overlayText += overlay.bytes;
  if (budget.overlayText > MAX_OVERLAY_TEXT)
    throw new OverlayError(
      `with the overlays before it, this spec's overlays are ${formatBytes(budget.overlayText)} of text, over the ${formatBytes(MAX_OVERLAY_TEXT)} one spec may read.`,
      { file: overlay.file },
    );
  budget.patternWork += overlay.patternWork;
  if (budget.patternWork > MAX_PATTERN_WORK)
    throw new OverlayError(
      `with the overlays before it, this spec's overlays have done more pattern work than one spec may (${MAX_PATTERN_WORK.toLocaleString("en-US")} units: compiling, and pattern size × text length).`,
      { file: overlay.file },
    );
  const outer = activeBudget;
  activeBudget = budget;
  try {
    for (const action of overlay.actions) document = applyAction(document, overlay, action, warn, budget);
  } finally {
    activeBudget = outer;
  }
  return document;
}

function applyAction(
  document: unknown,
  overlay: Overlay,
  action: OverlayAction,
  warn: OverlayWarn,
  budget: ShapingBudget,
): unknown {
  const location = { file: overlay.file, line: action.line };
  const name = `action ${action.index + 1}`;
  const target = brief(action.target);
  const nodes = select(action.query, document, `${name}'s target ${target}`, location, budget);
  if (nodes.length === 0) {
    warn(`${name}'s target ${target} selects nothing; the action changes nothing.`, location);
    return document;
  }
  if (action.remove) {
    removeNodes(
      document,
      nodes.map((node) => node.location),
    );
    return document;
  }
  const update = action.copy ? copiedValue(document, action, location, budget) : action.update;
  // Each selected node gets its own copy of the update: an action with a broad target (`$..*`) or a
  // large `copy` would otherwise grow the document without bound before its size is checked.
  budget.addedBytes += jsonBytes(update) * nodes.length;
  if (budget.addedBytes > MAX_ADDED_BYTES)
    throw new OverlayError(
      `${name} (${target}) merges its ${action.copy ? "copied value" : "update"} into ${nodes.length} node${nodes.length === 1 ? "" : "s"}; with the actions before it, this spec's overlays add about ${formatBytes(budget.addedBytes)}, over the ${formatBytes(MAX_ADDED_BYTES)} limit for one spec (all its overlays together). Narrow the target.`,
      location,
    );
  // Where the update lands: a node `location.length` levels down gets the update's levels (one more in a
  // list it is appended to). A copy of a deep part into a deep place could nest without bound.
  const levels = depthOf(update);
  for (const node of nodes) {
    const appended = Array.isArray(node.value) && !(overlay.version === "1.1" && Array.isArray(update));
    if (node.location.length + levels + (appended ? 1 : 0) > MAX_DOCUMENT_DEPTH)
      throw new OverlayError(
        `${name} (${target}) would nest the document deeper than ${MAX_DOCUMENT_DEPTH} levels at ${describePath(node.location)}, the most a shaped document may have.`,
        location,
      );
  }
  for (const node of nodes) {
    const replaced = updateNode(node.value, update, overlay.version, action, location);
    if (replaced !== NOT_REPLACED) {
      if (node.location.length === 0) document = replaced;
      else setAt(document, node.location, replaced);
    }
  }
  return document;
}

/** The nodes `query` selects, read one by one so that a spec whose targets select too many stops early. */
function select(
  query: JSONPathQuery,
  document: unknown,
  what: string,
  location: OverlayLocation,
  budget: ShapingBudget,
): JSONPathNode[] {
  const nodes: JSONPathNode[] = [];
  const tooMany = () =>
    new OverlayError(
      `${what} selects more nodes than one spec's targets may select together (${MAX_SELECTED.toLocaleString("en-US")}, counting those each segment passes to the next); narrow it (a \`..\` after a \`..\` selects each node once per ancestor).`,
      location,
    );
  // json-p3's lazyQuery, with every node a segment passes on counted: `$..a..a..a` on a deep part
  // passes on one node per chain of ancestors before the last segment selects anything.
  function* counted(passed: Iterable<JSONPathNode>): Generator<JSONPathNode> {
    for (const node of passed) {
      if (++budget.selected > MAX_SELECTED) throw tooMany();
      yield node;
    }
  }
  try {
    let passed: Iterable<JSONPathNode> = [new JSONPathNode(document as JSONValue, [], document as JSONValue)];
    for (const segment of query.segments) passed = counted(segment.lazyResolve(passed));
    for (const node of passed) nodes.push(node);
  } catch (error) {
    if (error instanceof OverlayError) throw error;
    if (error instanceof PatternError) throw new OverlayError(`${what}: ${error.message}.`, location);
    if (error instanceof WalkBoundError)
      throw new OverlayError(
        `${what} walks more than the ${MAX_WALKED.toLocaleString("en-US")} mapping members one spec's targets may walk together; narrow it (start it below \`$\`, or use fewer \`..\`).`,
        location,
      );
    // json-p3's own limits (its `..` recursion limit), or a stack the bounds above should have spared:
    // the spec fails at the action, never the run.
    if (error instanceof JSONPathError || error instanceof RangeError)
      throw new OverlayError(`${what} cannot be evaluated: ${error.message}.`, location);
    throw error;
  }
  return nodes;
}

/** The size of `value` written as JSON: what it adds to the document's text, roughly. */
function jsonBytes(value: unknown): number {
  return value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value) ?? "");
}

/** A target as messages quote it: a long one cut (the line says where the whole is). */
function brief(target: string): string {
  return target.length > 100 ? `${target.slice(0, 100)}…` : target;
}

function copiedValue(
  document: unknown,
  action: OverlayAction,
  location: OverlayLocation,
  budget: ShapingBudget,
): unknown {
  const copy = action.copy as NonNullable<OverlayAction["copy"]>;
  const sources = select(
    copy.query,
    document,
    `action ${action.index + 1}'s \`copy\` ${copy.path}`,
    location,
    budget,
  );
  if (sources.length !== 1)
    throw new OverlayError(
      `action ${action.index + 1}'s \`copy\` ${copy.path} selects ${sources.length} nodes; it must select exactly one.`,
      location,
    );
  return structuredClone(sources[0]?.value);
}

const NOT_REPLACED = Symbol("not replaced");

/** Merges `update` into one selected node; a primitive node (1.1) is replaced, given back to set. */
function updateNode(
  target: unknown,
  update: unknown,
  version: Overlay["version"],
  action: OverlayAction,
  location: OverlayLocation,
): unknown {
  const name = `action ${action.index + 1} (${brief(action.target)})`;
  if (Array.isArray(target)) {
    if (version === "1.1" && Array.isArray(update)) target.push(...structuredClone(update));
    else target.push(structuredClone(update));
    return NOT_REPLACED;
  }
  if (isObject(target)) {
    if (!isObject(update))
      throw new OverlayError(
        `${name} selects an object, so its \`update\` must be a mapping of the properties to merge (it is ${describe(update)}).`,
        location,
      );
    mergeInto(target, update, name, location);
    return NOT_REPLACED;
  }
  if (version === "1.0")
    throw new OverlayError(
      `${name} selects ${describe(target)}, not an object or array; in Overlay 1.0 target the object that holds it and update that property.`,
      location,
    );
  if (isObject(update) || Array.isArray(update))
    throw new OverlayError(`${name} selects a primitive value; its \`update\` must be one too.`, location);
  return update;
}

/** The merge of 1.1.0 (which 1.0.0 calls "recursively merged"): see docs/design/overlays.md. */
function mergeInto(
  target: Record<string, unknown>,
  update: Record<string, unknown>,
  name: string,
  location: OverlayLocation,
): void {
  for (const [key, value] of Object.entries(update)) {
    const current = target[key];
    if (value === null) {
      // An empty value (`components:` and `tags:` in the specification's structured example) replaces
      // only a primitive: over an absent key, a mapping or a list it is a placeholder, not a change.
      if (Object.hasOwn(target, key) && !isObject(current) && !Array.isArray(current)) target[key] = null;
    } else if (!Object.hasOwn(target, key) || current === null || current === undefined) {
      defineKey(target, key, structuredClone(value));
    } else if (isObject(current) && isObject(value)) {
      mergeInto(current, value, name, location);
    } else if (Array.isArray(current) && Array.isArray(value)) {
      current.push(...structuredClone(value));
    } else if (!isObject(current) && !Array.isArray(current) && !isObject(value) && !Array.isArray(value)) {
      target[key] = value;
    } else {
      throw new OverlayError(
        `${name} would merge ${describe(value)} into \`${key}\`, which is ${describe(current)}; remove \`${key}\` in an action before this one to replace it.`,
        location,
      );
    }
  }
}

/** Sets a key even when it is `__proto__`, as JSON.parse would. */
function defineKey(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/** Removes every located node; array items from the last index down, so earlier indexes stay right. */
function removeNodes(document: unknown, locations: Array<Array<string | number>>): void {
  const sorted = [...locations].sort((a, b) => {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const [x, y] = [a[i], b[i]];
      if (x === y) continue;
      if (typeof x === "number" && typeof y === "number") return y - x;
      return String(x) < String(y) ? -1 : 1;
    }
    return b.length - a.length;
  });
  for (const location of sorted) {
    if (location.length === 0) continue; // `$` itself cannot be removed from anything
    const parent = valueAt(document, location.slice(0, -1));
    const key = location[location.length - 1] as string | number;
    if (Array.isArray(parent) && typeof key === "number") parent.splice(key, 1);
    else if (isObject(parent) && typeof key === "string") delete parent[key];
  }
}

function setAt(document: unknown, location: Array<string | number>, value: unknown): void {
  const parent = valueAt(document, location.slice(0, -1));
  const key = location[location.length - 1] as string | number;
  if (Array.isArray(parent) && typeof key === "number") parent[key] = value;
  else if (isObject(parent) && typeof key === "string") defineKey(parent, key, value);
}

function valueAt(document: unknown, location: Array<string | number>): unknown {
  let node = document;
  for (const key of location) {
    if (Array.isArray(node) && typeof key === "number") node = node[key];
    else if (isObject(node) && typeof key === "string" && Object.hasOwn(node, key)) node = node[key];
    else return undefined;
  }
  return node;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return "empty";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  return `the ${typeof value} ${JSON.stringify(value)}`.slice(0, 80);
}

function where(location: OverlayLocation): string {
  return [location.file, location.line, location.column].filter((part) => part !== undefined).join(":");
}
