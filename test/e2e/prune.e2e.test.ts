/**
 * Pruning, end to end (the action run as the runner runs it, against the emulator): only specs under the
 * run's slug-prefix that the repository no longer has, never a preview, never above the limit.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../harness/emulator/index.ts";
import { startEmulator } from "../../harness/emulator/index.ts";
import { runActionLikeRunner } from "../../harness/runner/action-runner.ts";
import { emptyWorkspace, minimalSpec, removeWorkspace } from "./helpers.ts";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const ORG = "demo-org";
const repo = { GITHUB_REPOSITORY: "acme/widgets", GITHUB_SHA: "a".repeat(40) };

interface Result {
  file: string;
  slug: string;
  status: string;
  errorCode: string | null;
}

async function setup(): Promise<{ api: RunningEmulator; dir: string }> {
  const api = await startEmulator({ processing: { pendingMs: 10, progressMs: 10 } });
  cleanups.push(() => api.close());
  const dir = await emptyWorkspace({
    "pets.yaml": minimalSpec("Pets"),
    "stores.yaml": minimalSpec("Stores"),
  });
  cleanups.push(() => removeWorkspace(dir));
  // Earlier publishes: two specs whose files are gone, a preview, and another team's spec.
  for (const slug of [
    "acme-pets",
    "acme-old-orders",
    "acme-old-users",
    "acme-pets-pr-3",
    "billing-invoices",
  ]) {
    api.seedSpec(ORG, slug, minimalSpec(slug));
  }
  return { api, dir };
}

function run(api: RunningEmulator, dir: string, inputs: Record<string, string>) {
  return runActionLikeRunner({
    workspace: dir,
    inputs: { token: api.token, organization: ORG, "api-url": api.baseUrl, "slug-prefix": "acme", ...inputs },
    env: repo,
  });
}

const slugsOf = (api: RunningEmulator) =>
  api
    .listSpecs(ORG)
    .map((spec) => spec.slug)
    .sort();

describe("prune", () => {
  it("deletes only what the repository owns and no longer has", async () => {
    const { api, dir } = await setup();
    const result = await run(api, dir, { prune: "true" });
    expect(result.exitCode).toBe(0);
    const results = JSON.parse(result.outputs.results ?? "[]") as Result[];
    expect(results.filter((r) => r.file === "").map((r) => [r.slug, r.status])).toEqual([
      ["acme-old-orders", "deleted"],
      ["acme-old-users", "deleted"],
    ]);
    expect(slugsOf(api)).toEqual(["acme-pets", "acme-pets-pr-3", "acme-stores", "billing-invoices"]);
  });

  it("lists the organization's specs through every page", async () => {
    const { api, dir } = await setup();
    const removed = Array.from({ length: 60 }, (_, i) => `acme-gone-${String(i).padStart(2, "0")}`);
    for (const slug of removed) api.seedSpec(ORG, slug, minimalSpec(slug));
    const result = await run(api, dir, { prune: "true", "prune-limit": "100" });
    expect(result.exitCode).toBe(0);
    expect(
      api.requests.filter((r) => r.method === "GET" && /\/openapi$/.test(r.path)).length,
    ).toBeGreaterThan(1);
    expect(slugsOf(api)).toEqual(["acme-pets", "acme-pets-pr-3", "acme-stores", "billing-invoices"]);
  });

  it("shows what would be pruned in check mode, deleting nothing", async () => {
    const { api, dir } = await setup();
    const result = await run(api, dir, { prune: "true", mode: "check" });
    expect(result.exitCode).toBe(0);
    const results = JSON.parse(result.outputs.results ?? "[]") as Result[];
    expect(results.filter((r) => r.file === "").map((r) => [r.slug, r.status])).toEqual([
      ["acme-old-orders", "planned"],
      ["acme-old-users", "planned"],
    ]);
    expect(api.requests.filter((r) => r.method === "DELETE")).toHaveLength(0);
  });

  it("fails and deletes nothing above prune-limit, naming the setting", async () => {
    const { api, dir } = await setup();
    const result = await run(api, dir, { prune: "true", "prune-limit": "1" });
    expect(result.exitCode).toBe(1);
    const results = JSON.parse(result.outputs.results ?? "[]") as Result[];
    expect(results.filter((r) => r.errorCode === "PRUNE_LIMIT").map((r) => r.slug)).toEqual([
      "acme-old-orders",
      "acme-old-users",
    ]);
    expect(result.annotations.find((a) => a.level === "error")?.message).toContain(
      "the 'prune-limit' input (1)",
    );
    expect(api.requests.filter((r) => r.method === "DELETE")).toHaveLength(0);
  });

  it("refuses prune without slug-prefix before any request", async () => {
    const { api, dir } = await setup();
    const result = await run(api, dir, { prune: "true", "slug-prefix": "" });
    expect(result.exitCode).toBe(1);
    expect(result.annotations.find((a) => a.level === "error")?.message).toContain(
      "Input 'prune': needs 'slug-prefix'",
    );
    expect(api.requests).toHaveLength(0);
  });
});
