/**
 * What the action shows is safe, end to end: the action run in this process, and as the runner starts it
 * where its stderr matters, against loopback stand-ins for GitBook and GitHub that answer with hostile text.
 * - Issue 8, item 9: a service that echoes the token — in fields, processing errors, wrong-shaped
 *   bodies, error bodies, headers, cut to a length — and a GitHub that echoes the github-token: nothing
 *   of either token, whole or any 8 characters of it, reaches stdout, stderr, annotations, the job
 *   summary, the outputs or the pull request comment.
 * - Issue 8, item 2: file names, service fields and a comment record holding `\r`, `\n`, `%`, `::` and
 *   `##[`: the runner, reading stdout by its own rules, finds no command that the action did not write,
 *   and the summary and comment keep their Markdown structure.
 * - Issue 16, item 12: redaction happens at the sinks, never in the run's data: a spec whose slug holds
 *   a piece of the token publishes and is reported `published` (action and CLI, against the emulator),
 *   while nothing of the token is shown; a setting that holds the token is refused by name.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startEmulator } from "../../harness/emulator/index.ts";
import {
  type Answer,
  type StandInRequest,
  specBody,
  startGitHubStandIn,
  startStandIn,
  versionBody,
} from "../../harness/fakes/hostile-services.ts";
import { type RunnerResult, runActionLikeRunner } from "../../harness/runner/action-runner.ts";
import { runActionInProcess } from "../../harness/runner/in-process-action.ts";
import { parseRunnerCommands } from "../../harness/runner/runner-commands.ts";
import { renderCommentState } from "../../src/adapters/github/comment-marker.ts";
import { FRAGMENT_LENGTH } from "../../src/core/text/redact.ts";
import { runCli } from "../cli/run-cli.ts";
import { emptyWorkspace, minimalSpec } from "./helpers.ts";

/** Long enough that the client's 40-character cut of a wrong value keeps a prefix of it. */
const TOKEN = "gb_api_k3v9q2x7m4p8w1z6r5t0y3u2i9o8a7s6d5f4g3h2j1l0c9v8b7n6";
const GITHUB_TOKEN = "ghs_Q7wE2rT9yU4iO1pA6sD3fG8hJ5kL0zX2cV7b";
const ORG = "org";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function pullRequestEvent(action: "opened" | "closed") {
  return {
    action,
    number: 7,
    pull_request: {
      number: 7,
      merged: false,
      head: { sha: "b".repeat(40), ref: "feature", repo: { full_name: "acme/widgets" } },
      base: { ref: "main", repo: { full_name: "acme/widgets" } },
    },
  };
}

async function run(
  files: Record<string, string>,
  services: { gitbook: string; github: string },
  options: {
    event?: "opened" | "closed" | "push";
    inputs?: Record<string, string>;
    /** As the runner starts it, a process whose stderr is read too; else in this process. */
    process?: boolean;
  } = {},
): Promise<RunnerResult> {
  const workspace = await emptyWorkspace(files);
  cleanups.push(() => rm(workspace, { recursive: true, force: true }));
  const event = options.event ?? "opened";
  return (options.process ? runActionLikeRunner : runActionInProcess)({
    workspace,
    inputs: { token: TOKEN, organization: ORG, "api-url": services.gitbook, ...options.inputs },
    githubToken: GITHUB_TOKEN,
    eventName: event === "push" ? "push" : "pull_request",
    eventPayload: event === "push" ? {} : pullRequestEvent(event),
    env: {
      GITHUB_REPOSITORY: "acme/widgets",
      GITHUB_SHA: "c".repeat(40),
      GITHUB_RUN_ID: "42",
      GITHUB_API_URL: services.github,
    },
  });
}

/** Every piece of `secret` of FRAGMENT_LENGTH characters that `text` contains. */
function fragmentsIn(text: string, secret: string): string[] {
  const found = new Set<string>();
  for (let i = 0; i + FRAGMENT_LENGTH <= secret.length; i++) {
    const piece = secret.slice(i, i + FRAGMENT_LENGTH);
    if (text.includes(piece)) found.add(piece);
  }
  return [...found];
}

/**
 * Everything a run shows: stdout without the `::add-mask::` lines (the runner consumes them and shows
 * none), stderr, the annotations, the job summary, the outputs and the comment bodies sent to GitHub.
 */
function shown(result: RunnerResult, comments: readonly string[]): Record<string, string> {
  return {
    stdout: result.stdout
      .split(/\r\n|\r|\n/)
      .filter((line) => !line.startsWith("::add-mask::"))
      .join("\n"),
    stderr: result.stderr,
    annotations: result.annotations.map((a) => `${a.file ?? ""} ${a.message}`).join("\n"),
    summary: result.summary,
    outputs: Object.entries(result.outputs)
      .map(([name, value]) => `${name}=${value}`)
      .join("\n"),
    comments: comments.join("\n"),
  };
}

function expectNoSecrets(texts: Record<string, string>): void {
  const leaks = Object.entries(texts).flatMap(([where, text]) =>
    [TOKEN, GITHUB_TOKEN].flatMap((secret) => fragmentsIn(text, secret).map((piece) => `${where}: ${piece}`)),
  );
  expect(leaks).toEqual([]);
}

/** The masks come first, before any other line, and mask exactly the two tokens. */
function expectMasksFirst(result: RunnerResult): void {
  expect(result.stdout.split("\n").slice(0, 2)).toEqual([
    `::add-mask::${TOKEN}`,
    `::add-mask::${GITHUB_TOKEN}`,
  ]);
}

const results = (result: RunnerResult) =>
  JSON.parse(result.outputs.results ?? "[]") as { slug: string; status: string; errors: string[] }[];

/** What the echoing GitBook answers, by the spec's slug (preview slugs end in `-pr-7`). */
function echoingGitBook(request: StandInRequest): Answer {
  const slug = request.slug ?? "";
  if (request.method === "GET" && request.path.includes("/versions/")) {
    return {
      status: 200,
      body: versionBody(`version ${TOKEN}`, {
        url: `https://api.example/versions/${TOKEN}`,
        urls: {
          location: `https://api.example/${TOKEN}`,
          app: `https://app.example/v/${TOKEN.slice(0, 30)}`,
        },
      }),
    };
  }
  // A wrong-shaped answer to a lookup, echoing a cut of the token that whole-token masking misses.
  if (request.method === "GET")
    return { status: 200, body: { ...specBody(slug), object: TOKEN.slice(0, 30) } };
  if (slug.startsWith("echo-fields")) {
    return {
      status: 201,
      body: specBody(slug, {
        id: `id-${TOKEN}`,
        urls: { location: `https://api.example/${TOKEN}`, app: `https://app.example/${TOKEN.slice(0, 20)}` },
      }),
    };
  }
  if (slug.startsWith("echo-processing")) {
    return {
      status: 201,
      body: specBody(slug, {
        lastProcessErrorCode: "INVALID",
        lastProcessedErrorCount: 3,
        lastProcessedErrors: [
          { code: "E1", message: `the token ${TOKEN} may not be used here` },
          // The comment cuts messages at 300 characters: in the middle of the token.
          { message: `${"x".repeat(290)}${TOKEN}` },
          { message: `cut: ${TOKEN.slice(0, 15)}` },
        ],
      }),
    };
  }
  if (slug.startsWith("echo-shape")) return { status: 201, body: { ...specBody(slug), object: TOKEN } };
  if (slug.startsWith("echo-error")) {
    return { status: 400, body: { error: { code: 400, message: `The token ${TOKEN} may not upload here` } } };
  }
  if (slug.startsWith("echo-server")) {
    return {
      status: 500,
      body: { message: `${TOKEN.slice(0, 30)}… crashed` },
      headers: { "retry-after": "0" },
    };
  }
  if (slug.startsWith("echo-type")) {
    return { status: 200, body: "ok", headers: { "content-type": `text/${TOKEN}` } };
  }
  if (slug.startsWith("echo-redirect")) {
    return { status: 307, headers: { location: `https://${TOKEN}.evil.example/spec` } };
  }
  return { status: 404, body: { message: `no route for ${TOKEN}` } };
}

const ECHO_FILES = Object.fromEntries(
  ["fields", "processing", "shape", "error", "server", "type", "redirect"].map((name) => [
    `echo-${name}.yaml`,
    minimalSpec(`Echo ${name}`),
  ]),
);

describe("the tokens never come back through what the services say (issue 8, item 9)", () => {
  it("shows nothing of the GitBook token a service echoes, whole or cut, anywhere", async () => {
    const gitbook = await startStandIn(echoingGitBook);
    const github = await startGitHubStandIn({
      write: (body) => ({
        status: 201,
        body: {
          id: 1,
          body,
          html_url: `https://github.example/c/1?t=${GITHUB_TOKEN}&g=${TOKEN.slice(2, 14)}`,
        },
      }),
    });
    cleanups.push(gitbook.close, github.close);

    const result = await run(ECHO_FILES, { gitbook: gitbook.url, github: github.url }, { process: true });

    expectMasksFirst(result);
    expect(result.exitCode).toBe(1);
    expect(
      results(result)
        .map((r) => [r.slug, r.status])
        .sort(),
    ).toEqual([
      ["echo-error-pr-7", "failed"],
      ["echo-fields-pr-7", "published"],
      ["echo-processing-pr-7", "failed"],
      ["echo-redirect-pr-7", "failed"],
      ["echo-server-pr-7", "failed"],
      ["echo-shape-pr-7", "failed"],
      ["echo-type-pr-7", "failed"],
    ]);
    // Every kind of answer was displayed, with the token taken out; a 5xx is retried 20 times while the
    // run's deadline allows.
    expect(gitbook.requests.filter((r) => r.method === "PUT" && r.slug === "echo-server-pr-7")).toHaveLength(
      21,
    );
    expect(result.stdout).toContain("the token [REDACTED] may not be used here");
    expect(result.stdout).toContain('body.object is the string "[REDACTED]"');
    expect(result.summary).toContain("The token \\[REDACTED\\] may not upload here");
    expect(github.bodiesSent).toHaveLength(1);
    expect(github.bodiesSent[0]).toContain("cut: \\[REDACTED\\]");
    expect(result.outputs["comment-url"]).toContain("[REDACTED]");
    expectNoSecrets(shown(result, github.bodiesSent));
  });

  it("shows nothing of the GitBook token in a wrong-shaped answer to a check-mode lookup", async () => {
    const gitbook = await startStandIn(echoingGitBook);
    const github = await startGitHubStandIn();
    cleanups.push(gitbook.close, github.close);

    const result = await run(
      { "echo-lookup.yaml": minimalSpec("Lookup") },
      { gitbook: gitbook.url, github: github.url },
      { event: "push", inputs: { mode: "check" } },
    );

    expectMasksFirst(result);
    expect(results(result).map((r) => r.status)).toEqual(["failed"]);
    expect(result.annotations.map((a) => a.message).join("\n")).toContain('the string "[REDACTED]"');
    expectNoSecrets(shown(result, []));
  });

  it("shows nothing of the github-token that GitHub echoes in its errors and answers", async () => {
    const gitbook = await startStandIn((request) => ({
      status: request.method === "PUT" ? 201 : 200,
      body: request.path.includes("/versions/") ? versionBody("v1") : specBody(request.slug ?? ""),
    }));
    cleanups.push(gitbook.close);
    const answers: Answer[] = [
      {
        status: 403,
        body: { message: `Resource not accessible by integration (token ${GITHUB_TOKEN})` },
      },
      { status: 422, body: { message: `Validation Failed for ${GITHUB_TOKEN.slice(0, 12)}`, errors: [] } },
    ];
    for (const answer of answers) {
      const github = await startGitHubStandIn({ write: () => answer });
      cleanups.push(github.close);

      const result = await run(
        { "widgets.yaml": minimalSpec("Widgets") },
        { gitbook: gitbook.url, github: github.url },
      );

      expectMasksFirst(result);
      expect(result.exitCode).toBe(0);
      const warnings = result.annotations.filter((a) => a.level === "warning").map((a) => a.message);
      expect(warnings.join("\n")).toContain("Could not write the pull request comment");
      expect(warnings.join("\n")).toContain("[REDACTED]");
      expectNoSecrets(shown(result, github.bodiesSent));
    }
  });
});

/** Names of files and service fields that would each start a workflow command if written raw. */
const HOSTILE_FILES = {
  "a\n::warning::PWNED-file-lf.yaml": minimalSpec("A"),
  "b\r::notice::PWNED-file-cr.yaml": minimalSpec("B"),
  "c\r\n  ::error file=x.yaml::PWNED-file-crlf.yaml": minimalSpec("C"),
  "d ##[warning]PWNED-file-v1.yaml": minimalSpec("D"),
  "e%0A::warning::PWNED-file-percent.yaml": minimalSpec("E"),
  "::warning::PWNED-file-start.yaml": minimalSpec("F"),
};

function hostileGitBook(request: StandInRequest): Answer {
  const slug = request.slug ?? "";
  if (request.method === "DELETE") return { status: 204 };
  if (request.path.includes("/versions/")) {
    return {
      status: 200,
      body: versionBody("v\n##[error]PWNED-version-id", {
        url: "https://v.example/x\n::warning::PWNED-version-url",
        urls: { location: "https://v.example/", app: "https://app.example/\r::notice::PWNED-app-url" },
      }),
    };
  }
  if (slug.startsWith("b-")) {
    return {
      status: 201,
      body: specBody(slug, {
        lastProcessErrorCode: "BAD\n::error::PWNED-code",
        lastProcessedErrors: [
          {
            message:
              "line 1\n::error::PWNED-processing\r\n##[warning]PWNED-v1 <!-- hidden | `x` --> <img src=x>",
          },
        ],
      }),
    };
  }
  if (slug.startsWith("c-")) {
    return {
      status: 400,
      body: {
        error: { code: 400, message: "bad\n::warning::PWNED-service-error\r  ::notice::PWNED-again %0A" },
      },
    };
  }
  return { status: 201, body: specBody(slug, { id: "id\n::warning::PWNED-spec-id" }) };
}

/** Every command the runner reads from a run's stdout and stderr that the action did not issue itself. */
function foreignCommands(result: RunnerResult): string[] {
  const commands = [...parseRunnerCommands(result.stdout), ...parseRunnerCommands(result.stderr)];
  const ours = new Set(["add-mask", "group", "endgroup", "debug", "error", "warning", "notice"]);
  return commands
    .filter(
      (c) =>
        // @actions/core writes its commands at the start of a line, in the `::` form, with data of ours.
        c.form !== "v2" ||
        !c.line.startsWith("::") ||
        !ours.has(c.command) ||
        /^\s*PWNED/.test(c.data) ||
        Object.values(c.properties).some((value) => /^\s*PWNED/.test(value)),
    )
    .map((c) => c.line);
}

/** Table rows whose number of cells (unescaped `|`) differs from the header's. */
function brokenRows(markdown: string): string[] {
  const cells = (row: string) => row.split(/(?<!\\)\|/).length;
  const rows = markdown.split("\n").filter((line) => line.startsWith("|"));
  const header = rows[0];
  return header === undefined ? [] : rows.filter((row) => cells(row) !== cells(header));
}

describe("no workflow command that the action did not write (issue 8, item 2)", () => {
  it("file names and service fields with line breaks, %, :: and ##[ start no command", async () => {
    const gitbook = await startStandIn(hostileGitBook);
    const github = await startGitHubStandIn();
    cleanups.push(gitbook.close, github.close);

    const result = await run(HOSTILE_FILES, { gitbook: gitbook.url, github: github.url }, { process: true });

    // Every file was found, uploaded and reported.
    expect(results(result)).toHaveLength(Object.keys(HOSTILE_FILES).length);
    expect(gitbook.requests.filter((r) => r.method === "PUT")).toHaveLength(
      Object.keys(HOSTILE_FILES).length,
    );
    expect(result.stdout).toContain("PWNED-spec-id");
    expect(foreignCommands(result)).toEqual([]);
    expect(result.annotations.map((a) => a.message).filter((m) => m.startsWith("PWNED"))).toEqual([]);

    // The summary and the comment keep their tables, and carry no HTML from outside.
    expect(brokenRows(result.summary)).toEqual([]);
    expect(result.summary).not.toMatch(/<!--|-->|<img/);
    const [comment = ""] = github.bodiesSent;
    expect(brokenRows(comment)).toEqual([]);
    expect(comment.match(/<!--/g)).toHaveLength(2);
    expect(comment.match(/-->/g)).toHaveLength(2);
    expect(comment).not.toContain("<img");
  });

  it("slugs from a comment record start no command in a cleanup run", async () => {
    const gitbook = await startStandIn(hostileGitBook);
    const record = renderCommentState("default", {
      previews: [
        "widgets-pr-7",
        "x\n::warning::PWNED-state",
        "y\r##[error]PWNED-state-v1",
        "::notice::PWNED-z",
      ],
    });
    const github = await startGitHubStandIn({
      comments: [
        {
          id: 5,
          login: "github-actions[bot]",
          body: `<!-- gitbook-openapi-action:default -->\nOld\n${record}`,
        },
      ],
    });
    cleanups.push(gitbook.close, github.close);

    const result = await run(
      { "widgets.yaml": minimalSpec("Widgets") },
      { gitbook: gitbook.url, github: github.url },
      { event: "closed" },
    );

    expect(result.outputs.mode).toBe("cleanup");
    expect(gitbook.requests.filter((r) => r.method === "DELETE").map((r) => r.slug)).toContain(
      "widgets-pr-7",
    );
    expect(foreignCommands(result)).toEqual([]);
    expect(result.annotations.map((a) => a.message).filter((m) => m.startsWith("PWNED"))).toEqual([]);
    for (const body of github.bodiesSent) expect(brokenRows(body)).toEqual([]);
  });
});

describe("redaction at the sinks, never in the run's data (issue 16, item 12)", () => {
  /** Lowercase letters and digits of the token: a file name, and so a slug, can hold them by chance. */
  const PIECE = TOKEN.slice(7, 7 + FRAGMENT_LENGTH);
  const EMULATOR_ORG = "demo-org";

  async function emulatorWithToken() {
    const emulator = await startEmulator({ token: TOKEN, processing: { pendingMs: 5, progressMs: 5 } });
    cleanups.push(() => emulator.close());
    return emulator;
  }

  it("the action publishes a spec whose slug holds a piece of the token, and shows the token nowhere", async () => {
    expect(PIECE).toMatch(/^[a-z0-9]{8}$/);
    const emulator = await emulatorWithToken();
    const github = await startGitHubStandIn();
    cleanups.push(github.close);

    const result = await run(
      { [`${PIECE}-api-one.yaml`]: minimalSpec("One") },
      { gitbook: emulator.baseUrl, github: github.url },
      { inputs: { organization: EMULATOR_ORG } },
    );

    expectMasksFirst(result);
    expect(result.exitCode).toBe(0);
    expect(results(result).map((r) => r.status)).toEqual(["published"]);
    // GitBook holds it under its own slug, and the run asked for that slug, not a redacted one.
    expect(emulator.getSpec(EMULATOR_ORG, `${PIECE}-api-one-pr-7`)?.processingState).toBe("complete");
    expect(emulator.requests.filter((r) => r.path.includes("REDACTED"))).toEqual([]);
    expect(github.bodiesSent).toHaveLength(1);
    expect(result.outputs.results).toContain("[REDACTED]-api-one-pr-7");
    expectNoSecrets(shown(result, github.bodiesSent));
  });

  it("the command line publishes it too, and its stdout, stderr and JUnit file show nothing of the token", async () => {
    const emulator = await emulatorWithToken();
    const workspace = await emptyWorkspace({ [`${PIECE}-api-one.yaml`]: minimalSpec("One") });
    const reports = await mkdtemp(path.join(tmpdir(), "junit-"));
    cleanups.push(() => rm(workspace, { recursive: true, force: true }));
    cleanups.push(() => rm(reports, { recursive: true, force: true }));
    const junit = path.join(reports, "report.xml");

    const cli = await runCli(["sync", "--workspace", workspace, "--json", "--junit", junit], {
      env: { GITBOOK_TOKEN: TOKEN, GITBOOK_API_URL: emulator.baseUrl, GITBOOK_ORGANIZATION: EMULATOR_ORG },
    });

    expect(cli.code).toBe(0);
    const rows = JSON.parse(cli.stdout) as { slug: string; status: string }[];
    expect(rows.map((row) => [row.slug, row.status])).toEqual([["[REDACTED]-api-one", "published"]]);
    expect(emulator.getSpec(EMULATOR_ORG, `${PIECE}-api-one`)?.processingState).toBe("complete");
    const report = await readFile(junit, "utf8");
    expect(report).toContain("[REDACTED]-api-one");
    expectNoSecrets({ stdout: cli.stdout, stderr: cli.stderr, junit: report });
  });

  it("refuses a comment-key that holds the token by name, and writes no comment with it", async () => {
    const emulator = await emulatorWithToken();
    const github = await startGitHubStandIn();
    cleanups.push(github.close);

    const result = await run(
      { "widgets.yaml": minimalSpec("Widgets") },
      { gitbook: emulator.baseUrl, github: github.url },
      { inputs: { organization: EMULATOR_ORG, "comment-key": TOKEN.slice(0, 40).replace(/_/g, "-") } },
    );

    expect(result.exitCode).toBe(1);
    expect(result.annotations.map((a) => a.message).join("\n")).toContain(
      "Input 'comment-key': holds the value of the 'token' input",
    );
    expect(github.bodiesSent).toEqual([]);
    expect(emulator.requests).toEqual([]);
    expectNoSecrets(shown(result, github.bodiesSent));
  });
});
