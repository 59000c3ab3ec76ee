/**
 * Prints CHANGELOG.md's section for a version: the text under `## [X.Y.Z]` (optionally
 * `## [X.Y.Z] - YYYY-MM-DD`) up to the next `## ` heading, without the heading. The release workflow
 * (.github/workflows/release.yml) writes it to a file and gives it to `gh release create --notes-file`,
 * before anything is published, so that a tag whose version has no section, or an empty one, fails first.
 *
 *   node scripts/changelog-section.ts <version> [changelog file, default CHANGELOG.md]
 *
 * A pre-release (`1.2.0-rc.1`) without a section of its own takes the `Unreleased` section. Exits 1 with
 * one line on stderr when there is no such section, when it is empty, or when its date is not a date.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

export interface ChangelogSection {
  /** The name in the heading's brackets: the version, or `Unreleased` for a pre-release's fallback. */
  name: string;
  /** `YYYY-MM-DD` when the heading has one. */
  date?: string;
  /** The section's text, trimmed, without its heading. */
  body: string;
}

const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
const HEADING = /^## \[([^\]]+)\](?:\s+-\s+(\S+))?\s*$/;

/** Every `## [name]` section of a changelog, in order. Fenced code is not searched for headings. */
export function changelogSections(text: string): ChangelogSection[] {
  const sections: ChangelogSection[] = [];
  let current: { name: string; date?: string; lines: string[] } | undefined;
  let fence: string | undefined;
  const close = () => {
    if (!current) return;
    const section: ChangelogSection = { name: current.name, body: current.lines.join("\n").trim() };
    if (current.date !== undefined) section.date = current.date;
    sections.push(section);
    current = undefined;
  };
  for (const line of text.split(/\r?\n/)) {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === undefined || marker.startsWith(fence))) fence = fence ? undefined : marker;
    if (fence === undefined && /^## /.test(line)) {
      close();
      const heading = HEADING.exec(line);
      if (heading?.[1]) {
        current = { name: heading[1], lines: [] };
        if (heading[2] !== undefined) current.date = heading[2];
      }
      continue;
    }
    // Link reference definitions (`[1.0.0]: https://…`) close the last section.
    if (fence === undefined && /^\[[^\]]+\]:\s+\S/.test(line)) {
      close();
      continue;
    }
    current?.lines.push(line);
  }
  close();
  return sections;
}

function isDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(value);
}

/**
 * The section for `version` (with or without a leading `v`). Throws an error that says what to write
 * when the version is not SemVer, has no section (a pre-release falls back to `Unreleased`), has an
 * empty one, or a date that is not `YYYY-MM-DD`.
 */
export function changelogSection(text: string, version: string): ChangelogSection {
  const wanted = version.replace(/^v/, "");
  if (!SEMVER.test(wanted)) throw new Error(`"${version}" is not a version of the form X.Y.Z.`);
  const sections = changelogSections(text);
  const prerelease = wanted.includes("-");
  const section =
    sections.find((candidate) => candidate.name === wanted) ??
    (prerelease ? sections.find((candidate) => candidate.name === "Unreleased") : undefined);
  if (section === undefined) {
    throw new Error(
      `CHANGELOG.md has no section "## [${wanted}]": move what is under "## [Unreleased]" into it.`,
    );
  }
  if (section.date !== undefined && !isDate(section.date)) {
    throw new Error(
      `CHANGELOG.md's "## [${section.name}]" has "${section.date}" where a YYYY-MM-DD date goes.`,
    );
  }
  if (section.body === "") throw new Error(`CHANGELOG.md's section "## [${section.name}]" is empty.`);
  return section;
}

/** Prints the section's text and returns the exit code. */
export function main(
  args: string[],
  out: (text: string) => void = (text) => process.stdout.write(text),
  err: (line: string) => void = (line) => console.error(line),
): number {
  const [version, file = "CHANGELOG.md"] = args;
  if (version === undefined || args.length > 2) {
    err("Usage: node scripts/changelog-section.ts <version> [CHANGELOG.md]");
    return 2;
  }
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    err(`Cannot read ${file}: ${(error as Error).message}`);
    return 1;
  }
  try {
    out(`${changelogSection(text, version).body}\n`);
    return 0;
  } catch (error) {
    err((error as Error).message);
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = main(process.argv.slice(2));
}
