/**
 * Writes the command-line reference (docs/cli.md, between its markers): the `--help` of the program and
 * of every command and subcommand, as `gitbook-openapi` prints it. Without `--write` it prints the text;
 * `test/tools/docs.test.ts` fails when the page differs from what this writes.
 *
 *   npx node scripts/cli-reference.ts [--write]
 */
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { runCli } from "../src/hosts/cli/program.ts";

export const CLI_REFERENCE_PAGE = "docs/cli.md";
export const CLI_MARKERS = {
  START: "<!-- cli-reference:start (npx node scripts/cli-reference.ts --write) -->",
  END: "<!-- cli-reference:end -->",
} as const;

/** What `gitbook-openapi <command…> --help` prints, with no variables set and no terminal. */
export async function helpOf(command: readonly string[]): Promise<string> {
  let text = "";
  const write = { write: (chunk: string) => (text += chunk) };
  const code = await runCli([...command, "--help"], {
    env: {},
    cwd: process.cwd(),
    stdout: write,
    stderr: write,
  });
  if (code !== 0) throw new Error(`gitbook-openapi ${command.join(" ")} --help exited ${code}.`);
  return text.trimEnd();
}

/** The commands a help text lists under `Commands:`, without `help`. */
export function commandsIn(help: string): string[] {
  const section = help.split(/^Commands:\n/m)[1];
  if (section === undefined) return [];
  const names: string[] = [];
  for (const line of section.split("\n")) {
    if (line.trim() === "") break;
    const match = /^ {2}([a-z][a-z-]*)/.exec(line);
    if (match?.[1] && match[1] !== "help") names.push(match[1]);
  }
  return names;
}

/** Every command path, the program's own (empty) first, then each command before its subcommands. */
export async function commandPaths(): Promise<string[][]> {
  const paths: string[][] = [];
  const visit = async (path: string[]): Promise<void> => {
    paths.push(path);
    for (const name of commandsIn(await helpOf(path))) await visit([...path, name]);
  };
  await visit([]);
  return paths;
}

/** The reference: one section per command, its help in a code block. */
export async function reference(): Promise<string> {
  const parts: string[] = [];
  for (const path of await commandPaths()) {
    const name = ["gitbook-openapi", ...path].join(" ");
    parts.push(`### \`${name}\``, "", "```text", await helpOf(path), "```", "");
  }
  return parts.join("\n").trimEnd();
}

export function withReference(page: string, body: string): string {
  const from = page.indexOf(CLI_MARKERS.START);
  const to = page.indexOf(CLI_MARKERS.END);
  if (from < 0 || to < from) throw new Error(`${CLI_REFERENCE_PAGE} has no ${CLI_MARKERS.START} … markers.`);
  return `${page.slice(0, from + CLI_MARKERS.START.length)}\n${body}\n${page.slice(to)}`;
}

async function main(): Promise<void> {
  const body = await reference();
  if (!process.argv.includes("--write")) {
    console.log(body);
    return;
  }
  writeFileSync(CLI_REFERENCE_PAGE, withReference(readFileSync(CLI_REFERENCE_PAGE, "utf8"), body));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
