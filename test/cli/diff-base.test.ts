/**
 * `gitbook-openapi diff --base <ref>`: the pull request's review on a laptop. A real git repository
 * whose working tree, against its base commit, removes an operation of one spec, adds a spec, deletes
 * another and changes an internal-only operation of a spec published as two audiences: the report
 * says each as the review would (the public audience unchanged), in text and with `--json`;
 * `--fail-on-breaking` fails; an unknown ref is a usage error saying how to fetch it. In process
 * through `runCli`, then once as a shell runs it.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DiffBaseResult } from "../../src/hosts/cli/diff-base.ts";
import { git } from "../support/git.ts";
import { CLI_SOURCE, runCli } from "./run-cli.ts";

/** A spec titled `title` whose operations are `GET <path>` (with an `operationId` when given), in flow style. */
function spec(title: string, operations: [path: string, operationId?: string][], extra = ""): string {
  const paths = operations.map(
    ([route, id]) =>
      `  ${route}:\n    get: {${id ? ` operationId: ${id},` : ""} responses: {"200": {description: ok}}}\n`,
  );
  return `openapi: 3.0.3\ninfo: {title: ${title}, version: "1"}\npaths:\n${paths.join("")}${extra}`;
}

const PETS = spec("Pets", [
  ["/pets", "listPets"],
  ["/owners", "listOwners"],
]);
const OLD = spec("Old", [["/old"]]);
const NEW = spec("New", [["/new"]]);

/** Published twice: `public` without what is marked internal, `internal` whole. */
const SHOP = spec(
  "Shop",
  [["/orders", "listOrders"]],
  `  /admin/audit:
    get: {operationId: audit, x-internal: true, responses: {"200": {description: ok}}}
    delete: {operationId: clearAudit, x-internal: true, responses: {"204": {description: cleared}}}
`,
);

const CONFIG = `specs:
  api/shop.yaml:
    audiences:
      public: { slug: shop, remove-internal: true }
      internal: { slug: shop-internal }
`;

let tmp: string;
let repo: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), "gitbook-cli-diff-base-"));
  repo = path.join(tmp, "repo");
  await mkdir(path.join(repo, "api"), { recursive: true });
  git(repo, "init", "-q", "-b", "main");
  const files: Record<string, string> = {
    "api/pets.yaml": PETS,
    "api/old.yaml": OLD,
    "api/shop.yaml": SHOP,
    "gitbook-openapi.yaml": CONFIG,
  };
  for (const [file, text] of Object.entries(files)) await writeFile(path.join(repo, file), text);
  git(repo, "add", "-A");
  git(repo, "commit", "-q", "-m", "base");
  // The working tree, uncommitted, as a developer has it before pushing.
  await writeFile(path.join(repo, "api/pets.yaml"), PETS.replace(/ {2}\/owners:\n.*\n/, ""));
  await rm(path.join(repo, "api/old.yaml"));
  await writeFile(path.join(repo, "api/new.yaml"), NEW);
  await writeFile(
    path.join(repo, "api/shop.yaml"),
    SHOP.replace(/ {4}delete:.*\n/, ""), // the internal-only DELETE /admin/audit is gone
  );
});

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe("gitbook-openapi diff --base", () => {
  it("reports what the pull request's review would: removed operations, new and removed specs, per audience", async () => {
    const run = await runCli(["diff", "--base", "main"], { cwd: repo });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const text = run.stdout;
    expect(text).toMatch(/^API changes against main \([0-9a-f]{12}\):/);
    expect(text).toContain("api/new.yaml → api-new: new spec.");
    expect(text).toMatch(
      /api\/pets\.yaml → api-pets: 1 breaking[^\n]*\n {2}Breaking changes:\n {4}\/owners\n/,
    );
    expect(text).toContain("api/shop.yaml → shop: no API changes.");
    expect(text).toMatch(/api\/shop\.yaml → shop-internal: 1 breaking[\s\S]*DELETE \/admin\/audit/);
    expect(text).toMatch(/api\/old\.yaml: removed spec \(breaking\)\.\n$/);
  });

  it("prints every publication's review and the removed specs with --json", async () => {
    const run = await runCli(["diff", "--base", "main", "--json"], { cwd: repo });
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as DiffBaseResult;
    expect(result.base.ref).toBe("main");
    expect(result.base.commit).toBe(git(repo, "rev-parse", "main"));
    expect(result.removedSpecs).toEqual(["api/old.yaml"]);
    const bySlug = new Map(result.specs.map((spec) => [spec.slug, spec]));
    expect([...bySlug.keys()].sort()).toEqual(["api-new", "api-pets", "shop", "shop-internal"]);
    expect(bySlug.get("api-new")?.against).toBe("nothing");
    expect(bySlug.get("api-pets")?.breaking.map((change) => change.operation)).toEqual(["/owners"]);
    expect(bySlug.get("shop")).toMatchObject({ against: "base commit", breaking: [], other: [] });
    expect(bySlug.get("shop-internal")?.breaking.map((change) => change.operation)).toEqual([
      "DELETE /admin/audit",
    ]);
  });

  it("exits with 1 with --fail-on-breaking, naming each breaking change and the removed spec", async () => {
    const run = await runCli(["diff", "--base", "main", "--fail-on-breaking"], { cwd: repo });
    expect(run.code).toBe(1);
    expect(run.stderr.match(/breaking API changes/g)).toHaveLength(1);
    expect(run.stderr).toContain("3 breaking API changes");
    expect(run.stderr).toContain("- api/old.yaml: the spec was removed");
    expect(run.stderr).toContain("- api/shop.yaml → shop-internal: DELETE /admin/audit");
  });

  it("honours breaking-allowed: an accepted change is listed as allowed, not as breaking", async () => {
    const run = await runCli(["diff", "--base", "main", "--fail-on-breaking", "--json"], {
      cwd: repo,
      env: { GITBOOK_BREAKING_ALLOWED: "/owners\nclearAudit" },
    });
    const result = JSON.parse(run.stdout) as DiffBaseResult;
    const pets = result.specs.find((spec) => spec.slug === "api-pets");
    expect(pets?.breaking).toEqual([]);
    expect(pets?.allowed.map((change) => change.operation)).toEqual(["/owners"]);
    // The removed spec is still breaking: no allow-list entry names a whole file.
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("1 breaking API change ");
  });

  it("takes breaking-allowed from the base's configuration file, as the pull request does, saying so", async () => {
    const head = path.join(repo, "gitbook-openapi.yaml");
    await writeFile(head, `${CONFIG}breaking-allowed: [/owners]\n`);
    try {
      const run = await runCli(["diff", "--base", "main", "--json"], { cwd: repo });
      expect(run.code).toBe(0);
      expect(run.stderr).toContain(
        "warning: gitbook-openapi.yaml: 'breaking-allowed' differs from the base commit's file and was ignored",
      );
      const result = JSON.parse(run.stdout) as DiffBaseResult;
      const pets = result.specs.find((spec) => spec.slug === "api-pets");
      expect(pets?.breaking.map((change) => change.operation)).toEqual(["/owners"]);
    } finally {
      await writeFile(head, CONFIG);
    }
  });

  it("says how to fetch a ref the checkout does not have, with exit code 2", async () => {
    const run = await runCli(["diff", "--base", "origin/release-9"], { cwd: repo });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("--base: 'origin/release-9' is not a commit of the repository");
    expect(run.stderr).toContain("(git fetch origin release-9)");
  });

  it("refuses a workspace outside git, and a bad budget, with exit code 2", async () => {
    const outside = await runCli(["diff", "--base", "main"], { cwd: tmp });
    expect(outside.code).toBe(2);
    expect(outside.stderr).toContain(`--base: ${tmp} is not in a git repository`);
    const budget = await runCli(["diff", "--base", "main"], {
      cwd: repo,
      env: { GITBOOK_REVIEW_HEAP_MB: "lots" },
    });
    expect(budget.code).toBe(2);
    expect(budget.stderr).toContain("GITBOOK_REVIEW_HEAP_MB:");
  });

  it("refuses file arguments beside --base, and the --base flags without it", async () => {
    const both = await runCli(["diff", "--base", "main", "a.yaml", "b.yaml"], { cwd: repo });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("--base: compares the workspace with a ref");
    const alone = await runCli(["diff", "a.yaml", "b.yaml", "--config", "x.yaml"], { cwd: repo });
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain("--config: is for diff --base <ref> only.");
  });

  it("runs as a shell runs it, the comparisons in their workers", async () => {
    const run = await runCli(["diff", "--base", "HEAD", "--json", "--fail-on-breaking"], {
      cwd: repo,
      entry: CLI_SOURCE,
    });
    expect(run.code).toBe(1);
    const result = JSON.parse(run.stdout) as DiffBaseResult;
    expect(result.removedSpecs).toEqual(["api/old.yaml"]);
    expect(result.specs.find((spec) => spec.slug === "api-pets")?.breaking).toHaveLength(1);
  });
});
