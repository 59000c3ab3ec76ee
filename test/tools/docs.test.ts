/**
 * The manual (issue 30): the README is a front page of at most 350 lines with a table of contents that
 * links every user guide; no page of README.md, docs/ or bench/README.md has a dead link; the
 * generated pages equal what their scripts write; troubleshooting names every error and exit code.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  CLI_MARKERS,
  CLI_REFERENCE_PAGE,
  commandPaths,
  helpOf,
  reference,
} from "../../scripts/cli-reference.ts";
import { anchors, deadLinks, manualPages, REPOSITORY_URL } from "../../scripts/doc-links.ts";
import { KNOWN_PROCESS_ERROR_CODES } from "../../src/core/service/types.ts";
import { ExitCode } from "../../src/hosts/cli/exit-codes.ts";

const ROOT = join(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(join(ROOT, file), "utf8");

/** The user guides the README must link, one topic a page. */
const GUIDES = [
  "docs/configuration.md",
  "docs/publishing.md",
  "docs/pull-requests.md",
  "docs/github-actions.md",
  "docs/gitlab.md",
  "docs/other-ci.md",
  "docs/cli.md",
  "docs/validation.md",
  "docs/overlays-and-audiences.md",
  "docs/security.md",
  "docs/troubleshooting.md",
];

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function repository(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "doc-links-"));
  made.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe("the README is a front page", () => {
  const readme = read("README.md");

  it("is at most 350 lines", () => {
    expect(readme.split("\n").length).toBeLessThanOrEqual(350);
  });

  it("has a table of contents linking each of its sections", () => {
    const contents = readme.slice(readme.indexOf("## Contents"));
    expect(readme).toContain("## Contents");
    const sections = [...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1]).filter((h) => h !== "Contents");
    expect(sections.length).toBeGreaterThanOrEqual(5);
    const own = anchors(readme);
    for (const section of sections) {
      const anchor = [...own].find(
        (a) =>
          a ===
          section
            ?.toLowerCase()
            .replace(/[^\p{L}\p{N}\- _]/gu, "")
            .replaceAll(" ", "-"),
      );
      expect(anchor, section).toBeDefined();
      expect(contents, section).toContain(`](#${anchor})`);
    }
  });

  it("keeps the two-command try that CI runs", () => {
    expect(readme).toContain("npm ci && npm run demo");
    expect(readme).toContain("npm ci && npm test");
  });

  it("links every user guide with an absolute link, since npm shows it outside the repository", () => {
    for (const guide of GUIDES) expect(readme).toContain(`](${REPOSITORY_URL}/blob/main/${guide})`);
    expect(readme).not.toMatch(/\]\((?!https?:|#)[^)]+\)/);
  });
});

describe("links", () => {
  it("no page of the manual has a dead link", () => {
    const pages = manualPages(ROOT);
    expect(pages).toEqual(expect.arrayContaining(["README.md", "bench/README.md", ...GUIDES]));
    expect(deadLinks(ROOT)).toEqual([]);
  });

  it("finds a dead relative link, a missing heading and a dead link to this repository's files", () => {
    const root = repository({
      "README.md": `# Front\n\n## Here\n\n[ok](#here) [guide](${REPOSITORY_URL}/blob/main/docs/guide.md) [gone](${REPOSITORY_URL}/blob/main/docs/gone.md)\n`,
      "docs/guide.md":
        "# Guide\n\n[ok](../README.md#here) [dead](missing.md) [no heading](../README.md#there)\n\n```md\n[in code](nowhere.md)\n```\n",
      "bench/README.md": "# Bench\n\n[design](../docs/design/x.md)\n",
    });
    expect(deadLinks(root).map((d) => `${d.page}:${d.line} ${d.target}`)).toEqual([
      `README.md:5 ${REPOSITORY_URL}/blob/main/docs/gone.md`,
      "bench/README.md:3 ../docs/design/x.md",
      "docs/guide.md:3 missing.md",
      "docs/guide.md:3 ../README.md#there",
    ]);
  });
});

describe("generated pages", () => {
  it("the CLI reference is every command's --help (npx node scripts/cli-reference.ts --write)", async () => {
    const page = read(CLI_REFERENCE_PAGE);
    const from = page.indexOf(CLI_MARKERS.START);
    const to = page.indexOf(CLI_MARKERS.END);
    expect(from).toBeGreaterThanOrEqual(0);
    expect(page.slice(from + CLI_MARKERS.START.length, to).trim()).toBe(await reference());
    const paths = (await commandPaths()).map((p) => p.join(" "));
    expect(paths).toEqual(
      expect.arrayContaining(["sync", "diff", "bundle", "validate", "specs list", "versions content"]),
    );
    const flags = new Set((await helpOf(["sync"])).match(/--[a-z][a-z-]+/g));
    expect(flags.size).toBeGreaterThan(20);
    for (const flag of flags) expect(page).toContain(flag);
  });
});

describe("troubleshooting", () => {
  const page = read("docs/troubleshooting.md");

  /** Every error code a result can carry, read from the sources. */
  function errorCodes(): string[] {
    const codes = new Set<string>(KNOWN_PROCESS_ERROR_CODES);
    const walk = (dir: string): void => {
      for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
        const path = `${dir}/${entry.name}`;
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith(".ts")) {
          const text = read(path);
          for (const m of text.matchAll(/(?:errorCode|code)(?: =|:) "([A-Z][A-Z_]+)"/g))
            codes.add(m[1] ?? "");
          for (const m of text.matchAll(/\bcode: "([A-Z_]+)"(?: \| "([A-Z_]+)")+/g)) codes.add(m[1] ?? "");
          for (const m of text.matchAll(/errorCode = [^;]*/g))
            for (const c of m[0].matchAll(/"([A-Z][A-Z_]+)"/g)) codes.add(c[1] ?? "");
        }
      }
    };
    walk("src/core");
    // Node's own errno codes (ENOENT, EISDIR, …) are read by the sources, never given as a result's code.
    return [...codes].filter((code) => code !== "" && (code === "ERROR" || !/^E[A-Z]+$/.test(code))).sort();
  }

  it("explains every error code the sources give", () => {
    const codes = errorCodes();
    expect(codes).toEqual(
      expect.arrayContaining(["BUNDLE_ERROR", "PRUNE_LIMIT", "OUT_OF_MEMORY", "PARSE_ERROR"]),
    );
    for (const code of codes) expect(page, code).toMatch(new RegExp(`^\\| \`${code}\` \\|`, "m"));
    expect(page).toContain("`HTTP_<status>`");
  });

  it("explains every exit code", () => {
    for (const code of new Set(Object.values(ExitCode)))
      expect(page, String(code)).toMatch(new RegExp(`^\\| ${code} \\|`, "m"));
  });
});
