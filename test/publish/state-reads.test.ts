import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../harness/emulator/index.ts";
import { InstantClock } from "../../harness/fakes/fake-spec-service.ts";
import { GitBookClient } from "../../src/adapters/gitbook/index.ts";
import { DEFAULT_POLL_SCHEDULE } from "../../src/core/publish/poll-schedule.ts";
import { BatchedStateReader, LIST_PAGE_LIMIT } from "../../src/core/publish/state-reads.ts";
import { listAllSpecs } from "../../src/core/run/first-contact.ts";
import type { Spec } from "../../src/core/service/types.ts";
import { specFixture } from "../support/spec-fixture.ts";

/** An organization whose listing and single reads are recorded, and can be held back or made to fail. */
class Organization {
  readonly calls: string[] = [];
  specs: Spec[];
  listingFails = false;
  #held: (() => void)[] = [];
  holdListings = false;

  constructor(slugs: string[]) {
    this.specs = slugs.map((slug) => specFixture({ slug, processingState: "pending" }));
  }

  getSpec = async (slug: string): Promise<Spec> => {
    this.calls.push(`get ${slug}`);
    const spec = this.specs.find((candidate) => candidate.slug === slug);
    if (!spec) throw new Error(`no spec ${slug}`);
    return { ...spec };
  };

  listSpecs = async (): Promise<Spec[]> => {
    this.calls.push("list");
    if (this.holdListings) await new Promise<void>((resolve) => this.#held.push(resolve));
    if (this.listingFails) throw new Error("listing is down");
    return this.specs.map((spec) => ({ ...spec }));
  };

  release(): void {
    for (const resolve of this.#held.splice(0)) resolve();
  }

  complete(slug: string): void {
    this.specs = this.specs.map((spec) =>
      spec.slug === slug ? { ...spec, processingState: "complete" } : spec,
    );
  }
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

/** Specs "a" and "b" watched, a's read waiting on a listing that is held back (`org.release()`). */
async function duringHeldListing() {
  const org = new Organization(["a", "b"]);
  org.holdListings = true;
  const reader = new BatchedStateReader({ ...org, clock: new InstantClock(), minListIntervalMs: 0 });
  const [a, b] = [reader.watch("a"), reader.watch("b")];
  const first = a.read();
  await flush();
  expect(org.calls).toEqual(["list"]);
  return { org, a, b, first };
}

describe("BatchedStateReader", () => {
  it("reads each spec on its own while no more specs are waited on than the listing has pages", async () => {
    const org = new Organization(["a", "b"]);
    const reader = new BatchedStateReader({ ...org, clock: new InstantClock(), knownSpecs: 1500 });
    const [a, b] = [reader.watch("a"), reader.watch("b")];
    expect(a.paced).toBe(false);
    await Promise.all([a.read(), b.read()]);
    expect(org.calls.sort()).toEqual(["get a", "get b"]);
  });

  it("answers every waiting spec with one listing once they outnumber its pages", async () => {
    const org = new Organization(["a", "b", "c"]);
    const reader = new BatchedStateReader({ ...org, clock: new InstantClock() });
    const watches = ["a", "b", "c"].map((slug) => reader.watch(slug));
    expect(watches.every((watch) => watch.paced)).toBe(true);
    const states = await Promise.all(watches.map((watch) => watch.read()));
    expect(states.map((spec) => spec.slug)).toEqual(["a", "b", "c"]);
    expect(org.calls).toEqual(["list"]);
  });

  it("never answers a read with a listing that started before it was asked for", async () => {
    const { org, b, first } = await duringHeldListing();
    org.complete("b");
    const second = b.read();
    org.release();
    expect((await first).processingState).toBe("pending");
    await flush();
    expect(org.calls).toEqual(["list", "list"]);
    org.release();
    expect((await second).processingState).toBe("complete");
  });

  it("spaces listings at least the interval apart, gathering the reads asked for meanwhile", async () => {
    const org = new Organization(["a", "b", "c"]);
    const clock = new InstantClock();
    const reader = new BatchedStateReader({ ...org, clock, minListIntervalMs: 500 });
    const watches = ["a", "b", "c"].map((slug) => reader.watch(slug));
    await watches[0]?.read();
    const started = clock.now();
    await Promise.all(watches.map((watch) => watch.read()));
    expect(org.calls).toEqual(["list", "list"]);
    expect(clock.now() - started).toBe(500);
  });

  it("reads a spec the listing does not show on its own", async () => {
    const org = new Organization(["a", "b"]);
    const reader = new BatchedStateReader({
      getSpec: org.getSpec,
      listSpecs: async () => {
        org.calls.push("list");
        return org.specs.filter((spec) => spec.slug !== "b");
      },
      clock: new InstantClock(),
    });
    const [a, b] = [reader.watch("a"), reader.watch("b")];
    await Promise.all([a.read(), b.read()]);
    expect(org.calls).toEqual(["list", "get b"]);
  });

  it("falls back to single reads for the rest of the run when listing fails, and says so once", async () => {
    const org = new Organization(["a", "b", "c"]);
    org.listingFails = true;
    const failures: string[] = [];
    const reader = new BatchedStateReader({
      ...org,
      clock: new InstantClock(),
      onListingFailed: (reason) => failures.push(reason),
    });
    const watches = ["a", "b", "c"].map((slug) => reader.watch(slug));
    await Promise.all(watches.map((watch) => watch.read()));
    await Promise.all(watches.map((watch) => watch.read()));
    expect(org.calls.filter((call) => call === "list")).toHaveLength(1);
    expect(org.calls.filter((call) => call.startsWith("get"))).toHaveLength(6);
    expect(failures).toEqual(["listing is down"]);
    expect(watches[0]?.paced).toBe(false);
  });

  it("counts a spec's watch once however often it ends, and learns the listing's pages", async () => {
    const org = new Organization(["a", "b"]);
    org.specs.push(
      ...Array.from({ length: LIST_PAGE_LIMIT * 2 }, (_, i) => specFixture({ slug: `other-${i}` })),
    );
    const reader = new BatchedStateReader({ ...org, clock: new InstantClock() });
    const [a, b] = [reader.watch("a"), reader.watch("b")];
    expect(a.paced).toBe(true);
    await Promise.all([a.read(), b.read()]);
    // 2,002 specs take three pages: two waiting specs are now cheaper read one by one, those a look has
    // read on its rhythm.
    expect(a.paced).toBe(true);
    org.calls.length = 0;
    await a.read();
    expect(org.calls).toEqual(["get a"]);
    b.end();
    b.end();
    const c = reader.watch("a");
    expect(c.paced).toBe(false);
  });

  it("reads a spec on its own at once when batching stops, even while a listing is under way", async () => {
    const { org, a, b, first } = await duringHeldListing();
    a.end();
    await b.read();
    expect(org.calls).toEqual(["list", "get b"]);
    org.release();
    await first;
  });
});

describe("BatchedStateReader's looks, against the emulator", () => {
  let emulator: RunningEmulator;
  let client: GitBookClient;
  const text = "openapi: 3.1.0\ninfo: {title: T, version: '1'}\npaths: {}\n";

  beforeEach(async () => {
    // Uploads of these slugs stay pending: every look finds them busy.
    emulator = await startEmulator({ faults: { stuckSlugs: ["a", "b", "c"] } });
    client = new GitBookClient({ token: emulator.token, baseUrl: emulator.baseUrl });
  });

  afterEach(async () => {
    await client.close();
    await emulator.close();
  });

  /** Specs uploaded, then a reader over the emulator on a clock that moves only when the reader sleeps. */
  async function uploaded(slugs: string[], deadlineMs?: number) {
    for (const slug of slugs) await client.putSpec("demo-org", slug, { text });
    const clock = new InstantClock();
    const reader = new BatchedStateReader({
      getSpec: (slug) => client.getSpec("demo-org", slug),
      listSpecs: () => listAllSpecs(client, "demo-org"),
      clock,
      random: () => 0.5,
      ...(deadlineMs === undefined ? {} : { deadline: clock.now() + deadlineMs }),
    });
    const requests = () =>
      emulator.requests
        .filter((request) => request.method === "GET")
        .map((request) =>
          request.path.endsWith("/openapi") ? "list" : `get ${request.path.split("/").at(-1)}`,
        );
    return { clock, reader, requests };
  }

  it("looks first when the oldest spec is due its schedule's first read, then every 300 ms until a tenth of the wait is longer", async () => {
    const { clock, reader, requests } = await uploaded(["a", "b"]);
    const watches = ["a", "b"].map((slug) => reader.watch(slug));
    for (let look = 0; look < 10; look++) await Promise.all(watches.map((watch) => watch.read()));
    expect(requests()).toEqual(Array(10).fill("list"));
    expect(clock.sleeps).toEqual([
      DEFAULT_POLL_SCHEDULE.firstDelayMs,
      300,
      300,
      300,
      300,
      300,
      300,
      300,
      310,
      341,
    ]);
  });

  it("looks at least as often as each spec's own schedule would read it", async () => {
    const { clock, reader } = await uploaded(["a", "b"]);
    const watches = ["a", "b"].map((slug) => reader.watch(slug));
    const started = clock.now();
    let lookedAt = started;
    for (let look = 0; look < 40; look++) {
      await Promise.all(watches.map((watch) => watch.read()));
      const waited = lookedAt - started;
      // The schedule's next read comes (growth - 1) × the wait so far after the last, and never sooner than its first delay.
      const scheduleGap = Math.max(
        DEFAULT_POLL_SCHEDULE.firstDelayMs,
        (DEFAULT_POLL_SCHEDULE.growth - 1) * waited,
      );
      expect(clock.now() - lookedAt).toBeLessThanOrEqual(scheduleGap);
      lookedAt = clock.now();
    }
  });

  it("keeps the rhythm for a spec a listing read once it waits alone, with a read of its own", async () => {
    const { clock, reader, requests } = await uploaded(["a", "b"]);
    const [a, b] = [reader.watch("a"), reader.watch("b")];
    await Promise.all([a?.read(), b?.read()]);
    b?.end();
    expect(a?.paced).toBe(true);
    await a?.read();
    // Not the schedule started again (a first read 1 s on): the next look of the rhythm.
    expect(clock.sleeps).toEqual([DEFAULT_POLL_SCHEDULE.firstDelayMs, 300]);
    expect(requests()).toEqual(["list", "get a"]);
    a?.end();
    const alone = reader.watch("c");
    expect(alone.paced).toBe(false);
  });

  it("puts no look off past the run's deadline", async () => {
    const { clock, reader, requests } = await uploaded(["a", "b"], 400);
    const watches = ["a", "b"].map((slug) => reader.watch(slug));
    await Promise.all(watches.map((watch) => watch.read()));
    expect(clock.sleeps).toEqual([400]);
    expect(requests()).toEqual(["list"]);
  });
});
