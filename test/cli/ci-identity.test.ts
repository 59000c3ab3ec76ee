/**
 * Which repository a run publishes from, as each CI says it (issue 27, items 7 and 8): `gitbook-openapi sync`
 * with the argv and variables each CI sets, in the folder each CI checks out into, against the emulator
 * over loopback. The root spec is named after the repository, never after the folder (`s` on Azure
 * Pipelines, `project` on CircleCI, `build` on Bitbucket, `myrepo-pr-42` in a Jenkins multibranch
 * workspace), and the owner in each publish record is the same from every CI for the same repository.
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ownerKey } from "../../src/core/ownership/ownership.ts";
import { git } from "../support/git.ts";
import { emulatorEnv, ORG, useEmulator, useTempDirs } from "../support/use-emulator.ts";
import { type CliRun, runCli } from "./run-cli.ts";

const TOKEN = "tok-5e0a93c1d7f2";
const ROOT_SPEC = "openapi: 3.1.0\ninfo:\n  title: Widgets\n  version: 1.0.0\npaths: {}\n";

const emulator = useEmulator(TOKEN);
const tempDir = useTempDirs("gitbook-ci-identity-");

/** A checkout in a folder named as the CI names it, holding `openapi.yaml` at its root. */
async function checkout(folder: string, files: Record<string, string> = { "openapi.yaml": ROOT_SPEC }) {
  const parent = await tempDir();
  const dir = path.join(parent, folder);
  await mkdir(dir);
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
  return dir;
}

function sync(workspace: string, env: Record<string, string>, args: string[] = []): Promise<CliRun> {
  return runCli(["sync", "--workspace", workspace, "--json", ...args], {
    env: { ...emulatorEnv(emulator(), TOKEN), ...env },
    cwd: workspace,
  });
}

const rows = (run: CliRun) =>
  (JSON.parse(run.stdout) as { file: string; slug: string; status: string }[]).map((r) => [
    r.file,
    r.slug,
    r.status,
  ]);

/** The owner written in the publish record of a slug's last version. */
function recordedOwner(slug: string): string | undefined {
  const spec = emulator().getSpec(ORG, slug);
  const text = spec?.lastVersion && emulator().getVersionText(ORG, slug, spec.lastVersion);
  return text ? /"owner": ?"([0-9a-f]+)"/.exec(text)?.[1] : undefined;
}

/** The variables each CI sets for a build of github.com/acme/widgets, and the folder it checks out into. */
const GITHUB_REPOSITORY_ON = {
  "Azure Pipelines": {
    folder: "s",
    env: {
      TF_BUILD: "True",
      BUILD_REPOSITORY_URI: "https://github.com/acme/widgets",
      BUILD_REPOSITORY_NAME: "acme/widgets",
    },
  },
  CircleCI: {
    folder: "project",
    env: {
      CIRCLECI: "true",
      CIRCLE_REPOSITORY_URL: "git@github.com:acme/widgets.git",
      CIRCLE_PROJECT_REPONAME: "widgets",
    },
  },
  "Jenkins (multibranch, pull request 42)": {
    folder: "myrepo-pr-42",
    env: {
      JENKINS_URL: "https://ci.example.com/",
      GIT_URL: "https://github.com/acme/widgets.git",
      CHANGE_ID: "42",
    },
  },
} as const;

describe("the repository's identity from every CI", () => {
  it("names the root spec after the repository, with the same owner from every CI", async () => {
    const owner = ownerKey({ repository: "github.com/acme/widgets", slugPrefix: "multi" });
    const statuses: string[] = [];
    for (const [ci, { folder, env }] of Object.entries(GITHUB_REPOSITORY_ON)) {
      const run = await sync(await checkout(folder), env, ["--slug-prefix", "multi"]);
      expect(run.code, `${ci}: ${run.stderr}`).toBe(0);
      const [[file, slug, status]] = rows(run) as [[string, string, string]];
      expect([ci, file, slug]).toEqual([ci, "openapi.yaml", "multi-widgets"]);
      expect(run.stderr).not.toContain("checkout folder");
      statuses.push(status);
      expect(recordedOwner("multi-widgets"), ci).toBe(owner);
    }
    // Published once; every other CI found its own spec there, unchanged.
    expect(statuses).toEqual(["published", "unchanged", "unchanged"]);
  });

  it("on Bitbucket Pipelines takes BITBUCKET_GIT_HTTP_ORIGIN and BITBUCKET_REPO_SLUG", async () => {
    const run = await sync(await checkout("build"), {
      CI: "true",
      BITBUCKET_BUILD_NUMBER: "7",
      BITBUCKET_GIT_HTTP_ORIGIN: "http://bitbucket.org/acme/gadgets",
      BITBUCKET_REPO_SLUG: "gadgets",
    });
    expect(run.code, run.stderr).toBe(0);
    expect(rows(run)).toEqual([["openapi.yaml", "gadgets", "published"]]);
    expect(recordedOwner("gadgets")).toBe(
      ownerKey({ repository: "bitbucket.org/acme/gadgets", slugPrefix: undefined }),
    );
  });

  it("names it after the origin remote when no CI variable says", async () => {
    const dir = await checkout("workspace-of-origin");
    git(dir, "init", "-q");
    git(dir, "remote", "add", "origin", "git@github.com:acme/sprockets.git");
    const run = await sync(dir, { GITBOOK_DEBUG: "1" });
    expect(run.code, run.stderr).toBe(0);
    expect(rows(run)).toEqual([["openapi.yaml", "sprockets", "published"]]);
    expect(run.stderr).toContain(
      "Repository: github.com/acme/sprockets, named 'sprockets', from the origin remote.",
    );
    expect(run.stderr).not.toContain("checkout folder");
  });

  it("in a check without a token, asks the origin remote only when a spec at the root takes its name", async () => {
    const dir = await checkout("check-of-origin", {
      "openapi.yaml": ROOT_SPEC,
      "api/payments.yaml": ROOT_SPEC,
    });
    git(dir, "init", "-q");
    git(dir, "remote", "add", "origin", "git@github.com:acme/sprockets.git");
    const check = (workspace: string) =>
      runCli(["sync", "--workspace", workspace, "--mode", "check", "--json"], {
        env: { GITBOOK_DEBUG: "1" },
        cwd: workspace,
      });
    const atRoot = await check(dir);
    expect(atRoot.code, atRoot.stderr).toBe(0);
    expect(rows(atRoot)).toEqual([
      ["api/payments.yaml", "api-payments", "planned"],
      ["openapi.yaml", "sprockets", "planned"],
    ]);
    expect(atRoot.stderr).toContain("from the origin remote.");
    // No spec takes the repository's name, and no token writes it into a record: git is not asked.
    await rm(path.join(dir, "openapi.yaml"));
    const inFolders = await check(dir);
    expect(inFolders.code, inFolders.stderr).toBe(0);
    expect(rows(inFolders)).toEqual([["api/payments.yaml", "api-payments", "planned"]]);
    expect(inFolders.stderr).toContain("from the checkout folder's name.");
    expect(inFolders.stderr).not.toContain("sprockets");
  });

  it("falls back to the folder's name only when nothing names the repository, and says so once", async () => {
    const run = await sync(await checkout("loose-folder"), {});
    expect(run.code, run.stderr).toBe(0);
    expect(rows(run)).toEqual([["openapi.yaml", "loose-folder", "published"]]);
    expect(run.stderr.match(/named after the checkout folder, 'loose-folder'/g)).toHaveLength(1);
  });
});

describe("a clone without any identity", () => {
  it("warns once when publishing, and a later --prune run prints no row without a file and a slug", async () => {
    const dir = await checkout("no-origin", {
      "pets.yaml": ROOT_SPEC.replace("Widgets", "Pets"),
      "stores.yaml": ROOT_SPEC.replace("Widgets", "Stores"),
    });
    const first = await sync(dir, {}, ["--slug-prefix", "lone", "--prune"]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr.match(/will not be able to prove these specs are this repository's/g)).toHaveLength(
      1,
    );

    await rm(path.join(dir, "stores.yaml"));
    const second = await sync(dir, {}, ["--slug-prefix", "lone", "--prune"]);
    // Nothing proves the stale spec is ours: the run fails, and says why once, as the run's own message.
    expect(second.code).toBe(1);
    expect(rows(second)).toEqual([["pets.yaml", "lone-pets", "unchanged"]]);
    expect(second.stderr).not.toMatch(/\(recorded\) →\s*$/m);
    expect(second.stderr).not.toContain("did not publish");
    expect(second.stderr).toMatch(/^Nothing was pruned: the repository's identity is unknown/m);
    expect(emulator().getSpec(ORG, "lone-stores")).toBeDefined();
  });
});
