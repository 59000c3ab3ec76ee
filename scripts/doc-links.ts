/**
 * Finds the dead links of the manual: README.md, every page under docs/ and bench/README.md. A relative
 * link must name a file of the repository (and, into a Markdown page, one of its headings); an absolute
 * link to this repository's `blob/main/` or `tree/main/` must name a file or folder that exists here.
 * `test/tools/docs.test.ts` fails on any.
 *
 *   npx node scripts/doc-links.ts [repository root]
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";

/** Where this repository's files are read on GitHub; links to it from outside are absolute. */
export const REPOSITORY_URL = "https://github.com/gitbook-openapi/gitbook-openapi";
const OWN = new RegExp(`^${REPOSITORY_URL.replaceAll(".", "\\.")}/(?:blob|tree)/main/([^#?]*)(?:#(.*))?$`);

/** README.md, every Markdown page under docs/, and bench/README.md, relative to the root. */
export function manualPages(root: string): string[] {
  const pages = ["README.md", "bench/README.md"].filter((page) => existsSync(join(root, page)));
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".md")) pages.push(path);
    }
  };
  if (existsSync(join(root, "docs"))) walk("docs");
  return pages.sort();
}

/** The page's text outside fenced code blocks and inline code, where a `](…)` is not a link. */
function prose(text: string): string {
  let fence = false;
  const lines = text.split("\n").map((line) => {
    if (/^\s*```/.test(line)) {
      fence = !fence;
      return "";
    }
    return fence ? "" : line.replace(/`[^`]*`/g, "``");
  });
  return lines.join("\n");
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, "")
    .replaceAll(" ", "-");
}

/** The anchors of a Markdown page's headings (outside code blocks), with GitHub's `-1` for repeats. */
export function anchors(text: string): Set<string> {
  const found = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of prose(text.replace(/`([^`]*)`/g, "$1")).split("\n")) {
    const match = /^#{1,6} (.*)$/.exec(line);
    if (!match?.[1]) continue;
    const anchor = anchorOf(match[1]);
    const count = seen.get(anchor) ?? 0;
    found.add(count === 0 ? anchor : `${anchor}-${count}`);
    seen.set(anchor, count + 1);
  }
  return found;
}

export interface DeadLink {
  page: string;
  line: number;
  target: string;
  reason: string;
}

/** The dead links of the given pages (paths relative to the root). */
export function deadLinks(root: string, pages: string[] = manualPages(root)): DeadLink[] {
  const dead: DeadLink[] = [];
  for (const page of pages) {
    const text = readFileSync(join(root, page), "utf8");
    const lines = prose(text).split("\n");
    lines.forEach((line, index) => {
      for (const match of line.matchAll(/\]\(<?([^)\s>]+)>?(?:\s+"[^"]*")?\)/g)) {
        const target = match[1] ?? "";
        const problem = check(root, page, text, target);
        if (problem) dead.push({ page, line: index + 1, target, reason: problem });
      }
    });
  }
  return dead;
}

function check(root: string, page: string, text: string, target: string): string | undefined {
  let path: string;
  let fragment: string | undefined;
  const own = OWN.exec(target);
  if (own) {
    path = decodeURIComponent(own[1] ?? "");
    fragment = own[2];
  } else if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
    return undefined; // another site, or mailto:
  } else if (target.startsWith("#")) {
    return anchors(text).has(target.slice(1)) ? undefined : "no such heading on this page";
  } else {
    const [file = "", hash] = target.split("#", 2);
    path = relative(root, resolve(root, dirname(page), decodeURIComponent(file)));
    fragment = hash;
    if (path.startsWith("..")) return "outside the repository";
  }
  const full = join(root, normalize(path));
  if (!existsSync(full)) return `${path || "."} does not exist`;
  if (fragment && statSync(full).isFile() && full.endsWith(".md")) {
    if (!anchors(readFileSync(full, "utf8")).has(fragment)) return `${path} has no heading #${fragment}`;
  }
  return undefined;
}

function main(): void {
  const root = resolve(process.argv[2] ?? ".");
  const dead = deadLinks(root);
  for (const link of dead) console.log(`${link.page}:${link.line}: ${link.target}: ${link.reason}`);
  if (dead.length > 0) process.exitCode = 1;
  else console.log(`${manualPages(root).length} pages, no dead link.`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main();
