import { describe, expect, it } from "vitest";
import { CliUsageError, parseCliArgs, parseOrganizationsFile } from "../../harness/emulator/cli-args.ts";
import { EmulatorOptionsError, startEmulator } from "../../harness/emulator/index.ts";
import { MAX_REPORTED_ERRORS, parseSpecText } from "../../harness/emulator/parse-document.ts";
import { matchRoute } from "../../harness/emulator/routes.ts";

describe("parseSpecText", () => {
  it("reads JSON and YAML and names the format", () => {
    expect(parseSpecText('{"openapi":"3.0.0"}')).toMatchObject({ ok: true, format: "json" });
    expect(parseSpecText("openapi: 3.1.0\n")).toMatchObject({ ok: true, format: "yaml" });
    expect(parseSpecText('{openapi: "3.1.0"}')).toMatchObject({ ok: true, format: "json" });
  });

  it("refuses a number as openapi version (YAML 3.1 without quotes is a number)", () => {
    expect(parseSpecText("openapi: 3.1\n")).toMatchObject({
      ok: false,
      errors: [{ code: "UNSUPPORTED_VERSION" }],
    });
  });

  it("reports every YAML error with its line, capped, and counts them all", () => {
    const text = Array.from({ length: 30 }, (_, i) => `k${i}: a\nk${i}: b`).join("\n");
    const outcome = parseSpecText(text);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.errors).toHaveLength(MAX_REPORTED_ERRORS);
    expect(outcome.errorCount).toBe(30);
    expect(outcome.errors[0]?.message).toMatch(/^YAML error at line 2, column 1: /);
  });

  it("refuses empty and scalar documents", () => {
    expect(parseSpecText("   \n")).toMatchObject({
      ok: false,
      errors: [{ message: expect.stringContaining("empty") }],
    });
    expect(parseSpecText("42")).toMatchObject({
      ok: false,
      errors: [{ message: expect.stringContaining("a number") }],
    });
  });
});

describe("matchRoute", () => {
  it("decodes path parameters and treats latest as a version id", () => {
    expect(matchRoute("GET", "/v1/orgs/my%20org/openapi/pet/versions/latest/content")).toEqual({
      found: true,
      route: { name: "getContent", orgId: "my org", slug: "pet", versionId: "latest" },
    });
    expect(matchRoute("get", "/v1/email-domains/Example.com/orgs")).toEqual({
      found: true,
      route: { name: "listOrgsForDomain", domain: "Example.com" },
    });
  });

  it("answers 405 with the allowed methods and 404 for unknown or malformed paths", () => {
    expect(matchRoute("DELETE", "/v1/orgs/o/openapi")).toEqual({
      found: false,
      status: 405,
      allow: ["GET", "POST"],
    });
    expect(matchRoute("GET", "/v1/orgs/o/openapi/")).toEqual({ found: false, status: 404 });
    expect(matchRoute("GET", "/v1/orgs/%E0%A4%A/openapi")).toEqual({ found: false, status: 404 });
    expect(matchRoute("GET", "/v2/orgs/o/openapi")).toEqual({ found: false, status: 404 });
  });
});

describe("parseCliArgs", () => {
  it("defaults to port 4010 and no faults", () => {
    expect(parseCliArgs([])).toEqual({ kind: "run", options: { port: 4010, processing: {}, faults: {} } });
  });

  it("reads every flag", () => {
    const command = parseCliArgs([
      "--port=0",
      "--host=0.0.0.0",
      "--token=t",
      "--orgs=orgs.json",
      "--pending-ms=10",
      "--progress-ms=20",
      "--fetch-timeout-ms=300",
      "--latency-ms=5",
      "--rate-429=0.1",
      "--rate-5xx=0.2",
      "--drop-rate=0.05",
      "--seed=9",
      "--stuck=a, b,,c",
    ]);
    expect(command).toEqual({
      kind: "run",
      orgsFile: "orgs.json",
      options: {
        port: 0,
        host: "0.0.0.0",
        token: "t",
        processing: { pendingMs: 10, progressMs: 20 },
        fetchTimeoutMs: 300,
        faults: {
          latencyMs: 5,
          rate429: 0.1,
          rate5xx: 0.2,
          dropRate: 0.05,
          seed: 9,
          stuckSlugs: ["a", "b", "c"],
        },
      },
    });
  });

  it("answers help", () => {
    expect(parseCliArgs(["--help"])).toEqual({ kind: "help" });
  });

  it.each([
    [["--port=70000"], /--port must be an integer from 0 to 65535, got "70000"/],
    [["--pending-ms=-5"], /--pending-ms must be an integer/],
    [["--rate-429=abc"], /--rate-429 must be a number from 0 to 1/],
    [["--rate-429=0.7", "--rate-5xx=0.7"], /must not exceed 1/],
    [["--token="], /--token must not be empty/],
    [["--nope"], /Unknown option '--nope'/],
    [["stray"], /positional/],
  ])("refuses %j", (argv, message) => {
    expect(() => parseCliArgs(argv)).toThrow(CliUsageError);
    expect(() => parseCliArgs(argv)).toThrow(message);
  });
});

describe("parseOrganizationsFile", () => {
  it("merges the file over the default organization", () => {
    const orgs = parseOrganizationsFile(
      JSON.stringify([
        { id: "demo-org", title: "Renamed" },
        { id: "acme", emailDomains: ["acme.test"] },
      ]),
      "orgs.json",
    );
    expect(orgs.map((o) => [o.id, o.title, o.emailDomains])).toEqual([
      ["demo-org", "Renamed", ["example.com"]],
      ["acme", "acme", ["acme.test"]],
    ]);
    expect(orgs[1]).toMatchObject({
      object: "organization",
      urls: { app: "https://app.gitbook.com/o/acme" },
    });
  });

  it.each([
    ["not json", /orgs.json is not valid JSON/],
    ['{"id":"x"}', /must hold a JSON array/],
    ["[1]", /item 0 must be an object/],
    ['[{"title":"x"}]', /item 0 needs a non-empty string "id"/],
    ['[{"id":"x","emailDomains":"a.test"}]', /emailDomains that is not an array of strings/],
  ])("refuses %s", (text, message) => {
    expect(() => parseOrganizationsFile(text, "orgs.json")).toThrow(message);
  });
});

describe("startEmulator options", () => {
  it("refuses invalid options with a message naming them", async () => {
    await expect(startEmulator({ processing: { pendingMs: -1 } })).rejects.toThrow(EmulatorOptionsError);
    await expect(startEmulator({ faults: { rate5xx: 1.5 } })).rejects.toThrow(/faults.rate5xx/);
    await expect(startEmulator({ token: "" })).rejects.toThrow(/token/);
  });

  it("uses the given token and app URL", async () => {
    const emulator = await startEmulator({ token: "other", appUrl: "https://app.test/" });
    try {
      expect(emulator.token).toBe("other");
      expect(emulator.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const spec = emulator.seedSpec("demo-org", "x", "openapi: 3.0.0\n");
      expect(spec.urls.app).toBe("https://app.test/o/demo-org/openapi/x");
    } finally {
      await emulator.close();
    }
  });
});
