/**
 * `gitbook-openapi diff <base> <head>`: every API change between two spec files, as a review finds
 * them. Each file is read as sync reads a spec (discovery's rules, then bundled when it references other
 * files) and the two are compared under the review's budget (a worker with its own heap and time), so
 * that what the review comment leaves out for room can be listed whole here.
 */

import { realpath, stat } from "node:fs/promises";
import path from "node:path";
import { BundleFailure, bundleSpec } from "../../core/bundling/index.ts";
import { sourcePlace } from "../../core/change-review/change-line.ts";
import { placedChanges, type SpecSources } from "../../core/change-review/change-places.ts";
import { specChange } from "../../core/change-review/change-review.ts";
import { budgetedCompare } from "../../core/change-review/compare-worker.ts";
import { NotReviewedError } from "../../core/change-review/not-reviewed.ts";
import { inspectFile, loadSpec } from "../../core/discovery/index.ts";
import { isWithin } from "../../core/files/containment.ts";
import type { ReviewBudget } from "../../core/plan/run-settings.ts";
import { changesHeadline, groupByOperation } from "../../core/report/changes.ts";
import type { SpecChange } from "../../core/result.ts";
import { chunked } from "../../core/text/json-pieces.ts";
import { readReviewBudget } from "../../settings/inputs.ts";
import { setting } from "../../settings/settings-table.ts";
import { UsageError } from "./errors.ts";
import { ExitCode } from "./exit-codes.ts";
import { checkInputs } from "./input-errors.ts";
import { type CliIo, type Output, printableLine } from "./output.ts";

export interface DiffFlags {
  json?: boolean;
  failOnBreaking?: boolean;
}

/** What `--json` prints: the entries of the results' `changes` (schema/results.schema.json, `change`). */
export interface DiffResult {
  breaking: SpecChange[];
  other: SpecChange[];
  /** Changes found past the listing cap (breaking ones are listed first): counted, not listed. */
  omitted?: number;
}

/** Compares `base` with `head` and prints the changes; the exit code. */
export async function runDiffCommand(
  files: { base: string; head: string },
  flags: DiffFlags,
  io: CliIo,
  output: Output,
): Promise<number> {
  const budget = reviewBudget(io.env);
  const before = await readSpecFile("<base>", files.base, io.cwd);
  const after = await readSpecFile("<head>", files.head, io.cwd);
  let result: DiffResult;
  try {
    const compared = await budgetedCompare(budget)(before.document, after.document);
    const placed = await placedChanges(
      {
        against: "base commit",
        breaking: compared.breaking.map(specChange),
        other: compared.other.map(specChange),
        allowed: [],
      },
      after.sources,
      async () => before.sources,
    );
    // Named from the current directory, as the user named the files.
    const fromCwd = (change: SpecChange): SpecChange => ({
      ...change,
      ...(change.file === undefined ? {} : { file: cwdRelative(path.join(after.root, change.file), io.cwd) }),
      ...(change.baseFile === undefined
        ? {}
        : { baseFile: cwdRelative(path.join(before.root, change.baseFile), io.cwd) }),
    });
    result = {
      breaking: placed.breaking.map(fromCwd),
      other: placed.other.map(fromCwd),
      ...(compared.omitted ? { omitted: compared.omitted } : {}),
    };
  } catch (error) {
    const reason =
      error instanceof NotReviewedError
        ? error.reason
        : error instanceof Error
          ? error.message
          : String(error);
    throw new Error(`${files.base} and ${files.head} could not be compared: ${reason}.`);
  }
  if (flags.json) await output.json(result);
  else await output.outChunks(chunked(diffLines(result)));
  if (flags.failOnBreaking && result.breaking.length > 0) {
    const count = result.breaking.length;
    const line = `${count} breaking API change${count === 1 ? "" : "s"} from ${files.base} to ${files.head} (--fail-on-breaking).`;
    output.err(printableLine(line));
    return ExitCode.failed;
  }
  return ExitCode.ok;
}

/**
 * The changes for people: the counts, then the breaking changes and the others, each grouped under its
 * operation (the whole document's first). Text from the documents is shown with control characters
 * escaped.
 */
export function renderDiff(result: DiffResult): string {
  return [...diffLines(result)].join("");
}

/** {@link renderDiff} a line at a time: a large comparison is written in pieces, never whole. */
function* diffLines(result: DiffResult): Generator<string> {
  if (result.breaking.length === 0 && result.other.length === 0) {
    yield "No API changes.\n";
    return;
  }
  yield printableLine(changesHeadline({ against: "base commit", ...result, allowed: [] }));
  for (const [title, changes] of [
    ["Breaking changes", result.breaking],
    ["Other changes", result.other],
  ] as const) {
    if (changes.length === 0) continue;
    yield `\n${printableLine(`${title}:`)}`;
    for (const group of groupByOperation(changes)) {
      const place = group.operation ?? "The whole document";
      yield printableLine(`  ${place}${group.operationId === undefined ? "" : ` (${group.operationId})`}`);
      for (const change of group.changes) yield printableLine(`    - ${placedMessage(change)}`);
    }
  }
}

/** A change's message after its place, `api/pets.yaml:12: …`, when it has one. */
export function placedMessage(change: SpecChange): string {
  return change.file === undefined ? change.message : `${sourcePlace(change)}: ${change.message}`;
}

function cwdRelative(file: string, cwd: string): string {
  return (isWithin(cwd, file) ? path.relative(cwd, file) : file).split(path.sep).join("/");
}

/**
 * The review's budget from the settings' variables (GITBOOK_REVIEW_HEAP_MB, GITBOOK_REVIEW_TIMEOUT_MS),
 * read before any file: a bad value is a usage error naming the variable.
 */
function reviewBudget(env: CliIo["env"]): ReviewBudget {
  const variable = (name: string) => setting(name).cli?.env ?? name;
  return checkInputs(() => readReviewBudget((name) => env[variable(name)]?.trim() ?? ""), variable);
}

/**
 * One spec file's document as a review compares it: read by discovery's rules (any name, any folder),
 * bundled when it references other files. Its references may lead anywhere inside its
 * {@link referenceRoot}. A file that cannot be read, is not an OpenAPI document or cannot be bundled is
 * a usage error naming the argument and the file.
 */
async function readSpecFile(
  argument: string,
  file: string,
  cwd: string,
): Promise<{ document: unknown; sources: SpecSources; root: string }> {
  const fail = (message: string) => new UsageError(argument, `${file} ${message}`);
  let real: string;
  try {
    real = await realpath(path.resolve(cwd, file));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw fail(code === "ENOENT" || code === "ENOTDIR" ? "does not exist." : `cannot be read (${code}).`);
  }
  if ((await stat(real)).isDirectory()) throw fail("is a folder, not a spec file.");
  const root = await referenceRoot(real, cwd);
  const relative = path.relative(root, real).split(path.sep).join("/");
  const inspection = await inspectFile(root, relative);
  switch (inspection.kind) {
    case "unreadable":
      throw fail(`cannot be read: ${inspection.reason}.`);
    case "not-spec":
      throw fail(`is not an OpenAPI document: ${inspection.reason}.`);
    case "broken":
      throw fail(notParsed(inspection.broken.problem));
    case "outside":
      throw fail("changed while it was read.");
    case "spec":
      break;
  }
  const loaded = loadSpec(inspection.spec);
  if (!loaded.ok) {
    const problem = { ...loaded.problem, message: withoutPrefix(loaded.problem.message, `${relative}: `) };
    throw fail(loaded.code === "SYNTAX_ERROR" ? notParsed(problem) : `cannot be read: ${problem.message}`);
  }
  const spec = loaded.spec;
  const sources = (referenced: SpecSources["referenced"]): SpecSources => ({
    root: { file: spec.path, text: spec.text, format: spec.format, document: spec.document },
    referenced,
  });
  if (spec.referencesOtherFiles === false) return { document: spec.document, sources: sources([]), root };
  try {
    const bundled = await bundleSpec(spec.absolutePath, { workspace: root }, spec.text, () => spec.document);
    return {
      document: bundled.bundled ? bundled.document : spec.document,
      sources: sources(bundled.referenced ?? []),
      root,
    };
  } catch (error) {
    if (!(error instanceof BundleFailure)) throw error;
    const problems = error.problems.map((problem) => `\n  ${problem.message}`).join("");
    throw fail(`cannot be bundled (its references may lead anywhere inside ${root}):${problems}`);
  }
}

function notParsed(problem: { line?: number; column?: number; message: string }): string {
  const where = problem.line === undefined ? "" : ` (line ${problem.line}, column ${problem.column ?? 1})`;
  return `is not valid YAML or JSON${where}: ${problem.message}`;
}

function withoutPrefix(text: string, prefix: string): string {
  return text.startsWith(prefix) ? text.slice(prefix.length) : text;
}

/**
 * The folder a spec's `$ref`s may read from, as the workspace bounds sync's: the git work tree the file
 * is in; else the current directory when the file is inside it; else the file's own folder.
 */
async function referenceRoot(file: string, cwd: string): Promise<string> {
  for (let folder = path.dirname(file); ; folder = path.dirname(folder)) {
    if (await stat(path.join(folder, ".git")).catch(() => undefined)) return folder;
    if (path.dirname(folder) === folder) break;
  }
  const current = await realpath(cwd).catch(() => undefined);
  if (current !== undefined && isWithin(current, file)) return current;
  return path.dirname(file);
}
