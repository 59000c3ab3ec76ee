import type { DiscoveredSpec } from "../discovery/index.ts";
import { MAX_SPEC_BYTES, withRegularFile } from "../files/read-regular.ts";
import type { Logger } from "../logger.ts";
import { digestOfFileBytes, type PublishRecord } from "../ownership/ownership.ts";
import type { Clock, RememberedVersion, SpecService } from "../ports.ts";
import type { PreparedSpec } from "../prepare/prepared.ts";
import { resultOf } from "../publish/spec-results.ts";
import type { SpecResult } from "../result.ts";
import { describeServiceError } from "../service/describe-error.ts";
import type { Spec } from "../service/types.ts";
import { escapeUntrusted } from "../text/log-protocol.ts";
import { rememberedHeld, rememberedOf } from "./rerun-cache.ts";
import {
  type HeldRecord,
  publishedRecord,
  sameAsHeld,
  sameFileAsHeld,
  unreadableReason,
} from "./unchanged.ts";

/** The longest the check may read for one spec: past it, the spec is uploaded. */
export const UNCHANGED_READ_BUDGET_MS = 30_000;

export interface HeldReadOptions {
  orgId: string;
  service: Pick<SpecService, "getSpec" | "getVersionContent">;
  clock: Clock;
  /** The run's deadline (epoch ms). */
  deadline: number;
  /** The organization's specs by slug when they were listed beforehand; else the spec is read. */
  held?: ReadonlyMap<string, Spec> | undefined;
  /** What this configuration's earlier runs uploaded, by slug (the re-run cache, rerun-cache.ts). */
  remembered?: ReadonlyMap<string, RememberedVersion> | undefined;
  /** Told of each version proven to hold its spec's text, for the next run's cache. */
  remember?: ((slug: string, version: RememberedVersion) => void) | undefined;
}

/**
 * What GitBook holds for a slug, read once for the unchanged check: the spec, the record in its last
 * version's content and the version's link, or why there is nothing to compare with (said when the spec
 * is uploaded; `quiet` at debug level, the ordinary case of a new spec).
 */
export type HeldVersion =
  /** `remembered`: the record is the re-run cache's, for the version GitBook lists; nothing was read. */
  | ({ kind: "held"; versionUrl?: string; remembered?: true } & HeldRecord)
  | { kind: "unknown"; reason: string; quiet?: boolean };

/**
 * Reads the spec (unless listed), then the content of its last version by id, so both describe the same
 * processing. The reads have their own budget, well inside the run's deadline, so a slow answer leaves
 * the upload its time. Never throws: a failed read is a reason to upload.
 */
export async function readHeldVersion(slug: string, options: HeldReadOptions): Promise<HeldVersion> {
  const { orgId, service, clock } = options;
  const now = clock.now();
  const read = { deadline: now + Math.min(UNCHANGED_READ_BUDGET_MS, (options.deadline - now) / 3) };
  try {
    const published = options.held ? options.held.get(slug) : await service.getSpec(orgId, slug, read);
    if (!published) return { kind: "unknown", reason: "GitBook does not hold it yet", quiet: true };
    const unreadable = unreadableReason(published);
    if (unreadable || !published.lastVersion) {
      return { kind: "unknown", reason: unreadable ?? "GitBook holds no version of it yet" };
    }
    const remembered = rememberedHeld(slug, published, options.remembered);
    if (remembered) return remembered;
    const content = await service.getVersionContent(orgId, slug, published.lastVersion, read);
    const versionUrl = content.url ?? content.urls?.source;
    return {
      kind: "held",
      spec: published,
      record: publishedRecord(content),
      ...(versionUrl ? { versionUrl } : {}),
    };
  } catch (error) {
    const { message } = describeServiceError(error);
    return { kind: "unknown", reason: `what GitBook holds could not be read (${message})` };
  }
}

/**
 * Whether GitBook already holds the text this spec would upload, processed without error: then the
 * `unchanged` result, with the existing version's id and links, and nothing is uploaded. Any doubt (not
 * found, unreadable, too big, too slow, another record or none) gives undefined: upload, as always.
 * `read` is what {@link readHeldVersion} found, when the run read it before the local steps.
 */
export async function unchangedResult(
  spec: PreparedSpec,
  options: HeldReadOptions & { logger: Logger; read?: HeldVersion | undefined },
): Promise<SpecResult | undefined> {
  const recorded = spec.recorded?.();
  if (!recorded?.record) return undefined;
  let held = options.read ?? (await readHeldVersion(spec.slug, options));
  if (held.kind === "held" && held.remembered && !sameAsHeld(recorded.record, held).same) {
    // The cache vouches only for sameness: anything else is GitBook's version's to say.
    options.logger.debug("The re-run cache does not prove this text the same: GitBook's version is read.");
    held = await readHeldVersion(spec.slug, { ...options, remembered: undefined });
  }
  return unchangedOf(spec, recorded.record, held, options);
}

function unchangedOf(
  spec: PreparedSpec,
  local: PublishRecord,
  held: HeldVersion,
  { logger, remember }: Pick<HeldReadOptions, "remember"> & { logger: Logger },
): SpecResult | undefined {
  if (held.kind === "unknown") {
    const line = `Uploading: ${escapeUntrusted(held.reason)}.`;
    if (held.quiet) logger.debug(line);
    else logger.info(line);
    return undefined;
  }
  const sameness = sameAsHeld(local, held);
  if (!sameness.same) {
    logger.info(`Uploading: ${escapeUntrusted(sameness.reason)}.`);
    return undefined;
  }
  logger.info(
    `Unchanged: GitBook's version ${held.spec.lastVersion} holds this very text${cached(held)}; not uploaded.`,
  );
  rememberHeld(held, remember);
  return unchangedResultOf(resultOf(spec), held);
}

/**
 * The digest a discovered file's text would be recorded with, read as loading it reads it (a regular
 * file, under the size limit); undefined when it cannot be told from the bytes (../ownership/ownership.ts
 * `digestOfFileBytes`) or the file cannot be read: its local steps say why.
 */
export function fileDigestOf(spec: DiscoveredSpec): string | undefined {
  try {
    return withRegularFile(spec.realPath, { maxBytes: MAX_SPEC_BYTES, label: spec.path }, digestOfFileBytes);
  } catch {
    return undefined;
  }
}

/**
 * The `unchanged` result of a file told from its bytes (`digest`, ../ownership/ownership.ts `digestOfFileBytes`)
 * and what GitBook holds, before it is read, checked or bundled; undefined when the record does not
 * prove all of it (see unchanged.ts `sameFileAsHeld`): the file then goes through the local steps,
 * and {@link unchangedResult} decides with the same `held`.
 */
export function unchangedFileResult(
  file: { path: string; slug: string; owner: string; digest: string },
  held: HeldVersion,
  logger: Logger,
  remember?: HeldReadOptions["remember"],
): SpecResult | undefined {
  if (held.kind !== "held") return undefined;
  const { owner, slug, path, digest } = file;
  const sameness = sameFileAsHeld({ owner, slug, path, digest }, held);
  if (!sameness.same) {
    logger.debug("Its bytes are not proven the same as GitBook's version: it is read and checked.");
    return undefined;
  }
  logger.info(
    `Unchanged: GitBook's version ${held.spec.lastVersion} holds this very file${cached(held)}; not uploaded, nor read and checked again.`,
  );
  rememberHeld(held, remember);
  const base = { file: file.path, slug: file.slug, specVersion: sameness.specVersion, errors: [] };
  return unchangedResultOf(base, held);
}

function unchangedResultOf(
  base: Pick<SpecResult, "file" | "slug" | "specVersion" | "errors">,
  held: { spec: Spec; versionUrl?: string },
): SpecResult {
  const { spec, versionUrl } = held;
  return {
    ...base,
    status: "unchanged",
    specId: spec.id,
    ...(spec.lastVersion !== undefined ? { versionId: spec.lastVersion } : {}),
    ...(versionUrl ? { versionUrl } : {}),
    appUrl: spec.urls.app,
  };
}

function cached(held: { remembered?: true }): string {
  return held.remembered ? " (as the re-run cache recorded, not read again)" : "";
}

function rememberHeld(
  held: HeldRecord & { versionUrl?: string },
  remember: HeldReadOptions["remember"],
): void {
  const known =
    remember && typeof held.record !== "string"
      ? rememberedOf(held.spec, held.record, held.versionUrl)
      : undefined;
  if (known) remember?.(held.spec.slug, known);
}
