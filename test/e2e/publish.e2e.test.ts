/**
 * The action run as the GitHub runner runs it, against the emulator on a real
 * loopback socket.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../harness/emulator/index.ts";
import { startEmulator } from "../../harness/emulator/index.ts";
import { ShiftableClock } from "../../harness/fakes/fake-spec-service.ts";
import { runActionLikeRunner } from "../../harness/runner/action-runner.ts";
import { runActionInProcess, startActionInProcess } from "../../harness/runner/in-process-action.ts";
import { withoutPublishRecord } from "../support/publish-record.ts";
import {
  emptyWorkspace,
  exampleWorkspace,
  flatGroups,
  minimalSpec,
  removeWorkspace,
  startRawFileServer,
} from "./helpers.ts";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function emulator(options: Parameters<typeof startEmulator>[0] = {}): Promise<RunningEmulator> {
  const running = await startEmulator({ processing: { pendingMs: 30, progressMs: 30 }, ...options });
  cleanups.push(() => running.close());
  return running;
}

async function workspace(create: Promise<string>): Promise<string> {
  const dir = await create;
  cleanups.push(() => removeWorkspace(dir));
  return dir;
}

const repo = { GITHUB_REPOSITORY: "acme/widgets", GITHUB_SHA: "a".repeat(40) };

function publishInputs(api: RunningEmulator, extra: Record<string, string> = {}) {
  return { token: api.token, organization: "demo-org", "api-url": api.baseUrl, ...extra };
}

/** The log as the runner shows it: it consumes `::add-mask::` commands and hides their values. */
const visibleLog = (stdout: string) => stdout.replace(/^::add-mask::.*$/gm, "");

type Result = {
  file: string;
  slug: string;
  status: string;
  errorCode: string | null;
  errors: string[];
} & Record<string, unknown>;

describe("the action, end to end", () => {
  it("publishes every spec of a repository, bundling the multi-file one", async () => {
    const api = await emulator();
    const dir = await workspace(exampleWorkspace());
    // As the runner starts it: a process of its own (the other tests run the action in this one).
    const run = await runActionLikeRunner({ workspace: dir, inputs: publishInputs(api), env: repo });

    expect(run.stderr).toBe("");
    expect(run.exitCode).toBe(0);
    const results = JSON.parse(run.outputs.results ?? "[]") as Result[];
    expect(results.map((r) => [r.file, r.slug, r.status])).toEqual([
      ["api/petstore/openapi.yaml", "api-petstore", "published"],
      ["openapi.yaml", "widgets", "published"],
      ["services/payments/openapi.json", "services-payments", "published"],
      ["specs/billing.openapi.yaml", "specs-billing", "published"],
    ]);
    expect(run.outputs).toMatchObject({ published: "4", failed: "0", mode: "publish" });

    for (const result of results) {
      const spec = api.getSpec("demo-org", result.slug);
      expect(spec?.processingState).toBe("complete");
      expect(result.versionId).toBe(spec?.lastVersion);
      expect(result.specId).toBe(spec?.id);
      expect(String(result.versionUrl)).toMatch(/^http:\/\/127\.0\.0\.1:/);
    }
    const bundled = api.getVersionText("demo-org", "api-petstore", String(results[0]?.versionId)) ?? "";
    expect(bundled).toContain("listPets");
    expect(bundled).not.toMatch(/\$ref: *["']?\.{1,2}\//);
    const original = await readFile(path.join(dir, "openapi.yaml"), "utf8");
    const uploaded = api.getVersionText("demo-org", "widgets", String(results[1]?.versionId)) ?? "";
    expect(withoutPublishRecord(uploaded)).toBe(original);

    expect(run.summary).toContain("## GitBook OpenAPI: all 4 specs published");
    expect(run.summary).toContain(
      "| `api/petstore/openapi.yaml` | `api-petstore` | ✅ published (new) | 1.0.0 |",
    );
    const groups = flatGroups(run.stdout);
    expect(groups.map((g) => g.title)).toHaveLength(5);
    expect(groups[0]).toEqual({
      title: "Plan (publish): 4 specs",
      lines: expect.arrayContaining(["api/petstore/openapi.yaml → api-petstore"]),
    });
    const petstore = groups.find((g) => g.title.startsWith("api/petstore/openapi.yaml"));
    const bundledAt = petstore?.lines.indexOf("Bundled 6 files into one document:") ?? -1;
    const listed = petstore?.lines.slice(bundledAt + 1, bundledAt + 7) ?? [];
    expect(listed).toContain("  api/petstore/openapi.yaml");
    for (const line of listed) expect(line).toMatch(/^ {2}api\/petstore\/\S+\.yaml$/);
    expect(visibleLog(run.stdout)).not.toContain(api.token);
    const puts = api.requests.filter((r) => r.method === "PUT");
    expect(puts).toHaveLength(4);
    expect(puts.every((r) => r.authorization === `Bearer ${api.token}`)).toBe(true);
  });

  it("updates on a second run and reports it", async () => {
    const api = await emulator();
    const dir = await workspace(emptyWorkspace({ "openapi.yaml": minimalSpec("One") }));
    const first = await runActionInProcess({ workspace: dir, inputs: publishInputs(api), env: repo });
    await writeFile(path.join(dir, "openapi.yaml"), minimalSpec("One, revised"));
    const second = await runActionInProcess({ workspace: dir, inputs: publishInputs(api), env: repo });
    const [before] = JSON.parse(first.outputs.results ?? "[]") as Result[];
    const [after] = JSON.parse(second.outputs.results ?? "[]") as Result[];
    expect([before?.operation, after?.operation]).toEqual(["create", "update"]);
    expect(after?.versionId).not.toBe(before?.versionId);
    expect(api.listVersions("demo-org", "widgets")).toHaveLength(2);
  });

  it("reports local problems as annotations and still publishes the other specs", async () => {
    const api = await emulator();
    const dir = await workspace(
      emptyWorkspace({
        "good.yaml": minimalSpec("Good"),
        "broken.yaml": "openapi: 3.0.0\ninfo:\n  title: Broken\n   version: 1\npaths: {}\n",
        "untitled.json": '{"openapi": "3.0.0", "info": {"version": "1"}, "paths": {}}',
        "refs/root.yaml":
          "openapi: 3.0.0\ninfo: {title: R, version: '1'}\npaths:\n  /a:\n    $ref: ./missing.yaml\n",
      }),
    );
    const run = await runActionInProcess({ workspace: dir, inputs: publishInputs(api), env: repo });

    expect(run.exitCode).toBe(1);
    const results = JSON.parse(run.outputs.results ?? "[]") as Result[];
    expect(results.map((r) => [r.file, r.status, r.errorCode])).toEqual([
      ["broken.yaml", "failed", "SYNTAX_ERROR"],
      ["good.yaml", "published", null],
      ["refs/root.yaml", "failed", "BUNDLE_ERROR"],
      ["untitled.json", "failed", "INVALID_SPEC"],
    ]);
    // Three specs fail locally at once: each writes its group whole, none inside another.
    const [plan, ...specGroups] = flatGroups(run.stdout).map((g) => g.title);
    expect(plan).toBe("Plan (publish): 4 specs");
    expect(specGroups.sort()).toEqual([
      "broken.yaml → broken: failed",
      "good.yaml → good: published",
      "refs/root.yaml → refs-root: failed",
      "untitled.json → untitled: failed",
    ]);
    const errors = run.annotations.filter((a) => a.level === "error");
    const syntax = errors.find((a) => a.file === "broken.yaml");
    expect(syntax?.line).toBeGreaterThanOrEqual(3);
    expect(syntax?.column).toBeGreaterThan(0);
    expect(errors.find((a) => a.file === "untitled.json")?.message).toContain("info.title");
    expect(errors.find((a) => a.file === "refs/root.yaml")?.message).toContain("./missing.yaml");
    expect(api.requests.filter((r) => r.method === "PUT").map((r) => r.path)).toEqual([
      "/v1/orgs/demo-org/openapi/good",
    ]);
    const final = errors.at(-1)?.message ?? "";
    expect(final).toContain("3 of 4 specs did not publish");
    for (const file of ["broken.yaml", "refs/root.yaml", "untitled.json"])
      expect(final).toContain(`- ${file}`);
    expect(run.outputs).toMatchObject({ published: "1", failed: "3" });
  });

  it("fails with the service's code for URL sources it cannot fetch or parse", async () => {
    const files = {
      "ok.yaml": minimalSpec("Ok"),
      "login.yaml": minimalSpec("Private"),
      "slow.yaml": minimalSpec("Slow"),
    };
    const dir = await workspace(emptyWorkspace(files));
    const raw = await startRawFileServer((requested) => {
      const file = requested.split("/").pop() ?? "";
      if (file === "slow.yaml") return "hang";
      if (file === "login.yaml")
        return { status: 200, body: "<html><body>Sign in</body></html>", type: "text/html" };
      return { status: 200, body: files[file as keyof typeof files] ?? "" };
    });
    cleanups.push(() => raw.close());
    // Long enough that a loaded machine still fetches ok.yaml in time; slow.yaml never answers.
    const api = await emulator({ fetchTimeoutMs: 3_000 });

    const run = await runActionInProcess({
      workspace: dir,
      inputs: publishInputs(api, { source: "url" }),
      env: { ...repo, GITHUB_SERVER_URL: raw.serverUrl },
    });

    expect(run.exitCode).toBe(1);
    const results = JSON.parse(run.outputs.results ?? "[]") as Result[];
    expect(results.map((r) => [r.file, r.status, r.errorCode])).toEqual([
      ["login.yaml", "failed", "PARSE_ERROR"],
      ["ok.yaml", "published", null],
      ["slow.yaml", "failed", "FETCH_TIMEOUT"],
    ]);
    expect(results[0]?.errors.length).toBeGreaterThan(0);
    expect(api.getSpec("demo-org", "ok")?.sourceURL).toBe(
      `${raw.serverUrl}/acme/widgets/raw/${repo.GITHUB_SHA}/ok.yaml`,
    );
    const annotation = run.annotations.find((a) => a.level === "error" && a.file === "login.yaml");
    expect(annotation?.message).toContain("PARSE_ERROR");
    expect(annotation?.message).toContain(results[0]?.errors[0] ?? "missing");
  });

  it("times out a spec stuck in pending without holding back the others", async () => {
    const api = await emulator({ faults: { stuckSlugs: ["stuck"] } });
    const dir = await workspace(
      emptyWorkspace({ "stuck.yaml": minimalSpec("Stuck"), "fine.yaml": minimalSpec("Fine") }),
    );
    // The deadline passes once fine.yaml is published, by the run's clock: never because the machine is slow.
    const clock = new ShiftableClock();
    const running = await startActionInProcess({
      workspace: dir,
      inputs: publishInputs(api, { timeout: "120" }),
      env: repo,
      dependencies: { clock },
    });
    await running.waitForLog(/^::group::fine\.yaml → fine: published$/m);
    clock.advance(121_000);
    const run = await running.finished;

    expect(run.exitCode).toBe(1);
    const results = JSON.parse(run.outputs.results ?? "[]") as Result[];
    expect(results.map((r) => [r.file, r.status])).toEqual([
      ["fine.yaml", "published"],
      ["stuck.yaml", "timed-out"],
    ]);
    expect(api.getSpec("demo-org", "stuck")?.processingState).toBe("pending");
    expect(run.summary).toContain("⏱️ timed-out");
    expect(run.annotations.at(-1)?.message).toContain("stuck.yaml (stuck): timed-out");
  });

  it("retries through injected 429s and 5xx and still publishes", async () => {
    const SPEC_READS = /^\/v1\/orgs\/demo-org\/openapi(?:\/widgets)?(?:\?.*)?$/;
    const api = await emulator();
    api.script(
      {
        method: "PUT",
        path: "/v1/orgs/demo-org/openapi/widgets",
        times: 2,
        fault: { status: 429, retryAfter: "0" },
      },
      // A read of the specs' states, whichever form the run takes (its listing, or one spec's read).
      { method: "GET", path: SPEC_READS, times: 1, fault: { status: 503 } },
      { method: "PUT", path: "/v1/orgs/demo-org/openapi/other", times: 1, fault: { status: 502 } },
    );
    const dir = await workspace(
      emptyWorkspace({ "openapi.yaml": minimalSpec("W"), "other.yaml": minimalSpec("O") }),
    );
    const run = await runActionInProcess({ workspace: dir, inputs: publishInputs(api), env: repo });

    expect(run.exitCode).toBe(0);
    const statuses = (method: string, slug: string) =>
      api.requests
        .filter((r) => r.method === method && r.path.endsWith(`/openapi/${slug}`))
        .map((r) => r.status);
    expect(statuses("PUT", "widgets")).toEqual([429, 429, 201]);
    expect(statuses("PUT", "other")).toEqual([502, 201]);
    const reads = api.requests.filter((r) => r.method === "GET" && SPEC_READS.test(r.path));
    expect(reads[0]?.status).toBe(503);
    expect(reads.length).toBeGreaterThan(1);
    expect(run.stdout).toMatch(/Retrying PUT \/v1\/orgs\/demo-org\/openapi\/widgets/);
  });

  it.each([
    [{ mode: "deploy" }, "Input 'mode'"],
    [{ timeout: "soon" }, "Input 'timeout'"],
    [{ concurrency: "0" }, "Input 'concurrency'"],
    [{ "organization-domain": "example.com" }, "'organization-domain' are both set"],
    [{ slugs: "openapi.yaml: Bad Slug" }, "`slugs` input, line 1"],
  ])("stops on the bad input %o before any request", async (override, message) => {
    const api = await emulator();
    const dir = await workspace(emptyWorkspace({ "openapi.yaml": minimalSpec("W") }));
    const run = await runActionInProcess({
      workspace: dir,
      inputs: publishInputs(api, override),
      env: repo,
    });
    expect(run.exitCode).toBe(1);
    expect(run.annotations.find((a) => a.level === "error")?.message).toContain(message);
    expect(api.requests).toHaveLength(0);
  });

  it("waits on many specs through shared listings of the organization, not a read per spec and poll", async () => {
    const api = await emulator({ processing: { pendingMs: 400, progressMs: 400 } });
    const files = Object.fromEntries(
      Array.from({ length: 24 }, (_, i) => [
        `apis/api-${String(i).padStart(2, "0")}.yaml`,
        minimalSpec(`API ${i}`),
      ]),
    );
    const dir = await workspace(emptyWorkspace(files));
    const run = await runActionInProcess({
      workspace: dir,
      inputs: publishInputs(api, { concurrency: "4" }),
      env: repo,
    });

    expect(run.exitCode).toBe(0);
    expect(run.outputs.published).toBe("24");
    const listings = api.requests.filter((r) => r.method === "GET" && r.path === "/v1/orgs/demo-org/openapi");
    const specReads = api.requests.filter(
      (r) => r.method === "GET" && /^\/v1\/orgs\/demo-org\/openapi\/[^/]+$/.test(r.path),
    );
    // One listing before the uploads (unchanged specs), then listings while specs are processed.
    expect(listings.length).toBeGreaterThan(1);
    expect(listings.every((r) => r.query === "limit=1000")).toBe(true);
    expect(specReads.length).toBeLessThan(24);
    const published = new Map(api.listSpecs("demo-org").map((spec) => [spec.slug, spec.lastVersion]));
    for (const result of JSON.parse(run.outputs.results ?? "[]") as Result[]) {
      expect(result.status).toBe("published");
      expect(result.versionId).toBe(published.get(result.slug));
    }
  });

  it("fails with a hint when there is nothing to publish, e.g. a forgotten checkout", async () => {
    const api = await emulator();
    const dir = await workspace(
      emptyWorkspace({ "README.md": "# nothing here\n", "config.yaml": "openapi: true\n" }),
    );
    const run = await runActionInProcess({ workspace: dir, inputs: publishInputs(api), env: repo });
    expect(run.exitCode).toBe(1);
    const message = run.annotations.find((a) => a.level === "error")?.message ?? "";
    expect(message).toContain("Nothing to publish");
    expect(message).toContain("actions/checkout");
    const withFiles = await runActionInProcess({
      workspace: dir,
      inputs: publishInputs(api, { files: "specs/**/*.yaml" }),
      env: repo,
    });
    expect(withFiles.exitCode).toBe(1);
    expect(withFiles.annotations.find((a) => a.level === "error")?.message).toContain(
      "the 'files' input (specs/**/*.yaml) matched no OpenAPI document",
    );
    expect(api.requests).toHaveLength(0);
  });

  it("says when the token is refused, without printing it", async () => {
    const api = await emulator();
    const dir = await workspace(emptyWorkspace({ "openapi.yaml": minimalSpec("W") }));
    const run = await runActionInProcess({
      workspace: dir,
      inputs: publishInputs(api, { token: "wrong-token-1234" }),
      env: repo,
    });
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toMatch(/401/);
    expect(run.stdout).toContain("::add-mask::wrong-token-1234");
    expect(visibleLog(run.stdout)).not.toContain("wrong-token-1234");
    expect(run.summary).not.toContain("wrong-token-1234");
  });

  it("checks without a token and writes nothing; with a token it tells create from update", async () => {
    const api = await emulator();
    api.seedSpec("demo-org", "widgets", minimalSpec("Existing"));
    const dir = await workspace(
      emptyWorkspace({ "openapi.yaml": minimalSpec("W"), "new.yaml": minimalSpec("N") }),
    );

    const offline = await runActionInProcess({ workspace: dir, inputs: { mode: "check" }, env: repo });
    expect(offline.exitCode).toBe(0);
    expect(JSON.parse(offline.outputs.results ?? "[]").map((r: Result) => r.status)).toEqual([
      "planned",
      "planned",
    ]);

    const online = await runActionInProcess({
      workspace: dir,
      inputs: publishInputs(api, { mode: "check" }),
      env: repo,
    });
    expect(online.exitCode).toBe(0);
    const results = JSON.parse(online.outputs.results ?? "[]") as Result[];
    expect(results.map((r) => [r.slug, r.status, r.operation])).toEqual([
      ["new", "planned", "create"],
      ["widgets", "planned", "update"],
    ]);
    expect(api.requests.every((r) => r.method === "GET")).toBe(true);
    expect(api.listSpecs("demo-org").map((s) => s.slug)).toEqual(["widgets"]);
  });

  it("resolves the organization from an email domain", async () => {
    const api = await emulator();
    const dir = await workspace(emptyWorkspace({ "openapi.yaml": minimalSpec("W") }));
    const run = await runActionInProcess({
      workspace: dir,
      inputs: { token: api.token, "organization-domain": "example.com", "api-url": api.baseUrl },
      env: repo,
    });
    expect(run.exitCode).toBe(0);
    expect(api.getSpec("demo-org", "widgets")?.processingState).toBe("complete");
  });

  it("submits without waiting when wait is false", async () => {
    const api = await emulator({ processing: { pendingMs: 5000, progressMs: 5000 } });
    const dir = await workspace(emptyWorkspace({ "openapi.yaml": minimalSpec("W") }));
    const run = await runActionInProcess({
      workspace: dir,
      inputs: publishInputs(api, { wait: "false" }),
      env: repo,
    });
    expect(run.exitCode).toBe(0);
    expect(JSON.parse(run.outputs.results ?? "[]")[0].status).toBe("submitted");
    // The one read: whether GitBook already holds this document (it does not: 404), then the upload.
    expect(api.requests.map((r) => r.method)).toEqual(["GET", "PUT"]);
  });
});
