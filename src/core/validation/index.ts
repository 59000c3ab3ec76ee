import { bundledPathSource, type ReferencedSource } from "../bundling/bundled-locations.ts";
import { numericVersionOf } from "../discovery/declares.ts";
import type { LoadedSpec, LocatedProblem } from "../discovery/types.ts";
import { keyPathLocator, locateKeyPath } from "../documents/locate.ts";
import { type Logger, silentLogger } from "../logger.ts";
import { warnAboutGitBookExtensions } from "../shaping/extensions/check.ts";
import { danglingInternalRefs } from "./internal-refs.ts";
import type { StructuralIssue } from "./structure.ts";

/**
 * The check against the official schemas (structure.ts: ajv and four schemas, about 270 kB) is loaded
 * when a run first validates, not with the run's code: a command that validates nothing never loads it,
 * and `sync` reaches GitBook first. {@link loadStructuralCheck} loads it; the checks below need it.
 */
let structure: typeof import("./structure.ts") | undefined;

export async function loadStructuralCheck(): Promise<void> {
  structure ??= await import("./structure.ts");
  await structure.prepareValidator();
}

/**
 * {@link loadStructuralCheck} for one spec: only its version's validator is loaded (in `dist/`, a chunk
 * per version, generated at build time).
 */
export async function loadStructuralCheckFor(spec: LoadedSpec): Promise<void> {
  structure ??= await import("./structure.ts");
  await structure.prepareValidator(declaredVersionOf(spec));
}

/** structure.ts's `structuralIssues`, once {@link loadStructuralCheck} has loaded it. */
export function structuralIssues(document: unknown, declaredVersion: string): StructuralIssue[] | undefined {
  if (!structure) throw new Error("The structural check is not loaded: await loadStructuralCheck() first.");
  return structure.structuralIssues(document, declaredVersion);
}

/**
 * Checks a document before anything is uploaded: its structure against the official schema of its
 * OpenAPI version (structure.ts), and what the service needs from it: `info.title` and `info.version`
 * as strings. What GitBook cannot take (no `info.title` or `info.version`, a `$ref` that cannot be
 * resolved) is always returned; every other finding is returned only with `strict`, and otherwise
 * logged as a warning at its place. A number is accepted as `info.version` (YAML reads `version: 1.0` as a
 * number) and noted in the debug log; {@link infoVersionOf} gives its text as written.
 * Each problem points at the field, else at `info`, else at line 1.
 *
 * What the action would have refused before and GitBook may accept is uploaded with a warning, and
 * GitBook decides: an empty `info.title` or `info.version` (`""`, valid OpenAPI), and a version written
 * as a number (`swagger: 2.0`), whose text is uploaded as written; the warning quotes it.
 */
export function validateSpecDocument(
  spec: LoadedSpec,
  logger: Logger = silentLogger,
  options: ValidationOptions = {},
): ValidationProblem[] {
  if (options.extensions !== false) warnAboutGitBookExtensions(spec, logger);
  const problems = validateInfo(spec, logger);
  if (options.structure === false) return problems;
  const structural = structuralProblems(
    spec,
    logger,
    options.strict === true,
    undefined,
    options.onWarnings,
    options.parsed,
  );
  return [...problems, ...structural];
}

/** Options of {@link validateSpecDocument}. */
export interface ValidationOptions {
  /**
   * Every finding of the official schema is a problem (`strict: true`, and the `validate` command);
   * without it only what GitBook cannot take is, and the rest are warnings.
   */
  strict?: boolean;
  /** False: only what the service needs (`info`), no check against the official schema. */
  structure?: boolean;
  /** Told the findings logged as warnings (capped as problems are, the last line counting the rest). */
  onWarnings?: ((warned: readonly ValidationProblem[]) => void) | undefined;
  /** False: GitBook's extensions are left to the caller, who checks the bundle (src/core/prepare/prepare.ts). */
  extensions?: boolean;
  /** The spec's text as parsed afresh by the caller (a strict JSON spec's), checked instead of parsing it again. */
  parsed?: unknown;
}

/** A problem found by the validation: `strictOnly` when only `strict` makes it one (a warning otherwise). */
export interface ValidationProblem extends LocatedProblem {
  strictOnly?: true;
  /** The line that counts the problems left out of the list: how many. */
  more?: number;
}

function isWarning(issue: StructuralIssue, strict: boolean): boolean {
  return issue.warningOnly === true || (!strict && issue.blocking !== true);
}

/** The most problems of one kind (errors, warnings) reported per file; the rest are counted. */
export const MAX_PROBLEMS_PER_FILE = 50;

/** Key paths the `info` check and discovery already judge: the schema's word on them is left out. */
function judgedElsewhere(spec: LoadedSpec, issue: StructuralIssue): boolean {
  const path = issue.keyPath.join("\u0000");
  if (path === spec.flavor) return true;
  if (path === "info" || path === "info\u0000title" || path === "info\u0000version") return true;
  return issue.keyPath.length === 0 && issue.message.includes("`info`");
}

/** Levels of nesting past which the structural check is not run (ajv recurses once per level). */
const MAX_CHECKED_NESTING = 1000;

/**
 * Whether `value` nests objects and arrays more than `limit` levels deep; walked without recursion, each
 * node once (YAML aliases share nodes: a walk of every path could be exponential). A `tree` (from
 * `JSON.parse`, or YAML without anchors) has no shared node: it is walked without a record of them, which
 * took 17 MB of the check of a 20 MB JSON spec, and a third of the walk's time (docs/design/memory.md).
 */
function nestsDeeperThan(value: unknown, limit: number, tree: boolean): boolean {
  const nodes: unknown[] = [value];
  const depths: number[] = [0];
  const seen = tree ? undefined : new WeakSet<object>();
  while (nodes.length > 0) {
    const node = nodes.pop();
    const depth = depths.pop() as number;
    if (node === null || typeof node !== "object" || seen?.has(node)) continue;
    if (depth >= limit) return true;
    seen?.add(node);
    for (const child of Object.values(node)) {
      if (typeof child === "object" && child !== null) {
        nodes.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

/**
 * The document against the official schema of its version, each issue located once; the problems
 * (all with `strict`, else what GitBook cannot take) are returned, the rest logged as warnings. Each
 * list is capped at {@link MAX_PROBLEMS_PER_FILE} with a line counting the rest.
 */
function structuralProblems(
  spec: LoadedSpec,
  logger: Logger,
  strict: boolean,
  bundled?: BundledSource,
  onWarnings?: ValidationOptions["onWarnings"],
  parsed?: unknown,
): ValidationProblem[] {
  if (!structure) throw new Error("The structural check is not loaded: await loadStructuralCheck() first.");
  let issues: StructuralIssue[] | undefined;
  try {
    // A fresh parse for a JSON spec: the loaded spec keeps its document once parsed, and one sent as
    // written should not carry it until its upload.
    const fresh =
      parsed ??
      (spec.format === "json" && !bundled ? JSON.parse(spec.text.replace(/^\uFEFF/, "")) : undefined);
    const document = bundled?.document ?? fresh ?? spec.document;
    const tree = !bundled && (fresh !== undefined || !spec.text.includes("&"));
    if (nestsDeeperThan(document, MAX_CHECKED_NESTING, tree)) throw new RangeError("nested too deeply");
    issues = structuralIssues(document, declaredVersionOf(spec));
    if (issues) issues = [...issues, ...danglingInternalRefs(document)];
  } catch (error) {
    // Said as a warning: "valid" must not stand for a check that did not run. ajv recurses per level of
    // the document: past MAX_CHECKED_NESTING levels the stack may or may not hold, as optimised code
    // takes less of it, so such a document is refused before the check, the same on every run.
    const reason =
      error instanceof RangeError
        ? "it nests too deeply for the checker"
        : `the check failed (${error instanceof Error ? error.message : String(error)})`;
    logger.warning(
      `The structure of this document was not checked against the OpenAPI schema: ${reason}. ` +
        "It is uploaded as it is and GitBook decides.",
      { file: spec.path, line: 1 },
    );
    return [];
  }
  if (issues === undefined) {
    logger.debug(`${spec.path}: no schema for version ${declaredVersionOf(spec)}; structure not checked.`);
    return [];
  }
  issues = issues.filter((issue) => !judgedElsewhere(spec, issue));
  if (issues.length === 0) return [];
  const locate = locator(spec, bundled);
  // Capped before they are located: locating costs a scan of the file each in JSON.
  const errors = locatedAndCapped(
    issues.filter((issue) => !isWarning(issue, strict)),
    locate,
    spec,
    "problem",
  );
  const warned = locatedAndCapped(
    issues.filter((issue) => isWarning(issue, strict)),
    locate,
    spec,
    "warning",
  );
  for (const problem of warned) warnProblem(problem, logger);
  if (warned.length > 0) onWarnings?.(warned);
  return errors;
}

/** A bundled document and the bundler's record of the nodes it reached in other files. */
export interface BundledSource {
  document: unknown;
  referenced?: readonly ReferencedSource[] | undefined;
}

/** Where a key path of the checked document is written: in the root, or through `$ref`s in its files. */
function locator(
  spec: LoadedSpec,
  bundled: BundledSource | undefined,
): (keyPath: readonly string[]) => { file: string; line: number; column: number } {
  const locators = new Map<string, ReturnType<typeof keyPathLocator>>();
  const at = (file: string, text: string, format: "json" | "yaml", keyPath: readonly string[]) => {
    let locate = locators.get(file);
    if (!locate) {
      locate = keyPathLocator(text, format);
      locators.set(file, locate);
    }
    const { position } = locate(keyPath);
    return { file, line: position.line, column: position.column };
  };
  if (!bundled) return (keyPath) => at(spec.path, spec.text, spec.format, keyPath);
  const root = { file: spec.path, text: spec.text, format: spec.format, document: spec.document };
  return (keyPath) => {
    const source = bundledPathSource(root, bundled.referenced ?? [], keyPath);
    return at(source.file, source.text, source.format, source.keyPath);
  };
}

/**
 * The structure of a split spec, checked on its bundle (what is uploaded); each problem points into the
 * file where the offending node is written. Without a bundle, the spec's own document. `strict` and
 * caps as {@link validateSpecDocument}.
 */
export function validateBundledStructure(
  spec: LoadedSpec,
  bundled: BundledSource | undefined,
  logger: Logger = silentLogger,
  options: Pick<ValidationOptions, "strict" | "onWarnings"> = {},
): ValidationProblem[] {
  return structuralProblems(spec, logger, options.strict === true, bundled, options.onWarnings);
}

/** The `openapi`/`swagger` value as discovery read it, else as the document has it. */
function declaredVersionOf(spec: LoadedSpec): string {
  if (spec.declaredVersion) return spec.declaredVersion;
  const value = spec.field("openapi") ?? spec.field("swagger");
  return typeof value === "string" ? value : "";
}

/**
 * The first {@link MAX_PROBLEMS_PER_FILE} issues (in the order the schema met them), located and in
 * file order, and a line counting the rest (its `more`).
 */
function locatedAndCapped(
  issues: readonly StructuralIssue[],
  locate: ReturnType<typeof locator>,
  spec: LoadedSpec,
  noun: "problem" | "warning",
): ValidationProblem[] {
  const located: ValidationProblem[] = issues
    .slice(0, MAX_PROBLEMS_PER_FILE)
    .map((issue) => ({
      ...locate(issue.keyPath),
      message: issue.message,
      ...(issue.blocking !== true && issue.warningOnly !== true ? { strictOnly: true as const } : {}),
    }))
    .sort(
      (a, b) =>
        (a.file === spec.path ? 0 : 1) - (b.file === spec.path ? 0 : 1) ||
        (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
        a.line - b.line ||
        a.column - b.column,
    );
  const rest = issues.length - located.length;
  if (rest === 0) return located;
  const strictOnly = issues.slice(MAX_PROBLEMS_PER_FILE).every((issue) => issue.blocking !== true);
  return [
    ...located,
    {
      file: spec.path,
      message: `and ${rest} more structural ${noun}${rest === 1 ? "" : "s"} (fix these and run again to see them).`,
      more: rest,
      ...(strictOnly ? { strictOnly: true as const } : {}),
    },
  ];
}

function warnProblem(problem: LocatedProblem, logger: Logger): void {
  const { file, line, column, message } = problem;
  logger.warning(message, {
    file,
    ...(line !== undefined ? { line } : {}),
    ...(column !== undefined ? { column } : {}),
  });
}

/** What the service needs from `info`: a title and a version. */
function validateInfo(spec: LoadedSpec, logger: Logger): LocatedProblem[] {
  warnAboutNumericVersion(spec, logger);
  const problems: LocatedProblem[] = [];
  const info = spec.field("info");
  if (typeof info !== "object" || info === null || Array.isArray(info)) {
    const message =
      info === undefined
        ? "The document has no `info` section; add `info` with a `title` and a `version`."
        : "`info` must be a mapping with a `title` and a `version`.";
    return [problemAt(spec, ["info"], message)];
  }
  const { title, version } = info as Record<string, unknown>;
  if (isBlankString(title)) {
    warnAt(spec, ["info", "title"], logger, emptyFieldWarning("info.title", "Payments API"));
  } else if (typeof title !== "string") {
    problems.push(problemAt(spec, ["info", "title"], describeBadField("info.title", title, "Payments API")));
  }
  if (typeof version === "number" && Number.isFinite(version)) {
    logger.debug(
      `${spec.path}: info.version is the number ${infoVersionOf(spec)}; it is used as written. ` +
        'Quote it (version: "1.0") if a tool reads it differently.',
    );
  } else if (isBlankString(version)) {
    warnAt(spec, ["info", "version"], logger, emptyFieldWarning("info.version", "1.0.0"));
  } else if (typeof version !== "string") {
    problems.push(problemAt(spec, ["info", "version"], describeBadField("info.version", version, "1.0.0")));
  }
  return problems;
}

/** `swagger: 2.0` read as the number 2: discovery took it for its text; say so, quoting the file. */
function warnAboutNumericVersion(spec: LoadedSpec, logger: Logger): void {
  const key = spec.flavor;
  const value = spec.field(key);
  if (typeof value !== "number") return;
  const found = numericVersionOf(spec.text, spec.format, key, value);
  const written = found?.written ?? `${key}: ${spec.declaredVersion}`;
  const quoted =
    spec.format === "json" ? `"${key}": "${spec.declaredVersion}"` : `${key}: "${spec.declaredVersion}"`;
  logger.warning(
    `\`${written}\` is read as the number ${String(value)} by YAML and JSON parsers, not as ` +
      `the version ${JSON.stringify(spec.declaredVersion)}. It is uploaded as written and GitBook decides; ` +
      `its parser wants a string there and may refuse it. Write \`${quoted}\` so that every tool reads the version.`,
    { file: spec.path, ...(found ? { line: found.line, column: found.column } : { line: 1 }) },
  );
}

function emptyFieldWarning(field: string, example: string): string {
  const key = field.split(".")[1] as string;
  return (
    `\`${field}\` is an empty string. OpenAPI allows it, so the spec is published and GitBook decides ` +
    `whether it accepts it; readers will see no ${key === "title" ? "name" : "version"} ` +
    `(for example ${key}: ${example}).`
  );
}

function warnAt(spec: LoadedSpec, keyPath: readonly string[], logger: Logger, message: string): void {
  const { position } = locateKeyPath(spec.text, spec.format, keyPath);
  logger.warning(message, {
    file: spec.path,
    line: position.line,
    column: position.column,
  });
}

/** `info.version` as written in the file, numbers included (`1.10` stays "1.10"); undefined when absent. */
export function infoVersionOf(spec: LoadedSpec): string | undefined {
  const info = spec.field("info");
  if (typeof info !== "object" || info === null) return undefined;
  const version = (info as Record<string, unknown>).version;
  if (typeof version === "string") return version;
  if (typeof version !== "number") return undefined;
  const raw = locateKeyPath(spec.text, spec.format, ["info", "version"]).rawValue;
  return raw !== undefined && /^[+-]?[\d.]/.test(raw) ? raw : String(version);
}

function isBlankString(value: unknown): value is string {
  return typeof value === "string" && value.trim() === "";
}

function describeBadField(field: string, value: unknown, example: string): string {
  const [parent, key] = field.split(".") as [string, string];
  if (value === undefined)
    return `\`${field}\` is missing; the service needs it (for example ${key}: ${example} under ${parent}).`;
  const found =
    typeof value === "string"
      ? "an empty string"
      : value === null
        ? "empty"
        : `a ${Array.isArray(value) ? "list" : typeof value}`;
  return `\`${field}\` must be a non-empty string; it is ${found} (for example ${key}: ${example}).`;
}

function problemAt(spec: LoadedSpec, keyPath: readonly string[], message: string): LocatedProblem {
  const { position } = locateKeyPath(spec.text, spec.format, keyPath);
  return { file: spec.path, line: position.line, column: position.column, message };
}
