/**
 * Issue 26, items 1–4, through the user's path: `gitbook-openapi bundle <file> --audience public` writes
 * no part marked internal and no name of one, and `sync` uploads exactly that text to GitBook (the
 * emulator), while the internal audience keeps everything. In process, through `runCli`.
 */
import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { type RunningEmulator, startEmulator } from "../../harness/emulator/index.ts";
import { danglingRefs } from "../../src/core/shaping/remove-internal.ts";
import { structuralIssues } from "../../src/core/validation/structure.ts";
import { emptyWorkspace } from "../e2e/helpers.ts";
import {
  INTERNAL_CASES,
  type InternalCase,
  NAMES_30,
  NEWER_OPERATIONS_32,
  TRUTHY_31,
  XNAMES_20,
  XNAMES_30,
} from "../shaping/internal-cases.ts";
import { runCli } from "./run-cli.ts";

const TOKEN = "tok-9f3a7c2e";
const ORG = "demo-org";
let emulator: RunningEmulator;
let workspace: string;

const slugOf = (item: InternalCase) => item.file.replace(/^api\//, "").replace(/\.yaml$/, "");

beforeAll(async () => {
  emulator = await startEmulator({ token: TOKEN, processing: { pendingMs: 5, progressMs: 5 } });
  const config = INTERNAL_CASES.map(
    (item) =>
      `  ${item.file}:\n    audiences:\n      public: { slug: ${slugOf(item)}, remove-internal: true }\n      internal: { slug: ${slugOf(item)}-internal }\n`,
  ).join("");
  workspace = await emptyWorkspace({
    "gitbook-openapi.yaml": `specs:\n${config}`,
    ...Object.fromEntries(INTERNAL_CASES.map((item) => [item.file, item.text])),
  });
});
afterAll(async () => {
  await emulator?.close();
  await rm(workspace, { recursive: true, force: true });
});

async function bundlePublic(item: InternalCase) {
  const run = await runCli(["bundle", item.file, "--audience", "public"], { cwd: workspace });
  expect(run.code, run.stderr).toBe(0);
  const document = parse(run.stdout) as Record<string, unknown>;
  delete document["x-publish-record"];
  const text = JSON.stringify(document);
  for (const name of item.gone) expect(text, `${item.file}: ${name} is left`).not.toContain(name);
  for (const name of item.kept) expect(text, `${item.file}: ${name} is gone`).toContain(name);
  expect(danglingRefs(document)).toEqual([]);
  expect(structuralIssues(document, String(document.openapi ?? document.swagger))).toEqual([]);
  return { ...run, document };
}

describe("bundle --audience public, then sync: nothing marked internal reaches the public document", () => {
  it("1. entries whose names start with x-: a response header, a property, a component, a scheme (3.0 and 2.0)", async () => {
    const v3 = await bundlePublic(XNAMES_30);
    expect(v3.stderr).toBe("");
    await bundlePublic(XNAMES_20);
  });

  it("2. OpenAPI 3.2's query and additionalOperations entries", async () => {
    const { document } = await bundlePublic(NEWER_OPERATIONS_32);
    const records = (document.paths as Record<string, Record<string, unknown>>)["/records"];
    expect(Object.keys(records ?? {})).toEqual(["get", "additionalOperations"]);
    expect(Object.keys((records?.additionalOperations as object) ?? {})).toEqual(["LINK"]);
  });

  it("3. truthy markings other than true: removed, each with a warning naming its place", async () => {
    const { stderr } = await bundlePublic(TRUTHY_31);
    for (const place of [
      "/paths/~1string-true/get",
      "/paths/~1yes/get",
      "/paths/~1one/get",
      "/paths/~1string-one/get",
    ])
      expect(stderr).toMatch(
        new RegExp(`x-internal: .*at \`${place.replaceAll("~", "\\~")}\`.*taken as marked`),
      );
    expect(stderr).toMatch(/x-internal: 0` at `\/paths\/~1zero\/get`.*not taken as marked/);
  });

  it("4. links and discriminator mappings naming removed parts", async () => {
    await bundlePublic(NAMES_30);
  });

  it("sync uploads what bundle writes for each public audience, and everything for the internal one", async () => {
    const synced = await runCli(["sync", "--workspace", workspace], {
      cwd: workspace,
      env: { GITBOOK_TOKEN: TOKEN, GITBOOK_API_URL: emulator.baseUrl, GITBOOK_ORGANIZATION: ORG },
    });
    expect(synced.code, synced.stdout + synced.stderr).toBe(0);
    expect(synced.stdout + synced.stderr).toMatch(
      /x-internal: "yes"` at `\/paths\/~1yes\/get` \(shaping api\/truthy-31\.yaml\)/,
    );
    for (const item of INTERNAL_CASES) {
      const bundled = await runCli(["bundle", item.file, "--audience", "public"], { cwd: workspace });
      const spec = emulator.getSpec(ORG, slugOf(item));
      expect(spec?.lastVersion, slugOf(item)).toBeDefined();
      const uploaded = emulator.getVersionText(ORG, slugOf(item), spec?.lastVersion as string) as string;
      expect(uploaded).toBe(bundled.stdout);
      for (const name of item.gone) expect(uploaded, `${item.file}: ${name}`).not.toContain(name);
      const internal = emulator.getSpec(ORG, `${slugOf(item)}-internal`);
      const whole = emulator.getVersionText(ORG, `${slugOf(item)}-internal`, internal?.lastVersion as string);
      for (const name of item.gone) expect(whole, `${item.file} (internal): ${name}`).toContain(name);
    }
  });
});
