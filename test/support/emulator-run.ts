/**
 * A whole run in this process (`runSync`) against the emulator over loopback, with the real client and
 * the preparation's workers, for tests that inject faults through the run's ports: a plan with the
 * fields those tests vary, and the ports they replace (a spec being processed is polled every few ms).
 */
import { fileURLToPath } from "node:url";
import type { RunningEmulator } from "../../harness/emulator/index.ts";
import { QUICK_POLLING } from "../../harness/runner/in-process-action.ts";
import { GitBookClient } from "../../src/adapters/gitbook/index.ts";
import { MemoryLogger } from "../../src/core/logger.ts";
import type { SyncPlan } from "../../src/core/plan/plan.ts";
import { type SyncPorts, systemClock } from "../../src/core/ports.ts";
import { runSync, type SyncReport } from "../../src/core/run/run.ts";
import type { ShapingConfig } from "../../src/core/shaping/publish-targets.ts";
import { ORG } from "./use-emulator.ts";

export { ORG, useEmulator } from "./use-emulator.ts";

/** The worker entry whose specs fail by their file names (fixtures/faulty-preparation.ts). */
export const FAULTY_WORKER = fileURLToPath(
  new URL("../prepare/fixtures/faulty-preparation.ts", import.meta.url),
);

export interface RunOptions {
  workspace: string;
  slugs: ReadonlyMap<string, string>;
  mode?: "publish" | "preview";
  timeoutSeconds?: number;
  shaping?: ShapingConfig;
  baseCommit?: string;
  ports?: Partial<SyncPorts>;
}

/** The plan of a run with these options: the fields the tests vary, the rest as the action sets them. */
export function planOf(options: RunOptions): SyncPlan {
  const mode = options.mode ?? "publish";
  return {
    workspace: options.workspace,
    mode,
    files: undefined,
    slugMapping: options.slugs,
    slugPrefix: undefined,
    repositoryName: "widgets",
    repositoryIdentity: "github.com/acme/widgets",
    review:
      mode === "preview"
        ? {
            label: "pull request #7",
            commentLabel: "pull request comment",
            previewSuffix: "-pr-7",
            previewSlug: (slug) => `${slug}-pr-7`,
            isOwnPreview: (slug) => slug.endsWith("-pr-7"),
          }
        : undefined,
    organization: { kind: "id", id: ORG },
    sourceUrlFor: undefined,
    wait: true,
    timeoutSeconds: options.timeoutSeconds ?? 60,
    concurrency: 4,
    skipUnchanged: false,
    prune: undefined,
    changeReview:
      mode === "preview" ? { baseCommit: options.baseCommit, failOnBreaking: false, allowed: [] } : undefined,
    names: (setting) => `the '${setting}' input`,
    ...(options.shaping ? { shaping: options.shaping } : {}),
  };
}

export async function runAgainst(
  emulator: RunningEmulator,
  options: RunOptions,
): Promise<{ report: SyncReport; logger: MemoryLogger }> {
  const logger = new MemoryLogger();
  const plan = planOf(options);
  const report = await runSync(plan, {
    createService: (deadline) =>
      new GitBookClient({ token: emulator.token, baseUrl: emulator.baseUrl, deadline }),
    clock: systemClock,
    logger,
    preparation: { entry: FAULTY_WORKER },
    polling: QUICK_POLLING,
    ...options.ports,
  });
  return { report, logger };
}
