/**
 * A preview run whose git fails while it reads the base commit's files: a `git` first on PATH that
 * passes every command to the real git except the tree's listing (`ls-tree`, and `archive`, which the
 * review once used) or its blobs (`cat-file --batch`), which it fails in one of several ways: it exits
 * without reading its input (the run's writes then meet EPIPE), it kills itself half-way through its
 * answer, it answers garbage, it hangs. A `tar` that fails is first on PATH too. Every run ends with the
 * spec published and "not reviewed", saying why; none crashes, and none calls the spec new (GitBook holds
 * no live spec of it, which is what the old fallback took for "new"). POSIX shells only: the shim is a
 * `sh` script.
 */
import { execFileSync } from "node:child_process";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { type RunningEmulator, startEmulator } from "../../harness/emulator/index.ts";
import type { SpecResult } from "../../src/core/result.ts";
import { CLI_SOURCE, runCli, runCliProcess } from "../cli/run-cli.ts";
import { git } from "../support/git.ts";
import { PETS, PETS_WITHOUT_ONE, previewArgs } from "./fixtures/pets.ts";

const TOKEN = "cli-git-failure-token-3e9d";
const ORG = "demo-org";

const SHIM = `#!/bin/sh
fail() {
  case "$GIT_SHIM_MODE" in
    exit) echo "fatal: the shim refuses" >&2; exit 3 ;;
    kill) printf '100644 blob 0123'; kill -9 $$ ;;
    garbage) printf 'garbage\\n'; exit 0 ;;
    hang) exec sleep 60 ;;
    stubborn) trap '' TERM; sleep 20; exit 0 ;;
  esac
}
case "$GIT_SHIM_STEP $*" in
  "list "*" ls-tree "*|"list "*" archive "*) fail ;;
  "batch "*" cat-file --batch"|"batch "*" archive "*) fail ;;
  "fetch "*" fetch "*) fail ;;
esac
exec "$REAL_GIT" "$@"
`;

let emulator: RunningEmulator;
let workspace: string;
let shims: string;
let base: string;
let realGit: string;
let number = 100;

beforeAll(async () => {
  emulator = await startEmulator({ token: TOKEN, processing: { pendingMs: 5, progressMs: 5 } });
  realGit = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
  shims = await mkdtemp(path.join(tmpdir(), "gitbook-git-shim-"));
  await writeFile(path.join(shims, "git"), SHIM);
  await writeFile(path.join(shims, "tar"), "#!/bin/sh\necho 'tar: the shim refuses' >&2\nexit 2\n");
  await chmod(path.join(shims, "git"), 0o755);
  await chmod(path.join(shims, "tar"), 0o755);
  workspace = await mkdtemp(path.join(tmpdir(), "gitbook-git-failure-"));
  await writeFile(path.join(workspace, "pets.yaml"), PETS);
  // Enough blobs that the list of them overflows a pipe's buffer when git does not read it.
  await mkdir(path.join(workspace, "notes"));
  for (let index = 0; index < 1700; index++)
    await writeFile(path.join(workspace, "notes", `${index}.txt`), `${index}\n`);
  git(workspace, "init", "-q", "-b", "main");
  git(workspace, "add", "-A");
  git(workspace, "commit", "-q", "-m", "base");
  base = git(workspace, "rev-parse", "HEAD");
  await writeFile(path.join(workspace, "pets.yaml"), PETS_WITHOUT_ONE);
  git(workspace, "commit", "-q", "-am", "head");
});
afterAll(async () => {
  await emulator?.close();
  await rm(workspace, { recursive: true, force: true });
  await rm(shims, { recursive: true, force: true });
});
afterEach(() => {
  vi.unstubAllEnvs();
});

function shimEnv(step: string, mode: string): Record<string, string> {
  return {
    PATH: `${shims}${path.delimiter}${process.env.PATH ?? ""}`,
    GIT_SHIM_STEP: step,
    GIT_SHIM_MODE: mode,
    REAL_GIT: realGit,
  };
}

function args(flags: string[]): string[] {
  number++;
  return previewArgs(workspace, number, base, flags);
}

const SERVICE = { GITBOOK_TOKEN: TOKEN, GITBOOK_ORGANIZATION: ORG };
const NOT_REVIEWED = /^the base commit could not be read: git (ls-tree|cat-file) [0-9a-f]{12} failed: /;

describe("a base tree read whose git fails", () => {
  const cases = ["list", "batch"].flatMap((step) =>
    ["exit", "kill", "garbage"].map((mode) => [step, mode] as const),
  );
  const runs = Array.from(
    { length: 20 },
    (_, index) => cases[index % cases.length] as (typeof cases)[number],
  );

  it("is not reviewed, with the reason, and never crashes (20 runs)", async () => {
    const seen = new Set<string>();
    for (const [step, mode] of runs) {
      for (const [name, value] of Object.entries(shimEnv(step, mode))) vi.stubEnv(name, value);
      const run = await runCli(args(["--fail-on-breaking", "--fail-on-unreviewed", "--no-wait"]), {
        env: { ...SERVICE, GITBOOK_API_URL: emulator.baseUrl },
      });
      const results = JSON.parse(run.stdout || "[]") as SpecResult[];
      const pets = results.find((result) => result.file === "pets.yaml");
      const where = `${step}/${mode}`;
      expect(pets?.status, where).toBe("submitted");
      expect(pets?.changes?.against, where).toBe("base commit");
      expect(pets?.changes?.notReviewed, where).toMatch(NOT_REVIEWED);
      expect(run.stderr, where).toContain("1 spec not reviewed (fail-on-unreviewed is on)");
      expect(run.code, where).toBe(1);
      seen.add(pets?.changes?.notReviewed?.replace(/[0-9a-f]{12}/, "…") ?? "");
    }
    // Each way of failing is said in its own words.
    expect(seen.size).toBeGreaterThanOrEqual(4);
  }, 180_000);

  it("a git that hangs, ignoring the kill, is ended by the tree's own budget", async () => {
    // It ignores SIGTERM, and its own child holds the pipes until it ends by itself.
    for (const [name, value] of Object.entries(shimEnv("batch", "stubborn"))) vi.stubEnv(name, value);
    const run = await runCli(args(["--fail-on-breaking", "--timeout", "6"]), {
      env: { ...SERVICE, GITBOOK_API_URL: emulator.baseUrl },
    });
    const pets = (JSON.parse(run.stdout || "[]") as SpecResult[]).find(
      (result) => result.file === "pets.yaml",
    );
    expect(pets?.changes?.notReviewed).toMatch(
      /git cat-file [0-9a-f]{12} failed: it took longer than its .* budget/,
    );
    expect(pets?.status).toBe("published");
    expect(run.code).toBe(0);
  });

  it("a fetch that hangs costs half the tree's budget, then the published version is read", async () => {
    for (const [name, value] of Object.entries(shimEnv("fetch", "hang"))) vi.stubEnv(name, value);
    const flags = ["--fail-on-breaking", "--fail-on-unreviewed", "--timeout", "6"];
    const run = await runCli(
      args(flags).map((arg) => (arg === base ? "f".repeat(40) : arg)),
      {
        env: { ...SERVICE, GITBOOK_API_URL: emulator.baseUrl },
      },
    );
    const pets = (JSON.parse(run.stdout || "[]") as SpecResult[]).find(
      (result) => result.file === "pets.yaml",
    );
    // GitBook holds no pets spec: proven new on that side.
    expect(pets?.changes?.against).toBe("nothing");
    expect(run.stderr).toMatch(
      /the base commit ffffffffffff is not in the checkout and could not be fetched \(it took longer than its [\d.]+ s budget\); each spec is compared with its published version instead/,
    );
    expect(run.code).toBe(0);
  });

  it("as a new process started by a shell: not reviewed, exit 1 with --fail-on-unreviewed", async () => {
    const run = await runCliProcess(args(["--fail-on-breaking", "--fail-on-unreviewed"]), {
      entry: CLI_SOURCE,
      env: { ...shimEnv("batch", "exit"), ...SERVICE, GITBOOK_API_URL: emulator.baseUrl },
    });
    const pets = (JSON.parse(run.stdout || "[]") as SpecResult[]).find(
      (result) => result.file === "pets.yaml",
    );
    expect(pets?.changes?.notReviewed).toMatch(
      /git cat-file [0-9a-f]{12} failed: git exited with 3: fatal: the shim refuses/,
    );
    expect(run.stderr).not.toMatch(/EPIPE|Unhandled|at .*\.ts:\d+/);
    expect(run.code).toBe(1);
  });
});
