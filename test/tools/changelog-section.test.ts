/**
 * scripts/changelog-section.ts: the release notes of a version are CHANGELOG.md's section for it, and a
 * tag without one fails before anything is published.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { changelogSection, changelogSections, main } from "../../scripts/changelog-section.ts";

const ROOT = path.join(import.meta.dirname, "..", "..");
const SCRIPT = path.join(ROOT, "scripts", "changelog-section.ts");

const CHANGELOG = `# Changelog

Intro text, with a [link](https://example.com).

## [Unreleased]

### Fixed
- Something not yet released.

## [1.1.0] - 2026-12-01

### Added
- A feature.

\`\`\`md
## [9.9.9]
not a heading: inside a code block
\`\`\`

## [1.0.0]

The first release.

## [0.9.0] - 2026-13-45

- A bad date.

## [0.8.0]

[1.1.0]: https://github.com/gitbook-openapi/gitbook-openapi/compare/v1.0.0...v1.1.0
[1.0.0]: https://github.com/gitbook-openapi/gitbook-openapi/releases/tag/v1.0.0
`;

describe("changelogSection", () => {
  it("returns a version's text without its heading, up to the next section", () => {
    expect(changelogSection(CHANGELOG, "1.1.0")).toEqual({
      name: "1.1.0",
      date: "2026-12-01",
      body: "### Added\n- A feature.\n\n```md\n## [9.9.9]\nnot a heading: inside a code block\n```",
    });
    expect(changelogSection(CHANGELOG, "1.0.0")).toEqual({ name: "1.0.0", body: "The first release." });
  });

  it("takes the tag's form too (v1.0.0)", () => {
    expect(changelogSection(CHANGELOG, "v1.0.0").body).toBe("The first release.");
  });

  it("does not take a heading inside fenced code, nor the link definitions at the end", () => {
    expect(changelogSections(CHANGELOG).map((section) => section.name)).toEqual([
      "Unreleased",
      "1.1.0",
      "1.0.0",
      "0.9.0",
      "0.8.0",
    ]);
    expect(() => changelogSection(CHANGELOG, "9.9.9")).toThrow('no section "## [9.9.9]"');
  });

  it("refuses a version without a section, and says where its text comes from", () => {
    expect(() => changelogSection(CHANGELOG, "1.2.0")).toThrow(
      'CHANGELOG.md has no section "## [1.2.0]": move what is under "## [Unreleased]" into it.',
    );
  });

  it("gives a pre-release without a section of its own the Unreleased section", () => {
    expect(changelogSection(CHANGELOG, "1.2.0-rc.1")).toEqual({
      name: "Unreleased",
      body: "### Fixed\n- Something not yet released.",
    });
    const own = `${CHANGELOG}\n## [1.2.0-rc.1]\n\nIts own notes.\n`;
    expect(changelogSection(own, "1.2.0-rc.1").body).toBe("Its own notes.");
  });

  it("refuses an empty section (the link definitions are not its text)", () => {
    expect(() => changelogSection(CHANGELOG, "0.8.0")).toThrow('section "## [0.8.0]" is empty');
    expect(() => changelogSection("## [Unreleased]\n\n## [1.0.0]\n", "1.0.1-rc.1")).toThrow(
      'section "## [Unreleased]" is empty',
    );
  });

  it("refuses a date that is not a YYYY-MM-DD date", () => {
    expect(() => changelogSection(CHANGELOG, "0.9.0")).toThrow(
      'has "2026-13-45" where a YYYY-MM-DD date goes',
    );
  });

  it("refuses what is not a version", () => {
    expect(() => changelogSection(CHANGELOG, "Unreleased")).toThrow("is not a version");
    expect(() => changelogSection(CHANGELOG, "1.0")).toThrow("is not a version");
  });
});

describe("node scripts/changelog-section.ts", () => {
  const folders: string[] = [];
  afterEach(() => {
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  it("prints the section and exits 0, or one line on stderr and exits 1", async () => {
    const folder = mkdtempSync(path.join(tmpdir(), "changelog-section-"));
    folders.push(folder);
    const file = path.join(folder, "CHANGELOG.md");
    writeFileSync(file, CHANGELOG);
    const run = promisify(execFile);
    const printed = await run(process.execPath, [SCRIPT, "1.1.0", file], { encoding: "utf8" });
    expect(printed.stdout).toBe(`${changelogSection(CHANGELOG, "1.1.0").body}\n`);
    const failed = await run(process.execPath, [SCRIPT, "2.0.0", file], { encoding: "utf8" }).then(
      () => undefined,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failed).toMatchObject({ code: 1, stdout: "" });
    expect(failed?.stderr.trim().split("\n")).toEqual([
      'CHANGELOG.md has no section "## [2.0.0]": move what is under "## [Unreleased]" into it.',
    ]);
  });

  it("asks for a version when given none", () => {
    const errors: string[] = [];
    expect(
      main(
        [],
        () => {},
        (line) => errors.push(line),
      ),
    ).toBe(2);
    expect(errors).toEqual(["Usage: node scripts/changelog-section.ts <version> [CHANGELOG.md]"]);
  });
});

describe("the project's CHANGELOG.md", () => {
  const text = readFileSync(path.join(ROOT, "CHANGELOG.md"), "utf8");
  const version = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string })
    .version;

  it("has a section with notes for package.json's version, so that tagging it releases", () => {
    const section = changelogSection(text, version);
    expect(section.name).toBe(version);
    expect(section.body).toMatch(/^### (Added|Changed|Fixed|Removed|Deprecated|Security)$/m);
  });

  it("keeps an Unreleased section, first", () => {
    expect(changelogSections(text)[0]?.name).toBe("Unreleased");
  });
});
