/**
 * The token, from any of its sources, as a shell hands it to `gitbook-openapi` (issue 16):
 * - item 5: a token file is read with a hard byte cap whatever `stat` says (`/dev/zero` has size 0),
 *   from `--token-file` and from `GITBOOK_TOKEN_FILE`, and a pipe is read once;
 * - item 6: usage errors that echo an argument show `[REDACTED]` for the token, whatever its source;
 * - item 12: a setting that holds the token is refused by the name of its flag or variable.
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, open, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../harness/emulator/index.ts";
import { FRAGMENT_LENGTH } from "../../src/core/text/redact.ts";
import { type CliRun, runCli } from "./run-cli.ts";

/** Lowercase letters and digits only, so that it could be a flag's plausible value. */
const TOKEN = "gbapi7k3v9q2x7m4p8w1z6r5t0y3u2i9";
const ORG = "demo-org";

let emulator: RunningEmulator;
let tmp: string;
let tokenFile: string;

beforeAll(async () => {
  emulator = await startEmulator({ token: TOKEN, processing: { pendingMs: 5, progressMs: 5 } });
  tmp = await mkdtemp(path.join(tmpdir(), "gitbook-cli-token-"));
  tokenFile = path.join(tmp, "token");
  await writeFile(tokenFile, `${TOKEN}\n`);
});

afterAll(async () => {
  await emulator?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/** Every piece of the token of FRAGMENT_LENGTH characters that the run printed. */
function tokenPieces(run: CliRun): string[] {
  const text = `${run.stdout}\n${run.stderr}`;
  const found = new Set<string>();
  for (let i = 0; i + FRAGMENT_LENGTH <= TOKEN.length; i++) {
    const piece = TOKEN.slice(i, i + FRAGMENT_LENGTH);
    if (text.includes(piece)) found.add(piece);
  }
  return [...found];
}

/** The three ways to give the token: the arguments to add, and the environment. */
const SOURCES: { name: string; args: () => string[]; env: () => Record<string, string> }[] = [
  { name: "GITBOOK_TOKEN", args: () => [], env: () => ({ GITBOOK_TOKEN: TOKEN }) },
  { name: "--token-file", args: () => ["--token-file", tokenFile], env: () => ({}) },
  { name: "GITBOOK_TOKEN_FILE", args: () => [], env: () => ({ GITBOOK_TOKEN_FILE: tokenFile }) },
];

function cli(args: string[], env: Record<string, string>): Promise<CliRun> {
  return runCli(args, { env: { GITBOOK_API_URL: emulator.baseUrl, ...env } });
}

describe("token files are read with a hard byte cap (issue 16, item 5)", () => {
  it("refuses /dev/zero from --token-file or GITBOOK_TOKEN_FILE, naming where it came from", async () => {
    const before = emulator.requests.length;
    const fromFlag = await cli(["specs", "list", "-o", ORG, "--token-file", "/dev/zero"], {});
    expect(fromFlag.code).toBe(2);
    expect(fromFlag.stderr).toContain('--token-file: "/dev/zero" holds more than 64 KiB');
    expect(fromFlag.stdout).toBe("");

    const fromEnv = await cli(["sync", "-o", ORG, "--workspace", tmp], { GITBOOK_TOKEN_FILE: "/dev/zero" });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toContain('GITBOOK_TOKEN_FILE: "/dev/zero" holds more than 64 KiB');
    expect(emulator.requests).toHaveLength(before);
  });

  it("refuses a regular file over the cap, and reads one at the cap", async () => {
    const large = path.join(tmp, "large-token");
    await writeFile(large, "x".repeat(64 * 1024 + 1));
    const refused = await cli(["specs", "list", "-o", ORG, "--token-file", large], {});
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("holds more than 64 KiB");

    const padded = path.join(tmp, "padded-token");
    await writeFile(padded, `${TOKEN}${" ".repeat(64 * 1024 - TOKEN.length)}`);
    const read = await cli(["specs", "list", "-o", ORG, "--json", "--token-file", padded], {});
    expect(read.stderr).toBe("");
    expect(read.code).toBe(0);
  });

  it("reads a pipe once, before the arguments are parsed, and uses what it read", async () => {
    const fifo = path.join(tmp, "token-pipe");
    execFileSync("mkfifo", [fifo]);
    // The writer waits for the one reader; a second open by the CLI would wait for ever.
    const writing = open(fifo, "w").then(async (handle) => {
      await handle.write(`${TOKEN}\n`);
      await handle.close();
    });
    const run = await cli(["specs", "list", "-o", ORG, "--json", "--token-file", fifo], {});
    await writing;
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([]);
  });
});

describe("a token from any source is redacted from usage errors (issue 16, item 6)", () => {
  for (const source of SOURCES) {
    it(`shows [REDACTED] for a token from ${source.name} that an argument error echoes`, async () => {
      const badMode = await cli(["sync", "--mode", TOKEN, ...source.args()], source.env());
      expect(badMode.code).toBe(2);
      expect(badMode.stderr).toContain("argument '[REDACTED]' is invalid");

      const badLimit = await cli(
        ["specs", "list", "-o", ORG, "--limit", TOKEN, ...source.args()],
        source.env(),
      );
      expect(badLimit.code).toBe(2);
      expect(badLimit.stderr).toContain("'--limit <n>' argument '[REDACTED]' is invalid");

      const unknownCommand = await cli([TOKEN, ...source.args()], source.env());
      expect(unknownCommand.code).toBe(2);
      expect(unknownCommand?.stderr).toContain("'[REDACTED]'");
      for (const run of [badMode, badLimit, unknownCommand]) expect(tokenPieces(run as CliRun)).toEqual([]);
    });
  }
});

describe("a setting that holds the token is refused by name (issue 16, item 12)", () => {
  const piece = TOKEN.slice(6, 6 + FRAGMENT_LENGTH);

  for (const source of SOURCES) {
    it(`refuses a flag or variable holding a token from ${source.name}, never quoting it`, async () => {
      const before = emulator.requests.length;
      const cases: { args: string[]; env?: Record<string, string>; setting: string }[] = [
        { args: ["sync", "--slug-prefix", `pay-${piece}`], setting: "--slug-prefix" },
        { args: ["sync", "--slug", `specs/a.yaml=${piece}-api`], setting: "--slug" },
        { args: ["sync", "--files", `api/${piece}/*.yaml`], setting: "--files" },
        { args: ["sync"], env: { GITBOOK_ORGANIZATION: `org-${piece}` }, setting: "GITBOOK_ORGANIZATION" },
        { args: ["specs", "list", "-o", `org-${piece}`], setting: "--organization" },
        {
          args: ["orgs"],
          env: { GITBOOK_ORGANIZATION_DOMAIN: `${piece}.com` },
          setting: "GITBOOK_ORGANIZATION_DOMAIN",
        },
      ];
      const runs = await Promise.all(
        cases.map(({ args, env }) =>
          cli([...args, ...source.args()], { GITBOOK_ORGANIZATION: ORG, ...source.env(), ...env }),
        ),
      );
      for (const [index, run] of runs.entries()) {
        const { setting } = cases[index] as (typeof cases)[number];
        expect(run.code, setting).toBe(2);
        expect(run.stderr).toContain(`${setting}: holds the GitBook API token given in ${source.name}`);
        expect(tokenPieces(run)).toEqual([]);
      }
      expect(emulator.requests).toHaveLength(before);
    });
  }
});
