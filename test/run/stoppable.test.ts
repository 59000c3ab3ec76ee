/**
 * Issue 26, "the run's clock and signals always win": a spec stuck in CPU-bound work (a loop that never
 * yields, injected in its bundling through the preparation's worker entry, fixtures/faulty-preparation.ts)
 * ends as timed out when the run's `timeout` runs out, naming the step it was in, while the other specs
 * publish and the run returns; and a stop (the host's SIGTERM or SIGINT, `SyncPorts.stop`) aborted while
 * it spins ends the run with that spec stopped, as does one aborted while a spec's changes are compared
 * (a comparison that would run its whole budget); and a spec whose document at the review's base commit
 * never finishes reading (in the worker too) times out. Outcomes only: no assertion on elapsed time.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { BroadcastChannel } from "node:worker_threads";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { commandLineGit } from "../../src/adapters/git/base-tree.ts";
import { unpackDocument } from "../../src/core/change-review/packed-document.ts";
import type { ChangeComparer } from "../../src/core/ports.ts";
import { BUSY_CHANNEL } from "../prepare/fixtures/faulty-preparation.ts";
import { FAULTY_WORKER, runAgainst, useEmulator } from "../support/emulator-run.ts";
import { git } from "../support/git.ts";

const TOKEN = "stoppable-token-91ab";
const STUCK = "specs/stuck.busy-bundling.yaml";

const emulator = useEmulator(TOKEN);
let workspace: string;
beforeEach(async () => {
  workspace = await mkdtemp(path.join(tmpdir(), "stoppable-"));
  await mkdir(path.join(workspace, "specs"));
  const spec = (title: string, ref = "") =>
    `openapi: 3.0.3\ninfo: {title: ${title}, version: "1.0.0"}\npaths:\n  /things:\n    get:\n      responses:\n        "200":\n          description: ok${ref}\n`;
  await writeFile(path.join(workspace, "specs", "pets.yaml"), spec("Pets"));
  await writeFile(path.join(workspace, "specs", "stores.yaml"), spec("Stores"));
  // A split spec: prepared in a worker, where the faulty entry spins in its bundling.
  await writeFile(
    path.join(workspace, STUCK),
    spec(
      "Stuck",
      '\n          content:\n            application/json:\n              schema: {$ref: "../common.yaml#/Thing"}',
    ),
  );
  await writeFile(path.join(workspace, "common.yaml"), "Thing:\n  type: object\n");
});
afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

const slugs = new Map([
  ["specs/pets.yaml", "pets"],
  ["specs/stores.yaml", "stores"],
  [STUCK, "stuck"],
]);

describe("the run's clock and signals win over a spec's CPU-bound work", () => {
  it("a spec that never leaves its bundling times out, naming it; the others publish", async () => {
    // Time enough for the others to publish on a loaded machine; the stuck spec sleeps, spending no core.
    const { report, logger } = await runAgainst(emulator(), { workspace, slugs, timeoutSeconds: 8 });
    expect(report.stoppedReason).toBeUndefined();
    const byFile = new Map(report.results.map((result) => [result.file, result]));
    expect(byFile.get("specs/pets.yaml")?.status).toBe("published");
    expect(byFile.get("specs/stores.yaml")?.status).toBe("published");
    const stuck = byFile.get(STUCK);
    expect(stuck?.status).toBe("timed-out");
    expect(stuck?.errorCode).toBe("LOCAL_TIMEOUT");
    expect(stuck?.errors[0]).toMatch(
      /^The run's timeout ran out while bundling, .*Raise the 'timeout' input/,
    );
    expect(emulator().getSpec("demo-org", "stuck")).toBeUndefined();
    expect(logger.messages("error").join("\n")).toContain(
      `${STUCK}: The run's timeout ran out while bundling`,
    );
  }, 60_000);

  it("a stop while a spec spins ends the run with that spec stopped in its step", async () => {
    const stop = new AbortController();
    const channel = new BroadcastChannel(BUSY_CHANNEL);
    channel.onmessage = (event) => {
      if ((event as MessageEvent).data !== STUCK) return;
      // The worker told the run its phase before it told us, but on another port, whose messages may
      // come first: a turn of the timers lets the run's arrive (the spec spins until it is ended).
      setTimeout(() => stop.abort(new Error("SIGTERM received")), 100);
    };
    try {
      const { report } = await runAgainst(emulator(), {
        workspace,
        slugs,
        timeoutSeconds: 600,
        ports: { stop: stop.signal },
      });
      expect(stop.signal.aborted).toBe(true);
      expect(report.stoppedReason).toBe("SIGTERM received");
      const stuck = report.results.find((result) => result.file === STUCK);
      expect(stuck?.status).toBe("skipped");
      expect(stuck?.errors).toEqual(["Stopped while bundling: SIGTERM received"]);
      expect(emulator().getSpec("demo-org", "stuck")).toBeUndefined();
    } finally {
      channel.close();
    }
  }, 60_000);

  it("a stop while a spec's changes are compared ends the run with that spec stopped", async () => {
    emulator().seedSpec(
      "demo-org",
      "pets",
      await readFile(path.join(workspace, "specs", "pets.yaml"), "utf8"),
    );
    const stop = new AbortController();
    // A comparison that would go on for its whole budget: the stop must not wait for it.
    const comparer: ChangeComparer = {
      compare: (_before, after) => {
        if ((unpackDocument(after) as { info?: { title?: string } }).info?.title === "Pets")
          stop.abort(new Error("SIGINT received"));
        return new Promise(() => {});
      },
      isAllowed: () => false,
    };
    const { report } = await runAgainst(emulator(), {
      workspace,
      slugs,
      mode: "preview",
      ports: { stop: stop.signal, comparer },
    });
    expect(report.stoppedReason).toBe("SIGINT received");
    const pets = report.results.find((result) => result.file === "specs/pets.yaml");
    expect(pets?.status).toBe("skipped");
    expect(pets?.errors).toEqual(["Stopped while reviewing its changes: SIGINT received"]);
    expect(emulator().getSpec("demo-org", "pets-pr-7")).toBeUndefined();
  }, 60_000);

  it("a spec whose base version never finishes reading times out, naming it; the others publish", async () => {
    // The base commit's overlays may block as the head's may: the base's document is read in the worker.
    const slow = "specs/slow.busy-base.yaml";
    await writeFile(
      path.join(workspace, slow),
      (await readFile(path.join(workspace, "specs", "pets.yaml"), "utf8")).replace("Pets", "Slow"),
    );
    await rm(path.join(workspace, STUCK));
    git(workspace, "init", "-q", "-b", "main");
    git(workspace, "add", "-A");
    git(workspace, "commit", "-q", "-m", "base");
    const baseCommit = git(workspace, "rev-parse", "HEAD");
    const comparer: ChangeComparer = {
      compare: async () => ({ breaking: [], other: [] }),
      isAllowed: () => false,
    };
    const { report } = await runAgainst(emulator(), {
      workspace,
      slugs: new Map([...slugs].filter(([file]) => file !== STUCK).concat([[slow, "slow"]])),
      mode: "preview",
      baseCommit,
      // Long enough for the two other specs on a loaded machine; the stuck one ends at it.
      timeoutSeconds: 15,
      // The others must not wait for the worker past half a second (10 s by default).
      ports: { comparer, git: commandLineGit, preparation: { entry: FAULTY_WORKER, slowMs: 500 } },
    });
    expect(report.stoppedReason).toBeUndefined();
    const byFile = new Map(report.results.map((result) => [result.file, result]));
    expect(byFile.get("specs/pets.yaml")?.status).toBe("published");
    expect(byFile.get("specs/pets.yaml")?.changes?.against).toBe("base commit");
    expect(byFile.get("specs/stores.yaml")?.status).toBe("published");
    expect(byFile.get(slow)?.status).toBe("timed-out");
    expect(byFile.get(slow)?.errors[0]).toMatch(
      /^The run's timeout ran out while reading its base commit's version/,
    );
    expect(emulator().getSpec("demo-org", "slow-pr-7")).toBeUndefined();
  }, 60_000);
});

describe("the run's clock and signals win over a spec's work in the lane's worker", () => {
  const lane = { entry: FAULTY_WORKER, laneDepth: 1 };
  /**
   * Pets and Stores with `file`, a copy of Pets first in path order: the first offered to the lane (of
   * depth 1, so the others are prepared in this thread).
   */
  async function withLaned(file: string) {
    await writeFile(path.join(workspace, file), await readFile(path.join(workspace, "specs/pets.yaml")));
    await rm(path.join(workspace, STUCK));
    const laned = new Map(slugs).set(file, "laned");
    laned.delete(STUCK);
    return laned;
  }

  it("a small spec stuck there times out, naming its step; the others publish", async () => {
    const laned = "specs/a-laned.busy-validating.yaml";
    const { report } = await runAgainst(emulator(), {
      workspace,
      slugs: await withLaned(laned),
      timeoutSeconds: 8,
      ports: { preparation: lane },
    });
    const byFile = new Map(report.results.map((result) => [result.file, result]));
    expect(byFile.get("specs/pets.yaml")?.status).toBe("published");
    expect(byFile.get("specs/stores.yaml")?.status).toBe("published");
    expect(byFile.get(laned)?.status).toBe("timed-out");
    expect(byFile.get(laned)?.errors[0]).toMatch(/^The run's timeout ran out while validating, /);
    expect(emulator().getSpec("demo-org", "laned")).toBeUndefined();
  }, 60_000);

  it("a small spec whose steps throw there fails alone, said to be this tool's fault", async () => {
    const laned = "specs/a-laned.throw-validating.yaml";
    const { report } = await runAgainst(emulator(), {
      workspace,
      slugs: await withLaned(laned),
      ports: { preparation: lane },
    });
    const byFile = new Map(report.results.map((result) => [result.file, result]));
    expect(byFile.get(laned)).toMatchObject({ status: "failed", errorCode: "INTERNAL_ERROR" });
    expect(byFile.get(laned)?.errors[0]).toMatch(
      /^Its local steps failed while validating: RangeError: .*This is a fault of gitbook-openapi/,
    );
    expect(byFile.get("specs/pets.yaml")?.status).toBe("published");
    expect(byFile.get("specs/stores.yaml")?.status).toBe("published");
  }, 60_000);
});
