/**
 * `gitbook-openapi sync --prune` from any CI: the repository's identity comes from the CI's variables or
 * the checkout's `origin` remote (credentials left out), and without one nothing is pruned (issue 16).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../harness/emulator/index.ts";
import { git } from "../support/git.ts";
import { slugsUnder } from "../support/slugs-under.ts";
import { type CliRun, runCli } from "./run-cli.ts";

const TOKEN = "tok-9f3a7c1e5b2d";
const ORG = "demo-org";
const spec = (title: string) => `openapi: 3.1.0\ninfo:\n  title: ${title}\n  version: 1.0.0\npaths: {}\n`;

let emulator: RunningEmulator;
let workspace: string;

beforeAll(async () => {
  emulator = await startEmulator({ token: TOKEN, processing: { pendingMs: 5, progressMs: 5 } });
});
afterAll(async () => {
  await emulator?.close();
});
beforeEach(async () => {
  workspace = await mkdtemp(path.join(tmpdir(), "gitbook-cli-prune-"));
  await writeFile(path.join(workspace, "pets.yaml"), spec("Pets"));
  await writeFile(path.join(workspace, "stores.yaml"), spec("Stores"));
});
afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

/** Pruning deletes on the word of a commit the run descends from: the workspace's files, committed. */
function commitAll(): void {
  git(workspace, "add", "-A");
  git(workspace, "commit", "-q", "-m", "specs");
}

function sync(prefix: string, env: Record<string, string> = {}): Promise<CliRun> {
  return runCli(["sync", "--workspace", workspace, "--slug-prefix", prefix, "--prune", "--json"], {
    env: { GITBOOK_TOKEN: TOKEN, GITBOOK_API_URL: emulator.baseUrl, GITBOOK_ORGANIZATION: ORG, ...env },
  });
}

const slugs = (prefix: string) => slugsUnder(emulator, ORG, prefix);

describe("gitbook-openapi sync --prune", () => {
  it("knows the repository by its origin remote, whose credentials never show", async () => {
    git(workspace, "init", "-q");
    git(
      workspace,
      "remote",
      "add",
      "origin",
      "https://ci-bot:remote-secret-4e1f@github.com/acme/widgets.git",
    );
    commitAll();
    expect((await sync("cli-a")).code).toBe(0);
    await rm(path.join(workspace, "stores.yaml"));

    const second = await sync("cli-a");
    expect(second.code).toBe(0);
    // Rows in path order: the pruned spec has no file any more.
    expect(
      JSON.parse(second.stdout).map((r: { slug: string; status: string }) => [r.slug, r.status]),
    ).toEqual([
      ["cli-a-stores", "deleted"],
      ["cli-a-pets", "unchanged"],
    ]);
    expect(slugs("cli-a")).toEqual(["cli-a-pets"]);
    expect(`${second.stdout}${second.stderr}`).not.toContain("remote-secret");
  });

  it("takes Jenkins' GIT_URL, and another repository's GIT_URL proves nothing", async () => {
    const jenkins = { GIT_URL: "git@github.com:acme/widgets.git" };
    git(workspace, "init", "-q");
    commitAll();
    expect((await sync("cli-b", jenkins)).code).toBe(0);
    await rm(path.join(workspace, "stores.yaml"));

    const other = await sync("cli-b", { GIT_URL: "git@github.com:acme/other.git" });
    expect(other.code).toBe(0);
    expect(slugs("cli-b")).toEqual(["cli-b-pets", "cli-b-stores"]);
    expect(other.stderr).toContain(
      "cli-b-stores: another repository, or another slug-prefix of this one, published it",
    );

    expect((await sync("cli-b", jenkins)).code).toBe(0);
    expect(slugs("cli-b")).toEqual(["cli-b-pets"]);
  });

  it("deletes nothing, and fails saying how to fix it, when nothing names the repository", async () => {
    const first = await sync("cli-c");
    expect(first.code, first.stderr).toBe(0);
    await rm(path.join(workspace, "stores.yaml"));
    const second = await sync("cli-c");
    expect(second.code).toBe(1);
    expect(second.stderr).toContain("the repository's identity is unknown");
    expect(slugs("cli-c")).toEqual(["cli-c-pets", "cli-c-stores"]);
  });
});
