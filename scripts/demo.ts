/**
 * `npm run demo`: the product in three runs of the built action (dist/index.js), run as the GitHub runner
 * would, against the bundled emulator of GitBook and a fake GitHub, both on loopback: no token, no
 * network. The workspace is a git copy of examples/.
 *
 * 1. A push: every spec is published, but GitBook refuses one (the emulator is told to refuse it, with
 *    GitBook's error code `PARSE_ERROR`): the run fails and says why.
 * 2. The same commit again: GitBook already holds the other specs, so they are `unchanged` (nothing
 *    uploaded); the refused one fails again.
 * 3. A pull request that removes an operation: each spec gets a preview, and the pull request gets one
 *    comment with the results and the breaking change, printed here as GitHub would show its Markdown.
 *
 * Every link printed is the emulator's own (checked at the end).
 */
import { execFileSync } from "node:child_process";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { startEmulator } from "../harness/emulator/index.ts";
import { startFakeGitHub } from "../harness/fakes/fake-github.ts";
import {
  ACTION_BUNDLE,
  type RunnerOptions,
  type RunnerResult,
  renderLogAsRunner,
  repositoryRoot,
  runActionLikeRunner,
} from "../harness/runner/action-runner.ts";

const ORG = "demo-org";
const REPOSITORY = "acme/widgets";
/** The spec GitBook refuses in this demo. */
const REFUSED = "specs-billing";
const PULL_REQUEST = 7;

const printed: string[] = [];
function say(text = ""): void {
  printed.push(text);
  console.log(text);
}
function heading(text: string): void {
  say(`\n━━ ${text} ${"━".repeat(Math.max(0, 76 - text.length))}`);
}

const emulator = await startEmulator({
  processing: { pendingMs: 300, progressMs: 500 },
  faults: { refusedSlugs: [REFUSED] },
});
const github = await startFakeGitHub();
const workspace = await mkdtemp(path.join(tmpdir(), "gitbook-openapi-demo-"));
const git = (...args: string[]) =>
  execFileSync("git", args, {
    cwd: workspace,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "Demo",
      GIT_AUTHOR_EMAIL: "demo@example.com",
      GIT_COMMITTER_NAME: "Demo",
      GIT_COMMITTER_EMAIL: "demo@example.com",
    },
  }).trim();

let failures = 0;
/** A claim the demo makes about what it shows; a wrong one is said, and fails the demo. */
function expectShown(ok: boolean, what: string): void {
  if (ok) return;
  failures += 1;
  say(`\n!! The demo did not show what it should: ${what}`);
}

try {
  await cp(path.join(repositoryRoot, "examples"), workspace, { recursive: true });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "Specs");
  const base = git("rev-parse", "HEAD");

  say(`Emulator of the GitBook API on ${emulator.baseUrl} (organization ${ORG}, token ${emulator.token});`);
  say(`fake GitHub API on ${github.apiUrl}. The repository: a git copy of examples/ in ${workspace}.`);
  say(`GitBook is told to refuse '${REFUSED}' (the emulator's refusedSlugs), as its parser may refuse a`);
  say("document that passed every local check.");

  const run = (options: Partial<RunnerOptions>) =>
    runActionLikeRunner({
      entry: ACTION_BUNDLE,
      workspace,
      inputs: { token: emulator.token, organization: ORG, "api-url": emulator.baseUrl },
      ...options,
      env: { GITHUB_REPOSITORY: REPOSITORY, GITHUB_API_URL: github.apiUrl, ...options.env },
    });

  heading("1. A push to main: publish every spec");
  const first = await run({ env: { GITHUB_SHA: base } });
  say("── The action's log ──");
  say(renderLogAsRunner(first.stdout));
  if (first.stderr.trim()) say(first.stderr.trimEnd());
  showSummaryAndOutputs(first);
  const firstResults = resultsOf(first);
  expectShown(
    firstResults.some((r) => r.slug === REFUSED && r.status === "failed" && r.errorCode === "PARSE_ERROR"),
    `'${REFUSED}' failed with PARSE_ERROR`,
  );
  expectShown(first.exitCode === 1, "the first run fails (exit code 1)");

  heading(`2. The same commit again: nothing to upload but '${REFUSED}', which GitBook refused`);
  const second = await run({ env: { GITHUB_SHA: base } });
  showSummaryAndOutputs(second);
  const secondResults = resultsOf(second);
  expectShown(
    secondResults.filter((r) => r.slug !== REFUSED).every((r) => r.status === "unchanged"),
    "every spec but the refused one is unchanged on the second run",
  );

  heading(`3. Pull request #${PULL_REQUEST}: a preview of each spec, and one comment`);
  git("checkout", "-q", "-b", "drop-create");
  const widgets = path.join(workspace, "openapi.yaml");
  const before = await readFile(widgets, "utf8");
  await writeFile(widgets, withoutPost(before));
  git("commit", "-q", "-am", "Drop POST /widgets");
  const head = git("rev-parse", "HEAD");
  say("The branch removes the operation POST /widgets from openapi.yaml: a breaking change.");
  const preview = await run({
    githubToken: "ghs_demoToken0000000000000000000000000",
    eventName: "pull_request",
    eventPayload: {
      action: "synchronize",
      number: PULL_REQUEST,
      pull_request: {
        number: PULL_REQUEST,
        head: { sha: head, ref: "drop-create", repo: { full_name: REPOSITORY } },
        base: { sha: base, ref: "main", repo: { full_name: REPOSITORY } },
      },
    },
    env: { GITHUB_SHA: head },
  });
  say(`Exit code ${preview.exitCode}; the results: ${countsOf(preview)}.`);
  const comment = github.comments(PULL_REQUEST)[0];
  say(`\n── The comment on pull request #${PULL_REQUEST} (Markdown, as GitHub receives it) ──`);
  say(comment?.body.trimEnd() ?? "(no comment was written)");
  expectShown(comment !== undefined, "the preview wrote its comment");
  expectShown(comment?.body.includes("breaking") === true, "the comment lists the breaking change");

  heading("The emulator now holds");
  for (const spec of emulator.listSpecs(ORG)) {
    const error = spec.lastProcessErrorCode ? `, last processing failed: ${spec.lastProcessErrorCode}` : "";
    say(`${spec.slug}: ${spec.processingState}, last version ${spec.lastVersion ?? "none"}${error}`);
  }

  // The comment links each change to its line in the repository, as it would on github.com.
  const repositoryLines = `https://github.com/${REPOSITORY}/blob/`;
  const foreign = linksOf(printed.join("\n")).filter(
    (url) =>
      !url.startsWith(emulator.baseUrl) && !url.startsWith(github.apiUrl) && !url.startsWith(repositoryLines),
  );
  expectShown(
    foreign.length === 0,
    `every link is the emulator's own or a line of the repository (found ${foreign.join(", ")})`,
  );
  say(
    "\nThe emulator stops with the demo, so the links above no longer answer. Run it yourself with" +
      " `npm run emulator`, and see README.md for the workflows to add to a repository.",
  );
  process.exitCode = failures > 0 ? 1 : 0;
} finally {
  await emulator.close();
  await github.close();
  await rm(workspace, { recursive: true, force: true });
}

interface Result {
  file: string;
  slug: string;
  status: string;
  errorCode: string | null;
}

function resultsOf(run: RunnerResult): Result[] {
  return JSON.parse(run.outputs.results ?? "[]") as Result[];
}

function countsOf(run: RunnerResult): string {
  const counts = new Map<string, number>();
  for (const result of resultsOf(run)) counts.set(result.status, (counts.get(result.status) ?? 0) + 1);
  return [...counts].map(([status, count]) => `${count} ${status}`).join(", ");
}

function showSummaryAndOutputs(run: RunnerResult): void {
  say("\n── Job summary (GITHUB_STEP_SUMMARY) ──");
  say(run.summary.trimEnd());
  say("\n── Outputs ──");
  for (const name of ["published", "unchanged", "failed"]) say(`${name}: ${run.outputs[name] ?? ""}`);
  say(`results: ${resultsOf(run).length} records (file, slug, status, links, error), as --json prints them`);
  say(`Exit code: ${run.exitCode}`);
}

/** examples/openapi.yaml without its `post` operation: the lines from `    post:` to `components:`. */
function withoutPost(yaml: string): string {
  const start = yaml.indexOf("\n    post:\n");
  const end = yaml.indexOf("\ncomponents:", start);
  if (start < 0 || end < 0)
    throw new Error("examples/openapi.yaml has no `post` operation before `components:`");
  return yaml.slice(0, start) + yaml.slice(end);
}

function linksOf(text: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s)>\]"'`|]+/g)].map((match) => match[0]);
}
