/**
 * Runs the jobs of a GitLab CI configuration the way a GitLab Runner's shell executor does
 * (docs.gitlab.com/ci/yaml, docs.gitlab.com/ci/variables): `extends` merged (hashes deeply, lists
 * replaced), the job's `before_script` and `script` lines in one bash with `set -eo pipefail` (the first
 * failing line fails the job), each line echoed as `$ line` first, in `CI_PROJECT_DIR` — an empty folder
 * when the job sets `GIT_STRATEGY: none`. Variables by GitLab's precedence: the project's CI/CD variables
 * win over the job's `variables:`, which win over the predefined ones; `$NAME` in a job variable's value
 * is expanded. `image` is not pulled: the commands come from the PATH the caller gives.
 */
import { spawn } from "node:child_process";
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

export type Job = Record<string, unknown>;

/** Keywords of the configuration's top level that are not jobs. */
const GLOBAL_KEYWORDS = new Set([
  "default",
  "include",
  "stages",
  "variables",
  "workflow",
  "image",
  "services",
  "cache",
  "before_script",
  "after_script",
]);

/** The jobs of a configuration by name, `extends` resolved; hidden (`.name`) keys are not jobs. */
export function jobsOf(config: Record<string, unknown>): Map<string, Job> {
  const resolve = (name: string, trail: string[]): Job => {
    if (trail.includes(name)) throw new Error(`extends: circular through ${[...trail, name].join(" → ")}`);
    const own = config[name];
    if (!isRecord(own)) throw new Error(`extends: ${name} is not a job or hidden job of this configuration`);
    const parents = own.extends === undefined ? [] : [own.extends].flat().map(String);
    let merged: Job = {};
    for (const parent of parents) merged = deepMerge(merged, resolve(parent, [...trail, name]));
    const { extends: _, ...rest } = own;
    return deepMerge(merged, rest);
  };
  const jobs = new Map<string, Job>();
  for (const name of Object.keys(config)) {
    if (name.startsWith(".") || GLOBAL_KEYWORDS.has(name)) continue;
    jobs.set(name, resolve(name, []));
  }
  return jobs;
}

function deepMerge(base: Job, over: Job): Job {
  const out: Job = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const before = out[key];
    out[key] = isRecord(before) && isRecord(value) ? deepMerge(before, value) : value;
  }
  return out;
}

export interface JobRunOptions {
  /** The repository's checkout: the job's `CI_PROJECT_DIR` unless it sets `GIT_STRATEGY: none`. */
  checkout: string;
  /** The variables GitLab sets for this pipeline (`CI_*`, `GITLAB_CI`, …). */
  predefined: Readonly<Record<string, string>>;
  /** Settings > CI/CD > Variables of the project (secrets such as `GITBOOK_TOKEN`). */
  project: Readonly<Record<string, string>>;
  /** Folders put first on PATH (command shims). */
  path: readonly string[];
}

export interface JobRun {
  exitCode: number | null;
  /** What the job wrote, as its log shows it: stdout and stderr, with the `$ line` echoes. */
  log: string;
  /** The job's environment as the runner gave it to the shell. */
  env: Record<string, string>;
  workingDirectory: string;
}

/** Runs one job's `before_script` and `script`. */
export async function runJob(job: Job, options: JobRunOptions): Promise<JobRun> {
  const jobVariables = isRecord(job.variables) ? job.variables : {};
  const emptyFolder =
    jobVariables.GIT_STRATEGY === "none"
      ? await mkdtemp(path.join(tmpdir(), "gitlab-no-checkout-"))
      : undefined;
  const workingDirectory = emptyFolder ?? options.checkout;
  const base: Record<string, string> = { ...options.predefined, CI_PROJECT_DIR: workingDirectory };
  const known: Record<string, string> = { ...base, ...options.project };
  const expanded: Record<string, string> = {};
  for (const [name, value] of Object.entries(jobVariables)) {
    if (typeof value !== "string")
      throw new Error(`variables: ${name} is not a string (${JSON.stringify(value)})`);
    expanded[name] = value.replace(
      /\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))/g,
      (_, a, b) => known[a ?? b] ?? "",
    );
  }
  const env: Record<string, string> = {
    ...base,
    ...expanded,
    ...options.project,
    PATH: [...options.path, process.env.PATH ?? ""].join(path.delimiter),
  };
  const lines = [...scriptLines(job.before_script, "before_script"), ...scriptLines(job.script, "script")];
  const folder = await mkdtemp(path.join(tmpdir(), "gitlab-job-"));
  try {
    const script = path.join(folder, "script.sh");
    const body = lines.map((line) => `printf '%s\\n' ${shellQuote(`$ ${line}`)}\n${line}\n`).join("");
    await writeFile(script, `set -eo pipefail\n${body}`);
    const { exitCode, log } = await new Promise<{ exitCode: number | null; log: string }>(
      (resolve, reject) => {
        const child = spawn("bash", [script], {
          cwd: workingDirectory,
          env,
          stdio: ["ignore", "pipe", "pipe"],
          timeout: 120_000,
          killSignal: "SIGKILL",
        });
        let log = "";
        child.stdout.setEncoding("utf8").on("data", (chunk: string) => (log += chunk));
        child.stderr.setEncoding("utf8").on("data", (chunk: string) => (log += chunk));
        child.on("error", reject);
        child.on("close", (code) => resolve({ exitCode: code, log }));
      },
    );
    return { exitCode, log, env, workingDirectory };
  } finally {
    await rm(folder, { recursive: true, force: true });
    if (emptyFolder) await rm(emptyFolder, { recursive: true, force: true });
  }
}

function scriptLines(value: unknown, keyword: string): string[] {
  if (value === undefined) return [];
  const lines = [value].flat(Infinity);
  for (const line of lines)
    if (typeof line !== "string") throw new Error(`${keyword}: every line is a string`);
  return lines as string[];
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

export interface CommandShims {
  /** The folder to put first on PATH. */
  folder: string;
  /** Each `npm` call's arguments, one call a line. */
  npmCalls(): Promise<string[]>;
  remove(): Promise<void>;
}

/**
 * A folder of two commands: `gitbook-openapi`, which runs `cliEntry` (this repository's CLI) on this
 * Node.js, as `npm install -g gitbook-openapi` would install it; and `npm`, which only records its
 * arguments, so a job's install line runs without the network (the package's installation has its own
 * test, test/package/install.e2e.test.ts).
 */
export async function commandShims(cliEntry: string): Promise<CommandShims> {
  const folder = await mkdtemp(path.join(tmpdir(), "gitlab-shims-"));
  const calls = path.join(folder, "npm-calls.log");
  const cli = path.join(folder, "gitbook-openapi");
  await writeFile(cli, `#!/bin/sh\nexec ${shellQuote(process.execPath)} ${shellQuote(cliEntry)} "$@"\n`);
  const npm = path.join(folder, "npm");
  await writeFile(npm, `#!/bin/sh\nprintf '%s\\n' "$*" >> ${shellQuote(calls)}\n`);
  await chmod(cli, 0o755);
  await chmod(npm, 0o755);
  return {
    folder,
    npmCalls: async () => (await readFile(calls, "utf8").catch(() => "")).split("\n").filter(Boolean),
    remove: () => rm(folder, { recursive: true, force: true }),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
