import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultOrganization, type RunningEmulator, startEmulator } from "../../harness/emulator/index.ts";
import type { Organization, Spec, SpecVersion, SpecVersionContent } from "../../src/core/service/types.ts";
import { PETSTORE_YAML } from "../support/emulator-fixtures.ts";
import { type CliRun, runCli } from "./run-cli.ts";

const TOKEN = "cli-test-token-4f9a1c7e2b";
const ORG = "demo-org";
/** More than the emulator's default page (50), so that a full listing needs two pages. */
const SPEC_COUNT = 60;

let emulator: RunningEmulator;
let tmp: string;

beforeAll(async () => {
  emulator = await startEmulator({
    token: TOKEN,
    processing: { pendingMs: 5, progressMs: 5 },
    organizations: [
      defaultOrganization(),
      {
        ...defaultOrganization(),
        id: "other-org",
        title: "Other \u001b[31mred\u001b[0m",
        emailDomains: ["example.com"],
      },
    ],
    forbiddenOrganizations: ["secret-org"],
  });
  for (let i = 1; i <= SPEC_COUNT; i++) {
    emulator.seedSpec(ORG, `spec-${String(i).padStart(2, "0")}`, PETSTORE_YAML);
  }
  for (let i = 1; i <= 3; i++) {
    emulator.seedSpec(ORG, "pets", PETSTORE_YAML.replace("1.0.0", `1.0.${i}`));
  }
  tmp = await mkdtemp(path.join(tmpdir(), "gitbook-cli-"));
});

afterAll(async () => {
  await emulator?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/** Runs the CLI against the emulator with the token in GITBOOK_TOKEN. */
function cli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return runCli(args, {
    env: { GITBOOK_TOKEN: TOKEN, GITBOOK_API_URL: emulator.baseUrl, ...env },
  });
}

function json<T>(run: CliRun): T {
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as T;
}

function requestsTo(pathname: string) {
  return emulator.requests.filter((request) => request.path === pathname);
}

function expectNoToken(run: CliRun): void {
  expect(run.stdout).not.toContain(TOKEN);
  expect(run.stderr).not.toContain(TOKEN);
  // Nor a piece of it long enough to rebuild it.
  expect(`${run.stdout}\n${run.stderr}`).not.toContain(TOKEN.slice(0, 8));
}

describe("specs", () => {
  it("lists every specification as JSON, paging past the first page", async () => {
    const before = requestsTo(`/v1/orgs/${ORG}/openapi`).length;
    const specs = json<Spec[]>(await cli(["specs", "list", "-o", ORG, "--json"]));
    expect(specs).toHaveLength(SPEC_COUNT + 1);
    expect(specs[0]?.slug).toBe("spec-01");
    expect(specs.at(-1)?.slug).toBe("pets");
    expect(requestsTo(`/v1/orgs/${ORG}/openapi`).length - before).toBe(2);
  });

  it("stops at --limit, asking for a page no larger than needed", async () => {
    const before = emulator.requests.length;
    const specs = json<Spec[]>(
      await cli(["specs", "list", "--organization", ORG, "--json", "--limit", "55"]),
    );
    expect(specs.map((spec) => spec.slug)).toEqual(
      Array.from({ length: 55 }, (_, i) => `spec-${String(i + 1).padStart(2, "0")}`),
    );
    const sent = emulator.requests.slice(before);
    expect(sent.map((request) => `${request.path}?${request.query}`)).toEqual([
      `/v1/orgs/${ORG}/openapi?limit=55`,
    ]);
    expect(sent[0]?.userAgent).toMatch(/^gitbook-openapi\/\d+\.\d+\.\d+$/);
  });

  it("prints a table for people, the organization from GITBOOK_ORGANIZATION", async () => {
    const run = await cli(["specs", "list"], { GITBOOK_ORGANIZATION: ORG });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^SLUG\s+STATE\s+ERROR\s+LAST PROCESSED\s+LAST VERSION$/);
    expect(lines).toHaveLength(SPEC_COUNT + 2);
    expect(lines[1]).toMatch(/^spec-01\s+complete\s+-\s+\S+\s+ver_\S+$/);
  });

  it("shows one specification as JSON and as fields", async () => {
    const spec = json<Spec>(await cli(["specs", "get", "pets", "-o", ORG, "--json"]));
    expect(spec).toMatchObject({ object: "openapi-spec", slug: "pets", processingState: "complete" });

    const run = await cli(["specs", "get", "pets", "-o", ORG]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Slug: +pets$/m);
    expect(run.stdout).toMatch(/^State: +complete$/m);
    expect(run.stdout).toContain(`Last version: `);
    expect(run.stdout).toContain(spec.lastVersion);
  });

  it("fails with 1 and the service's reason for a specification that does not exist", async () => {
    const run = await cli(["specs", "get", "nope", "-o", ORG, "--json"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/404/);
    expect(run.stderr).toContain('No specification with slug "nope"');
  });

  it("refuses an invalid slug before sending anything, with 2", async () => {
    const before = emulator.requests.length;
    const run = await cli(["specs", "get", "Not_A_Slug", "-o", ORG]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("Invalid specification slug");
    expect(emulator.requests.length).toBe(before);
  });

  it("deletes a specification", async () => {
    emulator.seedSpec(ORG, "doomed", PETSTORE_YAML);
    const answer = json<unknown>(await cli(["specs", "delete", "doomed", "-o", ORG, "--json"]));
    expect(answer).toEqual({ deleted: true, organization: ORG, slug: "doomed" });
    expect(emulator.getSpec(ORG, "doomed")).toBeUndefined();

    emulator.seedSpec(ORG, "doomed-too", PETSTORE_YAML);
    const run = await cli(["specs", "delete", "doomed-too", "-o", ORG]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`Deleted specification doomed-too from organization ${ORG}.\n`);
  });
});

describe("versions", () => {
  it("lists the versions of a specification, as JSON and as a table", async () => {
    const expected = emulator.listVersions(ORG, "pets");
    expect(expected).toHaveLength(3);
    const versions = json<SpecVersion[]>(await cli(["versions", "list", "pets", "-o", ORG, "--json"]));
    expect(versions.map((version) => version.id)).toEqual(expected.map((version) => version.id));

    const limited = json<SpecVersion[]>(
      await cli(["versions", "list", "pets", "-o", ORG, "--json", "--limit", "2"]),
    );
    expect(limited).toHaveLength(2);

    const run = await cli(["versions", "list", "pets", "-o", ORG]);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ID\s+CREATED\s+URL$/);
    expect(lines).toHaveLength(4);
    expect(lines[1]?.startsWith(expected[0]?.id ?? "?")).toBe(true);
  });

  it("shows the latest version by default, and a version by id", async () => {
    const spec = emulator.getSpec(ORG, "pets");
    const latest = json<SpecVersion>(await cli(["versions", "get", "pets", "-o", ORG, "--json"]));
    expect(latest.id).toBe(spec?.lastVersion);
    const alias = json<SpecVersion>(await cli(["versions", "get", "pets", "latest", "-o", ORG, "--json"]));
    expect(alias.id).toBe(latest.id);

    const first = emulator.listVersions(ORG, "pets")[0];
    const byId = json<SpecVersion>(
      await cli(["versions", "get", "pets", first?.id ?? "?", "-o", ORG, "--json"]),
    );
    expect(byId.id).toBe(first?.id);

    const run = await cli(["versions", "get", "pets", first?.id ?? "?", "-o", ORG]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^Id: +${first?.id}$`, "m"));
    expect(run.stdout).toMatch(/^URL: +http:\/\/127\.0\.0\.1:\d+\/files\//m);
  });

  it("prints the content of a version", async () => {
    const content = json<SpecVersionContent>(await cli(["versions", "content", "pets", "-o", ORG, "--json"]));
    expect(content.filesystem).toMatchObject([
      { dir: ".", filename: "openapi.yaml", isEntrypoint: true, references: [] },
    ]);
    expect((content.filesystem as [{ specification: unknown }])[0].specification).toMatchObject({
      info: { version: "1.0.3" },
    });

    const first = emulator.listVersions(ORG, "pets")[0];
    const run = await cli(["versions", "content", "pets", first?.id ?? "?", "-o", ORG]);
    expect(run.code).toBe(0);
    expect(run.stdout.split("\n")[0]).toBe("# openapi.yaml (entrypoint)");
    expect(JSON.parse(run.stdout.slice(run.stdout.indexOf("\n") + 1))).toMatchObject({
      info: { version: "1.0.1" },
    });
  });
});

describe("orgs", () => {
  it("lists the organizations of an email domain", async () => {
    const orgs = json<Organization[]>(await cli(["orgs", "--email-domain", "example.com", "--json"]));
    expect(orgs.map((org) => org.id)).toEqual([ORG, "other-org"]);

    const run = await cli(["orgs"], { GITBOOK_ORGANIZATION_DOMAIN: "example.com" });
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ID\s+TITLE\s+HOSTNAME\s+EMAIL DOMAINS\s+APP URL$/);
    expect(lines[1]).toMatch(/^demo-org\s+Demo\s/);
    // A title from the service cannot drive the terminal: its escape character is shown, not sent.
    expect(run.stdout).not.toContain("\u001b");
    expect(lines[2]).toContain("Other \\u001b[31mred\\u001b[0m");
  });

  it("requires --email-domain, with 2", async () => {
    const run = await cli(["orgs"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--email-domain");
    expect(run.stdout).toBe("");
  });
});

describe("settings and exit codes", () => {
  it("requires the organization, with 2 naming --organization, before anything is sent", async () => {
    const before = emulator.requests.length;
    const run = await cli(["specs", "list"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--organization: missing/);
    expect(emulator.requests.length).toBe(before);
  });

  it("answers an unknown flag with 2, naming the flag", async () => {
    const run = await cli(["specs", "list", "-o", ORG, "--colour"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("unknown option '--colour'");
  });

  it("answers a bad --limit with 2, naming the flag", async () => {
    const run = await cli(["specs", "list", "-o", ORG, "--limit", "0"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--limit");
  });

  it("answers a command without its argument or with one too many with 2", async () => {
    expect((await cli(["specs", "get", "-o", ORG])).code).toBe(2);
    expect((await cli(["specs", "list", "extra", "-o", ORG])).code).toBe(2);
    expect((await cli(["specs"])).code).toBe(2);
    expect((await cli(["spec", "list"])).code).toBe(2);
  });

  it("refuses plain http to a host that is not loopback, with 2 naming --api-url", async () => {
    const run = await cli(["specs", "list", "-o", ORG, "--api-url", "http://example.com"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--api-url:");
    expect(run.stderr).toContain("plain http");
    const fromEnv = await cli(["specs", "list", "-o", ORG], { GITBOOK_API_URL: "http://10.1.2.3:8080" });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toContain("GITBOOK_API_URL:");
  });

  it("requires a token, with 2 naming GITBOOK_TOKEN and --token-file", async () => {
    const run = await runCli(["specs", "list", "-o", ORG], { env: { GITBOOK_API_URL: emulator.baseUrl } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("GITBOOK_TOKEN or --token-file");
  });

  it("reads the token from --token-file, and names the flag when the file is missing", async () => {
    const file = path.join(tmp, "token");
    await writeFile(file, `${TOKEN}\n`);
    const run = await runCli(["specs", "list", "-o", ORG, "--json", "--limit", "1", "--token-file", file], {
      env: { GITBOOK_API_URL: emulator.baseUrl },
    });
    expect(json<Spec[]>(run)).toHaveLength(1);

    const missing = await cli(["specs", "list", "-o", ORG, "--token-file", path.join(tmp, "absent")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--token-file: cannot read .*absent.*ENOENT/);
  });

  it("never takes the token from a flag, and never echoes it", async () => {
    for (const args of [
      ["specs", "list", "-o", ORG, `--token=${TOKEN}`],
      ["specs", "list", "-o", ORG, "--token", TOKEN],
    ]) {
      const run = await runCli(args, { env: { GITBOOK_API_URL: emulator.baseUrl } });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("--token: not accepted");
      expectNoToken(run);
    }
  });

  it("exits with 3 when the service refuses the token, without printing it", async () => {
    const wrong = "wrong-token-a8d7e6f5c4b3";
    const run = await cli(["specs", "list", "-o", ORG], { GITBOOK_TOKEN: wrong });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain("401");
    expect(run.stderr).not.toContain(wrong.slice(0, 8));
    expect(run.stdout).toBe("");
  });

  it("exits with 3 when the organization is refused", async () => {
    const run = await cli(["specs", "list", "-o", "secret-org", "--json"]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain("403");
    expect(run.stdout).toBe("");
    expectNoToken(run);
  });

  it("keeps the token out of the output of a failing call, whatever the service or the user echo", async () => {
    emulator.script({
      path: `/v1/orgs/${ORG}/openapi/pets`,
      fault: { status: 400, body: { error: { code: 400, message: `bad request for Bearer ${TOKEN}` } } },
    });
    const echoed = await cli(["specs", "get", "pets", "-o", ORG]);
    expect(echoed.code).toBe(1);
    expect(echoed.stderr).toContain("bad request for Bearer");
    expectNoToken(echoed);

    // The token typed where a slug goes is redacted from the "not found" message too.
    const typed = await cli(["specs", "get", TOKEN, "-o", ORG]);
    expect(typed.code).toBe(1);
    expectNoToken(typed);
  });
});

describe("help", () => {
  const commands = [
    [],
    ["specs", "list"],
    ["specs", "get"],
    ["specs", "delete"],
    ["versions", "list"],
    ["versions", "get"],
    ["versions", "content"],
    ["orgs"],
    ["sync"],
  ];

  it.each(commands.map((command) => [command.join(" ") || "(root)", command]))(
    "%s --help shows examples and the exit codes",
    async (_name, command) => {
      const run = await runCli([...(command as string[]), "--help"]);
      expect(run.code).toBe(0);
      expect(run.stderr).toBe("");
      expect(run.stdout).toContain(`Usage: gitbook-openapi ${(command as string[]).join(" ")}`.trimEnd());
      expect(run.stdout).toContain("Examples:");
      expect(run.stdout).toContain("Exit codes:");
      expect(run.stdout).toContain("3  the service refused the token or the organization");
    },
  );

  it("prints the version", async () => {
    const run = await runCli(["--version"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});
