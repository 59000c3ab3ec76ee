import { isDeepStrictEqual } from "node:util";
import type { BundledSpec } from "../bundling/index.ts";
import { BundleFailure, bundleSpec, findExternalRefs, mayReferenceOtherFiles } from "../bundling/index.ts";
import {
  type BrokenSpec,
  type DiscoveredSpec,
  type DiscoveryResult,
  type LoadedSpec,
  loadSpec,
} from "../discovery/index.ts";
import { parseSource } from "../documents/source-text.ts";
import { formatBytes, MAX_SPEC_BYTES } from "../files/read-regular.ts";
import { type Logger, withoutWarnings } from "../logger.ts";
import { documentDigest, withRecord } from "../ownership/ownership.ts";
import type { ValidationWarnings } from "../result.ts";
import type { SpecSource } from "../service/types.ts";
import {
  locateInSpecFiles,
  warnAboutGitBookExtensions,
  warnAboutGitBookExtensionsInBundle,
} from "../shaping/extensions/check.ts";
import type { ShapingSteps } from "../shaping/publish-targets.ts";
import { assignSlugs } from "../slugs/index.ts";
import {
  infoVersionOf,
  loadStructuralCheckFor,
  type ValidationProblem,
  validateBundledStructure,
  validateSpecDocument,
} from "../validation/index.ts";
import type { LocalProblem, PreparedSpec, PreparePhase } from "./prepared.ts";
import { bareMessage, locatedMessage } from "./problem-text.ts";

export interface SlugOptions {
  slugMapping: ReadonlyMap<string, string>;
  slugPrefix: string | undefined;
  repositoryName: string;
  /** How messages name the slugs setting; "the `slugs` input" by default. */
  slugsSetting?: string | undefined;
  /** The slug a spec is published under, from its slug (a review's preview slug); the slug itself by default. */
  publishedSlug?: ((slug: string) => string) | undefined;
  /** The `files` input, when set: a collision's fix adds `!` lines to it. */
  filePatterns?: readonly string[] | undefined;
}

export interface PrepareOptions extends SlugOptions {
  workspace: string;
  /**
   * Every finding of the validation fails the spec (`strict`); by default only what GitBook cannot
   * take does, and the rest are warnings.
   */
  strict?: boolean | undefined;
  /** Keep the document as it is uploaded (parsed), for comparing it with the review's base. */
  keepDocument?: boolean;
  /** Builds the URL the service fetches in `source: url` mode; undefined sends the bundled text. */
  sourceUrlFor: ((file: string) => string) | undefined;
  /** {@link ownerKey} of the run's publisher: a text upload carries its publish record (../ownership/ownership.ts). */
  owner?: string | undefined;
  /** The run's commit, written into each publish record. */
  commit?: string | undefined;
  /** Overlays and remove-internal for this publication of the file (src/core/shaping, shaped.ts). */
  shaping?: ShapingSteps | undefined;
  /**
   * False for a file's second and later publications (its audiences): the file's own warnings were
   * given with its first, and are not repeated. Its problems still fail each publication.
   */
  fileWarnings?: boolean | undefined;
  /**
   * Only what is bounded by a file of at most `maxBytes`: a spec that is larger, references other files
   * (its bundle is bounded by theirs), or is YAML with anchors (aliases can expand a small file into a
   * million nodes) is read but not worked on, and comes back `handOff` (for a worker, prepare-worker.ts).
   */
  boundedOnly?: { maxBytes: number } | undefined;
  /** Told as each step starts, so that a spec ended from outside says where it was. */
  phase?: ((phase: PreparePhase) => void) | undefined;
  logger: Logger;
}

/** A file the run works on: a discovered spec, or one that declares a spec but does not parse. */
export type SpecFile = DiscoveredSpec | BrokenSpec;

export function isBroken(file: SpecFile): file is BrokenSpec {
  return "problem" in file;
}

/** Every discovered file, broken ones included, in path order. */
export function specFilesOf(discovery: DiscoveryResult): SpecFile[] {
  return [...discovery.specs, ...discovery.broken].sort((a, b) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : 0,
  );
}

/**
 * The local half of the pipeline on every discovered file at once: slug → read → validate → bundle.
 * The run streams them instead (see ../run/pipeline.ts); this serves tests and benchmarks.
 */
export async function prepareSpecs(
  discovery: DiscoveryResult,
  options: PrepareOptions,
): Promise<PreparedSpec[]> {
  const slugs = assignRunSlugs(discovery, options);
  const prepared: PreparedSpec[] = [];
  for (const file of specFilesOf(discovery)) {
    prepared.push(await prepareFile(file, slugs.get(file.path) as string, options, options.logger));
  }
  return prepared;
}

/**
 * The slug of every discovered file, broken ones included, by path in path order: the slug rule, then
 * the pull request's preview suffix. Throws on slug collisions, an input problem that stops the run;
 * the error lists them all, and files that parse to the same document are fixed by excluding all but one
 * (only colliding files are read for that).
 */
export function assignRunSlugs(discovery: DiscoveryResult, options: SlugOptions): Map<string, string> {
  const paths = specFilesOf(discovery).map((file) => file.path);
  const specs = new Map(discovery.specs.map((spec) => [spec.path, spec]));
  const documentOf = (file: string) => {
    const spec = specs.get(file);
    const loaded = spec && loadSpec(spec);
    return loaded?.ok ? loaded.spec.document : undefined;
  };
  return assignSlugs(paths, {
    mapping: options.slugMapping,
    ...(options.slugPrefix ? { prefix: options.slugPrefix } : {}),
    repositoryName: options.repositoryName,
    ...(options.publishedSlug ? { publishedSlug: options.publishedSlug } : {}),
    sameDocument: (first, second) => {
      const [a, b] = [documentOf(first), documentOf(second)];
      return a !== undefined && b !== undefined && isDeepStrictEqual(a, b);
    },
    filePatterns: options.filePatterns,
    ...(options.slugsSetting ? { slugsSetting: options.slugsSetting } : {}),
  });
}

/** One file through the local steps; its problems stay on it. */
export async function prepareFile(
  file: SpecFile,
  slug: string,
  options: Omit<PrepareOptions, "logger" | keyof SlugOptions>,
  logger: Logger,
): Promise<PreparedSpec> {
  if (isBroken(file)) return brokenSpec(file, slug);
  options.phase?.("reading");
  const loaded = loadSpec(file);
  if (!loaded.ok) {
    const { problem, code } = loaded;
    const { file: where, line, column } = problem;
    return {
      file: file.path,
      slug,
      problems: [
        { code, message: bareMessage(problem.message, where), location: { file: where, line, column } },
      ],
    };
  }
  return prepareLoaded(loaded.spec, slug, options, logger);
}

function brokenSpec(broken: BrokenSpec, slug: string): PreparedSpec {
  const { file, line, column, message } = broken.problem;
  return {
    file: broken.path,
    slug,
    problems: [
      {
        code: broken.code ?? "SYNTAX_ERROR",
        message: bareMessage(message, file),
        location: { file, line, column },
      },
    ],
  };
}

async function prepareLoaded(
  spec: LoadedSpec,
  slug: string,
  options: Omit<PrepareOptions, "logger" | keyof SlugOptions>,
  logger: Logger,
): Promise<PreparedSpec> {
  // Known to reference no other file: sent as written, its text decoded only when it is uploaded.
  const asWritten = spec.referencesOtherFiles === false;
  if (options.boundedOnly && !boundedBy(spec, asWritten, options.boundedOnly.maxBytes)) {
    return { file: spec.path, slug, problems: [], handOff: true };
  }
  await loadStructuralCheckFor(spec);
  // Shaping's code (overlays: JSONPath, RE2) loads only for a spec that is shaped.
  const shaped = options.shaping ? await import("./shaped.ts") : undefined;
  const { phase } = options;
  phase?.("validating");
  const fileLog = options.fileWarnings === false ? withoutWarnings(logger) : logger;
  const specVersion = infoVersionOf(spec);
  const base: Pick<PreparedSpec, "file" | "slug" | "specVersion" | "warnings"> = {
    file: spec.path,
    slug,
    ...(specVersion !== undefined ? { specVersion } : {}),
  };
  // The findings logged as warnings (GitBook takes them; `strict` would refuse the spec): counted in the
  // spec's result, for the summary, the comment and JUnit.
  const warned: ValidationProblem[] = [];
  const strict = {
    strict: options.strict === true,
    onWarnings: (found: readonly ValidationProblem[]) => warned.push(...found),
  };
  const records = !options.sourceUrlFor && options.owner !== undefined;
  // A strict JSON spec sent with a record is parsed once, for its check and its record's digest.
  const parsed = records && asWritten && spec.format === "json" ? strictJson(spec.text) : undefined;
  // A split spec's structure is checked on its bundle, below: what is uploaded, with every file.
  const problems: LocalProblem[] = invalidSpecProblems(
    validateSpecDocument(spec, fileLog, {
      ...strict,
      structure: asWritten,
      extensions: asWritten && !options.shaping,
      parsed,
    }),
  );
  let bundled: BundledSpec | undefined;
  try {
    if (!asWritten) {
      phase?.("bundling");
      bundled = await bundleSpec(
        spec.absolutePath,
        { workspace: options.workspace },
        spec.text,
        () => spec.document,
      );
    }
    if (bundled) {
      const source = bundled.bundled
        ? { document: bundled.document, referenced: bundled.referenced }
        : undefined;
      phase?.("validating the bundle");
      const structure = validateBundledStructure(spec, source, fileLog, strict);
      problems.push(...invalidSpecProblems(structure));
    }
  } catch (error) {
    problems.push(...bundleProblems(spec, error));
  }
  // GitBook's extensions, on what GitBook receives: a split spec's bundle, each warning in the file that
  // writes the key (a spec sent as written was checked by validateSpecDocument); a shaped spec's shaped
  // document (shaped.ts), unless it stops before shaping.
  const unshapedExtensions = () => {
    phase?.("checking extensions");
    if (bundled?.bundled && bundled.document !== undefined && bundled.referenced)
      warnAboutGitBookExtensionsInBundle(spec, bundled.document, bundled.referenced, fileLog);
    else warnAboutGitBookExtensions(spec, fileLog);
  };
  if (!asWritten && !options.shaping) unshapedExtensions();
  // A file is never read over the limit; only a bundle can grow past it.
  if (bundled?.bundled && Buffer.byteLength(bundled.text) > MAX_SPEC_BYTES) {
    const size = Buffer.byteLength(bundled.text);
    problems.push({
      code: "BUNDLE_ERROR",
      message: `the bundled document is ${formatBytes(size)}, over the ${formatBytes(MAX_SPEC_BYTES)} limit for one spec; publish it with \`source: url\` or split it.`,
      location: { file: spec.path },
    });
  }
  if (warned.length > 0 && options.fileWarnings !== false) base.warnings = validationWarnings(warned);
  if (options.shaping && (problems.length > 0 || (!asWritten && !bundled))) unshapedExtensions();
  if (!asWritten && !bundled) return { ...base, problems };
  if (problems.length > 0) {
    // The review reads every spec that parses and bundles, whatever validation says: the pull request
    // whose spec fails is the one that most needs its changes seen. Nothing of it is uploaded.
    const reviewed =
      options.keepDocument && problems.every((p) => p.code === "INVALID_SPEC")
        ? reviewedDocument(spec, bundled, { ...options, keepDocument: true }, base, logger, shaped)
        : undefined;
    return { ...base, problems, ...(reviewed ? { document: reviewed } : {}) };
  }
  if (options.shaping && shaped) {
    const { workspace, owner, commit } = options;
    const shapedOptions = {
      workspace,
      owner,
      commit,
      keepDocument: options.keepDocument === true,
      strict: options.strict,
      phase,
    };
    return shaped.prepareShaped(
      spec,
      bundled,
      options.shaping,
      base,
      {
        ...shapedOptions,
        sourceUrl: !!options.sourceUrlFor,
        extensions: {
          fileLog,
          locate: (found) =>
            locateInSpecFiles(spec, bundled?.bundled ? bundled.referenced : undefined, found),
        },
      },
      logger,
    );
  }

  // What the checks read from a text sent as written goes into its record: a later run with the same
  // bytes reports it unchanged without reading it again (see ../ownership/ownership.ts).
  const facts = { specVersion, standalone: asWritten || bundled?.standalone === true };
  // A spec that is uploaded gets its record now, while its document is at hand: through the upload's
  // wait it then holds its text alone (a parsed document held that long outlives the young generation
  // and fills the old one).
  const recorded =
    !records || options.owner === undefined
      ? undefined
      : withRecord(
          bundled?.text ?? spec.text,
          spec.format,
          options.owner,
          spec.path,
          {
            slug,
            commit: options.commit,
            document: { digest: documentDigest(parsed ?? uploadedDocument(spec, bundled)) },
          },
          facts,
        );
  const source: SpecSource = options.sourceUrlFor
    ? { url: options.sourceUrlFor(spec.path) }
    : recorded
      ? { text: recorded.text }
      : bundled
        ? { text: bundled.text }
        : lazyText(spec);
  const bundledDocument = bundled?.document;
  const document = options.keepDocument
    ? bundled?.bundled
      ? () => bundledDocument
      : () => spec.document
    : undefined;
  return {
    ...base,
    source,
    ...(bundled?.bundled ? { bundledFiles: bundled.files } : {}),
    ...(document !== undefined ? { document } : {}),
    ...(recorded ? { recorded: constant(recorded) } : {}),
    problems,
  };
}

/**
 * The document a spec that failed validation would have uploaded, for the review alone: the bundle,
 * shaped when the spec is (undefined when shaping fails: its problem is the spec's to fix first).
 */
function reviewedDocument(
  spec: LoadedSpec,
  bundled: BundledSpec | undefined,
  options: Omit<PrepareOptions, "logger" | keyof SlugOptions>,
  base: { file: string; slug: string; specVersion?: string },
  logger: Logger,
  shaped: typeof import("./shaped.ts") | undefined,
): (() => unknown) | undefined {
  if (!options.shaping || !shaped) {
    const document = bundled?.bundled ? bundled.document : spec.document;
    return () => document;
  }
  const { workspace, owner, commit, phase, strict } = options;
  const shapedOptions = { workspace, owner, commit, keepDocument: true, strict, phase };
  // The file's warnings were given on the unshaped document above; this pass only makes the document.
  const quiet = withoutWarnings(logger);
  return shaped.prepareShaped(
    spec,
    bundled,
    options.shaping,
    base,
    { ...shapedOptions, sourceUrl: false },
    quiet,
  ).document;
}

/**
 * The document of the text a spec uploads, for its record's digest: a strict JSON file's is parsed
 * afresh rather than through `spec.document`, which would keep it in memory through the upload's wait.
 */
function uploadedDocument(spec: LoadedSpec, bundled: BundledSpec | undefined): unknown {
  if (bundled?.bundled) return bundled.document;
  return spec.format === "json" ? parseSource(spec.text, true) : spec.document;
}

/** The text's value as `JSON.parse` gives it, which both the check and `parseSource` take first; else undefined. */
function strictJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** An anchor (`&name`) where YAML allows one: after a line's start, a space, `-`, `:`, `[`, `{` or `,`. */
const YAML_ANCHOR = /(?:^|[\s:[{,-])&[^\s,[\]{}]/m;

/** Whether a spec's local steps cost no more than its text's size says (see `boundedOnly`). */
function boundedBy(spec: LoadedSpec, asWritten: boolean, maxBytes: number): boolean {
  if (asWritten) return spec.bytes <= maxBytes;
  if (spec.text.length > maxBytes) return false;
  if (spec.format === "yaml" && YAML_ANCHOR.test(spec.text)) return false;
  return !mayReferenceOtherFiles(spec.text) || findExternalRefs(spec.document).length === 0;
}

/** A function of no argument giving `value`, made apart so that it holds nothing else. */
function constant<T>(value: T): () => T {
  return () => value;
}

/** The text of a spec not decoded yet, decoded when the upload reads it. */
function lazyText(spec: LoadedSpec): { readonly text: string } {
  return {
    get text() {
      return spec.text;
    },
  };
}

/** The findings logged as warnings, as a result carries them: counted, each as a `file:line:col: message` line. */
function validationWarnings(warned: readonly ValidationProblem[]): ValidationWarnings {
  return {
    count: warned.reduce((sum, problem) => sum + (problem.more ?? 1), 0),
    lines: warned.map(({ message, ...location }) => locatedMessage({ message, location })),
  };
}

function invalidSpecProblems(located: readonly ValidationProblem[]): LocalProblem[] {
  return located.map(({ file, line, column, message, strictOnly, more }) => ({
    code: "INVALID_SPEC",
    message,
    location: { file, ...(line !== undefined ? { line, column } : {}) },
    ...(strictOnly ? { strictOnly } : {}),
    ...(more !== undefined ? { more } : {}),
  }));
}

function bundleProblems(spec: LoadedSpec, error: unknown): LocalProblem[] {
  if (error instanceof BundleFailure) {
    return error.problems.map((problem) => ({
      code: "BUNDLE_ERROR",
      message: bareMessage(problem.message, problem.file),
      location: { file: problem.file, line: problem.line, column: problem.column },
    }));
  }
  const message = error instanceof Error ? error.message : String(error);
  return [
    {
      code: "BUNDLE_ERROR",
      message: `could not bundle: ${message}`,
      location: { file: spec.path },
    },
  ];
}
