/**
 * Runs the action the way the GitHub runner does: inputs as INPUT_* variables with action.yml's
 * defaults, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files, an event payload file and GITHUB_WORKSPACE.
 * By default it runs the sources (`src/index.ts`, types stripped by Node 24), so the end-to-end tests
 * test a change before it is built; the demo, the benchmarks and the smoke test run the bundle.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { parseRunnerCommands } from "./runner-commands.ts";

export const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The action's entry points, relative to the action's folder. */
export const ACTION_SOURCES = "src/index.ts";
export const ACTION_BUNDLE = "dist/index.js";

export interface RunnerOptions {
  workspace: string;
  /** Inputs as written in a workflow's `with:`; unset inputs get action.yml's defaults. */
  inputs?: Record<string, string>;
  /** `github.token`, which action.yml's `github-token` default expands to. */
  githubToken?: string;
  eventName?: string;
  eventPayload?: unknown;
  /** More environment (GITHUB_REPOSITORY, GITHUB_SHA, GITHUB_API_URL, …). */
  env?: Record<string, string>;
  actionPath?: string;
  /** The script to run, relative to `actionPath`; `ACTION_SOURCES` unless given. */
  entry?: string;
  /** Extra arguments for node before the script, e.g. `--import` hooks in benchmarks. */
  nodeArgs?: string[];
}

export interface Annotation {
  level: "error" | "warning" | "notice";
  file?: string;
  line?: number;
  column?: number;
  message: string;
}

export interface RunnerResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
  annotations: Annotation[];
  /** Titles of the collapsible log groups, in order. */
  groups: string[];
}

export async function runActionLikeRunner(options: RunnerOptions): Promise<RunnerResult> {
  return (await startActionLikeRunner(options)).finished;
}

/** The action, started as the runner starts it, for a test that acts while it runs (sends a signal). */
export interface RunningAction {
  readonly child: ChildProcess;
  /** Resolves once stdout (the step's log) holds a match of `pattern`; rejects if the action ends first. */
  waitForLog(pattern: RegExp): Promise<void>;
  /** The run's end, read as `runActionLikeRunner` reads it. */
  finished: Promise<RunnerResult>;
}

export async function startActionLikeRunner(options: RunnerOptions): Promise<RunningAction> {
  const actionPath = options.actionPath ?? repositoryRoot;
  const files = await runnerFiles(options);
  const env = await runnerEnvironment(options, files);
  const script = path.join(actionPath, options.entry ?? ACTION_SOURCES);
  const node = startNode([...(options.nodeArgs ?? []), script], options.workspace, env);
  const finished = node.ended
    .then(({ exitCode, stdout, stderr }) => resultOf(files, { exitCode, stdout, stderr }))
    .finally(() => files.remove());
  return { child: node.child, waitForLog: node.waitForStdout, finished };
}

/** The runner's files for one step: the outputs, the job summary and the event payload, in a temp folder. */
export interface RunnerFiles {
  temp: string;
  output: string;
  summary: string;
  event: string;
  remove(): Promise<void>;
}

export async function runnerFiles(options: Pick<RunnerOptions, "eventPayload">): Promise<RunnerFiles> {
  const temp = await mkdtemp(path.join(tmpdir(), "action-run-"));
  const files = {
    temp,
    output: path.join(temp, "output"),
    summary: path.join(temp, "summary.md"),
    event: path.join(temp, "event.json"),
    remove: () => rm(temp, { recursive: true, force: true }),
  };
  await Promise.all([
    writeFile(files.output, ""),
    writeFile(files.summary, ""),
    writeFile(files.event, JSON.stringify(options.eventPayload ?? {})),
  ]);
  return files;
}

/** The step's environment as the runner sets it: its variables, the inputs, then `options.env`. */
export async function runnerEnvironment(
  options: RunnerOptions,
  files: RunnerFiles,
): Promise<Record<string, string>> {
  return {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? files.temp,
    ...compileCache(),
    GITHUB_ACTIONS: "true",
    CI: "true",
    GITHUB_WORKSPACE: options.workspace,
    GITHUB_EVENT_NAME: options.eventName ?? "push",
    GITHUB_EVENT_PATH: files.event,
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_SERVER_URL: "https://github.com",
    GITHUB_API_URL: "https://api.github.com",
    RUNNER_TEMP: files.temp,
    ...(await inputVariables(
      options.actionPath ?? repositoryRoot,
      options.inputs ?? {},
      options.githubToken ?? "",
    )),
    ...options.env,
  };
}

/** The step's end as the runner reads it: its streams, and the outputs and summary from their files. */
export async function resultOf(
  files: RunnerFiles,
  ended: { exitCode: number; stdout: string; stderr: string },
): Promise<RunnerResult> {
  return {
    ...ended,
    outputs: parseOutputFile(await readFile(files.output, "utf8")),
    summary: await readFile(files.summary, "utf8"),
    annotations: parseAnnotations(ended.stdout),
    groups: parseRunnerCommands(ended.stdout)
      .filter((c) => c.command === "group")
      .map((c) => c.data),
  };
}

/**
 * Node's compile cache, when the test runner set one (vitest.config.ts): a process started from the
 * sources then compiles its modules once for the suite, not once per start.
 */
export function compileCache(): { NODE_COMPILE_CACHE?: string } {
  const folder = process.env.NODE_COMPILE_CACHE;
  return folder ? { NODE_COMPILE_CACHE: folder } : {};
}

/** The INPUT_* variables the runner sets: `inputs`, and action.yml's defaults for the others. */
export async function inputVariables(
  actionPath: string,
  inputs: Record<string, string>,
  githubToken: string,
) {
  const action = parse(await readFile(path.join(actionPath, "action.yml"), "utf8")) as {
    inputs: Record<string, { default?: string }>;
  };
  const variables: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.inputs)) {
    const fallback = String(spec.default ?? "").replace(/\$\{\{\s*github\.token\s*\}\}/g, githubToken);
    variables[`INPUT_${name.replace(/ /g, "_").toUpperCase()}`] = inputs[name] ?? fallback;
  }
  for (const name of Object.keys(inputs)) {
    if (!(name in action.inputs)) throw new Error(`action.yml has no input named '${name}'`);
  }
  return variables;
}

function startNode(args: string[], cwd: string, env: Record<string, string>) {
  const child = spawn(process.execPath, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  const waiters: { pattern: RegExp; resolve: () => void }[] = [];
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
    for (const waiter of [...waiters]) {
      if (!waiter.pattern.test(stdout)) continue;
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const ended = new Promise<{ exitCode: number; stdout: string; stderr: string }>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ exitCode: code ?? -1, stdout, stderr }));
  });
  const waitForStdout = (pattern: RegExp) =>
    new Promise<void>((resolve, reject) => {
      if (pattern.test(stdout)) return resolve();
      waiters.push({ pattern, resolve });
      ended.then(() => reject(new Error(`the action ended before its log matched ${pattern}:\n${stdout}`)));
    });
  return { child, ended, waitForStdout };
}

/** Reads the `name<<delimiter … delimiter` blocks that @actions/core writes to GITHUB_OUTPUT. */
export function parseOutputFile(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const match = /^([^<=]+)<<(.+)$/.exec(lines[i] ?? "");
    if (match?.[1] && match[2]) {
      const end = lines.indexOf(match[2], i + 1);
      outputs[match[1]] = lines.slice(i + 1, end).join("\n");
      i = end;
    } else if (lines[i]?.includes("=")) {
      const [name, ...rest] = (lines[i] ?? "").split("=");
      if (name) outputs[name] = rest.join("=");
    }
  }
  return outputs;
}

const unescapeData = (s: string) => s.replace(/%0D/g, "\r").replace(/%0A/g, "\n").replace(/%25/g, "%");
const unescapeProperty = (s: string) => unescapeData(s).replace(/%3A/g, ":").replace(/%2C/g, ",");

/** The annotations the runner would create from `stdout`, read by its own rules (runner-commands.ts). */
export function parseAnnotations(stdout: string): Annotation[] {
  const annotations: Annotation[] = [];
  for (const { command, properties, data } of parseRunnerCommands(stdout)) {
    if (command !== "error" && command !== "warning" && command !== "notice") continue;
    annotations.push({
      level: command,
      ...(properties.file ? { file: properties.file } : {}),
      ...(properties.line ? { line: Number(properties.line) } : {}),
      ...(properties.col ? { column: Number(properties.col) } : {}),
      message: data,
    });
  }
  return annotations;
}

/**
 * The log roughly as the Actions UI shows it: masked values hidden, groups as headings, annotations as
 * labelled lines, debug lines dropped (they show only when step debugging is on).
 */
export function renderLogAsRunner(stdout: string): string {
  const masks = [...stdout.matchAll(/^::add-mask::(.*)$/gm)].map((m) => m[1] ?? "").filter(Boolean);
  const lines: string[] = [];
  let inGroup = false;
  for (const line of stdout.split("\n")) {
    if (line.startsWith("::add-mask::") || line.startsWith("::debug::")) continue;
    if (line === "::endgroup::") {
      inGroup = false;
      continue;
    }
    const group = /^::group::(.*)$/.exec(line);
    if (group) {
      inGroup = true;
      lines.push(hideMasked(`▸ ${group[1]}`, masks));
      continue;
    }
    const annotation = /^::(error|warning|notice)(?: ([^:]*))?::(.*)$/.exec(line);
    let shown = line;
    if (annotation) {
      const [, level = "", properties = "", message = ""] = annotation;
      const where = properties ? ` (${unescapeProperty(properties)})` : "";
      shown = `${level.toUpperCase()}${where}: ${unescapeData(message)}`;
    }
    // A message of several lines (`%0A`) stays inside its group, every line indented.
    lines.push(hideMasked(inGroup && shown !== "" ? `  ${shown.replaceAll("\n", "\n  ")}` : shown, masks));
  }
  return lines.join("\n").trimEnd();
}

function hideMasked(line: string, masks: readonly string[]): string {
  return masks.reduce((shown, secret) => shown.split(secret).join("***"), line);
}
