/**
 * The re-run cache through `gitbook-openapi sync --cache-file` against the emulator (issue 28): a run
 * remembers the versions whose content it read and found holding its text, and a warm cache spares
 * every content read where GitBook still lists that version; a missing, stale, forged, corrupt or
 * oversized one only ever costs reads; a changed text is uploaded whatever the cache says.
 * docs/design/rerun-cache.md.
 */
import { createHmac } from "node:crypto";
import { readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { digestOf, ownerKey } from "../../src/core/ownership/ownership.ts";
import { emulatorEnv, ORG, useEmulator, useTempDirs } from "../support/use-emulator.ts";
import { type CliRun, runCli } from "./run-cli.ts";

const TOKEN = "tok-5f0c3b7e9a21";
const REPO = { GIT_URL: "git@github.com:acme/rerun.git" };
const spec = (title: string, version = "1.0.0") =>
  `openapi: 3.1.0\ninfo:\n  title: ${title}\n  version: ${version}\npaths: {}\n`;
const SPLIT_ROOT = "openapi: 3.1.0\ninfo: {title: Split, version: '1'}\npaths:\n  /c:\n    $ref: ./c.yaml\n";
const splitPart = (description: string) =>
  `get:\n  responses:\n    '200':\n      description: ${description}\n`;

const emulator = useEmulator(TOKEN);
const tempDir = useTempDirs("gitbook-rerun-cache-");

async function workspace(prefix: string): Promise<{ dir: string; cache: string; prefix: string }> {
  const dir = await tempDir();
  await writeFile(path.join(dir, "orders.yaml"), spec("Orders"));
  await writeFile(path.join(dir, "refunds.yaml"), spec("Refunds"));
  await writeFile(path.join(dir, "root.yaml"), SPLIT_ROOT);
  await writeFile(path.join(dir, "c.yaml"), splitPart("ok"));
  return { dir, cache: path.join(dir, ".cache", "gitbook-openapi.json"), prefix };
}

function sync(
  w: { dir: string; cache?: string; prefix: string },
  env: Record<string, string> = {},
): Promise<CliRun> {
  const cache = w.cache ? ["--cache-file", w.cache] : [];
  return runCli(["sync", "--workspace", w.dir, "--slug-prefix", w.prefix, "--json", ...cache], {
    env: {
      ...emulatorEnv(emulator(), TOKEN),
      ...REPO,
      ...env,
    },
  });
}

/** Runs `work`, counting the version content reads and uploads it made. */
async function counted(work: () => Promise<CliRun>): Promise<{ run: CliRun; reads: number; puts: number }> {
  const before = emulator().requests.length;
  const run = await work();
  const requests = emulator().requests.slice(before);
  return {
    run,
    reads: requests.filter((r) => r.method === "GET" && r.path.endsWith("/content")).length,
    puts: requests.filter((r) => r.method === "PUT").length,
  };
}

const rows = (run: CliRun) =>
  (JSON.parse(run.stdout) as { file: string; status: string }[]).map((r) => [r.file, r.status]);

describe("the re-run cache", () => {
  it("spares every content read of a warm re-run, and a cold one reads each spec once", async () => {
    const w = await workspace("warm");
    const first = await counted(() => sync(w));
    expect(first.run.code, first.run.stderr).toBe(0);
    expect(first.puts).toBe(3);
    expect(first.run.stderr).toContain("No re-run cache at");

    // An upload is not remembered (a concurrent upload could have made the version the wait saw): the
    // next run reads each version once, and remembers what the reads proved.
    const cold = await counted(() => sync(w));
    expect([cold.reads, cold.puts]).toEqual([3, 0]);
    expect((await stat(w.cache)).isFile()).toBe(true);

    const warm = await counted(() => sync(w));
    expect(warm.run.code, warm.run.stderr).toBe(0);
    expect(rows(warm.run)).toEqual([
      ["orders.yaml", "unchanged"],
      ["refunds.yaml", "unchanged"],
      ["root.yaml", "unchanged"],
    ]);
    expect([warm.reads, warm.puts]).toEqual([0, 0]);

    const without = await counted(() => sync({ ...w, cache: undefined }));
    expect(rows(without.run).map(([, status]) => status)).toEqual(["unchanged", "unchanged", "unchanged"]);
    expect([without.reads, without.puts]).toEqual([3, 0]);
  });

  it("reads and uploads a spec changed since, and remembers its new version once read", async () => {
    const w = await workspace("stale");
    expect((await sync(w)).code).toBe(0);
    expect((await sync(w)).code).toBe(0);
    await writeFile(path.join(w.dir, "c.yaml"), splitPart("changed"));
    const changed = await counted(() => sync(w));
    expect(rows(changed.run)).toEqual([
      ["orders.yaml", "unchanged"],
      ["refunds.yaml", "unchanged"],
      ["root.yaml", "published"],
    ]);
    expect([changed.reads, changed.puts]).toEqual([1, 1]);
    const next = await counted(() => sync(w));
    expect([next.reads, next.puts]).toEqual([1, 0]);
    const last = await counted(() => sync(w));
    expect([last.reads, last.puts]).toEqual([0, 0]);
  });

  it("is read only when its seal is this token's: a forged, corrupt or oversized file costs reads and a warning", async () => {
    const w = await workspace("forged");
    expect((await sync(w)).code).toBe(0);
    expect((await sync(w)).code).toBe(0);
    const genuine = await readFile(w.cache, "utf8");
    const forged = JSON.parse(genuine) as { seal: string };
    forged.seal = sealWith("another-token", (forged as unknown as { entries: string }).entries);
    for (const [text, why] of [
      [JSON.stringify(forged), "its seal does not match"],
      ["{ not json", "it is not JSON"],
      [JSON.stringify({ format: "other", version: 1 }), "it is not a version 1 re-run cache"],
      [" ".repeat(16 * 1024 * 1024 + 1), "over the 16.0 MiB limit"],
    ] as const) {
      await writeFile(w.cache, text);
      const run = await counted(() => sync(w));
      expect(run.run.code, run.run.stderr).toBe(0);
      expect(run.run.stderr).toContain(why);
      expect(run.run.stderr).toContain("every spec's version is read from GitBook");
      expect([run.reads, run.puts]).toEqual([3, 0]);
    }
    // The run that read everything wrote a good cache again.
    expect((await counted(() => sync(w))).reads).toBe(0);
  });

  it("is neither read nor written on a merge request", async () => {
    const w = await workspace("review");
    expect((await sync(w)).code).toBe(0);
    const kept = await readFile(w.cache, "utf8");
    const onReview = await counted(() =>
      runCli(["sync", "--workspace", w.dir, "--slug-prefix", "review", "--json", "--mode", "publish"], {
        env: {
          ...emulatorEnv(emulator(), TOKEN),
          GITBOOK_CACHE_FILE: w.cache,
          GITBOOK_MERGE_REQUEST: "7",
          GITBOOK_DEBUG: "1",
          ...REPO,
        },
      }),
    );
    expect(onReview.run.code, onReview.run.stderr).toBe(0);
    expect(onReview.run.stderr).toContain("GITBOOK_CACHE_FILE is not used on pull or merge requests");
    expect(onReview.reads).toBe(3);
    expect(await readFile(w.cache, "utf8")).toBe(kept);
  });

  it("never keeps a changed text from being uploaded, whatever the cache file holds (property)", async () => {
    const w = await workspace("prop");
    expect((await sync(w)).code).toBe(0);
    expect((await sync(w)).code).toBe(0);
    const genuine = await readFile(w.cache, "utf8");
    const owner = ownerKey({ repository: "github.com/acme/rerun", slugPrefix: "prop" });
    let round = 0;
    await fc.assert(
      fc.asyncProperty(forgedCaches(genuine, owner), async (cacheFor) => {
        round++;
        const changed = spec("Orders", `2.${round}.0`);
        const listed = emulator().getSpec(ORG, "prop-orders")?.lastVersion ?? "v0";
        await writeFile(path.join(w.dir, "orders.yaml"), changed);
        await writeFile(w.cache, cacheFor({ listed, changed: digestOf(changed) }));
        const run = await sync(w);
        expect(run.code, run.stderr).toBe(0);
        expect(rows(run).find(([file]) => file === "orders.yaml")).toEqual(["orders.yaml", "published"]);
        const held = emulator().getSpec(ORG, "prop-orders");
        const text = held?.lastVersion && emulator().getVersionText(ORG, "prop-orders", held.lastVersion);
        expect(text).toContain(`version: 2.${round}.0`);
      }),
      { seed: 2804, numRuns: 8 },
    );
  });
});

function sealWith(token: string, entries: string): string {
  const key = createHmac("sha256", token)
    .update(`gitbook-openapi re-run cache v1\n${emulator().baseUrl}`)
    .digest();
  return `hmac-sha256:${createHmac("sha256", key).update(entries).digest("hex")}`;
}

/**
 * Cache files a job without the token could write: the genuine file of an earlier run (its facts true,
 * now stale), or entries of its choosing — most claiming that the version GitBook lists holds the
 * changed text, under this owner, slug and file — sealed with no key, another token's, or the genuine
 * file's seal replayed.
 */
type Facts = { listed: string; changed: string };

function forgedCaches(genuine: string, owner: string): fc.Arbitrary<(facts: Facts) => string> {
  const outer = JSON.parse(genuine) as { format: string; version: number; entries: string; seal: string };
  const claim = (facts: Facts) => ({
    organization: ORG,
    slug: "prop-orders",
    version: facts.listed,
    record: {
      tool: "gitbook-openapi",
      owner,
      path: "orders.yaml",
      slug: "prop-orders",
      digest: facts.changed,
    },
  });
  const other = fc
    .record({
      organization: fc.constantFrom(ORG, "other-org"),
      slug: fc.constantFrom("prop-orders", "prop-refunds"),
      version: fc.oneof(fc.constant(undefined), fc.string({ minLength: 1, maxLength: 8 })),
      digest: fc.oneof(fc.constant(undefined), fc.constant(digestOf(spec("Orders")))),
      path: fc.constantFrom("orders.yaml", "refunds.yaml"),
    })
    .map((e) => (facts: Facts) => ({
      organization: e.organization,
      slug: e.slug,
      version: e.version ?? facts.listed,
      record: {
        tool: "gitbook-openapi",
        owner,
        path: e.path,
        slug: e.slug,
        digest: e.digest ?? facts.changed,
      },
    }));
  const entry = fc.oneof(fc.constant(claim), other);
  const forged = fc
    .tuple(fc.array(entry, { minLength: 1, maxLength: 4 }), fc.constantFrom("none", "other", "replay"))
    .map(([entries, sealing]) => (facts: Facts) => {
      const body = JSON.stringify(entries.map((make) => make(facts)));
      const seal =
        sealing === "none" ? "" : sealing === "other" ? sealWith("not-the-token", body) : outer.seal;
      return JSON.stringify({ ...outer, entries: body, seal });
    });
  return fc.oneof(
    fc.constant(() => genuine),
    forged,
  );
}
