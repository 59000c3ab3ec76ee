/**
 * One documented schema for both hosts' results: the Action run as the runner runs it (its `results`
 * output) and `gitbook-openapi sync --json` run as a shell runs it (its stdout), each against an
 * emulator of its own, on the same workspace (a git repository with a base and a head commit), through
 * the same four runs: a publish (published and failed specs), the same again (unchanged), `check`
 * (planned) and a pull request preview against the base commit (`changes`). Every output is valid under
 * `schema/results.schema.json`, and the two hosts' records are the same, ids and addresses aside; the
 * preview's changes are the entries `gitbook-openapi diff` prints for the same two files.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../harness/emulator/index.ts";
import { runActionInProcess } from "../../harness/runner/in-process-action.ts";
import type { ResultRecord } from "../../src/core/report/results-record.ts";
import { runCli } from "../cli/run-cli.ts";
import { changeValidator, resultsValidator } from "../report/results-schema.ts";
import { git } from "../support/git.ts";
import { emptyWorkspace, removeWorkspace } from "./helpers.ts";

const ORG = "demo-org";
const PULL_REQUEST = 9;

const PETS_BASE = `openapi: 3.0.3
info: {title: Pets, version: "1.0.0"}
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        "200": {description: ok}
  /pets/{id}:
    get:
      operationId: getPet
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
      responses:
        "200": {description: ok}
`;
const PETS_HEAD = `openapi: 3.0.3
info: {title: Pets, version: "2.0.0"}
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        "200": {description: ok}
`;
const STORES = JSON.stringify({ openapi: "3.1.0", info: { title: "Stores", version: "7" }, paths: {} });
const BROKEN = "openapi: 3.1.0\ninfo: [\n";

const RUNS = ["publish", "re-run", "check", "preview"] as const;
type RunName = (typeof RUNS)[number];

interface HostRun {
  code: number | null;
  records: ResultRecord[];
  /** The output as the host wrote it, before parsing. */
  text: string;
}

type Host = "action" | "cli";

let workspace: string;
let base: string;
let head: string;
const emulators = {} as Record<Host, RunningEmulator>;
const runs = {} as Record<Host, Record<RunName, HostRun>>;

function actionRun(name: RunName): Promise<HostRun> {
  const api = emulators.action;
  const preview = name === "preview";
  const pullRequest = {
    number: PULL_REQUEST,
    head: { sha: head, ref: "feature", repo: { full_name: "acme/widgets" } },
    base: { sha: base, ref: "main", repo: { full_name: "acme/widgets" } },
  };
  return runActionInProcess({
    workspace,
    inputs: {
      token: api.token,
      organization: ORG,
      "api-url": api.baseUrl,
      mode: name === "check" ? "check" : "auto",
      comment: "false",
    },
    eventName: preview ? "pull_request" : "push",
    eventPayload: preview
      ? { action: "synchronize", number: PULL_REQUEST, pull_request: pullRequest }
      : { ref: "refs/heads/main" },
    env: { GITHUB_REPOSITORY: "acme/widgets", GITHUB_SHA: head },
  }).then((run) => {
    const text = run.outputs.results ?? "";
    return { code: run.exitCode, text, records: JSON.parse(text) as ResultRecord[] };
  });
}

function cliRun(name: RunName): Promise<HostRun> {
  const api = emulators.cli;
  const mode =
    name === "check"
      ? ["--mode", "check"]
      : name === "preview"
        ? ["--mode", "preview", "--merge-request", String(PULL_REQUEST), "--base-commit", base]
        : ["--mode", "publish"];
  return runCli(["sync", "--workspace", workspace, "--json", ...mode], {
    env: { GITBOOK_TOKEN: api.token, GITBOOK_API_URL: api.baseUrl, GITBOOK_ORGANIZATION: ORG },
  }).then((run) => ({ code: run.code, text: run.stdout, records: JSON.parse(run.stdout) as ResultRecord[] }));
}

beforeAll(async () => {
  const [action, cli] = await Promise.all([
    startEmulator({ processing: { pendingMs: 5, progressMs: 5 } }),
    startEmulator({ processing: { pendingMs: 5, progressMs: 5 } }),
  ]);
  emulators.action = action;
  emulators.cli = cli;
  workspace = await emptyWorkspace({
    "api/pets.yaml": PETS_BASE,
    "api/stores.json": STORES,
    "api/broken.yaml": BROKEN,
  });
  git(workspace, "init", "-q", "-b", "main");
  git(workspace, "add", "-A");
  git(workspace, "commit", "-q", "-m", "base");
  base = git(workspace, "rev-parse", "HEAD");
  await writeFile(path.join(workspace, "api", "pets.yaml"), PETS_HEAD);
  git(workspace, "commit", "-q", "-am", "head");
  head = git(workspace, "rev-parse", "HEAD");

  runs.action = {} as Record<RunName, HostRun>;
  runs.cli = {} as Record<RunName, HostRun>;
  // The hosts run side by side (each has its own emulator); the runs of one host, in order.
  for (const name of RUNS) {
    const [byAction, byCli] = await Promise.all([actionRun(name), cliRun(name)]);
    runs.action[name] = byAction;
    runs.cli[name] = byCli;
  }
}, 180_000);

afterAll(async () => {
  await Promise.all([emulators.action?.close(), emulators.cli?.close()]);
  if (workspace) await removeWorkspace(workspace);
});

const statuses = (run: HostRun) => run.records.map((record) => [record.file, record.status]);

/**
 * A host's records with what differs between two emulators named by role: each id by the order in
 * which it first appears (so that a link still names its own version), and the emulator's address.
 */
function comparable(host: Host, run: HostRun): unknown {
  const ids = new Map<string, string>();
  const text = JSON.stringify(run.records)
    .replaceAll(emulators[host].baseUrl, "<api>")
    .replace(/\b(spec|ver)_[0-9a-f]{20}\b/g, (id, kind: string) => {
      if (!ids.has(id)) ids.set(id, `<${kind}#${ids.size + 1}>`);
      return ids.get(id) ?? id;
    });
  return JSON.parse(text);
}

describe.each(["action", "cli"] as const)("the %s's results", (host) => {
  it("are valid under schema/results.schema.json in every run", () => {
    const validate = resultsValidator();
    for (const name of RUNS) expect(validate(JSON.parse(runs[host][name].text)), name).toEqual([]);
  });

  it("report what each run did: published and failed, unchanged, planned, previewed with changes", () => {
    const run = runs[host];
    expect(run.publish.code).toBe(1);
    expect(statuses(run.publish)).toEqual([
      ["api/broken.yaml", "failed"],
      ["api/pets.yaml", "published"],
      ["api/stores.json", "published"],
    ]);
    expect(statuses(run["re-run"])).toEqual([
      ["api/broken.yaml", "failed"],
      ["api/pets.yaml", "unchanged"],
      ["api/stores.json", "unchanged"],
    ]);
    expect(statuses(run.check)).toEqual([
      ["api/broken.yaml", "failed"],
      ["api/pets.yaml", "planned"],
      ["api/stores.json", "planned"],
    ]);
    expect(run.check.records.map((record) => record.operation)).toEqual([null, "update", "update"]);
    const preview = run.preview.records.find((record) => record.file === "api/pets.yaml");
    expect(preview?.slug).toBe(`api-pets-pr-${PULL_REQUEST}`);
    expect(preview?.changes?.against).toBe("base commit");
    expect(preview?.changes?.breaking.map((change) => change.operation ?? "").join("\n")).toMatch(
      /\/pets\/\{id\}/,
    );
    expect(run.publish.records[0]).toMatchObject({ errorCode: "SYNTAX_ERROR", operation: null });
  });

  it("give every published spec its version's id and links", () => {
    for (const record of runs[host].publish.records.filter((r) => r.status === "published")) {
      expect(record.versionId, record.file).toMatch(/^ver_/);
      expect(record.versionUrl, record.file).toContain(`/${record.versionId}/`);
      // The spec's page in the app, the same for every row of a spec (an unchanged one has no other).
      expect(record.appUrl, record.file).toMatch(new RegExp(`/openapi/${record.slug}$`));
    }
  });

  // The release-notes recipe in docs/github-actions.md reads these on a re-run: the version GitBook holds is the one
  // the first run published, with the same links.
  it("give every unchanged spec the id and links of the version GitBook holds, like a published one", () => {
    const published = new Map(runs[host].publish.records.map((record) => [record.file, record]));
    const unchanged = runs[host]["re-run"].records.filter((r) => r.status === "unchanged");
    expect(unchanged).toHaveLength(2);
    for (const record of unchanged) {
      const first = published.get(record.file);
      expect(record.versionUrl, record.file).not.toBeNull();
      expect(
        { versionId: record.versionId, versionUrl: record.versionUrl, appUrl: record.appUrl },
        record.file,
      ).toEqual({ versionId: first?.versionId, versionUrl: first?.versionUrl, appUrl: first?.appUrl });
    }
  });
});

describe("a review's changes and gitbook-openapi diff", () => {
  it("are the same structured entries, valid under the schema's change", async () => {
    const folder = await mkdtemp(path.join(tmpdir(), "gitbook-results-base-"));
    try {
      const baseFile = path.join(folder, "pets.yaml");
      await writeFile(baseFile, git(workspace, "show", `${base}:api/pets.yaml`));
      const run = await runCli(["diff", baseFile, "api/pets.yaml", "--json"], { cwd: workspace });
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      const listed = JSON.parse(run.stdout) as { breaking: unknown[]; other: unknown[] };
      const validate = changeValidator();
      for (const change of [...listed.breaking, ...listed.other]) expect(validate(change)).toEqual([]);
      expect(listed.breaking.length).toBeGreaterThan(0);
      // `diff` names the base's file as it was given; the review, as the base commit has it.
      const asCommitted = (changes: unknown[]) =>
        changes.map((change) =>
          (change as { baseFile?: string }).baseFile === baseFile
            ? { ...(change as object), baseFile: "api/pets.yaml" }
            : change,
        );
      const committed = { breaking: asCommitted(listed.breaking), other: asCommitted(listed.other) };
      expect(JSON.stringify(committed)).toContain('"baseLine"');
      for (const host of ["action", "cli"] as const) {
        const preview = runs[host].preview.records.find((record) => record.file === "api/pets.yaml");
        expect({ breaking: preview?.changes?.breaking, other: preview?.changes?.other }, host).toEqual(
          committed,
        );
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});

describe("the Action's results and the CLI's --json", () => {
  it("are the same records for the same workspace, in every run", () => {
    for (const name of RUNS) {
      expect(comparable("cli", runs.cli[name]), name).toEqual(comparable("action", runs.action[name]));
      expect(runs.cli[name].code, name).toBe(runs.action[name].code);
    }
  });

  it("tell the two emulators' ids apart only by name", () => {
    // The comparison above holds only if both hosts reached their own emulator and got ids from it.
    const ids = (host: Host) => runs[host].publish.records.map((record) => record.specId).filter(Boolean);
    expect(ids("action")).toHaveLength(2);
    expect(ids("cli")).toHaveLength(2);
    expect(ids("action")).not.toEqual(ids("cli"));
  });
});
