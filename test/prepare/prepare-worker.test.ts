/**
 * The preparation's workers (src/core/prepare/prepare-worker.ts) on their own: a spec whose steps outgrow
 * the worker's heap fails alone and the next spec gets a fresh worker; a spec waiting for the worker
 * ends on the run's stop or deadline without starting; one whose worker spins is ended in its step, and
 * past the slow mark the next spec gets a spare worker instead of waiting for it.
 */

import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { BroadcastChannel, threadId } from "node:worker_threads";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandLineGit } from "../../src/adapters/git/base-tree.ts";
import { type DiscoveredSpec, discoverSpecs } from "../../src/core/discovery/index.ts";
import { MemoryLogger, silentLogger } from "../../src/core/logger.ts";
import { PreparationPool, type PrepareLimits } from "../../src/core/prepare/prepare-worker.ts";
import { FAULTY_WORKER } from "../support/emulator-run.ts";
import { BUSY_CHANNEL, THREAD_CHANNEL } from "./fixtures/faulty-preparation.ts";

let workspace: string;
let specs: Map<string, DiscoveredSpec>;
beforeAll(async () => {
  workspace = await mkdtemp(path.join(tmpdir(), "prepare-worker-"));
  const split = (title: string) =>
    `openapi: 3.0.3\ninfo: {title: ${title}, version: "1"}\npaths:\n  /a:\n    $ref: "./path.yaml"\n`;
  await writeFile(path.join(workspace, "split.yaml"), split("Split"));
  await writeFile(path.join(workspace, "spins.busy-bundling.yaml"), split("Spins"));
  await writeFile(path.join(workspace, "grows.grow-reading.yaml"), split("Grows"));
  // Over RETIRE_AFTER_BYTES: its worker is due to end once idle.
  await writeFile(
    path.join(workspace, "large.yaml"),
    `openapi: 3.0.3\ninfo:\n  title: Large\n  version: "1"\n  description: ${"x".repeat(1_200_000)}\npaths: {}\n`,
  );
  const small = 'openapi: 3.0.3\ninfo: {title: Small, version: "1"}\npaths: {}\n';
  for (const name of ["small.yaml", "small.busy-validating.yaml", "small.grow-reading.yaml"]) {
    await writeFile(path.join(workspace, name), small);
  }
  // An anchor: its steps may cost more than its size says.
  await writeFile(
    path.join(workspace, "anchored.yaml"),
    'openapi: 3.0.3\ninfo: &i {title: Anchored, version: "1"}\npaths: {}\nx-info: *i\n',
  );
  await writeFile(
    path.join(workspace, "path.yaml"),
    'get:\n  x-codeSamples: 5\n  responses:\n    "200": {description: ok}\n',
  );
  const found = await discoverSpecs({ workspace, git: commandLineGit, logger: silentLogger });
  specs = new Map(found.specs.map((spec) => [spec.path, spec]));
});
afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});

const spec = (file: string) => specs.get(file) as DiscoveredSpec;

/**
 * Resolves once `file` spins in its busy phase (the fixture's broadcast), and a turn of the timers
 * later: the worker told the pool its phase first, on another port, whose message may come after ours.
 */
function busy(file: string): Promise<void> {
  const channel = new BroadcastChannel(BUSY_CHANNEL);
  return new Promise((resolve) => {
    channel.onmessage = (event) => {
      if ((event as MessageEvent).data !== file) return;
      channel.close();
      setTimeout(resolve, 100);
    };
  });
}
/** The threads that start preparing specs, in order, as the fixture tells them. */
function threadsSeen() {
  const channel = new BroadcastChannel(THREAD_CHANNEL);
  const seen: number[] = [];
  let wake: (() => void) | undefined;
  channel.onmessage = (event) => {
    seen.push(((event as MessageEvent).data as { threadId: number }).threadId);
    wake?.();
  };
  return {
    async next(): Promise<number> {
      while (seen.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      return seen.shift() as number;
    },
    close: () => channel.close(),
  };
}

/** A small spec's steps, as the run gives them to the lane. */
const BOUNDED = { boundedOnly: { maxBytes: 256 * 1024 } };

const limits = (extra: Partial<PrepareLimits> = {}): PrepareLimits => ({
  deadline: Date.now() + 120_000,
  now: Date.now,
  log: silentLogger,
  ...extra,
});

describe("the preparation's workers", () => {
  it("fail a spec that outgrows the heap, alone, and prepare the next in a fresh worker", async () => {
    const pool = new PreparationPool({ heapMb: 32, entry: FAULTY_WORKER });
    try {
      const big = await pool.prepare(spec("grows.grow-reading.yaml"), "grows", { workspace }, limits());
      expect(big).toMatchObject({
        kind: "crashed",
        outOfMemory: true,
        reason: "they needed more than 32 MB of memory",
      });
      const log = new MemoryLogger();
      const next = await pool.prepare(spec("split.yaml"), "split", { workspace }, limits({ log }));
      expect(next.kind).toBe("prepared");
      if (next.kind !== "prepared") return;
      expect(next.spec.problems).toEqual([]);
      expect(next.spec.bundledFiles).toEqual(["split.yaml", "path.yaml"]);
      expect(JSON.stringify(next.spec.source)).toContain("/a");
      // The worker's warnings come back into the spec's log.
      expect(log.entries.filter((entry) => entry.level === "warning")).toEqual([
        {
          level: "warning",
          message: expect.stringMatching(/^`x-codeSamples` of GET \/a is the number 5/),
          location: { file: "path.yaml", line: 2, column: 3 },
        },
      ]);
    } finally {
      await pool.close();
    }
  }, 120_000);

  it("send a spec's text back only when the run uploads it", async () => {
    const pool = new PreparationPool({ entry: FAULTY_WORKER });
    try {
      const checked = await pool.prepare(
        spec("split.yaml"),
        "split",
        { workspace, uploads: false },
        limits(),
      );
      const uploaded = await pool.prepare(
        spec("split.yaml"),
        "split",
        { workspace, uploads: true },
        limits(),
      );
      if (checked.kind !== "prepared" || uploaded.kind !== "prepared") throw new Error("not prepared");
      // A check needs only to know that there is a text: the spec is ready to upload, its text unread.
      expect(checked.spec.problems).toEqual([]);
      const source = checked.spec.source as { text: string };
      expect(() => source.text).toThrow(
        "split.yaml was only checked: its text stayed in the preparation's worker",
      );
      expect((uploaded.spec.source as { text: string }).text).toContain("/a");
    } finally {
      await pool.close();
    }
  }, 120_000);

  it("end a spec waiting for the worker on a stop or at the deadline, without starting it", async () => {
    const pool = new PreparationPool({ size: 1, entry: FAULTY_WORKER });
    const first = new AbortController();
    try {
      const spinning = pool.prepare(
        spec("spins.busy-bundling.yaml"),
        "spins",
        { workspace },
        limits({ stop: first.signal }),
      );
      const stop = new AbortController();
      const stopped = pool.prepare(spec("split.yaml"), "a", { workspace }, limits({ stop: stop.signal }));
      const late = pool.prepare(
        spec("split.yaml"),
        "b",
        { workspace },
        limits({ deadline: Date.now() + 50 }),
      );
      stop.abort(new Error("SIGTERM"));
      expect(await stopped).toEqual({ kind: "ended", by: "stop", phase: undefined });
      expect(await late).toEqual({ kind: "ended", by: "timeout", phase: undefined });
      first.abort(new Error("SIGTERM"));
      expect(await spinning).toMatchObject({ kind: "ended", by: "stop" });
      // The worker that spun was ended; the next spec gets a fresh one.
      const after = await pool.prepare(spec("split.yaml"), "c", { workspace }, limits());
      expect(after.kind).toBe("prepared");
    } finally {
      await pool.close();
    }
  }, 120_000);

  it("end at once, when told before a comparison, a worker due to end after a large spec", async () => {
    const pool = new PreparationPool({ size: 1, entry: FAULTY_WORKER });
    const threads = threadsSeen();
    const prepared = async (file: string) => {
      expect((await pool.prepare(spec(file), file, { workspace }, limits())).kind).toBe("prepared");
      return threads.next();
    };
    try {
      const first = await prepared("split.yaml");
      await pool.retireNow();
      // A small spec's worker is kept, and takes the large one.
      expect(await prepared("split.yaml")).toBe(first);
      expect(await prepared("large.yaml")).toBe(first);
      await pool.retireNow();
      expect(await prepared("split.yaml")).not.toBe(first);
    } finally {
      threads.close();
      await pool.close();
    }
  }, 120_000);

  it("give the next spec a spare worker while one spins past the slow mark", async () => {
    const pool = new PreparationPool({ size: 1, entry: FAULTY_WORKER, slowMs: 200 });
    const stop = new AbortController();
    const spinningNow = busy("spins.busy-bundling.yaml");
    try {
      const spinning = pool.prepare(
        spec("spins.busy-bundling.yaml"),
        "spins",
        { workspace },
        limits({ stop: stop.signal }),
      );
      const next = await pool.prepare(spec("split.yaml"), "a", { workspace }, limits());
      expect(next.kind).toBe("prepared");
      // On a loaded machine the spinning worker may still be starting: stop it once it spins.
      await spinningNow;
      stop.abort(new Error("SIGTERM"));
      expect(await spinning).toEqual({ kind: "ended", by: "stop", phase: "bundling" });
    } finally {
      await pool.close();
    }
  }, 120_000);
});

describe("the lane", () => {
  const offer = (pool: PreparationPool, file: string, extra: Partial<PrepareLimits> = {}) =>
    pool.prepareInLane(spec(file), file, { workspace, ...BOUNDED }, limits(extra));

  it("prepares small specs in a thread of its own; none without a depth", async () => {
    const none = new PreparationPool({ entry: FAULTY_WORKER });
    const pool = new PreparationPool({ entry: FAULTY_WORKER, laneDepth: 2 });
    const threads = threadsSeen();
    try {
      expect(offer(none, "small.yaml")).toBe(undefined);
      const log = new MemoryLogger();
      const outcome = await offer(pool, "small.yaml", { log });
      expect(outcome?.kind).toBe("prepared");
      if (outcome?.kind !== "prepared") return;
      expect(outcome.spec.problems).toEqual([]);
      expect((outcome.spec.source as { text: string }).text).toContain("title: Small");
      expect(await threads.next()).not.toBe(threadId);
      // A spec its size does not bound comes back to be prepared by the pool.
      const anchored = await offer(pool, "anchored.yaml");
      expect(anchored).toMatchObject({ kind: "prepared", spec: { handOff: true } });
    } finally {
      threads.close();
      await Promise.all([none.close(), pool.close()]);
    }
  }, 120_000);

  it("holds at most its depth, and ends the specs in it on a stop, taking no more", async () => {
    const pool = new PreparationPool({ entry: FAULTY_WORKER, laneDepth: 2 });
    const stop = new AbortController();
    const spinningNow = busy("small.busy-validating.yaml");
    try {
      const spinning = offer(pool, "small.busy-validating.yaml", { stop: stop.signal });
      const queued = offer(pool, "small.yaml");
      expect(queued).toBeDefined();
      // Full: the caller prepares the next spec itself.
      expect(offer(pool, "small.yaml")).toBe(undefined);
      await spinningNow;
      stop.abort(new Error("SIGTERM"));
      expect(await spinning).toEqual({ kind: "ended", by: "stop", phase: "validating" });
      // Behind it, without a stop or deadline of its own: given back to be prepared elsewhere.
      expect(await queued).toBe(undefined);
      expect(offer(pool, "small.yaml")).toBe(undefined);
    } finally {
      await pool.close();
    }
  }, 120_000);

  it("ends a spec in it at its deadline", async () => {
    const pool = new PreparationPool({ entry: FAULTY_WORKER, laneDepth: 2 });
    try {
      await offer(pool, "small.yaml");
      const late = offer(pool, "small.busy-validating.yaml", { deadline: Date.now() + 200 });
      expect(await late).toMatchObject({ kind: "ended", by: "timeout" });
    } finally {
      await pool.close();
    }
  }, 120_000);

  it("ends the specs queued behind one at the deadline they share, even on a clock a tick behind", async () => {
    const pool = new PreparationPool({ entry: FAULTY_WORKER, laneDepth: 2 });
    // The clock stands still: when the deadline's timer fires, `now()` is still before it (as a
    // timer may fire a millisecond before the wall clock reaches its deadline).
    const started = Date.now();
    const shared = { deadline: started + 200, now: () => started };
    try {
      const late = offer(pool, "small.busy-validating.yaml", shared);
      // Stuck too, whichever of the two the worker reaches first: neither can end by itself.
      const behind = offer(pool, "small.busy-validating.yaml", shared);
      expect(await late).toMatchObject({ kind: "ended", by: "timeout" });
      expect(await behind).toMatchObject({ kind: "ended", by: "timeout" });
    } finally {
      await pool.close();
    }
  }, 120_000);

  it("gives back the specs of a worker that died, for the caller to prepare", async () => {
    const pool = new PreparationPool({ entry: FAULTY_WORKER, laneDepth: 2, heapMb: 32 });
    try {
      await offer(pool, "small.yaml");
      const grows = offer(pool, "small.grow-reading.yaml");
      const behind = offer(pool, "small.yaml");
      expect(await grows).toBe(undefined);
      expect(await behind).toBe(undefined);
    } finally {
      await pool.close();
    }
  }, 120_000);

  it("takes nothing while the pool's worker works", async () => {
    const pool = new PreparationPool({ entry: FAULTY_WORKER, laneDepth: 2 });
    const stop = new AbortController();
    const spinningNow = busy("spins.busy-bundling.yaml");
    try {
      await offer(pool, "small.yaml");
      const spinning = pool.prepare(
        spec("spins.busy-bundling.yaml"),
        "spins",
        { workspace },
        limits({ stop: stop.signal }),
      );
      await spinningNow;
      expect(offer(pool, "small.yaml")).toBe(undefined);
      stop.abort(new Error("SIGTERM"));
      expect(await spinning).toMatchObject({ kind: "ended", by: "stop" });
      expect(await offer(pool, "small.yaml")).toMatchObject({ kind: "prepared" });
    } finally {
      await pool.close();
    }
  }, 120_000);
});
