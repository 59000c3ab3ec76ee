import type { Logger } from "../logger.ts";
import type { Clock, SpecService } from "../ports.ts";
import type { PreparedSpec } from "../prepare/prepared.ts";
import type { SpecResult } from "../result.ts";
import { describeServiceError } from "../service/describe-error.ts";
import type { Spec, SpecVersion } from "../service/types.ts";
import { escapeUntrusted } from "../text/log-protocol.ts";
import type { PollSchedule } from "./poll-schedule.ts";
import { processingFailure } from "./processing.ts";
import { isReadyToUpload, localFailure, resultOf } from "./spec-results.ts";
import type { StateReader } from "./state-reads.ts";
import { waitForProcessing } from "./wait.ts";

export interface PublishOptions {
  orgId: string;
  /** Already limited to the configured number of requests in flight. */
  service: SpecService;
  clock: Clock;
  schedule: PollSchedule;
  wait: boolean;
  /** Epoch milliseconds at which waiting for processing stops. */
  deadline: number;
  logger: Logger;
  random?: () => number;
  /** How messages name the timeout setting, e.g. "the 'timeout' input" or "--timeout". */
  timeoutSetting?: string;
  /** Reads a spec's state while waiting; `service.getSpec` unless the run batches them. */
  states?: StateReader | undefined;
}

export async function publishOne(spec: PreparedSpec, options: PublishOptions): Promise<SpecResult> {
  const confirm = await uploadOne(spec, options);
  return confirm();
}

/** What is left of a spec's publishing once its upload has ended: waiting for GitBook's verdict. */
export type Confirmation = () => Promise<SpecResult>;

/**
 * Uploads one spec and returns the rest of its publishing. The returned function holds the spec's
 * names and ids only, never its text, so a streaming caller can let the text go while GitBook works.
 */
export async function uploadOne(spec: PreparedSpec, options: PublishOptions): Promise<Confirmation> {
  const started = options.clock.now();
  const { orgId, service, logger } = options;
  const names: SpecNames = { file: spec.file, slug: spec.slug };
  const finish = (result: Omit<SpecResult, "durationMs">): SpecResult => {
    const durationMs = options.clock.now() - started;
    logger.info(`Finished in ${formatDuration(durationMs)}.`);
    return { ...result, durationMs };
  };
  const done = (result: Omit<SpecResult, "durationMs">): Confirmation => {
    const finished = finish(result);
    return async () => finished;
  };

  if (!isReadyToUpload(spec)) return done(localFailure(spec, logger));

  const base: SpecResult = { ...resultOf(spec), status: "failed" };
  if (spec.bundledFiles) {
    const files = spec.bundledFiles.map((file) => `  ${escapeUntrusted(file)}`);
    logger.info([`Bundled ${spec.bundledFiles.length} files into one document:`, ...files].join("\n"));
  }
  let uploaded: Spec;
  try {
    const answer = await service.putSpec(orgId, spec.slug, spec.source);
    uploaded = answer.spec;
    base.operation = answer.created ? "create" : "update";
    base.specId = uploaded.id;
    base.appUrl = uploaded.urls.app;
    logger.info(`${answer.created ? "Created" : "Updated"} spec '${spec.slug}' (id ${uploaded.id}).`);
  } catch (error) {
    return done(
      serviceFailure(base, error, `Upload of ${spec.file} as '${spec.slug}' failed`, names, logger),
    );
  }

  if (!options.wait) {
    logger.info("Not waiting for processing (wait: false).");
    return done({ ...base, status: "submitted" });
  }
  return async () => finish(await confirmProcessing(uploaded, base, names, options));
}

interface SpecNames {
  file: string;
  slug: string;
}

async function confirmProcessing(
  uploaded: Spec,
  base: SpecResult,
  spec: SpecNames,
  options: PublishOptions,
): Promise<Omit<SpecResult, "durationMs">> {
  const { orgId, service, logger } = options;
  try {
    const outcome = await waitForProcessing(orgId, uploaded, options);
    if (outcome.kind === "timed-out") {
      const lastSeen = outcome.lastError
        ? `The last read of its state failed: ${escapeUntrusted(outcome.lastError)}`
        : `It was still ${outcome.spec.processingState}.`;
      const message = `Processing did not end before the timeout ran out. ${lastSeen} Raise ${options.timeoutSetting ?? "the 'timeout' input"} or check the spec in GitBook.`;
      logger.error(`${spec.file}: ${message}`, { file: spec.file });
      return { ...base, status: "timed-out", errorCode: "PROCESSING_TIMEOUT", errors: [message] };
    }
    logger.info(`Processing ended after ${outcome.polls} poll(s).`);
    const failure = processingFailure(outcome.spec);
    if (failure) {
      const detail = failure.messages.map((message) => `\n- ${message}`).join("");
      logger.error(`GitBook could not process ${spec.file} (${failure.code})${detail ? `:${detail}` : "."}`, {
        file: spec.file,
      });
      return { ...base, status: "failed", errorCode: failure.code, errors: failure.messages };
    }
    const published = { ...base, status: "published", appUrl: outcome.spec.urls.app } as const;
    let version: SpecVersion;
    try {
      version = await readVersion(service, orgId, outcome.spec);
    } catch (error) {
      // GitBook's verdict is in: the spec is published; only the link to its version is missing.
      const { message } = describeServiceError(error);
      logger.warning(`Published, but reading the new version for its link failed: ${message}`, {
        file: spec.file,
      });
      return { ...published, ...(outcome.spec.lastVersion ? { versionId: outcome.spec.lastVersion } : {}) };
    }
    logger.info(`Published version ${version.id}: ${version.url}`);
    return {
      ...published,
      versionId: version.id,
      versionUrl: version.url,
    };
  } catch (error) {
    return serviceFailure(base, error, `Waiting for '${spec.slug}' failed`, spec, logger);
  }
}

function readVersion(service: SpecService, orgId: string, spec: Spec): Promise<SpecVersion> {
  return spec.lastVersion
    ? service.getVersion(orgId, spec.slug, spec.lastVersion)
    : service.getLatestVersion(orgId, spec.slug);
}

function serviceFailure(
  base: SpecResult,
  error: unknown,
  context: string,
  spec: SpecNames,
  logger: Logger,
): Omit<SpecResult, "durationMs"> {
  const { code, message } = describeServiceError(error);
  logger.error(`${context}: ${message}`, { file: spec.file });
  return { ...base, status: "failed", errorCode: code, errors: [message] };
}

export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
