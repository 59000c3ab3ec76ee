/**
 * A whole run in this process (`runSync`) against the emulator over loopback, with the real client and
 * the preparation's workers, for tests that inject faults through the run's ports: a plan with the
 * fields those tests vary, and the ports they replace.
 */
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll } from "vitest";
import { type RunningEmulator, startEmulator } from "../../harness/emulator/index.ts";
import { GitBookClient } from "../../src/adapters/gitbook/index.ts";
import { MemoryLogger } from "../../src/core/logger.ts";
import type { SyncPlan } from "../../src/core/plan/plan.ts";
import { type SyncPorts, systemClock } from "../../src/core/ports.ts";
import { runSync, type SyncReport } from "../../src/core/run/run.ts";
import type { ShapingConfig } from "../../src/core/shaping/publish-targets.ts";

export const ORG = "demo-org";

/** The worker entry whose specs fail by their file names (fixtures/faulty-preparation.ts). */
export const FAULTY_WORKER = fileURLToPath(
  new URL("../prepare/fixtures/faulty-preparation.ts", import.meta.url),
);

/** The emulator for the file's tests, started once (quick processing) and closed after them. */
export function useEmulator(token: string): () => RunningEmulator {
  let emulator: RunningEmulator | undefined;
  beforeAll(async () => {
    emulator = await startEmulator({ token, processing: { pendingMs: 5, progressMs: 5 } });
  });
  afterAll(async () => {
    await emulator?.close();
  });
  return () => emulator as RunningEmulator;
}

export interface RunOptions {
  workspace: string;
  slugs: ReadonlyMap<string, string>;
  mode?: "publish" | "preview";
  timeoutSeconds?: number;
  shaping?: ShapingConfig;
  baseCommit?: string;
  ports?: Partial<SyncPorts>;
}

export async function runAgainst(
  emulator: RunningEmulator,
  options: RunOptions,
): Promise<{ report: SyncReport; logger: MemoryLogger }> {
  const logger = new MemoryLogger();
  const mode = options.mode ?? "publish";
  const plan: SyncPlan = {
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
  const report = await runSync(plan, {
    createService: (deadline) =>
      new GitBookClient({ token: emulator.token, baseUrl: emulator.baseUrl, deadline }),
    clock: systemClock,
    logger,
    preparation: { entry: FAULTY_WORKER },
    ...options.ports,
  });
  return { report, logger };
}
