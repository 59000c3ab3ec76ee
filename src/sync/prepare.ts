import { isDeepStrictEqual } from "node:util";
import type { BundledSpec } from "../bundling/index.ts";
import { BundleFailure, bundleSpec } from "../bundling/index.ts";
import type { SpecSource } from "../client/types.ts";
import type { BrokenSpec, DiscoveredSpec, DiscoveryResult } from "../discovery/index.ts";
import { formatBytes, MAX_SPEC_BYTES } from "../files/read-regular.ts";
import type { Logger } from "../logger.ts";
import { assignSlugs, previewSlug } from "../slugs/index.ts";
import { infoVersionOf, validateSpecDocument } from "../validation/index.ts";
import type { LocalProblem, PreparedSpec } from "./prepared.ts";

export interface SlugOptions {
  slugMapping: ReadonlyMap<string, string>;
  slugPrefix: string | undefined;
  repositoryName: string;
  /** Publishing to the pull request's preview slugs. */
  pullRequestNumber: number | undefined;
  /** The `files` input, when set: a collision's fix adds `!` lines to it. */
  filePatterns?: readonly string[] | undefined;
}

export interface PrepareOptions extends SlugOptions {
  workspace: string;
  /** Builds the URL the service fetches in `source: url` mode; undefined sends the bundled text. */
  sourceUrlFor: ((file: string) => string) | undefined;
  logger: Logger;
}

/**
 * The local half of the pipeline, on discovered files: slug → validate → bundle. Problems of one spec
 * stay on that spec; only a slug conflict (an input problem) stops the whole run.
 */
export async function prepareSpecs(
  discovery: DiscoveryResult,
  options: PrepareOptions,
): Promise<PreparedSpec[]> {
  const slugs = assignRunSlugs(discovery, options);
  const slugFor = (file: string): string => slugs.get(file) as string;

  const prepared: PreparedSpec[] = discovery.broken.map((broken) => brokenSpec(broken, slugFor(broken.path)));
  for (const spec of discovery.specs) {
    prepared.push(await prepareOne(spec, slugFor(spec.path), options));
  }
  return prepared.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/**
 * The slug of every discovered file, broken ones included, by path in path order: the slug rule, then
 * the pull request's preview suffix. Throws on slug collisions, an input problem that stops the run;
 * the error lists them all, and files that parse to the same document are fixed by excluding all but one.
 */
export function assignRunSlugs(discovery: DiscoveryResult, options: SlugOptions): Map<string, string> {
  const paths = [...discovery.specs.map((s) => s.path), ...discovery.broken.map((b) => b.path)].sort();
  const documents = new Map(discovery.specs.map((spec) => [spec.path, spec.document]));
  const { pullRequestNumber } = options;
  return assignSlugs(paths, {
    mapping: options.slugMapping,
    ...(options.slugPrefix ? { prefix: options.slugPrefix } : {}),
    repositoryName: options.repositoryName,
    ...(pullRequestNumber !== undefined
      ? { publishedSlug: (slug: string) => previewSlug(slug, pullRequestNumber) }
      : {}),
    sameDocument: (first, second) => {
      const [a, b] = [documents.get(first), documents.get(second)];
      return a !== undefined && b !== undefined && isDeepStrictEqual(a, b);
    },
    filePatterns: options.filePatterns,
  });
}

function brokenSpec(broken: BrokenSpec, slug: string): PreparedSpec {
  const { file, line, column, message } = broken.problem;
  return {
    file: broken.path,
    slug,
    problems: [
      {
        code: "SYNTAX_ERROR",
        message: `${broken.path}: ${message}`,
        location: { file, line, column },
      },
    ],
  };
}

async function prepareOne(
  spec: DiscoveredSpec,
  slug: string,
  options: PrepareOptions,
): Promise<PreparedSpec> {
  const specVersion = infoVersionOf(spec);
  const base = { file: spec.path, slug, ...(specVersion !== undefined ? { specVersion } : {}) };
  const problems: LocalProblem[] = validateSpecDocument(spec, options.logger).map(
    ({ file, line, column, message }) => ({
      code: "INVALID_SPEC",
      message: `${spec.path}: ${message}`,
      location: { file, line, column },
    }),
  );

  let bundled: BundledSpec | undefined;
  try {
    bundled = await bundleSpec(spec.absolutePath, { workspace: options.workspace }, spec.text, spec.document);
  } catch (error) {
    problems.push(...bundleProblems(spec, error));
  }
  if (bundled && Buffer.byteLength(bundled.text) > MAX_SPEC_BYTES) {
    const size = Buffer.byteLength(bundled.text);
    problems.push({
      code: "BUNDLE_ERROR",
      message: `${spec.path}: the bundled document is ${formatBytes(size)}, over the ${formatBytes(MAX_SPEC_BYTES)} limit for one spec; publish it with \`source: url\` or split it.`,
      location: { file: spec.path },
    });
  }
  if (problems.length > 0 || !bundled) return { ...base, problems };

  const source: SpecSource = options.sourceUrlFor
    ? { url: options.sourceUrlFor(spec.path) }
    : { text: bundled.text };
  return { ...base, source, ...(bundled.bundled ? { bundledFiles: bundled.files } : {}), problems };
}

function bundleProblems(spec: DiscoveredSpec, error: unknown): LocalProblem[] {
  if (error instanceof BundleFailure) {
    return error.problems.map((problem) => ({
      code: "BUNDLE_ERROR",
      message: problem.message,
      location: { file: problem.file, line: problem.line, column: problem.column },
    }));
  }
  const message = error instanceof Error ? error.message : String(error);
  return [
    {
      code: "BUNDLE_ERROR",
      message: `${spec.path}: could not bundle: ${message}`,
      location: { file: spec.path },
    },
  ];
}
