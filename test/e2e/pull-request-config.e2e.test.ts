/**
 * Issue 25, item 1, through the user's path: the Action as the runner starts it, on a pull request
 * whose own `gitbook-openapi.yaml` tries to steer the run (send the token elsewhere, publish live over
 * another file's spec). The settings that choose where the token goes and what is written live come from
 * the inputs or the base commit's file, read from git; the head's file only shapes previews.
 */

import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../harness/emulator/index.ts";
import { startEmulator } from "../../harness/emulator/index.ts";
import { runActionInProcess } from "../../harness/runner/in-process-action.ts";
import { type LocalServer, startLocalServer } from "../support/emulator-fixtures.ts";
import { git } from "../support/git.ts";
import { emptyWorkspace, minimalSpec, pullRequest7Payload, removeWorkspace } from "./helpers.ts";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function emulator(): Promise<RunningEmulator> {
  const api = await startEmulator({ processing: { pendingMs: 20, progressMs: 20 } });
  cleanups.push(() => api.close());
  return api;
}

/** A server that answers nothing useful and records every request it gets. */
async function attacker(): Promise<LocalServer & { requests: string[] }> {
  const requests: string[] = [];
  const server = await startLocalServer((request, response) => {
    requests.push(`${request.method} ${request.url} ${request.headers.authorization ?? ""}`);
    response.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  cleanups.push(() => server.close());
  return { ...server, requests };
}

/**
 * A git repository: the base commit with `base` as its configuration file, then the pull request's head
 * commit with `head` (checked out). Returns the folder and both commits.
 */
async function pullRequestCheckout(
  files: Record<string, string>,
  config: { base: string | undefined; head: string },
): Promise<{ dir: string; base: string; head: string }> {
  const dir = await emptyWorkspace(files);
  cleanups.push(() => removeWorkspace(dir));
  git(dir, "init", "-q", "-b", "main");
  const configFile = path.join(dir, "gitbook-openapi.yaml");
  if (config.base !== undefined) await writeFile(configFile, config.base);
  git(dir, "add", ".");
  git(dir, "commit", "-qm", "base");
  const base = git(dir, "rev-parse", "HEAD");
  git(dir, "checkout", "-qb", "feature");
  await writeFile(configFile, config.head);
  git(dir, "add", ".");
  git(dir, "commit", "-qm", "the pull request");
  return { dir, base, head: git(dir, "rev-parse", "HEAD") };
}

function runOnPullRequest(
  checkout: { dir: string; base: string; head: string },
  inputs: Record<string, string>,
  eventName = "pull_request",
) {
  return runActionInProcess({
    workspace: checkout.dir,
    inputs: { comment: "false", ...inputs },
    eventName,
    eventPayload: pullRequest7Payload(checkout),
    env: { GITHUB_REPOSITORY: "acme/widgets", GITHUB_SHA: checkout.head },
  });
}

type Result = { file: string; slug: string; status: string };
const resultsOf = (outputs: Record<string, string>) => JSON.parse(outputs.results ?? "[]") as Result[];
const warningsOf = (run: Awaited<ReturnType<typeof runActionInProcess>>) =>
  run.annotations.filter((a) => a.level === "warning").map((a) => a.message);

describe("a pull request's own configuration file does not steer the run", () => {
  it.each(["pull_request", "pull_request_target"])(
    "never sends a request to the api-url of the head's file on %s: the base's is used",
    async (event) => {
      const api = await emulator();
      const evil = await attacker();
      const checkout = await pullRequestCheckout(
        { "a.yaml": minimalSpec("A") },
        {
          base: `organization: demo-org\napi-url: ${api.baseUrl}\n`,
          head: `organization: demo-org\napi-url: ${evil.url}\n`,
        },
      );

      const run = await runOnPullRequest(checkout, { token: api.token }, event);

      expect(evil.requests).toEqual([]);
      expect(run.exitCode).toBe(0);
      expect(resultsOf(run.outputs).map((r) => [r.slug, r.status])).toEqual([["a-pr-7", "published"]]);
      expect(warningsOf(run)).toEqual([
        expect.stringMatching(
          /gitbook-openapi\.yaml: 'api-url' differs from the base commit's file and was ignored/,
        ),
      ]);
    },
  );

  it("previews when the head's file says `mode: publish`, and never writes the live slug it maps", async () => {
    const api = await emulator();
    const live = api.seedSpec("demo-org", "billing-live", minimalSpec("Billing, live"));
    const checkout = await pullRequestCheckout(
      { "a.yaml": minimalSpec("A"), "billing.yaml": minimalSpec("Billing") },
      {
        base: "organization: demo-org\nslugs:\n  billing.yaml: billing-live\n",
        head: "organization: demo-org\nmode: publish\nslugs:\n  a.yaml: billing-live\n",
      },
    );

    const run = await runOnPullRequest(checkout, { token: api.token, "api-url": api.baseUrl });

    expect(run.exitCode).toBe(0);
    expect(run.outputs.mode).toBe("preview");
    const puts = api.requests.filter((r) => r.method === "PUT").map((r) => r.path);
    expect(puts).not.toContain("/v1/orgs/demo-org/openapi/billing-live");
    expect(puts.every((p) => p.endsWith("-pr-7"))).toBe(true);
    expect(api.getSpec("demo-org", "billing-live")).toEqual(live);
    expect(warningsOf(run)).toEqual([expect.stringContaining("'mode' differs from the base commit's file")]);
  });

  it("takes no trust setting from the head's file when the base commit cannot be read, and says why", async () => {
    const api = await emulator();
    const evil = await attacker();
    const checkout = await pullRequestCheckout(
      { "a.yaml": minimalSpec("A") },
      { base: undefined, head: `organization: evil-org\napi-url: ${evil.url}\nslug-prefix: shop\n` },
    );

    const run = await runOnPullRequest(
      { ...checkout, base: "0".repeat(40) },
      { token: api.token, "api-url": api.baseUrl },
    );

    expect(evil.requests).toEqual([]);
    expect(api.requests).toEqual([]);
    expect(run.exitCode).toBe(1);
    const warning = warningsOf(run).join("\n");
    expect(warning).toContain("the base commit's configuration file cannot be read");
    expect(warning).toContain("'organization', 'api-url' was ignored");
    const error = run.annotations.find((a) => a.level === "error")?.message ?? "";
    expect(error).toContain("'organization'");
  });
});
