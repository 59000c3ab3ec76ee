/**
 * Pruning, end to end (the action run as the runner runs it, against the emulator). A spec is deleted only
 * on evidence: its version carries this repository's and slug prefix's publish record, and the file the
 * record names is gone. Issue 16, items 1, 2 and 13: another repository's specs under a longer prefix, a
 * file that is still there but no longer read as a spec, slug collisions — nothing deleted on a guess.
 */
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { load } from "js-yaml";
import { afterEach, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../harness/emulator/index.ts";
import { startEmulator } from "../../harness/emulator/index.ts";
import { runActionInProcess } from "../../harness/runner/in-process-action.ts";
import { ownerKey, withRecord } from "../../src/core/ownership/ownership.ts";
import { git } from "../support/git.ts";
import { emptyWorkspace, minimalSpec, removeWorkspace } from "./helpers.ts";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const ORG = "demo-org";
const repoA = { GITHUB_REPOSITORY: "acme/widgets", GITHUB_SHA: "a".repeat(40) };

interface Result {
  file: string;
  slug: string;
  status: string;
  errorCode: string | null;
  errors: string[];
}

async function emulator(): Promise<RunningEmulator> {
  const api = await startEmulator({ processing: { pendingMs: 10, progressMs: 10 } });
  cleanups.push(() => api.close());
  return api;
}

/** A git repository of `files`, committed: pruning deletes on the word of a commit the run descends from. */
async function workspace(files: Record<string, string>): Promise<string> {
  const dir = await emptyWorkspace(files);
  cleanups.push(() => removeWorkspace(dir));
  git(dir, "init", "-q");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "specs");
  return dir;
}

function run(
  api: RunningEmulator,
  dir: string,
  inputs: Record<string, string>,
  env: Record<string, string> = repoA,
) {
  return runActionInProcess({
    workspace: dir,
    inputs: { token: api.token, organization: ORG, "api-url": api.baseUrl, "slug-prefix": "acme", ...inputs },
    env: { ...env, GITHUB_SHA: head(dir) },
  });
}

const head = (dir: string) => git(dir, "rev-parse", "HEAD");

/** A spec as repository A would have published it from `file` at `commit` (its record, as the run writes it). */
function seedOwned(
  api: RunningEmulator,
  commit: string,
  slug: string,
  file: string,
  prefix = "acme",
  repository = "github.com/acme/widgets",
) {
  const text = minimalSpec(slug);
  const owner = ownerKey({ repository, slugPrefix: prefix });
  const recorded = withRecord(text, "yaml", owner, file, { slug, commit, document: () => load(text) });
  api.seedSpec(ORG, slug, recorded.text);
}

const slugsOf = (api: RunningEmulator) =>
  api
    .listSpecs(ORG)
    .map((spec) => spec.slug)
    .sort();

const resultsOf = (outputs: Record<string, string>) => JSON.parse(outputs.results ?? "[]") as Result[];

describe("prune", () => {
  it("deletes what this repository published and no longer has, and keeps every spec it cannot prove is its own", async () => {
    const api = await emulator();
    const dir = await workspace({
      "pets.yaml": minimalSpec("Pets"),
      "stores.yaml": minimalSpec("Stores"),
      "orders.yaml": minimalSpec("Orders"),
      "users.yaml": minimalSpec("Users"),
    });
    const first = await run(api, dir, {});
    expect(first.exitCode).toBe(0);
    // Seeded beside them: an older upload without a record, a preview, and another team's spec.
    api.seedSpec(ORG, "acme-legacy", minimalSpec("Legacy"));
    api.seedSpec(ORG, "acme-pets-pr-3", minimalSpec("Preview"));
    api.seedSpec(ORG, "billing-invoices", minimalSpec("Invoices"));
    await rm(path.join(dir, "orders.yaml"));
    await rm(path.join(dir, "users.yaml"));

    const second = await run(api, dir, { prune: "true" });
    expect(second.exitCode).toBe(0);
    expect(
      resultsOf(second.outputs)
        .filter((r) => r.file === "")
        .map((r) => [r.slug, r.status]),
    ).toEqual([
      ["acme-orders", "deleted"],
      ["acme-users", "deleted"],
    ]);
    expect(slugsOf(api)).toEqual([
      "acme-legacy",
      "acme-pets",
      "acme-pets-pr-3",
      "acme-stores",
      "billing-invoices",
    ]);
    expect(second.stdout).toContain("acme-legacy: GitBook's version carries no `x-publish-record`");
    // The unchanged specs were not uploaded again.
    expect(api.requests.filter((r) => r.method === "PUT")).toHaveLength(4);
  });

  it("never deletes another repository's specs under a longer prefix, nor another prefix's of this repository", async () => {
    const api = await emulator();
    // Repository B publishes pay-v2-orders and pay-v2-refunds with slug-prefix pay-v2.
    const repoB = await workspace({
      "orders.yaml": minimalSpec("Orders"),
      "refunds.yaml": minimalSpec("Refunds"),
    });
    const b = await run(
      api,
      repoB,
      { "slug-prefix": "pay-v2" },
      { ...repoA, GITHUB_REPOSITORY: "acme/payments-v2" },
    );
    expect(b.exitCode).toBe(0);
    // Repository A, slug-prefix pay, once published pay-v2-legacy itself under slug-prefix pay-v2.
    seedOwned(api, head(repoB), "pay-v2-legacy", "legacy.yaml", "pay-v2");
    const repo = await workspace({ "checkout.yaml": minimalSpec("Checkout") });

    const a = await run(api, repo, { "slug-prefix": "pay", prune: "true" });
    expect(a.exitCode).toBe(0);
    expect(api.requests.filter((r) => r.method === "DELETE")).toEqual([]);
    expect(slugsOf(api)).toEqual(["pay-checkout", "pay-v2-legacy", "pay-v2-orders", "pay-v2-refunds"]);
    expect(a.stdout).toContain("Prune: 3 specs under 'pay-' kept, not proven ours to delete");
    expect(a.stdout).toContain(
      "pay-v2-orders: another repository, or another slug-prefix of this one, published it",
    );
    expect(a.stdout).toContain("Prune: 0 specs removed from the repository");
  });

  it.each([
    ["emptied by a generator that failed", "openapi.yaml", "", /never mentions `openapi` or `swagger`/],
    [
      "re-encoded as UTF-16",
      "openapi.yaml",
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(minimalSpec("Pets"), "utf16le")]).toString(
        "latin1",
      ),
      /encoded as UTF-16LE/,
    ],
    [
      "changed to openapi: 4.0.0",
      "openapi.yaml",
      minimalSpec("Pets").replace(/openapi: \S+/, "openapi: 4.0.0"),
      /"4\.0\.0", a version GitBook does not read/,
    ],
    [
      "given a leading // comment (JSON)",
      "openapi.json",
      `// generated\n${JSON.stringify({ openapi: "3.1.0", info: { title: "Pets", version: "1" }, paths: {} })}`,
      /JSON with comments/,
    ],
  ])(
    "keeps the spec of a file still there but %s, and fails the run saying so",
    async (_case, file, broken, reason) => {
      const api = await emulator();
      const good = file.endsWith(".json")
        ? JSON.stringify({ openapi: "3.1.0", info: { title: "Pets", version: "1" }, paths: {} })
        : minimalSpec("Pets");
      const dir = await workspace({ [file]: good, "stores.yaml": minimalSpec("Stores") });
      const first = await run(
        api,
        dir,
        { "slug-prefix": "shop" },
        { ...repoA, GITHUB_REPOSITORY: "acme/shop" },
      );
      expect(first.exitCode).toBe(0);
      const published = resultsOf(first.outputs).find((r) => r.file === file)?.slug as string;
      await writeFile(path.join(dir, file), Buffer.from(broken, "latin1"));

      const second = await run(
        api,
        dir,
        { "slug-prefix": "shop", prune: "true" },
        { ...repoA, GITHUB_REPOSITORY: "acme/shop" },
      );
      expect(second.exitCode).toBe(1);
      expect(api.requests.filter((r) => r.method === "DELETE")).toEqual([]);
      expect(slugsOf(api)).toContain(published);
      const results = resultsOf(second.outputs);
      const failed = results.filter((r) => r.status === "failed");
      expect(failed.map((r) => [r.file, r.slug])).toEqual([[file, published]]);
      const message = failed[0]?.errors.join("\n") ?? "";
      expect(message).toMatch(reason);
      expect(message).toContain(file);
      expect(second.annotations.some((a) => a.level === "error" && a.file === file)).toBe(true);
    },
  );

  it("lists the organization's specs through every page (1,000 a page)", async () => {
    const api = await emulator();
    const dir = await workspace({ "pets.yaml": minimalSpec("Pets") });
    const removed = Array.from({ length: 1_001 }, (_, i) => `acme-gone-${String(i).padStart(4, "0")}`);
    const commit = head(dir);
    for (const slug of removed) seedOwned(api, commit, slug, `gone/${slug}.yaml`);
    const result = await run(api, dir, { prune: "true", "prune-limit": "2000", concurrency: "16" });
    expect(result.exitCode).toBe(0);
    expect(
      api.requests.filter((r) => r.method === "GET" && /\/openapi$/.test(r.path)).length,
    ).toBeGreaterThan(1);
    expect(slugsOf(api)).toEqual(["acme-pets"]);
  });

  it("shows what would be pruned in check mode, deleting nothing", async () => {
    const api = await emulator();
    const dir = await workspace({ "pets.yaml": minimalSpec("Pets") });
    seedOwned(api, head(dir), "acme-old-orders", "orders.yaml");
    seedOwned(api, head(dir), "acme-old-users", "users.yaml");
    const result = await run(api, dir, { prune: "true", mode: "check" });
    expect(result.exitCode).toBe(0);
    expect(
      resultsOf(result.outputs)
        .filter((r) => r.file === "")
        .map((r) => [r.slug, r.status, r.errors[0]]),
    ).toEqual([
      ["acme-old-orders", "planned", "Would be pruned: its file orders.yaml was removed."],
      ["acme-old-users", "planned", "Would be pruned: its file users.yaml was removed."],
    ]);
    expect(api.requests.filter((r) => r.method === "DELETE")).toHaveLength(0);
  });

  it("fails and deletes nothing above prune-limit, naming the setting", async () => {
    const api = await emulator();
    const dir = await workspace({ "pets.yaml": minimalSpec("Pets") });
    seedOwned(api, head(dir), "acme-old-orders", "orders.yaml");
    seedOwned(api, head(dir), "acme-old-users", "users.yaml");
    const result = await run(api, dir, { prune: "true", "prune-limit": "1" });
    expect(result.exitCode).toBe(1);
    expect(
      resultsOf(result.outputs)
        .filter((r) => r.errorCode === "PRUNE_LIMIT")
        .map((r) => r.slug),
    ).toEqual(["acme-old-orders", "acme-old-users"]);
    expect(result.annotations.find((a) => a.level === "error")?.message).toContain(
      "the 'prune-limit' input (1)",
    );
    expect(api.requests.filter((r) => r.method === "DELETE")).toHaveLength(0);
  });

  it("deletes nothing while slug collisions leave ownership in doubt, and publishes every other spec", async () => {
    const api = await emulator();
    const spec = minimalSpec("Pets");
    const dir = await workspace({
      "pets.yaml": spec,
      "pets.json": JSON.stringify({ openapi: "3.1.0", info: { title: "P", version: "2" }, paths: {} }),
      "stores.yaml": minimalSpec("Stores"),
    });
    seedOwned(api, head(dir), "acme-old-orders", "orders.yaml");
    const result = await run(api, dir, { prune: "true" });
    expect(result.exitCode).toBe(1);
    const results = resultsOf(result.outputs);
    // A prune that could not run is the run's failure, not a row without a file or a slug.
    expect(results.map((r) => [r.file, r.status, r.errorCode])).toEqual([
      ["pets.json", "failed", "SLUG_COLLISION"],
      ["pets.yaml", "failed", "SLUG_COLLISION"],
      ["stores.yaml", "published", null],
    ]);
    expect(
      result.annotations.some(
        (a) =>
          a.level === "error" && a.message.includes("Nothing was pruned: slug collisions leave in doubt"),
      ),
    ).toBe(true);
    expect(result.summary).toContain("Nothing was pruned: slug collisions leave in doubt");
    expect(slugsOf(api)).toEqual(["acme-old-orders", "acme-stores"]);
  });

  it("keeps what it would delete from a shallow checkout (actions/checkout's default), saying to fetch history", async () => {
    const api = await emulator();
    const dir = await workspace({
      "orders.yaml": minimalSpec("Orders"),
      "refunds.yaml": minimalSpec("Refunds"),
    });
    expect((await run(api, dir, { prune: "true" })).exitCode).toBe(0);
    await rm(path.join(dir, "refunds.yaml"));
    git(dir, "commit", "-q", "-am", "remove refunds");
    const clone = await emptyWorkspace({});
    cleanups.push(() => removeWorkspace(clone));
    await rm(clone, { recursive: true, force: true });
    git(dir, "clone", "-q", "--depth", "1", `file://${dir}`, clone);

    const shallow = await run(api, clone, { prune: "true" });
    expect(shallow.exitCode).toBe(0);
    expect(slugsOf(api)).toEqual(["acme-orders", "acme-refunds"]);
    expect(
      shallow.annotations.find((a) => a.level === "warning" && a.message.includes("fetch-depth: 0"))?.message,
    ).toContain("git could not tell whether the commit each was published from precedes this run's");
  });

  it("refuses prune without slug-prefix before any request", async () => {
    const api = await emulator();
    const dir = await workspace({ "pets.yaml": minimalSpec("Pets") });
    const result = await run(api, dir, { prune: "true", "slug-prefix": "" });
    expect(result.exitCode).toBe(1);
    expect(result.annotations.find((a) => a.level === "error")?.message).toContain(
      "Input 'prune': needs 'slug-prefix'",
    );
    expect(api.requests).toHaveLength(0);
  });
});
