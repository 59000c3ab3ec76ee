/**
 * Every install line of the manual (README.md and every page under docs/) is true for the release that
 * package.json describes: the npm package's name and major version, the Action's repository and major
 * tag (which .github/workflows/release.yml moves), and action.yml's metadata, all agree.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

const ROOT = path.join(import.meta.dirname, "..", "..");
const PACKAGE = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  name: string;
  version: string;
  bin: Record<string, string>;
  files: string[];
  repository: { url: string };
  private?: boolean;
};
const MAJOR = Number(PACKAGE.version.split(".")[0]);
/** `owner/name` of the repository package.json names. */
const REPOSITORY = /github\.com[/:]([^/]+\/[^/.]+?)(?:\.git)?$/.exec(PACKAGE.repository.url)?.[1] ?? "";

/** README.md and every Markdown file under docs/, relative to the repository root. */
function manualPages(): string[] {
  const pages = ["README.md"];
  const walk = (folder: string) => {
    for (const entry of readdirSync(path.join(ROOT, folder), { withFileTypes: true })) {
      const relative = `${folder}/${entry.name}`;
      if (entry.isDirectory()) walk(relative);
      else if (entry.name.endsWith(".md")) pages.push(relative);
    }
  };
  walk("docs");
  return pages.sort();
}

interface Mention {
  page: string;
  line: number;
  text: string;
  /** What follows the `@`. */
  ref: string;
}

/** Every match of `pattern` (with a `ref` group) in the manual, with its page and line. */
function mentions(pattern: RegExp, pages = manualPages()): Mention[] {
  const found: Mention[] = [];
  for (const page of pages) {
    const lines = readFileSync(path.join(ROOT, page), "utf8").split("\n");
    for (const [index, line] of lines.entries()) {
      for (const match of line.matchAll(pattern)) {
        found.push({ page, line: index + 1, text: match[0], ref: match.groups?.ref ?? "" });
      }
    }
  }
  return found;
}

/** The npm package pinned by version: `gitbook-openapi@1`, not the Action's `…/gitbook-openapi@v1`. */
const NPM_PIN = new RegExp(`(?<![\\w./-])${PACKAGE.name}@(?<ref>[^\\s\`'")\\]]+)`, "g");
/** The Action, with the repository it is read from: `uses: owner/gitbook-openapi@v1`. */
const ACTION_USES = /uses:\s*["']?(?<repo>[\w.-]+\/[\w.-]+)@(?<ref>[^\s"'#]+)/g;

describe("the install lines of README.md and docs/", () => {
  it("the package is public, named after its command, in the repository the Action is", () => {
    expect(PACKAGE.private).toBeUndefined();
    expect(Object.keys(PACKAGE.bin)).toEqual([PACKAGE.name]);
    expect(REPOSITORY).toBe(`${PACKAGE.name}/${PACKAGE.name}`);
    expect(Number.isInteger(MAJOR) && MAJOR >= 1).toBe(true);
  });

  it("say how to install and run the command: npm install -g, npx, and the pinned major", () => {
    const text = manualPages()
      .map((page) => readFileSync(path.join(ROOT, page), "utf8"))
      .join("\n");
    expect(text).toContain(`npm install -g ${PACKAGE.name}`);
    expect(text).toContain(`npx ${PACKAGE.name}`);
    expect(text).toContain(`npm install -g ${PACKAGE.name}@${MAJOR}`);
    expect(text).toContain(`uses: ${REPOSITORY}@v${MAJOR}`);
  });

  it(`pin the npm package to package.json's major version (${MAJOR}) everywhere`, () => {
    const pins = mentions(NPM_PIN);
    expect(pins.length).toBeGreaterThan(0);
    const wrong = pins.filter(({ ref }) => !new RegExp(`^[~^]?${MAJOR}(\\.[\\dx*]+){0,2}$`).test(ref));
    expect(wrong.map(({ page, line, text }) => `${page}:${line}: ${text}`)).toEqual([]);
  });

  it("use the Action from this repository, at its major tag, everywhere", () => {
    const uses = mentions(ACTION_USES).filter(({ text }) => text.includes(`/${PACKAGE.name}@`));
    expect(uses.length).toBeGreaterThan(0);
    const wrong = uses.filter(
      ({ text, ref }) =>
        !text.includes(` ${REPOSITORY}@`) || !new RegExp(`^v${MAJOR}(\\.\\d+){0,2}$`).test(ref),
    );
    expect(wrong.map(({ page, line, text }) => `${page}:${line}: ${text}`)).toEqual([]);
    const bare = mentions(/`@(?<ref>v\d[^`]*)`/g).filter(({ ref }) => ref !== `v${MAJOR}`);
    expect(bare.map(({ page, line, text }) => `${page}:${line}: ${text}`)).toEqual([]);
  });

  it("name the tag the release workflow moves: v + the major of the tag it runs on", () => {
    const workflow = readFileSync(path.join(ROOT, ".github/workflows/release.yml"), "utf8");
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion of the workflow
    expect(workflow).toContain('major="${TAG%%.*}"');
    expect(workflow).toContain('if [ "v$version" != "$TAG" ]; then');
    expect(`v${PACKAGE.version}`.split(".")[0]).toBe(`v${MAJOR}`);
  });
});

describe("action.yml", () => {
  const action = parse(readFileSync(path.join(ROOT, "action.yml"), "utf8")) as {
    name?: string;
    description?: string;
    branding?: { icon?: string; color?: string };
    runs?: { using?: string; main?: string };
  };

  it("has what the Marketplace lists: a name, a description and branding", () => {
    expect(action.name?.trim()).toBeTruthy();
    expect(action.description?.trim()).toBeTruthy();
    expect(action.branding?.icon).toBeTruthy();
    expect(action.branding?.color).toBeTruthy();
  });

  it("runs the build the npm package ships, on the Node.js the README names", () => {
    expect(action.runs?.using).toBe("node24");
    expect(action.runs?.main).toBe("dist/index.js");
    expect(PACKAGE.files).toContain("dist/");
    expect(
      manualPages().some((page) => readFileSync(path.join(ROOT, page), "utf8").includes("`node24`")),
    ).toBe(true);
  });
});
