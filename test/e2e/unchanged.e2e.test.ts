/**
 * Skipping unchanged specs, end to end: a re-run uploads nothing GitBook already holds, one changed spec
 * of three is uploaded alone, `force` uploads everything.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../harness/emulator/index.ts";
import { startEmulator } from "../../harness/emulator/index.ts";
import { runActionInProcess } from "../../harness/runner/in-process-action.ts";
import { digestOf, ownerKey, RECORD_KEY } from "../../src/core/ownership/ownership.ts";
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
  return runActionInProcess({
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

/** The first run publishes `files`; the second, with `change` applied, reports each file's status. */
async function rerun(
  files: Record<string, string>,
  options: {
    change?: Record<string, string>;
    faults?: Parameters<RunningEmulator["setFaults"]>[0];
    inputs?: Record<string, string>;
  } = {},
) {
  const api = await startEmulator({ processing: { pendingMs: 10, progressMs: 10 } });
  cleanups.push(() => api.close());
  const dir = await emptyWorkspace(files);
  cleanups.push(() => removeWorkspace(dir));
  const first = await run(api, dir, options.inputs);
  expect(first.exitCode).toBe(0);
  for (const [file, text] of Object.entries(options.change ?? {}))
    await writeFile(path.join(dir, file), text);
  if (options.faults) api.setFaults(options.faults);
  const before = api.requests.length;
  const second = await run(api, dir, options.inputs);
  return { api, dir, second, writes: api.requests.slice(before).filter((r) => r.method !== "GET") };
}

describe("unchanged specs GitBook transforms or cannot compare (issue 16, items 3, 4, 10, 14)", () => {
  it("Swagger 2.0, which GitBook stores upgraded to OpenAPI 3, is unchanged on a re-run", async () => {
    const swagger =
      "swagger: '2.0'\ninfo: {title: Legacy, version: '1'}\nhost: api.example.com\npaths:\n  /a:\n    get:\n      responses:\n        '200': {description: ok}\n";
    const { api, second, writes } = await rerun({ "legacy.yaml": swagger });
    expect(statuses(second.outputs)).toEqual([["legacy.yaml", "unchanged"]]);
    expect(writes).toEqual([]);
    // What GitBook holds is the upgraded document, which no longer equals the file: the record decides.
    const answer = await fetch(`${api.baseUrl}/v1/orgs/demo-org/openapi/legacy/versions/latest/content`, {
      headers: { authorization: `Bearer ${api.token}` },
    });
    const stored = ((await answer.json()) as { filesystem: { specification: Record<string, unknown> }[] })
      .filesystem[0]?.specification;
    expect(stored?.openapi).toMatch(/^3\./);
    expect(stored?.swagger).toBeUndefined();
    expect(stored?.["x-publish-record"]).toMatchObject({ path: "legacy.yaml" });
  });

  it("a spec whose example data holds a literal $ref to a file is unchanged on a re-run", async () => {
    const spec = [
      "openapi: 3.1.0",
      "info: {title: Docs, version: '1'}",
      "paths:",
      "  /a:",
      "    get:",
      "      responses:",
      "        '200':",
      "          description: ok",
      "          content:",
      "            application/json:",
      "              example: {$ref: ./not-a-reference.yaml}",
    ].join("\n");
    const { second, writes } = await rerun({ "docs.yaml": `${spec}\n` });
    expect(statuses(second.outputs)).toEqual([["docs.yaml", "unchanged"]]);
    expect(writes).toEqual([]);
  });

  it("an integer changed beyond 2^53 is uploaded, not taken for unchanged", async () => {
    const spec = (n: string) =>
      `{"openapi": "3.1.0", "info": {"title": "Ids", "version": "1"}, "x-max-id": ${n}, "paths": {}}`;
    const { second, writes } = await rerun(
      { "ids.json": spec("9007199254740993") },
      { change: { "ids.json": spec("9007199254740992") } },
    );
    expect(statuses(second.outputs)).toEqual([["ids.json", "published"]]);
    expect(writes.map((r) => r.method)).toEqual(["PUT"]);
  });

  it("a version content of 600 MB is refused at its cap and the spec is uploaded", async () => {
    const { second, writes } = await rerun(
      { "a.yaml": minimalSpec("A") },
      { faults: { content: { paddingBytes: 600 * 1024 * 1024, chunked: true } } },
    );
    expect(second.exitCode).toBe(0);
    expect(statuses(second.outputs)).toEqual([["a.yaml", "published"]]);
    expect(writes.map((r) => r.method)).toEqual(["PUT"]);
    expect(second.stdout).toMatch(/Uploading: what GitBook holds could not be read \(.*(MiB|bytes).*\)/);
  });

  it("a version content that never ends is given up within its own budget and the spec is uploaded", async () => {
    const { second, writes } = await rerun(
      { "a.yaml": minimalSpec("A") },
      { faults: { content: { stallMs: Number.POSITIVE_INFINITY } }, inputs: { timeout: "6" } },
    );
    expect(second.exitCode).toBe(0);
    expect(statuses(second.outputs)).toEqual([["a.yaml", "published"]]);
    expect(writes.map((r) => r.method)).toEqual(["PUT"]);
  });
});

describe("a spec that cannot carry a publish record", () => {
  it("is uploaded on every run, said on the file and once with the count", async () => {
    const anchored = "--- !!map\nopenapi: 3.0.3\ninfo: {title: Anchored, version: '1'}\npaths: {}\n";
    const { second, writes } = await rerun({ "anchored.yaml": anchored, "a.yaml": minimalSpec("A") });
    expect(statuses(second.outputs)).toEqual([
      ["a.yaml", "unchanged"],
      ["anchored.yaml", "published"],
    ]);
    expect(writes.map((r) => r.path)).toEqual(["/v1/orgs/demo-org/openapi/anchored"]);
    expect(second.annotations).toContainEqual(
      expect.objectContaining({
        level: "warning",
        file: "anchored.yaml",
        message: expect.stringContaining("no publish record could be added"),
      }),
    );
    const once = second.annotations.filter(
      (a) => a.level === "warning" && /1 spec could not carry/.test(a.message),
    );
    expect(once).toHaveLength(1);
  });
});

/** The log's line for a spec told unchanged from its file's bytes, and for one read and checked first. */
const FROM_BYTES = /holds this very file; not uploaded, nor read and checked again/;
const AFTER_CHECKS = /holds this very text; not uploaded\./;

describe("an unchanged file told from its bytes, before it is read, checked or bundled", () => {
  it("is reported unchanged without a write or its checks' warnings; a changed byte is uploaded", async () => {
    // An empty title: published, with a warning, every time the file is checked.
    const warned = "openapi: 3.1.0\ninfo:\n  title: ''\n  version: 2.4.0\npaths: {}\n";
    const api = await startEmulator({ processing: { pendingMs: 10, progressMs: 10 } });
    cleanups.push(() => api.close());
    const dir = await emptyWorkspace({ "empty-title.yaml": warned, "a.yaml": minimalSpec("A") });
    cleanups.push(() => removeWorkspace(dir));
    const first = await run(api, dir);
    const titleWarnings = (annotations: typeof first.annotations) =>
      annotations.filter((a) => a.level === "warning" && /info\.title/.test(a.message));
    expect(titleWarnings(first.annotations)).toHaveLength(1);
    const results = (outputs: Record<string, string>) =>
      JSON.parse(outputs.results ?? "[]") as { file: string; status: string; specVersion?: string }[];

    const before = api.requests.length;
    const second = await run(api, dir);
    expect(second.exitCode).toBe(0);
    expect(results(second.outputs).map((r) => [r.file, r.status, r.specVersion])).toEqual([
      ["a.yaml", "unchanged", "1.0.0"],
      ["empty-title.yaml", "unchanged", "2.4.0"],
    ]);
    expect(api.requests.slice(before).filter((r) => r.method !== "GET")).toEqual([]);
    // Not validated again: the warning the same bytes gave when they were uploaded is not repeated.
    expect(titleWarnings(second.annotations)).toEqual([]);
    expect(second.stdout.match(new RegExp(FROM_BYTES, "g"))).toHaveLength(2);

    await writeFile(path.join(dir, "empty-title.yaml"), `${warned} `);
    const third = await run(api, dir);
    expect(results(third.outputs).map((r) => [r.file, r.status])).toEqual([
      ["a.yaml", "unchanged"],
      ["empty-title.yaml", "published"],
    ]);
    expect(titleWarnings(third.annotations)).toHaveLength(1);
  });

  it("Swagger 2.0 and a number past 2^53 are told unchanged from their bytes", async () => {
    const swagger = "swagger: '2.0'\ninfo: {title: Legacy, version: '1'}\npaths: {}\n";
    const ids =
      '{"openapi": "3.1.0", "info": {"title": "Ids", "version": "1"}, "x-max-id": 9007199254740993, "paths": {}}';
    const { second, writes } = await rerun({ "legacy.yaml": swagger, "ids.json": ids });
    expect(statuses(second.outputs)).toEqual([
      ["ids.json", "unchanged"],
      ["legacy.yaml", "unchanged"],
    ]);
    expect(writes).toEqual([]);
    expect(second.stdout.match(new RegExp(FROM_BYTES, "g"))).toHaveLength(2);
  });

  it("a split spec is bundled and then compared, as before", async () => {
    const { second, writes } = await rerun({
      "split/root.yaml":
        "openapi: 3.1.0\ninfo: {title: C, version: '1'}\npaths:\n  /c:\n    $ref: ./c.yaml\n",
      "split/c.yaml": "get:\n  responses:\n    '200':\n      description: ok\n",
    });
    expect(statuses(second.outputs)).toEqual([["split/root.yaml", "unchanged"]]);
    expect(writes).toEqual([]);
    expect(second.stdout).toMatch(AFTER_CHECKS);
    expect(second.stdout).not.toMatch(FROM_BYTES);
  });

  it("a file sent as written while a file its example names could not be read is read again, and bundled once it can", async () => {
    const spec = [
      "openapi: 3.1.0",
      "info: {title: Later, version: '1'}",
      "paths:",
      "  /a:",
      "    get:",
      "      responses:",
      "        '200':",
      "          description: ok",
      "          content:",
      "            application/json:",
      "              example: {$ref: ./later.json}",
      "",
    ].join("\n");
    const { api, dir, second, writes } = await rerun({ "later.yaml": spec });
    // Same bytes, but not proven standalone: checked again (still unchanged: the same text).
    expect(statuses(second.outputs)).toEqual([["later.yaml", "unchanged"]]);
    expect(writes).toEqual([]);
    expect(second.stdout).toMatch(AFTER_CHECKS);

    await writeFile(path.join(dir, "later.json"), '{"id": 7}');
    const third = await run(api, dir);
    expect(statuses(third.outputs)).toEqual([["later.yaml", "published"]]);
  });

  it("a record written by an earlier version, which names no slug, is uploaded once, then unchanged", async () => {
    const api = await startEmulator({ processing: { pendingMs: 10, progressMs: 10 } });
    cleanups.push(() => api.close());
    const text = minimalSpec("Old");
    const dir = await emptyWorkspace({ "old.yaml": text });
    cleanups.push(() => removeWorkspace(dir));
    const owner = ownerKey({ repository: "github.com/acme/widgets", slugPrefix: undefined });
    const earlier = { tool: "gitbook-openapi", owner, path: "old.yaml", digest: digestOf(text) };
    api.seedSpec("demo-org", "old", `${RECORD_KEY}: ${JSON.stringify(earlier)}\n${text}`);

    const second = await run(api, dir);
    expect(statuses(second.outputs)).toEqual([["old.yaml", "published"]]);
    expect(second.stdout).toContain(
      "written by an earlier version of this tool, which did not name the slug",
    );
    const third = await run(api, dir);
    expect(statuses(third.outputs)).toEqual([["old.yaml", "unchanged"]]);
    expect(third.stdout).toMatch(FROM_BYTES);
  });
});
