/**
 * Terminal manners of `gitbook-openapi sync`, on the CLI's own output streams (`CliIo`) given a width and
 * whether they are a terminal: the live line fits the width and is rewritten in place, colours follow
 * NO_COLOR / FORCE_COLOR / the terminal, a dumb terminal or a pipe gets no control sequence, and
 * `--quiet` leaves errors and the final line. Runs against the emulator over loopback.
 */
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../harness/emulator/index.ts";
import { runCli } from "../../src/hosts/cli/program.ts";
import { colorLevel, terminalManners } from "../../src/hosts/cli/terminal.ts";

const TOKEN = "terminal-token-3f9a1c";
const ORG = "demo-org";
const EXAMPLES = path.resolve(import.meta.dirname, "../../examples");

let emulator: RunningEmulator;
/** The repository's examples (four specs, one split in six files) and fifteen more: 19 specs. */
let nineteen: string;
/** One spec that publishes and one that fails its local checks. */
let two: string;

const spec = (title: string) => `openapi: 3.1.0\ninfo:\n  title: ${title}\n  version: 1.0.0\npaths: {}\n`;

beforeAll(async () => {
  // Slow enough that the live line is redrawn while specs are in flight.
  emulator = await startEmulator({
    token: TOKEN,
    processing: { pendingMs: 5, progressMs: 5 },
    faults: { latencyMs: 3 },
  });
  nineteen = await mkdtemp(path.join(tmpdir(), "gitbook-terminal-19-"));
  await cp(EXAMPLES, nineteen, { recursive: true });
  await mkdir(path.join(nineteen, "more"));
  for (let i = 1; i <= 15; i++)
    await writeFile(path.join(nineteen, "more", `service-${i}.yaml`), spec(`Service ${i}`));
  two = await mkdtemp(path.join(tmpdir(), "gitbook-terminal-2-"));
  await writeFile(path.join(two, "good.yaml"), spec("Good"));
  await writeFile(path.join(two, "bad.yaml"), "openapi: 3.1.0\ninfo:\n  title: Bad\npaths: {}\n");
});
afterAll(async () => {
  await emulator?.close();
  await rm(nineteen, { recursive: true, force: true });
  await rm(two, { recursive: true, force: true });
});

/**
 * A terminal's screen, enough for a log: printable characters fill a row of `width` columns and wrap to
 * the next (the cursor waits at the end of a full row until the next character, as xterm does), `\r`
 * goes to the row's start, `\n` to the next row, `ESC[K` erases to the row's end, colours are ignored.
 */
class Screen {
  readonly rows: string[][] = [[]];
  #row = 0;
  #column = 0;
  readonly width: number;

  constructor(width: number) {
    this.width = width;
  }

  write(text: string): void {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: a terminal reads escape sequences
    const tokens = text.match(/\x1b\[[0-9;]*[A-Za-z]|[\s\S]/gu) ?? [];
    for (const token of tokens) {
      if (token === "\r") this.#column = 0;
      else if (token === "\n") this.#next();
      else if (token === "\x1b[K" || token === "\x1b[0K")
        this.#current().length = Math.min(this.#current().length, this.#column);
      else if (token.startsWith("\x1b[")) {
        if (!token.endsWith("m")) throw new Error(`unexpected sequence ${JSON.stringify(token)}`);
      } else {
        if (this.#column === this.width) this.#next();
        const row = this.#current();
        while (row.length < this.#column) row.push(" ");
        row[this.#column] = token;
        this.#column += 1;
      }
    }
  }

  lines(): string[] {
    return this.rows.map((row) => row.join("").trimEnd());
  }

  #current(): string[] {
    this.rows[this.#row] ??= [];
    return this.rows[this.#row] as string[];
  }

  #next(): void {
    this.#row += 1;
    this.#column = 0;
    this.#current();
  }
}

interface Captured {
  code: number;
  stdout: string;
  stderr: string;
}

/** `sync` in this process with these streams: stderr `isTTY`/`columns` as given, each write seen. */
async function sync(
  workspace: string,
  options: {
    tty: boolean;
    columns?: number;
    env?: Record<string, string>;
    args?: string[];
    onWrite?: (text: string) => void;
  },
): Promise<Captured> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(["sync", "--workspace", workspace, ...(options.args ?? [])], {
    env: {
      GITBOOK_TOKEN: TOKEN,
      GITBOOK_API_URL: emulator.baseUrl,
      GITBOOK_ORGANIZATION: ORG,
      ...options.env,
    },
    cwd: workspace,
    stdout: { write: (text: string) => (stdout += text), isTTY: options.tty, columns: options.columns },
    stderr: {
      write: (text: string) => {
        stderr += text;
        options.onWrite?.(text);
      },
      isTTY: options.tty,
      columns: options.columns,
    },
  });
  return { code, stdout, stderr };
}

/** Pieces of the live line: a row holding one is the live line, or a stale copy of it. */
const LIVE = /\d+\/\d+ done|· \d+ (uploaded|processing|ok|failed)|\d+ uploaded ·/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding escape sequences is the point
const SGR = /\x1b\[\d+m/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding escape sequences is the point
const ANY_ESCAPE = /\x1b/;
/** Times and durations, which differ from run to run. */
const timesOf = (text: string) => text.replace(/\d+(\.\d+)? ?(ms|s)\b/g, "T").replace(/\d+:\d+/g, "T");

describe("the live progress line", () => {
  it("at 40 columns, with 19 specs, is one row rewritten in place, and leaves no stale row", async () => {
    const screen = new Screen(40);
    let mostLiveRows = 0;
    let liveWrites = 0;
    const run = await sync(nineteen, {
      tty: true,
      columns: 40,
      env: { NO_COLOR: "1" },
      args: ["--slug-prefix", "t40"],
      onWrite: (text) => {
        screen.write(text);
        if (LIVE.test(text)) liveWrites += 1;
        mostLiveRows = Math.max(mostLiveRows, screen.lines().filter((line) => LIVE.test(line)).length);
      },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("Plan (publish): 19 specs");
    expect(liveWrites).toBeGreaterThan(19);
    expect(mostLiveRows).toBe(1);
    // Every live line drawn fits in 39 columns: cut with `…` where it would not.
    const drawn = run.stderr
      .split("\r\x1b[K")
      .flatMap((chunk) => chunk.split("\n"))
      .filter((part) => LIVE.test(part));
    expect(drawn.length).toBeGreaterThan(0);
    for (const line of drawn) expect(Array.from(line).length).toBeLessThanOrEqual(39);
    expect(drawn.some((line) => line.endsWith("…"))).toBe(true);
    // At the end, the screen holds the log and nothing of the live line.
    const lines = screen.lines();
    expect(lines.filter((line) => LIVE.test(line))).toEqual([]);
    expect(lines.join("\n")).toContain("Plan (publish): 19 specs");
    expect(run.stderr.trimEnd().split("\n").at(-1)).toMatch(
      /^Done in .* s \(mode publish\): all 19 specs published\.$/,
    );
  });

  it("is not drawn on a pipe, on a dumb terminal, or on a terminal of unknown width", async () => {
    for (const [tty, columns, env] of [
      [false, 200, {}],
      [true, 200, { TERM: "dumb" }],
      [true, undefined, {}],
    ] as const) {
      const run = await sync(two, { tty, ...(columns ? { columns } : {}), env: { NO_COLOR: "1", ...env } });
      expect(run.stderr).toContain("Plan (publish): 2 specs");
      expect(run.stderr).not.toMatch(LIVE);
      expect(run.stderr).not.toContain("\r");
      expect(run.stderr).not.toMatch(ANY_ESCAPE);
    }
  });
});

describe("colours", () => {
  it("paint statuses and labels on a terminal without changing the text", async () => {
    const coloured = await sync(two, { tty: true, columns: 200, args: ["--slug-prefix", "c1"] });
    const plain = await sync(two, {
      tty: true,
      columns: 200,
      env: { NO_COLOR: "1" },
      args: ["--slug-prefix", "c1"],
    });
    expect(coloured.code).toBe(1);
    expect(coloured.stderr).toContain("\x1b[32mpublished\x1b[39m");
    expect(coloured.stderr).toContain("\x1b[31mfailed\x1b[39m");
    expect(coloured.stderr).toContain("\x1b[31merror:\x1b[39m");
    expect(plain.stderr).not.toMatch(SGR);
    const screenText = (stderr: string) => {
      const screen = new Screen(200);
      screen.write(stderr);
      return timesOf(screen.lines().join("\n"));
    };
    // The second run finds the first run's upload unchanged; compare two runs that saw the same.
    const again = await sync(two, { tty: true, columns: 200, args: ["--slug-prefix", "c1"] });
    expect(screenText(again.stderr.replace(SGR, ""))).toBe(screenText(plain.stderr));
    expect(again.stderr).toContain("\x1b[2munchanged\x1b[22m");
  });

  it("follow NO_COLOR (any value but empty), FORCE_COLOR (levels 0 to 3, winning) and TERM=dumb", async () => {
    const cases: [string, boolean, Record<string, string>, boolean][] = [
      ["a terminal", true, {}, true],
      ["NO_COLOR=1", true, { NO_COLOR: "1" }, false],
      ["NO_COLOR=false (any value)", true, { NO_COLOR: "false" }, false],
      ["an empty NO_COLOR", true, { NO_COLOR: "" }, true],
      ["FORCE_COLOR=0 on a terminal", true, { FORCE_COLOR: "0" }, false],
      ["FORCE_COLOR=1 on a pipe", false, { FORCE_COLOR: "1" }, true],
      ["FORCE_COLOR=3 and NO_COLOR=1", false, { FORCE_COLOR: "3", NO_COLOR: "1" }, true],
      ["TERM=dumb", true, { TERM: "dumb" }, false],
      ["a pipe", false, {}, false],
    ];
    for (const [what, tty, env, expected] of cases) {
      const run = await sync(two, { tty, columns: 200, env, args: ["--slug-prefix", "c2"] });
      expect(SGR.test(run.stderr), what).toBe(expected);
      SGR.lastIndex = 0;
      if (!tty) expect(run.stderr.includes("\r") || run.stderr.includes("\x1b[K"), what).toBe(false);
    }
  });

  it("never go into --json, nor the JUnit file", async () => {
    const junit = path.join(two, "junit.xml");
    const run = await sync(two, {
      tty: true,
      columns: 200,
      env: { FORCE_COLOR: "3" },
      args: ["--slug-prefix", "c3", "--json", "--junit", junit],
    });
    expect(run.stderr).toMatch(SGR);
    expect(JSON.parse(run.stdout)).toHaveLength(2);
    expect(run.stdout).not.toMatch(ANY_ESCAPE);
    expect(await readFile(junit, "utf8")).not.toMatch(ANY_ESCAPE);
  });

  it("levels and the live line's width, decided per stream", () => {
    expect(colorLevel({ FORCE_COLOR: "2" }, false)).toBe(2);
    expect(colorLevel({ FORCE_COLOR: "7" }, false)).toBe(3);
    expect(colorLevel({ FORCE_COLOR: "true" }, false)).toBe(1);
    expect(colorLevel({ FORCE_COLOR: "false" }, true)).toBe(0);
    expect(terminalManners({}, { write: () => true, isTTY: true, columns: 40 })).toEqual({
      colors: true,
      liveColumns: 40,
    });
    expect(
      terminalManners({ TERM: "dumb", FORCE_COLOR: "1" }, { write: () => true, isTTY: true, columns: 40 }),
    ).toEqual({
      colors: true,
      liveColumns: undefined,
    });
  });
});

describe("--quiet", () => {
  it("prints errors and the final lines only", async () => {
    const loud = await sync(two, {
      tty: true,
      columns: 80,
      env: { NO_COLOR: "1" },
      args: ["--slug-prefix", "q1"],
    });
    const run = await sync(two, {
      tty: true,
      columns: 80,
      env: { NO_COLOR: "1" },
      args: ["--slug-prefix", "q1", "--quiet"],
    });
    expect(run.code).toBe(1);
    expect(loud.stderr).toContain("Plan (publish): 2 specs");
    expect(run.stderr).not.toContain("Plan (");
    expect(run.stderr).not.toContain("Timings:");
    expect(run.stderr).not.toMatch(LIVE);
    expect(run.stderr).not.toContain("\r");
    const lines = run.stderr.trimEnd().split("\n");
    expect(
      lines.every((line) => /^error: |^1 of 2 specs did not publish:$|^- bad\.yaml /.test(line)),
      run.stderr,
    ).toBe(true);
    expect(lines.filter((line) => line.startsWith("error: ")).length).toBeGreaterThan(0);
    expect(lines.at(-2)).toBe("1 of 2 specs did not publish:");
  });

  it("prints one line for a run that went well, from GITBOOK_QUIET too", async () => {
    const workspace = await mkdtemp(path.join(tmpdir(), "gitbook-terminal-q-"));
    try {
      await writeFile(path.join(workspace, "good.yaml"), spec("Quiet"));
      const run = await sync(workspace, {
        tty: false,
        env: { GITBOOK_QUIET: "true" },
        args: ["--slug-prefix", "q2"],
      });
      expect(run.code).toBe(0);
      expect(run.stderr).toMatch(/^Done in \d+\.\d s \(mode publish\): all 1 spec published\.\n$/);
    } finally {
      await rm(workspace, { recursive: true, force: true });
    }
  });
});

describe("arguments echoed in usage errors", () => {
  it("have their escape sequences shown, not run; the help on stderr fits stderr's width", async () => {
    let stderr = "";
    const code = await runCli([`--\x1b]0;title\x07x`], {
      env: { PATH: process.env.PATH ?? "" },
      cwd: process.cwd(),
      stdout: { write: () => true },
      stderr: { write: (text: string) => (stderr += text) },
    });
    expect(code).toBe(2);
    expect(stderr).toContain("unknown option '--\\u001b]0;title\\u0007x'");
    expect(stderr).not.toMatch(ANY_ESCAPE);

    let help = "";
    await runCli([], {
      env: { PATH: process.env.PATH ?? "" },
      cwd: process.cwd(),
      stdout: { write: () => true, isTTY: false, columns: 200 },
      stderr: { write: (text: string) => (help += text), isTTY: true, columns: 90 },
    });
    // The commands' descriptions are wrapped at 90 columns (the examples are written as they are).
    const bundle = help.split("\n").find((line) => line.includes("bundle [options]"));
    expect(bundle?.length).toBeGreaterThan(40);
    expect(bundle?.length).toBeLessThanOrEqual(90);
  });
});
