import type { BundledSpec } from "../bundling/index.ts";
import type { LoadedSpec } from "../discovery/index.ts";
import type { LocatedProblem } from "../discovery/types.ts";
import { formatBytes, MAX_SPEC_BYTES } from "../files/read-regular.ts";
import type { Logger } from "../logger.ts";
import { RECORD_KEY, type RecordedText, withRecord } from "../ownership/ownership.ts";
import {
  type OverlayReader,
  ShapingError,
  shapeDocument,
  shapedText,
  workspaceOverlays,
} from "../shaping/audiences.ts";
import {
  checkGitBookExtensions,
  type ExtensionProblem,
  warnAboutLocated,
} from "../shaping/extensions/check.ts";
import { OverlayError } from "../shaping/overlay.ts";
import type { ShapingSteps } from "../shaping/publish-targets.ts";
import { escapeUntrusted } from "../text/log-protocol.ts";
import { structuralIssues } from "../validation/index.ts";
import type { StructuralIssue } from "../validation/structure.ts";
import type { LocalProblem, PreparedSpec, PreparePhase } from "./prepared.ts";

export interface ShapedOptions {
  workspace: string;
  /** URL sources: GitBook fetches the file itself, so a shaped document cannot be what it gets. */
  sourceUrl: boolean;
  owner: string | undefined;
  /** The run's commit, written into the publish record. */
  commit?: string | undefined;
  keepDocument: boolean;
  /** Every structural problem shaping brings in fails the spec (`strict`); by default only what GitBook cannot take. */
  strict?: boolean | undefined;
  /** Told as each step starts (prepare.ts). */
  phase?: ((phase: PreparePhase) => void) | undefined;
  /** Where overlays are read: the workspace by default. */
  readOverlay?: OverlayReader;
  /**
   * GitBook's extensions are checked on the shaped document, what GitBook receives: a misuse the file
   * (or a file it references) writes is warned on `fileLog` where `locate` finds it written; one that
   * shaping removed is not warned at all.
   */
  extensions?: {
    fileLog: Logger;
    locate: (problems: readonly ExtensionProblem[]) => LocatedProblem[];
  };
}

/** Structural problems shaping brought in, reported at most this many (the rest counted). */
const MAX_SHAPING_ISSUES = 20;

/**
 * The local steps' end for a spec with shaping (src/core/shaping): its bundled document shaped, checked
 * again against the official schema (what shaping broke fails the spec; what the file already had was
 * reported by its own validation), then written in the file's format with its publish record. The
 * record names the file, as for any spec; it never claims the text is the file as written
 * (`standalone`), so an unchanged file is still read and shaped before its upload is skipped (its
 * overlays may have changed).
 */
export function prepareShaped(
  spec: LoadedSpec,
  bundled: BundledSpec | undefined,
  steps: ShapingSteps,
  base: { file: string; slug: string; specVersion?: string },
  options: ShapedOptions,
  logger: Logger,
): PreparedSpec {
  if (options.sourceUrl) {
    return problem(
      base,
      "overlays and remove-internal shape the document this tool uploads, and with `source: url` GitBook fetches the file itself; use `source: text` for a shaped spec.",
    );
  }
  const source = bundled?.bundled ? bundled.document : spec.document;
  const { phase } = options;
  phase?.("shaping");
  let document: unknown;
  let summary: string;
  try {
    const readOverlay = options.readOverlay ?? workspaceOverlays(options.workspace);
    ({ document, summary } = shapeDocument(source, steps, { readOverlay, logger, specFile: spec.path }));
  } catch (error) {
    // Not shaped: what the file writes is what there is to warn about.
    warnLocated(options, checkGitBookExtensions(source));
    if (error instanceof OverlayError) {
      return {
        ...base,
        problems: [
          {
            code: "SHAPING_ERROR",
            message: `${error.reason} (shaping ${spec.path})`,
            location: error.location,
          },
        ],
      };
    }
    if (error instanceof ShapingError) return problem(base, error.message);
    throw error;
  }
  logger.info(escapeUntrusted(`${spec.path}: shaped (${summary}).`));
  phase?.("checking the shaped document");
  const { written, added: brought } = extensionProblems(source, document);
  warnLocated(options, written);
  for (const added of brought.slice(0, MAX_SHAPING_ISSUES)) {
    const at = added.path.length === 0 ? "the document" : `\`${added.path.join(".")}\``;
    logger.warning(escapeUntrusted(`after shaping, ${at}: ${added.message}`), { file: spec.path });
  }
  const broken = newIssues(source, document, spec.declaredVersion);
  const failing = broken.filter(
    (issue) => issue.warningOnly !== true && (options.strict === true || issue.blocking === true),
  );
  for (const issue of broken.filter((i) => !failing.includes(i)).slice(0, MAX_SHAPING_ISSUES))
    logger.warning(escapeUntrusted(`after shaping, ${describeIssue(issue)}`), { file: spec.path });
  if (failing.length > 0) {
    const problems: LocalProblem[] = failing.slice(0, MAX_SHAPING_ISSUES).map((issue) => ({
      code: "SHAPING_ERROR",
      message: `after shaping, ${describeIssue(issue)} (the file itself does not have this problem: an overlay or remove-internal made it)`,
      location: { file: spec.path },
      ...(issue.blocking !== true ? { strictOnly: true as const } : {}),
    }));
    if (failing.length > MAX_SHAPING_ISSUES)
      problems.push({
        code: "SHAPING_ERROR",
        message: `after shaping, ${failing.length - MAX_SHAPING_ISSUES} more structural problems`,
        location: { file: spec.path },
        more: failing.length - MAX_SHAPING_ISSUES,
        ...(failing.slice(MAX_SHAPING_ISSUES).every((issue) => issue.blocking !== true)
          ? { strictOnly: true as const }
          : {}),
      });
    return { ...base, problems };
  }
  document = withoutForeignRecord(document, spec.path, logger);
  phase?.("writing the shaped document");
  const text = shapedText(document, spec.format);
  const size = Buffer.byteLength(text);
  if (size > MAX_SPEC_BYTES) {
    return problem(
      base,
      `the shaped document is ${formatBytes(size)}, over the ${formatBytes(MAX_SPEC_BYTES)} limit for one spec.`,
    );
  }
  const specVersion = versionOf(document) ?? base.specVersion;
  const owner = options.owner;
  let recorded: RecordedText | undefined;
  const record = () => {
    recorded ??= withRecord(
      text,
      spec.format,
      owner as string,
      spec.path,
      { slug: base.slug, commit: options.commit, document: () => document },
      { specVersion, standalone: false },
    );
    return recorded;
  };
  return {
    ...base,
    ...(specVersion !== undefined ? { specVersion } : {}),
    source:
      owner === undefined
        ? { text }
        : {
            get text() {
              return record().text;
            },
          },
    ...(bundled?.bundled ? { bundledFiles: bundled.files } : {}),
    ...(options.keepDocument ? { document: () => document } : {}),
    ...(owner !== undefined ? { recorded: record } : {}),
    problems: [],
  };
}

/**
 * The shaped document without a top-level publish record (the file's own, copied from a served
 * document, or one an overlay wrote): only the run writes the record, after shaping.
 */
function withoutForeignRecord(document: unknown, file: string, logger: Logger): unknown {
  if (typeof document !== "object" || document === null || !Object.hasOwn(document, RECORD_KEY))
    return document;
  const { [RECORD_KEY]: _foreign, ...rest } = document as Record<string, unknown>;
  logger.warning(
    escapeUntrusted(
      `${file}: the shaped document holds \`${RECORD_KEY}\`, which only this tool writes: it was taken out, and the run's own record goes in its place.`,
    ),
    { file },
  );
  return rest;
}

/** Structural issues of the shaped document that the unshaped one does not have. */
function newIssues(source: unknown, shaped: unknown, declaredVersion: string): StructuralIssue[] {
  const after = structuralIssues(shaped, declaredVersion) ?? [];
  if (after.length === 0) return [];
  const key = (issue: StructuralIssue) => `${issue.keyPath.join("\u0000")}\u0001${issue.message}`;
  const before = new Set((structuralIssues(source, declaredVersion) ?? []).map(key));
  return after.filter((issue) => !before.has(key(issue)));
}

/**
 * Misuses of GitBook's extensions in the shaped document: those the file (or a file it references)
 * writes, located there, and those shaping brought in (an overlay that adds `x-page-icon: 12`), which
 * have no line of their own. A misuse shaping removed is in neither.
 */
function extensionProblems(
  source: unknown,
  shaped: unknown,
): { written: ExtensionProblem[]; added: ExtensionProblem[] } {
  const after = checkGitBookExtensions(shaped);
  if (after.length === 0) return { written: [], added: [] };
  const key = (problem: ExtensionProblem) => `${problem.path.join("\u0000")}\u0001${problem.message}`;
  const before = new Set(checkGitBookExtensions(source).map(key));
  return {
    written: after.filter((problem) => before.has(key(problem))),
    added: after.filter((problem) => !before.has(key(problem))),
  };
}

function warnLocated(options: ShapedOptions, problems: readonly ExtensionProblem[]): void {
  if (!options.extensions || problems.length === 0) return;
  warnAboutLocated(options.extensions.locate(problems), options.extensions.fileLog);
}

function describeIssue(issue: StructuralIssue): string {
  const at = issue.keyPath.length === 0 ? "the document" : `\`${issue.keyPath.join(".")}\``;
  return `${at}: ${issue.message}`;
}

function problem(base: { file: string; slug: string }, message: string): PreparedSpec {
  return { ...base, problems: [{ code: "SHAPING_ERROR", message, location: { file: base.file } }] };
}

function versionOf(document: unknown): string | undefined {
  const info = (document as { info?: unknown } | null)?.info;
  const version =
    typeof info === "object" && info !== null ? (info as { version?: unknown }).version : undefined;
  return typeof version === "string" ? version : undefined;
}
