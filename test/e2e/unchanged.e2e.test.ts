/**
 * Skipping unchanged specs, end to end: a re-run uploads nothing GitBook already holds, one changed spec
 * of three is uploaded alone, `force` uploads everything.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../harness/emulator/index.ts";
import { startEmulator } from "../../harness/emulator/index.ts";
import { runActionLikeRunner } from "../../harness/runner/action-runner.ts";
import { emptyWorkspace, minimalSpec, removeWorkspace } from "./helpers.ts";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const repo = { GITHUB_REPOSITORY: "acme/widgets", GITHUB_SHA: "a".repeat(40) };

async function setup(): Promise<{ api: RunningEmulator; dir: string }> {
  const api = await startEmulator({ processing: { pendingMs: 10, progressMs: 10 } });
  cleanups.push(() => api.close());
  const dir = await emptyWorkspace({
    "a.yaml": minimalSpec("A"),
    "b.json": JSON.stringify({ openapi: "3.0.3", info: { title: "B", version: "1" }, paths: {} }),
    "split/root.yaml": "openapi: 3.1.0\ninfo: {title: C, version: '1'}\npaths:\n  /c:\n    $ref: ./c.yaml\n",
    "split/c.yaml": "get:\n  responses:\n    '200':\n      description: ok\n",
  });
  cleanups.push(() => removeWorkspace(dir));
  return { api, dir };
}

function run(api: RunningEmulator, dir: string, inputs: Record<string, string> = {}) {
  return runActionLikeRunner({
    workspace: dir,
    inputs: { token: api.token, organization: "demo-org", "api-url": api.baseUrl, ...inputs },
    env: repo,
  });
}

const statuses = (outputs: Record<string, string>) =>
  (JSON.parse(outputs.results ?? "[]") as { file: string; status: string }[]).map((r) => [r.file, r.status]);
const puts = (api: RunningEmulator) => api.requests.filter((r) => r.method === "PUT").length;

describe("unchanged specs", () => {
  it("are not uploaded again: a re-run makes no write request and reports them unchanged", async () => {
    const { api, dir } = await setup();
    const first = await run(api, dir);
    expect(first.exitCode).toBe(0);
    expect(puts(api)).toBe(3);

    const before = api.requests.length;
    const second = await run(api, dir);
    expect(second.exitCode).toBe(0);
    expect(statuses(second.outputs)).toEqual([
      ["a.yaml", "unchanged"],
      ["b.json", "unchanged"],
      ["split/root.yaml", "unchanged"],
    ]);
    const writes = api.requests.slice(before).filter((r) => r.method !== "GET");
    expect(writes).toEqual([]);
    expect(second.outputs.unchanged).toBe("3");
    expect(second.summary).toContain("all 3 specs unchanged");
  });

  it("uploads exactly the one spec of three that changed, and everything with force", async () => {
    const { api, dir } = await setup();
    await run(api, dir);
    await writeFile(
      path.join(dir, "split", "c.yaml"),
      "get:\n  responses:\n    '200':\n      description: changed\n",
    );
    const before = puts(api);
    const changed = await run(api, dir);
    expect(changed.exitCode).toBe(0);
    expect(statuses(changed.outputs)).toEqual([
      ["a.yaml", "unchanged"],
      ["b.json", "unchanged"],
      ["split/root.yaml", "published"],
    ]);
    expect(puts(api) - before).toBe(1);

    const forced = await run(api, dir, { force: "true" });
    expect(statuses(forced.outputs).map(([, status]) => status)).toEqual([
      "published",
      "published",
      "published",
    ]);
    expect(puts(api) - before).toBe(4);
  });
});
