/**
 * The GitLab CI template (templates/gitlab-ci.yml): its `spec:inputs` header checked by GitLab's
 * documented rules, rendered with inputs both ways GitLab interpolates, and each job's rules and script
 * lines run as a GitLab Runner runs them — the `gitbook-openapi` command being this repository's CLI —
 * against the emulator of GitBook and the fake GitLab over loopback.
 */
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { type RunningEmulator, startEmulator } from "../../harness/emulator/index.ts";
import {
  FAKE_GITLAB_BOT,
  FAKE_GITLAB_TOKEN,
  type FakeGitLab,
  startFakeGitLab,
} from "../../harness/fakes/fake-gitlab.ts";
import {
  blocksOf,
  GitLabInputError,
  interpolateParsed,
  interpolateText,
  readTemplate,
  resolveInputs,
} from "../../harness/gitlab-ci/inputs.ts";
import {
  type CommandShims,
  commandShims,
  type JobRun,
  jobsOf,
  runJob,
} from "../../harness/gitlab-ci/jobs.ts";
import { evaluateIf, ruleOutcome } from "../../harness/gitlab-ci/rules.ts";
import { repositoryRoot } from "../../harness/runner/action-runner.ts";
import { CLI_SOURCE } from "../cli/run-cli.ts";
import { git as gitIn } from "../support/git.ts";
import { slugsUnder } from "../support/slugs-under.ts";

const TEXT = readFileSync(path.join(repositoryRoot, "templates", "gitlab-ci.yml"), "utf8");
const template = readTemplate(TEXT);

/** The configuration the template becomes with these `include:inputs`, as GitLab builds it by default. */
function render(given: Record<string, unknown> = {}): Record<string, unknown> {
  return interpolateParsed(template.body, resolveInputs(template, given)) as Record<string, unknown>;
}

describe("the template's spec:inputs header", () => {
  it("declares every input it uses, and uses every input it declares", () => {
    const used = new Set(blocksOf(template.body));
    expect([...used].sort()).toEqual(Object.keys(template.inputs).sort());
    expect(blocksOf(TEXT.slice(0, TEXT.indexOf("\n---\n")))).toEqual([]);
  });

  it("gives every input a description and a default of its type, so none is mandatory", () => {
    for (const [name, input] of Object.entries(template.inputs)) {
      expect(input.description, name).toMatch(/\S/);
      expect(input.default, name).toBeDefined();
    }
    expect(template.inputs["fail-on-breaking"]).toMatchObject({ type: "boolean", default: false });
  });

  it("refuses what GitLab refuses: an unknown input, a number for a string, a value its regex refuses", () => {
    expect(() => resolveInputs(template, { organisation: "x" })).toThrow(
      "unknown input arguments: organisation",
    );
    expect(() => resolveInputs(template, { version: 1 })).toThrow(
      "`version` input: provided value is not a string",
    );
    expect(() => resolveInputs(template, { "fail-on-breaking": "true" })).toThrow(
      "`fail-on-breaking` input: provided value is not a boolean",
    );
    expect(() => resolveInputs(template, { files: 'specs/"a.yaml' })).toThrow(
      "`files` input: provided value does not match required RegEx pattern",
    );
    expect(() => resolveInputs(template, { organization: "$ORG" })).toThrow(/organization/);
  });

  it("is checked by the harness as GitLab checks a header", () => {
    const header = (inputs: string) => `spec:\n  inputs:\n${inputs}\n---\njob:\n  script: echo\n`;
    expect(() => readTemplate(header("    on:\n      type: boolean\n      regex: ^t"))).toThrow(
      "regex can only be used with a type of string",
    );
    expect(() => readTemplate(header("    on:\n      type: boolean\n      options: [true]"))).toThrow(
      "options cannot be used with a type of boolean",
    );
    expect(() => readTemplate(header("    num:\n      type: number\n      default: '2'"))).toThrow(
      "`num` input: default value is not a number",
    );
    expect(() => readTemplate(header("    s:\n      default: b\n      options: [a]"))).toThrow(
      "default value is not one of the options",
    );
    expect(() => readTemplate(header("    s:\n      type: text"))).toThrow("type is one of");
    expect(() => readTemplate("job:\n  script: echo $[[ inputs.x ]]\n")).toThrow(GitLabInputError);
    const unknown = readTemplate(header("    s:\n      default: a"));
    expect(() => interpolateParsed("job: $[[ inputs.t ]]\n", resolveInputs(unknown, {}))).toThrow(
      "unknown interpolation key: `t`",
    );
  });

  it("means the same whether GitLab interpolates the parsed YAML or its text (property, fixed seed)", () => {
    // Words YAML 1.1 reads as booleans, null or numbers, beside what each regex lets through.
    const plain = (pattern: RegExp) =>
      fc.oneof(
        fc.stringMatching(pattern),
        fc.constantFrom("yes", "off", "null", "0777", "1e3", "0x1f").filter((word) => pattern.test(word)),
      );
    const values = fc.record({
      organization: plain(/^[A-Za-z0-9_-]{0,20}$/),
      files: plain(/^[A-Za-z0-9_./*?!{},@+-]{1,12}( [A-Za-z0-9_./*?!{},@+-]{1,12}){0,2}$/),
      "slug-prefix": plain(/^[A-Za-z0-9_.-]{0,12}$/),
      "fail-on-breaking": fc.boolean(),
      version: plain(/^[0-9A-Za-z][0-9A-Za-z.^~*+-]{0,10}$/),
      image: plain(/^[A-Za-z0-9][A-Za-z0-9._/:@-]{0,20}$/),
      stage: plain(/^[A-Za-z0-9][A-Za-z0-9 _.-]{0,12}[A-Za-z0-9]$/),
      "job-prefix": plain(/^[a-z0-9][a-z0-9_-]{0,10}$/),
    });
    fc.assert(
      fc.property(values, (given) => {
        const resolved = resolveInputs(template, given);
        expect(interpolateText(template.body, resolved)).toEqual(interpolateParsed(template.body, resolved));
      }),
      { seed: 29, numRuns: 300 },
    );
  });
});

/** The variables GitLab sets in each kind of pipeline (docs.gitlab.com/ci/variables/predefined_variables). */
function pipeline(
  kind: "push" | "push-feature" | "merge-request" | "web",
  extra: Record<string, string> = {},
) {
  const common = {
    CI: "true",
    GITLAB_CI: "true",
    CI_API_V4_URL: gitlab?.apiUrl ?? "http://127.0.0.1:1/api/v4",
    CI_PROJECT_ID: "77",
    CI_PROJECT_PATH: "acme/api",
    CI_PROJECT_NAME: "api",
    CI_DEFAULT_BRANCH: "main",
    CI_JOB_TOKEN: "job-token-not-for-notes",
  };
  const byKind = {
    push: { CI_PIPELINE_SOURCE: "push", CI_COMMIT_BRANCH: "main", CI_COMMIT_REF_NAME: "main" },
    "push-feature": {
      CI_PIPELINE_SOURCE: "push",
      CI_COMMIT_BRANCH: "feature",
      CI_COMMIT_REF_NAME: "feature",
    },
    "merge-request": {
      CI_PIPELINE_SOURCE: "merge_request_event",
      CI_COMMIT_REF_NAME: "feature",
      CI_MERGE_REQUEST_IID: "12",
      CI_MERGE_REQUEST_PROJECT_ID: "77",
      CI_MERGE_REQUEST_SOURCE_PROJECT_ID: "77",
      CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: "feature",
      CI_MERGE_REQUEST_TARGET_BRANCH_NAME: "main",
    },
    web: { CI_PIPELINE_SOURCE: "web", CI_COMMIT_BRANCH: "main", CI_COMMIT_REF_NAME: "main" },
  };
  return { ...common, ...byKind[kind], ...extra };
}

/** The jobs GitLab adds to a pipeline with these variables, and how (`on_success`, `manual`). */
function jobsIn(config: Record<string, unknown>, variables: Record<string, string>): Record<string, string> {
  const added: Record<string, string> = {};
  for (const [name, job] of jobsOf(config)) {
    const when = ruleOutcome(job.rules, variables);
    if (when) added[name] = when;
  }
  return added;
}

describe("the template's jobs in each pipeline", () => {
  const config = render();

  it("publishes on a push to the default branch, previews merge requests, cleans up by hand", () => {
    expect(jobsIn(config, pipeline("push"))).toEqual({ "gitbook-publish": "on_success" });
    expect(jobsIn(config, pipeline("push-feature"))).toEqual({});
    expect(jobsIn(config, pipeline("merge-request"))).toEqual({
      "gitbook-preview": "on_success",
      "gitbook-preview-cleanup": "manual",
    });
    expect(jobsIn(config, pipeline("web"))).toEqual({});
    expect(jobsIn(config, pipeline("web", { MR_IID: "12" }))).toEqual({
      "gitbook-cleanup-by-hand": "on_success",
    });
    expect(jobsIn(config, { ...pipeline("push"), CI_PIPELINE_SOURCE: "schedule", MR_IID: "12" })).toEqual({
      "gitbook-cleanup-by-hand": "on_success",
    });
  });

  it("stops a merge request's environment with the cleanup job, one merge request at a time", () => {
    const jobs = jobsOf(config);
    const preview = jobs.get("gitbook-preview") as Record<string, Record<string, string>>;
    const cleanup = jobs.get("gitbook-preview-cleanup") as Record<string, Record<string, string>>;
    expect(preview.environment?.on_stop).toBe("gitbook-preview-cleanup");
    expect(cleanup.environment).toEqual({ name: preview.environment?.name, action: "stop" });
    expect(preview.environment?.name).toBe("gitbook-preview/mr-$CI_MERGE_REQUEST_IID");
    expect(cleanup.resource_group).toBe(preview.resource_group);
    expect(cleanup.variables?.GIT_STRATEGY).toBe("none");
    expect(cleanup.allow_failure).toBe(true);
  });

  it("takes its names, stage and image from the inputs", () => {
    const jobs = jobsOf(render({ "job-prefix": "api-docs", stage: "publish docs", image: "node:22" }));
    expect([...jobs.keys()]).toEqual([
      "api-docs-publish",
      "api-docs-preview",
      "api-docs-preview-cleanup",
      "api-docs-cleanup-by-hand",
    ]);
    for (const job of jobs.values()) expect(job).toMatchObject({ stage: "publish docs", image: "node:22" });
    const preview = jobs.get("api-docs-preview") as Record<string, Record<string, string>>;
    expect(preview.environment?.on_stop).toBe("api-docs-preview-cleanup");
  });

  it("evaluates rules:if as GitLab does (&& before ||, unset is null, a lone variable must be non-empty)", () => {
    expect(evaluateIf('$A == "x" || $B && $C', { A: "x" })).toBe(true);
    expect(evaluateIf('($A == "x" || $B) && $C', { A: "x" })).toBe(false);
    expect(evaluateIf("$A == $B", {})).toBe(true);
    expect(evaluateIf("$A == null", { A: "" })).toBe(false);
    expect(evaluateIf("$A", { A: "" })).toBe(false);
    expect(() => evaluateIf("$A =~ /x/", {})).toThrow("not supported");
  });
});

describe("docs/gitlab.md", () => {
  const page = readFileSync(path.join(repositoryRoot, "docs", "gitlab.md"), "utf8");

  it("lists every input with its default", () => {
    for (const [name, input] of Object.entries(template.inputs)) {
      const row = page.split("\n").find((line) => line.startsWith(`| \`${name}\` |`));
      expect(row, name).toBeDefined();
      const written = [String(input.default), JSON.stringify(input.default)].map((text) => `| \`${text}\` |`);
      expect(
        written.some((cell) => row?.includes(cell)),
        `${name}: ${row}`,
      ).toBe(true);
    }
  });

  it("expands the same jobs as the template with its defaults", () => {
    const section = page.slice(page.indexOf("## The jobs, expanded"));
    const expanded = parseYaml(/```yaml\n([\s\S]*?)```/.exec(section)?.[1] ?? "") as Record<string, unknown>;
    const documented = jobsOf(expanded);
    const defaults = jobsOf(render());
    expect([...documented.keys()]).toEqual([...defaults.keys()]);
    for (const [name, job] of defaults) {
      const copy = documented.get(name) ?? {};
      for (const key of ["stage", "rules", "resource_group", "environment", "allow_failure"]) {
        expect(copy[key], `${name}: ${key}`).toEqual(job[key]);
      }
      const script = [job.script].flat().filter((line) => !String(line).startsWith("if "));
      expect(copy.script, name).toEqual(script);
      expect((copy.variables as Record<string, string> | undefined)?.GIT_STRATEGY).toBe(
        (job.variables as Record<string, string>).GIT_STRATEGY,
      );
    }
  });
});

const TOKEN = "template-gitbook-token-5e1d";
const ORG = "demo-org";

let emulator: RunningEmulator;
let gitlab: FakeGitLab | undefined;
let shims: CommandShims;
let checkout: string;
let base: string;

const pets = (paths: string) => `openapi: 3.1.0\ninfo:\n  title: Pets\n  version: 1.0.0\npaths:${paths}\n`;
const LISTED = "\n  /pets:\n    get:\n      responses:\n        '200':\n          description: ok";

describe("the template's jobs, run as a GitLab Runner runs them", () => {
  beforeAll(async () => {
    emulator = await startEmulator({ token: TOKEN, processing: { pendingMs: 5, progressMs: 5 } });
    gitlab = await startFakeGitLab();
    shims = await commandShims(CLI_SOURCE);
    checkout = await mkdtemp(path.join(tmpdir(), "gitlab-template-"));
    await mkdir(path.join(checkout, "specs"), { recursive: true });
    await writeFile(path.join(checkout, "specs", "pets.yaml"), pets(LISTED));
    await writeFile(path.join(checkout, "specs", "stores.yaml"), pets(" {}").replace("Pets", "Stores"));
    await writeFile(path.join(checkout, "specs", "internal.yaml"), pets(" {}").replace("Pets", "Internal"));
    const git = (...args: string[]) => gitIn(checkout, ...args);
    git("init", "-q", "-b", "main");
    git("add", "-A");
    git("commit", "-q", "-m", "base");
    base = git("rev-parse", "HEAD");
  });
  afterAll(async () => {
    await emulator?.close();
    await gitlab?.close();
    await shims?.remove();
    if (checkout) await rm(checkout, { recursive: true, force: true });
  });

  /** Settings > CI/CD > Variables: the secrets, and where GitBook's API is (the emulator). */
  const project = (extra: Record<string, string> = {}) => ({
    GITBOOK_TOKEN: TOKEN,
    GITBOOK_API_URL: emulator.baseUrl,
    GITLAB_TOKEN: FAKE_GITLAB_TOKEN,
    ...extra,
  });

  const INPUTS = { organization: ORG, "slug-prefix": "acme", files: "specs/*.yaml !specs/internal.yaml" };

  /** Runs the job GitLab adds to this pipeline under `name`, failing if it would not be added. */
  async function run(
    name: string,
    given: Record<string, unknown>,
    variables: Record<string, string>,
    projectVariables = project(),
  ): Promise<JobRun> {
    const config = render(given);
    const job = jobsOf(config).get(name);
    expect(job, name).toBeDefined();
    expect(ruleOutcome(job?.rules, { ...variables, ...projectVariables }), name).toBeDefined();
    return runJob(job ?? {}, {
      checkout,
      predefined: variables,
      project: projectVariables,
      path: [shims.folder],
    });
  }

  it("publish: installs the version asked for and publishes the files given, under the prefix", async () => {
    const job = await run("gitbook-publish", { ...INPUTS, version: "1.4.0" }, pipeline("push"));
    expect(job.log).toContain("$ gitbook-openapi sync --mode publish");
    expect(job.exitCode, job.log).toBe(0);
    expect(await shims.npmCalls()).toContain("install -g gitbook-openapi@1.4.0");
    expect(slugsUnder(emulator, ORG, "acme")).toEqual(["acme-specs-pets", "acme-specs-stores"]);
  });

  it("publish: an empty input leaves the setting to the project's variable", async () => {
    const job = await run(
      "gitbook-publish",
      { files: "specs/stores.yaml" },
      pipeline("push"),
      project({ GITBOOK_ORGANIZATION: ORG, GITBOOK_SLUG_PREFIX: "fromvar" }),
    );
    expect(job.exitCode, job.log).toBe(0);
    expect(slugsUnder(emulator, ORG, "fromvar")).toEqual(["fromvar-specs-stores"]);
  });

  it("preview: publishes <slug>-mr-12 and writes one note with the previews and the breaking change", async () => {
    const git = (...args: string[]) => gitIn(checkout, ...args);
    git("checkout", "-q", "-b", "feature");
    await writeFile(path.join(checkout, "specs", "pets.yaml"), pets(" {}"));
    git("commit", "-q", "-am", "remove GET /pets");
    const mergeRequest = pipeline("merge-request", {
      CI_COMMIT_SHA: git("rev-parse", "HEAD"),
      CI_MERGE_REQUEST_DIFF_BASE_SHA: base,
    });

    const first = await run("gitbook-preview", INPUTS, mergeRequest);
    expect(first.exitCode, first.log).toBe(0);
    expect(slugsUnder(emulator, ORG, "acme").filter((slug) => slug.endsWith("-mr-12"))).toEqual([
      "acme-specs-pets-mr-12",
      "acme-specs-stores-mr-12",
    ]);
    const notes = gitlab?.notes(12) ?? [];
    expect(notes).toHaveLength(1);
    expect(notes[0]?.author.id).toBe(FAKE_GITLAB_BOT.id);
    expect(notes[0]?.body).toContain("acme-specs-pets-mr-12");
    expect(notes[0]?.body).toMatch(/specs\/pets\.yaml\*\*: ⚠️ 1 breaking/);

    // fail-on-breaking fails the job; the note is still the one note, edited.
    const strict = await run("gitbook-preview", { ...INPUTS, "fail-on-breaking": true }, mergeRequest);
    expect(strict.log).toContain("$ if true; then export GITBOOK_FAIL_ON_BREAKING=true; fi");
    expect(strict.exitCode).toBe(1);
    expect(gitlab?.notes(12)).toHaveLength(1);
    expect(gitlab?.requests.every((r) => r.privateToken === undefined || r.url.startsWith("/api/v4/"))).toBe(
      true,
    );
  });

  it("cleanup: the environment's stop job deletes the merge request's previews without a checkout", async () => {
    const job = await run("gitbook-preview-cleanup", INPUTS, pipeline("merge-request"));
    expect(job.workingDirectory).not.toBe(checkout);
    expect(job.env.CI_PROJECT_DIR).toBe(job.workingDirectory);
    expect(job.exitCode, job.log).toBe(0);
    expect(slugsUnder(emulator, ORG, "acme")).toEqual(["acme-specs-pets", "acme-specs-stores"]);
    expect(gitlab?.notes(12)[0]?.body).toContain("acme-specs-pets-mr-12");
  });

  it("cleanup by hand: a web pipeline with MR_IID deletes that merge request's previews", async () => {
    const mergeRequest = pipeline("merge-request", { CI_MERGE_REQUEST_IID: "13" });
    expect((await run("gitbook-preview", INPUTS, mergeRequest)).exitCode).toBe(0);
    expect(slugsUnder(emulator, ORG, "acme").filter((slug) => slug.endsWith("-mr-13"))).toHaveLength(2);
    const job = await run("gitbook-cleanup-by-hand", INPUTS, pipeline("web"), project({ MR_IID: "13" }));
    expect(job.exitCode, job.log).toBe(0);
    expect(slugsUnder(emulator, ORG, "acme").filter((slug) => slug.endsWith("-mr-13"))).toEqual([]);
  });
});
