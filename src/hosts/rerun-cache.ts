/**
 * Whether a run gets the re-run cache (docs/design/rerun-cache.md), one rule for both hosts: only a run
 * with a token that publishes live; never one on a pull or merge request, whose job could have written
 * the file or would leave it for the next.
 */
import path from "node:path";
import { cacheFile } from "../adapters/rerun-cache/file.ts";
import type { Logger } from "../core/logger.ts";
import type { RunSettings } from "../core/plan/run-settings.ts";
import type { SyncMode, VersionMemory } from "../core/ports.ts";
import { escapeUntrusted } from "../core/text/log-protocol.ts";

export function rerunMemory(
  config: RunSettings,
  run: { mode: SyncMode; onReview: boolean; folder: string; setting: string; logger: Logger },
): VersionMemory | undefined {
  const { cacheFile: given, token } = config;
  if (given === undefined) return undefined;
  if (run.onReview) {
    run.logger.info(
      `${run.setting} is not used on pull or merge requests: the cache of such a job is not trusted, so every spec's version is read from GitBook.`,
    );
    return undefined;
  }
  if (token === undefined || run.mode !== "publish") return undefined;
  const file = path.resolve(run.folder, given);
  run.logger.debug(`Re-run cache: ${escapeUntrusted(file)}.`);
  return cacheFile({ file, token, apiUrl: config.apiUrl, logger: run.logger });
}
