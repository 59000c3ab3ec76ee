/**
 * What a publish record proves, through `gitbook-openapi sync` against the emulator, with real git
 * repositories (issue 25, items 3 to 6): a record proves ownership of the slug it was written for, in the
 * content it sits in, on the word of a commit the run descends from, and only in a run where every spec
 * went through. docs/design/ownership.md.
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { load } from "js-yaml";
import { describe, expect, it } from "vitest";
import { digestOf, ownerKey, RECORD_KEY } from "../../src/core/ownership/ownership.ts";
import { git } from "../support/git.ts";
import { slugsUnder } from "../support/slugs-under.ts";
import { emulatorEnv, ORG, useEmulator, useTempDirs } from "../support/use-emulator.ts";
import { type CliRun, runCli } from "./run-cli.ts";

const TOKEN = "tok-5c8e2a9d1f7b";
const spec = (title: string) => `openapi: 3.1.0\ninfo:\n  title: ${title}\n  version: 1.0.0\npaths: {}\n`;
const REPO_A = { GIT_URL: "git@github.com:acme/pay.git" };
const REPO_B = { GIT_URL: "git@github.com:acme/pay-v2.git" };

const emulator = useEmulator(TOKEN);
const folder = useTempDirs("gitbook-cli-ownership-");

async function writeFiles(dir: string, files: Record<string, string>): Promise<void> {
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
}

/** A git repository holding `files` in its first commit. */
async function repository(files: Record<string, string>): Promise<string> {
  const dir = await folder();
  await writeFiles(dir, files);
  git(dir, "init", "-q");
  commitAll(dir, "first");
  return dir;
}

function commitAll(dir: string, message: string): string {
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "--allow-empty", "-m", message);
  return git(dir, "rev-parse", "HEAD");
}

function sync(
  dir: string,
  prefix: string,
  env: Record<string, string>,
  extra: readonly string[] = [],
): Promise<CliRun> {
  return runCli(["sync", "--workspace", dir, "--slug-prefix", prefix, "--json", ...extra], {
    env: { ...emulatorEnv(emulator(), TOKEN), ...env },
  });
}

const prune = (dir: string, prefix: string, env: Record<string, string>) =>
  sync(dir, prefix, env, ["--prune"]);

const slugs = (prefix: string) => slugsUnder(emulator(), ORG, prefix);

/** The text GitBook holds for a slug, as last uploaded (its record included). */
function heldText(slug: string): string {
  const spec = emulator().getSpec(ORG, slug);
  const text = spec?.lastVersion && emulator().getVersionText(ORG, slug, spec.lastVersion);
  if (!text) throw new Error(`GitBook holds no text for ${slug}`);
  return text;
}

const rows = (run: CliRun) =>
  (JSON.parse(run.stdout) as { slug: string; status: string; errorCode: string | null }[]).map((r) => [
    r.slug,
    r.status,
  ]);

describe("a publish record proves ownership of the slug it was written for", () => {
  it("a copy of A's record under B's slugs, by a vendored document or an overlay, deletes nothing of B's", async () => {
    const a = await repository({ "orders.yaml": spec("Orders"), "refunds.yaml": spec("Refunds") });
    expect((await sync(a, "pay", REPO_A)).code).toBe(0);
    const served = load(heldText("pay-orders")) as Record<string, unknown>;
    expect(served[RECORD_KEY]).toMatchObject({ path: "orders.yaml" });

    // Repository B vendors the document GitBook serves for A's pay-orders, record included.
    const b = await repository({ "orders.json": JSON.stringify(served, null, 2) });
    expect((await sync(b, "pay-v2", REPO_B)).code).toBe(0);
    // Someone uploads A's served refunds, record and all, as pay-v2-refunds, without this tool.
    emulator().seedSpec(ORG, "pay-v2-refunds", heldText("pay-refunds"));
    // Repository C's overlay writes A's record into its own document.
    const overlay = `overlay: 1.0.0\ninfo: {title: Forge, version: '1'}\nactions:\n  - target: $\n    update:\n      ${RECORD_KEY}: ${JSON.stringify(served[RECORD_KEY])}\n`;
    const c = await repository({
      "ledger.yaml": spec("Ledger"),
      "overlays/forge.yaml": overlay,
      "gitbook-openapi.yaml": "specs:\n  ledger.yaml:\n    overlays: [overlays/forge.yaml]\n",
    });
    const shaped = await sync(c, "pay-v3", { GIT_URL: "git@github.com:acme/ledger.git" });
    expect(shaped.code, shaped.stderr).toBe(0);

    const next = await prune(a, "pay", REPO_A);
    expect(next.code, next.stderr).toBe(0);
    expect(slugs("pay")).toEqual([
      "pay-orders",
      "pay-refunds",
      "pay-v2-orders",
      "pay-v2-refunds",
      "pay-v3-ledger",
    ]);
    expect(next.stderr).toContain(
      "pay-v2-refunds: its publish record was written for 'pay-refunds': copied under another slug, it proves nothing",
    );
    // B's and C's uploads carry their own records, never the copy.
    expect(shaped.stderr).toContain("the shaped document holds `x-publish-record`");
    expect(load(heldText("pay-v2-orders"))).toMatchObject({ [RECORD_KEY]: { slug: "pay-v2-orders" } });
    expect(load(heldText("pay-v3-ledger"))).toMatchObject({
      [RECORD_KEY]: { path: "ledger.yaml", slug: "pay-v3-ledger" },
    });
  });
});

describe("a publish record proves sameness only in the content it describes", () => {
  it("other content carrying this file's record is uploaded over, not reported unchanged", async () => {
    const a = await repository({ "pets.yaml": spec("Pets") });
    expect((await sync(a, "zoo", REPO_A)).code).toBe(0);
    const recordLine = heldText("zoo-pets").split("\n")[0] as string;
    expect(recordLine).toMatch(/^x-publish-record: /);
    emulator().seedSpec(ORG, "zoo-pets", `${recordLine}\n${spec("Forged")}`);

    const again = await sync(a, "zoo", REPO_A);
    expect(again.code, again.stderr).toBe(0);
    expect(rows(again)).toEqual([["zoo-pets", "published"]]);
    expect(again.stderr).toContain("GitBook's document is not the one its `x-publish-record` describes");
    expect(heldText("zoo-pets")).toContain("title: Pets");
    expect(heldText("zoo-pets")).not.toContain("Forged");

    // The real file, once uploaded, is unchanged on the next run.
    expect(rows(await sync(a, "zoo", REPO_A))).toEqual([["zoo-pets", "unchanged"]]);
  });
});

describe("prune deletes only on the word of a commit the run descends from", () => {
  it("a run on an older commit keeps what a newer run published", async () => {
    const a = await repository({ "orders.yaml": spec("Orders") });
    const older = git(a, "rev-parse", "HEAD");
    await writeFiles(a, { "refunds.yaml": spec("Refunds") });
    const newer = commitAll(a, "add refunds");
    expect((await prune(a, "shop", REPO_A)).code).toBe(0);
    expect(slugs("shop")).toEqual(["shop-orders", "shop-refunds"]);

    // A re-run of the workflow at the commit before refunds.yaml was added.
    git(a, "checkout", "-q", older);
    const stale = await prune(a, "shop", REPO_A);
    expect(stale.code, stale.stderr).toBe(0);
    expect(slugs("shop")).toEqual(["shop-orders", "shop-refunds"]);
    expect(load(heldText("shop-refunds"))).toMatchObject({ [RECORD_KEY]: { commit: newer } });
    expect(stale.stderr).toContain(
      `shop-refunds: it was published from the commit ${newer.slice(0, 12)}, which this run's commit does not descend from`,
    );

    // The commit that removes refunds.yaml descends from the one that published it: pruned.
    git(a, "checkout", "-q", newer);
    await rm(path.join(a, "refunds.yaml"));
    commitAll(a, "remove refunds");
    const removed = await prune(a, "shop", REPO_A);
    expect(removed.code, removed.stderr).toBe(0);
    expect(rows(removed)).toContainEqual(["shop-refunds", "deleted"]);
    expect(slugs("shop")).toEqual(["shop-orders"]);
  });

  it("a record an earlier version wrote, without slug or commit, is kept with a note", async () => {
    const a = await repository({ "orders.yaml": spec("Orders") });
    const owner = ownerKey({ repository: "github.com/acme/pay", slugPrefix: "old" });
    const text = spec("Gone");
    const earlier = { tool: "gitbook-openapi", owner, path: "gone.yaml", digest: digestOf(text) };
    emulator().seedSpec(ORG, "old-gone", `${RECORD_KEY}: ${JSON.stringify(earlier)}\n${text}`);

    const run = await prune(a, "old", REPO_A);
    expect(run.code, run.stderr).toBe(0);
    expect(slugs("old")).toEqual(["old-gone", "old-orders"]);
    expect(run.stderr).toContain(
      "old-gone: its publish record does not name the slug and commit it was published from",
    );
  });

  it("a shallow clone keeps the spec and says how to fetch the history", async () => {
    const a = await repository({ "orders.yaml": spec("Orders"), "refunds.yaml": spec("Refunds") });
    expect((await prune(a, "mart", REPO_A)).code).toBe(0);
    await rm(path.join(a, "refunds.yaml"));
    commitAll(a, "remove refunds");
    const clone = path.join(await folder(), "clone");
    git(a, "clone", "-q", "--depth", "1", `file://${a}`, clone);
    expect(git(clone, "rev-parse", "--is-shallow-repository")).toBe("true");

    const shallow = await prune(clone, "mart", REPO_A);
    expect(shallow.code, shallow.stderr).toBe(0);
    expect(slugs("mart")).toEqual(["mart-orders", "mart-refunds"]);
    expect(shallow.stderr).toContain("`fetch-depth: 0` on actions/checkout, `GIT_DEPTH: 0` in GitLab CI");

    const full = await prune(a, "mart", REPO_A);
    expect(full.code, full.stderr).toBe(0);
    expect(slugs("mart")).toEqual(["mart-orders"]);
  });
});

describe("a run in which a spec failed deletes nothing", () => {
  it("renaming billing.yaml to an invalid billing-v2.yaml keeps the live spec of billing.yaml, saying why", async () => {
    const a = await repository({ "billing.yaml": spec("Billing"), "users.yaml": spec("Users") });
    expect((await prune(a, "svc", REPO_A)).code).toBe(0);
    git(a, "mv", "billing.yaml", "billing-v2.yaml");
    await writeFile(path.join(a, "billing-v2.yaml"), "openapi: 3.1.0\ninfo:\n  title: Billing\npaths: 12\n");
    commitAll(a, "rename, broken");

    const renamed = await prune(a, "svc", REPO_A);
    expect(renamed.code).toBe(1);
    expect(emulator().requests.filter((r) => r.method === "DELETE" && r.path.includes("svc-"))).toEqual([]);
    expect(slugs("svc")).toEqual(["svc-billing", "svc-users"]);
    expect(renamed.stderr).toContain(
      "Nothing was pruned: 1 spec failed in this run (billing-v2.yaml), and a failed spec may be the new home of one that would be deleted",
    );
  });
});
