/**
 * .github/workflows/release.yml, read as GitHub runs it: a pushed tag `vX.Y.Z` checks everything, then
 * publishes to npm through trusted publishing (OIDC, no stored npm token) with provenance, creates the
 * GitHub Release from CHANGELOG.md's section (scripts/changelog-section.ts), and moves the major tag.
 * What a maintainer does around it is docs/releasing.md.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

const ROOT = path.join(import.meta.dirname, "..", "..");
const FILE = ".github/workflows/release.yml";
const TEXT = readFileSync(path.join(ROOT, FILE), "utf8");
const PACKAGE = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  name: string;
  version: string;
  repository: { url: string };
};

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}
interface Job {
  permissions?: Record<string, string>;
  env?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  on: { push?: { tags?: string[]; branches?: string[] } } & Record<string, unknown>;
  permissions?: Record<string, string>;
  jobs: Record<string, Job>;
}

const WORKFLOW = parse(TEXT) as Workflow;
const JOBS = Object.values(WORKFLOW.jobs);
/** The job that publishes: the one whose steps run `npm publish`. */
const RELEASE = JOBS.find((job) => job.steps.some((step) => /\bnpm publish\b/.test(step.run ?? "")));
const STEPS = RELEASE?.steps ?? [];

/** The index of the first step whose `run` matches, -1 when none does. */
function stepRunning(pattern: RegExp): number {
  return STEPS.findIndex((step) => pattern.test(step.run ?? ""));
}

/** The lines of every `run:` of the job, with the step's index. */
function runLines(): { step: number; line: string }[] {
  return STEPS.flatMap((step, index) =>
    (step.run ?? "").split("\n").map((line) => ({ step: index, line: line.trim() })),
  );
}

/** A GitHub filter pattern (`*` any characters but `/`) as a regular expression. */
function filterPattern(glob: string): RegExp {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*");
  return new RegExp(`^${escaped}$`);
}

describe(`${FILE}`, () => {
  it("runs on a pushed version tag, and on nothing else", () => {
    expect(Object.keys(WORKFLOW.on)).toEqual(["push"]);
    expect(WORKFLOW.on.push?.branches).toBeUndefined();
    const tags = WORKFLOW.on.push?.tags ?? [];
    expect(tags).toEqual(["v*.*.*"]);
    expect(tags.some((tag) => filterPattern(tag).test(`v${PACKAGE.version}`))).toBe(true);
    expect(tags.some((tag) => filterPattern(tag).test("v1"))).toBe(false);
  });

  it("has one job that publishes, with the OIDC permission trusted publishing needs", () => {
    expect(RELEASE).toBeDefined();
    expect(WORKFLOW.permissions).toEqual({ contents: "read" });
    expect(RELEASE?.permissions).toEqual({ contents: "write", "id-token": "write" });
  });

  it("uses no stored npm token: no secret at all, no NPM_TOKEN, NODE_AUTH_TOKEN or _authToken", () => {
    expect(TEXT).not.toMatch(/NPM_TOKEN|NODE_AUTH_TOKEN|_authToken/);
    expect(TEXT).not.toMatch(/\bsecrets\./);
  });

  it("lets npm reach OIDC: setup-node writes no token line (no registry-url)", () => {
    const setups = STEPS.filter((step) => step.uses?.startsWith("actions/setup-node@"));
    expect(setups.length).toBeGreaterThan(0);
    for (const setup of setups) expect(setup.with?.["registry-url"]).toBeUndefined();
  });

  it("publishes with provenance, public, and only after npm 11.5.1 or later is there", () => {
    const publishes = runLines().filter(({ line }) => /\bnpm publish\b/.test(line));
    expect(publishes.length).toBeGreaterThan(0);
    for (const { line } of publishes) expect(line).toMatch(/npm publish --provenance --access public\b/);
    const npmCheck = stepRunning(/npm install -g npm@11\b/);
    expect(npmCheck).toBeGreaterThanOrEqual(0);
    expect(STEPS[npmCheck]?.run).toContain("minor === 5 && patch >= 1");
    expect(npmCheck).toBeLessThan(stepRunning(/\bnpm publish\b/));
  });

  it("checks that the tag is v + package.json's version, on main, before anything else runs", () => {
    const check = stepRunning(/require\("\.\/package\.json"\)\.version/);
    expect(check).toBeGreaterThanOrEqual(0);
    const run = STEPS[check]?.run ?? "";
    expect(run).toContain('if [ "v$version" != "$TAG" ]; then');
    expect(run).toContain('git merge-base --is-ancestor "$GITHUB_SHA" origin/main');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a workflow expression
    expect(RELEASE?.env?.TAG).toBe("${{ github.ref_name }}");
    for (const later of [/changelog-section/, /\.ci\/run/, /\bnpm publish\b/, /gh release/, /git push/])
      expect(check).toBeLessThan(stepRunning(later));
    const checkout = STEPS.find((step) => step.uses?.startsWith("actions/checkout@"));
    expect(checkout?.with?.["fetch-depth"]).toBe(0);
  });

  it("takes the release notes from CHANGELOG.md's section before it checks and publishes", () => {
    const notes = stepRunning(/scripts\/changelog-section\.ts/);
    expect(notes).toBeGreaterThanOrEqual(0);
    const written = /node scripts\/changelog-section\.ts "\$VERSION" > "([^"]+)"/.exec(
      STEPS[notes]?.run ?? "",
    );
    expect(written?.[1]).toBeDefined();
    expect(notes).toBeLessThan(stepRunning(/\.ci\/run/));
    expect(notes).toBeLessThan(stepRunning(/\bnpm publish\b/));

    const release = stepRunning(/gh release create/);
    expect(release).toBeGreaterThan(stepRunning(/\bnpm publish\b/));
    const run = STEPS[release]?.run ?? "";
    expect(run).toMatch(
      new RegExp(
        `gh release create "\\$TAG" --verify-tag .*--notes-file "${escapeRegExp(written?.[1] ?? "?")}"`,
      ),
    );
    expect(run).toContain(`gh release edit "$TAG" --notes-file "${written?.[1]}"`);
    expect(run).toMatch(/\*-\*\) kind=--prerelease/);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a workflow expression
    expect(STEPS[release]?.env?.GH_TOKEN).toBe("${{ github.token }}");
  });

  it("runs the whole check (.ci/run: tests, lint, types, workflows, dist/ equal to a fresh build) first", () => {
    const check = stepRunning(/^bash \.ci\/run\b/m);
    expect(check).toBeGreaterThanOrEqual(0);
    expect(check).toBeLessThan(stepRunning(/\bnpm publish\b/));
    const ci = readFileSync(path.join(ROOT, ".ci", "run"), "utf8");
    expect(ci).toContain("npm run build");
    expect(ci).toContain("git diff --exit-code --stat -- dist");
  });

  it("moves the major tag to the released commit, last, and not for a pre-release", () => {
    const move = stepRunning(/git push -f origin "refs\/tags\/\$major"/);
    expect(move).toBe(STEPS.length - 1);
    expect(move).toBeGreaterThan(stepRunning(/gh release create/));
    const step = STEPS[move];
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a workflow expression
    expect(step?.if).toBe("${{ !contains(github.ref_name, '-') }}");
    expect(step?.run).toContain('git tag -f "$major" "$GITHUB_SHA"');
    // The shell line that names the major tag, run on the tag of package.json's version.
    const line = (step?.run ?? "").split("\n").find((text) => /^\s*major=/.test(text));
    expect(line).toBeDefined();
    const major = execFileSync("bash", ["-c", `${line}; printf %s "$major"`], {
      env: { TAG: `v${PACKAGE.version}`, PATH: process.env.PATH ?? "" },
      encoding: "utf8",
    });
    expect(major).toBe(`v${PACKAGE.version.split(".")[0]}`);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

describe("docs/releasing.md", () => {
  const text = readFileSync(path.join(ROOT, "docs", "releasing.md"), "utf8");

  it("gives npm's trusted publisher this repository and this workflow's file name", () => {
    expect(text).toContain(`Workflow filename: \`${path.basename(FILE)}\``);
    const [, owner, name] = /github\.com[/:]([^/]+)\/([^/.]+)/.exec(PACKAGE.repository.url) ?? [];
    expect(owner).toBeDefined();
    expect(text).toContain(`Organization or user: \`${owner}\``);
    expect(text).toContain(`Repository: \`${name}\``);
    expect(TEXT).toContain(`keep its name \`${path.basename(FILE)}\``);
  });

  it("asks for no npm token", () => {
    expect(text).not.toMatch(/NPM_TOKEN|NODE_AUTH_TOKEN|npm token create/);
  });
});
