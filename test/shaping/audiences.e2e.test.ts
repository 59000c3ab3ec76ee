/**
 * Overlays and audiences through the Action as the runner starts it, against the emulator: one spec with
 * internal operations published as two audiences (public: internals removed; internal: all of it), both
 * with an overlay that adds GitBook's page titles and icons to tags, and a second spec with only
 * `remove-internal` — three documents, each read back from what the emulator keeps and checked (shape,
 * no dangling reference, the official schema). Then: unchanged on the next run, pruning keeps both
 * audiences of one file, and a pull request that changes only an internal operation reports nothing for
 * the public audience.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { load } from "js-yaml";
import { afterEach, describe, expect, it } from "vitest";
import { startEmulator } from "../../harness/emulator/index.ts";
import { startFakeGitHub } from "../../harness/fakes/fake-github.ts";
import { runActionInProcess } from "../../harness/runner/in-process-action.ts";
import { danglingRefs } from "../../src/core/shaping/remove-internal.ts";
import { structuralIssues } from "../../src/core/validation/structure.ts";
import { emptyWorkspace, removeWorkspace } from "../e2e/helpers.ts";
import { git } from "../support/git.ts";

const ORG = "demo-org";
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const PAYMENTS = `openapi: 3.0.3
info: {title: Payments, version: "1.0.0"}
tags:
  - {name: payments, description: Take payments}
  - {name: refunds, description: Give money back}
  - {name: ops, description: Back office}
paths:
  /payments:
    get:
      operationId: listPayments
      tags: [payments]
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {type: array, items: {$ref: "#/components/schemas/Payment"}}
    post:
      operationId: createPayment
      tags: [payments]
      parameters:
        - {name: x-debug-trace, in: header, x-internal: true, schema: {type: string}}
      requestBody:
        content:
          application/json:
            schema: {$ref: "#/components/schemas/Payment"}
      responses:
        "201": {description: created}
  /payments/{id}/refunds:
    post:
      operationId: refundPayment
      tags: [refunds]
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
      responses:
        "201": {description: refunded}
  /ops/replay:
    post:
      operationId: replayWebhooks
      x-internal: true
      tags: [ops]
      requestBody:
        content:
          application/json:
            schema: {$ref: "#/components/schemas/ReplayRequest"}
      responses:
        "202": {description: accepted}
components:
  schemas:
    Payment:
      type: object
      required: [id, amount]
      properties:
        id: {type: string}
        amount: {type: integer}
        riskScore: {type: number, x-internal: true}
    ReplayRequest:
      type: object
      properties:
        since: {type: string, format: date-time}
`;

const LEDGER = `{
  "openapi": "3.1.0",
  "info": {"title": "Ledger", "version": "2.0.0"},
  "paths": {
    "/entries": {"get": {"operationId": "listEntries", "responses": {"200": {"description": "ok"}}}},
    "/entries/rebuild": {"post": {"x-internal": true, "operationId": "rebuild", "responses": {"202": {"description": "ok"}}}}
  }
}
`;

const GITBOOK_OVERLAY = `overlay: 1.0.0
info:
  title: GitBook titles and icons
  version: 1.0.0
actions:
  - target: $.tags[?@.name == 'payments']
    update: {x-page-title: Payments, x-page-icon: credit-card}
  - target: $.tags[?@.name == 'refunds']
    update: {x-page-title: Refunds, x-page-icon: rotate-left}
  - target: $.tags[?@.name == 'ops']
    update: {x-page-title: Operations, x-page-icon: gear}
`;

const PUBLIC_OVERLAY = `overlay: 1.0.0
info:
  title: Public audience
  version: 1.0.0
actions:
  - target: $.info
    update:
      description: The public Payments API.
  - target: $.paths['/payments/{id}/refunds'].post
    update:
      x-internal: true
  - target: $.tags[?@.name == 'nothing-by-this-name']
    update: {x-page-title: Never}
`;

const CONFIG = `specs:
  api/payments.yaml:
    overlays: [overlays/gitbook.yaml]
    audiences:
      public: { slug: payments, remove-internal: true, overlays: [overlays/public.yaml] }
      internal: { slug: payments-internal }
  api/ledger.json:
    remove-internal: true
`;

type Document = Record<string, unknown> & {
  info: Record<string, unknown>;
  paths: Record<string, Record<string, unknown>>;
  tags?: Array<Record<string, unknown>>;
  components?: { schemas?: Record<string, Record<string, unknown>> };
};

async function workspace(files: Record<string, string> = {}) {
  const dir = await emptyWorkspace({
    "gitbook-openapi.yaml": CONFIG,
    "api/payments.yaml": PAYMENTS,
    "api/ledger.json": LEDGER,
    "overlays/gitbook.yaml": GITBOOK_OVERLAY,
    "overlays/public.yaml": PUBLIC_OVERLAY,
    ...files,
  });
  cleanups.push(() => removeWorkspace(dir));
  return dir;
}

async function emulator() {
  const api = await startEmulator({ processing: { pendingMs: 5, progressMs: 5 } });
  cleanups.push(() => api.close());
  return api;
}

function publish(
  api: Awaited<ReturnType<typeof emulator>>,
  dir: string,
  inputs: Record<string, string> = {},
) {
  return runActionInProcess({
    workspace: dir,
    inputs: { token: api.token, organization: ORG, "api-url": api.baseUrl, ...inputs },
    env: { GITHUB_REPOSITORY: "acme/widgets", GITHUB_SHA: headOrNone(dir) },
  });
}

/** The checkout's commit, as actions/checkout leaves it for GITHUB_SHA; a made-up one outside git. */
function headOrNone(dir: string): string {
  try {
    return git(dir, "rev-parse", "HEAD");
  } catch {
    return "a".repeat(40);
  }
}

/** The text of a spec's latest version, as the emulator keeps it, parsed. */
function uploaded(api: Awaited<ReturnType<typeof emulator>>, slug: string): Document {
  const versions = api.listVersions(ORG, slug);
  const latest = versions[versions.length - 1];
  expect(latest, `no version of ${slug}`).toBeDefined();
  const text = api.getVersionText(ORG, slug, latest?.id as string) as string;
  return load(text) as Document;
}

function expectWhole(document: Document) {
  expect(danglingRefs(document)).toEqual([]);
  expect(structuralIssues(document, String(document.openapi))).toEqual([]);
}

const operationIds = (document: Document) =>
  Object.values(document.paths).flatMap((item) =>
    Object.values(item).flatMap((operation) =>
      typeof operation === "object" && operation !== null && "operationId" in operation
        ? [(operation as { operationId: string }).operationId]
        : [],
    ),
  );

describe("overlays and audiences", () => {
  it("publishes one spec as two audiences and another without its internal parts: three correct documents", async () => {
    const api = await emulator();
    const dir = await workspace();
    const result = await publish(api, dir);
    expect(result.exitCode, result.stdout).toBe(0);
    const results = JSON.parse(result.outputs.results ?? "[]") as Array<{
      file: string;
      slug: string;
      status: string;
    }>;
    expect(results.map(({ file, slug, status }) => [file, slug, status])).toEqual([
      ["api/ledger.json", "api-ledger", "published"],
      ["api/payments.yaml", "payments", "published"],
      ["api/payments.yaml", "payments-internal", "published"],
    ]);

    const publicDoc = uploaded(api, "payments");
    expectWhole(publicDoc);
    expect(operationIds(publicDoc)).toEqual(["listPayments", "createPayment"]);
    expect(publicDoc.info.description).toBe("The public Payments API.");
    expect(publicDoc.tags).toEqual([
      {
        name: "payments",
        description: "Take payments",
        "x-page-title": "Payments",
        "x-page-icon": "credit-card",
      },
    ]);
    expect(Object.keys(publicDoc.components?.schemas ?? {})).toEqual(["Payment"]);
    expect(publicDoc.components?.schemas?.Payment?.properties).not.toHaveProperty("riskScore");
    expect((publicDoc.paths["/payments"]?.post as { parameters: unknown[] } | undefined)?.parameters).toEqual(
      [],
    );
    expect(publicDoc["x-publish-record"]).toMatchObject({ path: "api/payments.yaml" });

    const internalDoc = uploaded(api, "payments-internal");
    expectWhole(internalDoc);
    expect(operationIds(internalDoc)).toEqual([
      "listPayments",
      "createPayment",
      "refundPayment",
      "replayWebhooks",
    ]);
    expect(internalDoc.tags?.map((tag) => [tag.name, tag["x-page-title"], tag["x-page-icon"]])).toEqual([
      ["payments", "Payments", "credit-card"],
      ["refunds", "Refunds", "rotate-left"],
      ["ops", "Operations", "gear"],
    ]);
    expect(internalDoc.info).not.toHaveProperty("description");
    expect(internalDoc["x-publish-record"]).toMatchObject({ path: "api/payments.yaml" });

    const ledger = uploaded(api, "api-ledger");
    expectWhole(ledger);
    expect(Object.keys(ledger.paths)).toEqual(["/entries"]);

    // The public overlay's action that selects nothing: a warning at its file and line.
    expect(result.annotations).toContainEqual(
      expect.objectContaining({
        level: "warning",
        file: "overlays/public.yaml",
        line: 12,
        message: expect.stringContaining("selects nothing"),
      }),
    );
    expect(result.stdout).toContain("api/payments.yaml (audience public) → payments");

    // The next run uploads nothing: each audience is compared with its own published document.
    const again = await publish(api, dir);
    const statuses = (JSON.parse(again.outputs.results ?? "[]") as Array<{ status: string }>).map(
      (r) => r.status,
    );
    expect(statuses).toEqual(["unchanged", "unchanged", "unchanged"]);
  });

  it("fails the spec, never publishing it unshaped, when an overlay is invalid", async () => {
    const api = await emulator();
    const dir = await workspace({
      "overlays/public.yaml":
        "overlay: 1.0.0\ninfo: {title: t, version: '1'}\nactions:\n  - target: $.info\n",
    });
    const result = await publish(api, dir);
    expect(result.exitCode).toBe(1);
    const results = JSON.parse(result.outputs.results ?? "[]") as Array<{
      slug: string;
      status: string;
      errors: string[];
    }>;
    const publicResult = results.find((r) => r.slug === "payments");
    expect(publicResult?.status).toBe("failed");
    expect(publicResult?.errors.join("\n")).toMatch(
      /overlays\/public\.yaml:4.*neither updates nor removes anything/,
    );
    expect(api.getSpec(ORG, "payments")).toBeUndefined();
    // The other audience does not depend on that overlay: it is published.
    expect(results.find((r) => r.slug === "payments-internal")?.status).toBe("published");
  });

  it("prunes neither audience of a file it still publishes, and prunes an audience taken out of the configuration", async () => {
    const api = await emulator();
    const derived = CONFIG.replace(" slug: payments,", "").replace("{ slug: payments-internal }", "");
    const dir = await workspace({ "gitbook-openapi.yaml": derived });
    // Pruning deletes on the word of a commit the run descends from: the run's commit is the checkout's.
    git(dir, "init", "-q");
    git(dir, "add", "-A");
    git(dir, "commit", "-q", "-m", "specs");
    const inputs = { "slug-prefix": "acme", prune: "true" };
    const first = await publish(api, dir, inputs);
    expect(first.exitCode, first.stdout).toBe(0);
    const slugs = () =>
      api
        .listSpecs(ORG)
        .map((spec) => spec.slug)
        .sort();
    expect(slugs()).toEqual(["acme-api-ledger", "acme-api-payments-internal", "acme-api-payments-public"]);
    expect((await publish(api, dir, inputs)).exitCode).toBe(0);
    expect(slugs()).toEqual(["acme-api-ledger", "acme-api-payments-internal", "acme-api-payments-public"]);

    await writeFile(path.join(dir, "gitbook-openapi.yaml"), derived.replace(/\n {6}internal:.*\n/, "\n"));
    const pruned = await publish(api, dir, inputs);
    expect(pruned.exitCode, pruned.stdout).toBe(0);
    expect(slugs()).toEqual(["acme-api-ledger", "acme-api-payments-public"]);
  });

  it("reviews each audience against the same audience at the base: an internal-only change shows nothing to the public", async () => {
    const api = await emulator();
    const github = await startFakeGitHub();
    cleanups.push(() => github.close());
    const dir = await workspace();
    git(dir, "init", "-q", "-b", "main");
    git(dir, "add", "-A");
    git(dir, "commit", "-q", "-m", "base");
    const base = git(dir, "rev-parse", "HEAD");
    // Only the internal operation changes: a new required parameter (breaking for whoever calls it).
    const head = PAYMENTS.replace(
      "      x-internal: true\n      tags: [ops]\n",
      "      x-internal: true\n      tags: [ops]\n      parameters:\n        - {name: queue, in: query, required: true, schema: {type: string}}\n",
    );
    expect(head).not.toBe(PAYMENTS);
    await writeFile(path.join(dir, "api/payments.yaml"), head);
    git(dir, "commit", "-q", "-am", "head");
    const sha = git(dir, "rev-parse", "HEAD");
    const event = (action: string, inputs: Record<string, string> = {}) =>
      pullRequestRun({ api, github, dir, number: 5, base, sha, action, inputs });
    const result = await event("synchronize");
    expect(result.exitCode, result.stdout).toBe(0);
    type Changes = { against: string; breaking: unknown[]; other: unknown[] };
    const results = JSON.parse(result.outputs.results ?? "[]") as Array<{ slug: string; changes: Changes }>;
    const bySlug = new Map(results.map((r) => [r.slug, r.changes]));
    expect(bySlug.get("payments-pr-5")).toMatchObject({ against: "base commit", breaking: [], other: [] });
    expect(bySlug.get("payments-internal-pr-5")?.breaking).toHaveLength(1);
    expect(JSON.stringify(bySlug.get("payments-internal-pr-5"))).toContain("queue");
    expect(bySlug.get("api-ledger-pr-5")).toMatchObject({ breaking: [], other: [] });
    // The comment names the audience that changed by its slug: the file alone would not say which.
    const comment = github.comments(5)[0]?.body ?? "";
    expect(comment).toContain("**api/payments.yaml → payments-internal-pr-5**: ⚠️ 1 breaking");
    expect(comment).not.toContain("→ payments-pr-5**");
    // fail-on-breaking fails on the internal audience's change, and says which audience.
    const failing = await event("synchronize", { "fail-on-breaking": "true" });
    expect(failing.exitCode).toBe(1);
    const errors = failing.annotations.filter((a) => a.level === "error").map((a) => a.message);
    expect(errors.join("\n")).toMatch(/- api\/payments\.yaml → payments-internal-pr-5: .*queue/);

    // Closing the pull request deletes every audience's preview.
    expect(
      api
        .listSpecs(ORG)
        .map((spec) => spec.slug)
        .sort(),
    ).toEqual(["api-ledger-pr-5", "payments-internal-pr-5", "payments-pr-5"]);
    const closed = await event("closed");
    expect(closed.exitCode, closed.stdout).toBe(0);
    expect(api.listSpecs(ORG)).toEqual([]);
  });

  it("leaves an audience not reviewed when its base cannot be shaped, rather than show what it leaves out", async () => {
    const api = await emulator();
    const github = await startFakeGitHub();
    cleanups.push(() => github.close());
    const dir = await workspace();
    // At the base the document's info was marked internal: no audience that removes internals can be made.
    const unshapeable = PAYMENTS.replace(
      'info: {title: Payments, version: "1.0.0"}',
      'info: {title: Payments, version: "1.0.0", x-internal: true}',
    );
    expect(unshapeable).not.toBe(PAYMENTS);
    await writeFile(path.join(dir, "api/payments.yaml"), unshapeable);
    git(dir, "init", "-q", "-b", "main");
    git(dir, "add", "-A");
    git(dir, "commit", "-q", "-m", "base");
    const base = git(dir, "rev-parse", "HEAD");
    await writeFile(path.join(dir, "api/payments.yaml"), PAYMENTS);
    git(dir, "commit", "-q", "-am", "head");
    const sha = git(dir, "rev-parse", "HEAD");
    const result = await pullRequestRun({ api, github, dir, number: 6, base, sha, action: "synchronize" });
    expect(result.exitCode, result.stdout).toBe(0);
    const results = JSON.parse(result.outputs.results ?? "[]") as Array<{ slug: string; changes: unknown }>;
    const publicChanges = results.find((r) => r.slug === "payments-pr-6")?.changes;
    expect(publicChanges).toMatchObject({ breaking: [], other: [] });
    expect(JSON.stringify(publicChanges)).toMatch(/"notReviewed":"its base could not be shaped/);
    // The internal operation the public audience leaves out is named nowhere the public audience shows.
    expect(JSON.stringify(publicChanges)).not.toMatch(/replay/i);
  });

  it("reviews a change of an overlay alone: the base is shaped with the overlays the base commit has", async () => {
    const api = await emulator();
    const dir = await workspace();
    git(dir, "init", "-q", "-b", "main");
    git(dir, "add", "-A");
    git(dir, "commit", "-q", "-m", "base");
    const base = git(dir, "rev-parse", "HEAD");
    // The public overlay no longer hides refunds: the public audience gains an operation.
    const opened = PUBLIC_OVERLAY.replace(
      "  - target: $.paths['/payments/{id}/refunds'].post\n    update:\n      x-internal: true\n",
      "",
    );
    expect(opened).not.toBe(PUBLIC_OVERLAY);
    await writeFile(path.join(dir, "overlays/public.yaml"), opened);
    git(dir, "commit", "-q", "-am", "head");
    const sha = git(dir, "rev-parse", "HEAD");
    const result = await runActionInProcess({
      workspace: dir,
      inputs: { token: api.token, organization: ORG, "api-url": api.baseUrl, comment: "false" },
      eventName: "pull_request",
      eventPayload: {
        action: "synchronize",
        number: 6,
        pull_request: {
          number: 6,
          head: { sha, ref: "feature", repo: { full_name: "acme/widgets" } },
          base: { sha: base, ref: "main", repo: { full_name: "acme/widgets" } },
        },
      },
      env: { GITHUB_REPOSITORY: "acme/widgets", GITHUB_SHA: sha },
    });
    expect(result.exitCode, result.stdout).toBe(0);
    type Changes = { against: string; breaking: unknown[]; other: Array<{ operation?: string }> };
    const results = JSON.parse(result.outputs.results ?? "[]") as Array<{ slug: string; changes: Changes }>;
    const bySlug = new Map(results.map((r) => [r.slug, r.changes]));
    expect(bySlug.get("payments-pr-6")?.against).toBe("base commit");
    expect(bySlug.get("payments-pr-6")?.other.map((change) => change.operation)).toContain(
      "POST /payments/{id}/refunds",
    );
    expect(bySlug.get("payments-internal-pr-6")).toMatchObject({ breaking: [], other: [] });
  });
});

/** The Action on a pull request event of acme/widgets, from `base` to `sha`, against the emulator and fake GitHub. */
function pullRequestRun(run: {
  api: { token: string; baseUrl: string };
  github: { apiUrl: string };
  dir: string;
  number: number;
  base: string;
  sha: string;
  action: string;
  inputs?: Record<string, string>;
}) {
  const repo = { full_name: "acme/widgets" };
  return runActionInProcess({
    workspace: run.dir,
    inputs: { token: run.api.token, organization: ORG, "api-url": run.api.baseUrl, ...run.inputs },
    githubToken: "ghs_fakeGitHubToken123",
    eventName: "pull_request",
    eventPayload: {
      action: run.action,
      number: run.number,
      pull_request: {
        number: run.number,
        merged: false,
        head: { sha: run.sha, ref: "feature", repo },
        base: { sha: run.base, ref: "main", repo },
      },
    },
    env: { GITHUB_REPOSITORY: "acme/widgets", GITHUB_SHA: run.sha, GITHUB_API_URL: run.github.apiUrl },
  });
}
