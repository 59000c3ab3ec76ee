import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { type RunningEmulator, startEmulator } from "../../harness/emulator/index.ts";
import {
  call,
  closedPortUrl,
  type LocalServer,
  PETSTORE_JSON,
  PETSTORE_YAML,
  SWAGGER_YAML,
  startLocalServer,
  waitForSpec,
} from "../support/emulator-fixtures.ts";

let emulator: RunningEmulator;
const servers: LocalServer[] = [];

beforeAll(async () => {
  emulator = await startEmulator({
    processing: { pendingMs: 20, progressMs: 20 },
    fetchTimeoutMs: 200,
    faults: { stuckSlugs: ["stuck-spec"], refusedSlugs: ["refused-spec"] },
  });
});
afterAll(() => emulator.close());
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(listener: Parameters<typeof startLocalServer>[0]): Promise<LocalServer> {
  const server = await startLocalServer(listener);
  servers.push(server);
  return server;
}

describe("processing of a text source", () => {
  it("goes pending → progress → complete and creates a version", async () => {
    const slow = await startEmulator({ processing: { pendingMs: 30, progressMs: 300 } });
    try {
      const put = await call(slow, "PUT", "/orgs/demo-org/openapi/states", {
        json: { source: { text: PETSTORE_YAML } },
      });
      expect(put.body).toMatchObject({ processingState: "pending", lastProcessedErrorCount: 0 });
      expect(put.body).not.toHaveProperty("lastVersion");
      await waitForSpec(slow, "demo-org", "states", (s) => s.processingState === "progress");
      const done = await waitForSpec(slow, "demo-org", "states");
      expect(done).toMatchObject({ processingState: "complete", lastProcessedErrorCount: 0 });
      expect(done).not.toHaveProperty("lastProcessErrorCode");
      expect(done).not.toHaveProperty("lastProcessedErrors");
      expect(typeof done.lastVersion).toBe("string");
      expect(Date.parse(String(done.lastProcessedAt))).toBeGreaterThan(Date.parse(String(done.updatedAt)));
      expect(slow.getVersionText("demo-org", "states", String(done.lastVersion))).toBe(PETSTORE_YAML);
    } finally {
      await slow.close();
    }
  });

  it("serves versions: list, latest, by id, content and raw text", async () => {
    await call(emulator, "PUT", "/orgs/demo-org/openapi/versions", {
      json: { source: { text: PETSTORE_YAML } },
    });
    const first = await waitForSpec(emulator, "demo-org", "versions");
    await call(emulator, "PUT", "/orgs/demo-org/openapi/versions", {
      json: { source: { text: PETSTORE_JSON } },
    });
    const second = await waitForSpec(
      emulator,
      "demo-org",
      "versions",
      (s) => s.lastVersion !== first.lastVersion && s.processingState === "complete",
    );

    const list = await call(emulator, "GET", "/orgs/demo-org/openapi/versions/versions");
    expect(list.status).toBe(200);
    const items = (list.body as { items: { id: string }[]; count: number }).items;
    expect(items.map((v) => v.id)).toEqual([first.lastVersion, second.lastVersion]);
    expect(list.body).toMatchObject({ count: 2 });
    expect(list.body).not.toHaveProperty("next");

    const latest = await call(emulator, "GET", "/orgs/demo-org/openapi/versions/versions/latest");
    expect(latest.body).toMatchObject({
      object: "openapi-spec-version",
      id: second.lastVersion,
      urls: {
        location: `${emulator.baseUrl}/v1/orgs/demo-org/openapi/versions/versions/${second.lastVersion}`,
      },
    });
    const byId = await call(emulator, "GET", `/orgs/demo-org/openapi/versions/versions/${first.lastVersion}`);
    expect(byId.body).toMatchObject({ id: first.lastVersion });

    const content = await call(emulator, "GET", "/orgs/demo-org/openapi/versions/versions/latest/content");
    expect(content.body).toEqual({
      filesystem: [
        {
          dir: ".",
          filename: "openapi.json",
          isEntrypoint: true,
          references: [],
          specification: JSON.parse(PETSTORE_JSON),
        },
      ],
      url: (latest.body as { url: string }).url,
      urls: { source: (latest.body as { url: string }).url, public: null },
    });
    const firstContent = await call(
      emulator,
      "GET",
      `/orgs/demo-org/openapi/versions/versions/${first.lastVersion}/content`,
    );
    expect((firstContent.body as { filesystem: unknown }).filesystem).toEqual([
      {
        dir: ".",
        filename: "openapi.yaml",
        isEntrypoint: true,
        references: [],
        specification: parseYaml(PETSTORE_YAML),
      },
    ]);

    const raw = await call(
      emulator,
      "GET",
      `/orgs/demo-org/openapi/versions/versions/${first.lastVersion}/content/raw`,
    );
    expect(raw.body).toEqual({ text: PETSTORE_YAML, format: "yaml" });

    const file = await fetch((byId.body as { url: string }).url);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toContain("yaml");
    expect(await file.text()).toBe(PETSTORE_YAML);

    const unknown = await call(emulator, "GET", "/orgs/demo-org/openapi/versions/versions/ver_nope");
    expect(unknown.status).toBe(404);
  });

  it("answers 404 for the latest version while there is none", async () => {
    await call(emulator, "PUT", "/orgs/demo-org/openapi/stuck-spec", {
      json: { source: { text: PETSTORE_YAML } },
    });
    const latest = await call(emulator, "GET", "/orgs/demo-org/openapi/stuck-spec/versions/latest");
    expect(latest.status).toBe(404);
    expect((latest.body as { error: { message: string } }).error.message).toContain("no version yet");
    expect(
      (await call(emulator, "GET", "/orgs/demo-org/openapi/stuck-spec/versions/latest/content")).status,
    ).toBe(404);
  });

  it("accepts Swagger 2.0", async () => {
    await call(emulator, "PUT", "/orgs/demo-org/openapi/swagger", {
      json: { source: { text: SWAGGER_YAML } },
    });
    const done = await waitForSpec(emulator, "demo-org", "swagger");
    expect(done.lastProcessErrorCode).toBeUndefined();
    expect(done.lastVersion).toBeDefined();
  });
});

describe("PARSE_ERROR", () => {
  it("ends every processing of a refused slug with PARSE_ERROR, whatever its document", async () => {
    await call(emulator, "PUT", "/orgs/demo-org/openapi/refused-spec", {
      json: { source: { text: PETSTORE_YAML } },
    });
    const done = await waitForSpec(emulator, "demo-org", "refused-spec");
    expect(done).toMatchObject({ processingState: "complete", lastProcessErrorCode: "PARSE_ERROR" });
    expect(done.lastProcessedErrors).toEqual([
      { code: "INJECTED_FAULT", message: expect.stringContaining('refused the document of "refused-spec"') },
    ]);
    expect(done).not.toHaveProperty("lastVersion");
  });

  it.each([
    ["broken YAML", "openapi: 3.1.0\ninfo: [unclosed\n", /YAML error at line \d+, column \d+/],
    ["a YAML list", "- a\n- b\n", /a list, not a mapping/],
    ["a document without openapi", "info: {title: x}\n", /neither an "openapi" nor a "swagger"/],
    ["OpenAPI 4", "openapi: 4.0.0\n", /expected "3.x"/],
    ["Swagger 1.2", 'swagger: "1.2"\n', /only "2.0"/],
    ["broken JSON", '{"openapi": "3.1.0",', /YAML error/],
  ])("ends complete with PARSE_ERROR for %s", async (_what, text, message) => {
    const slug = `parse-${Math.random().toString(36).slice(2, 8)}`;
    await call(emulator, "PUT", `/orgs/demo-org/openapi/${slug}`, { json: { source: { text } } });
    const done = await waitForSpec(emulator, "demo-org", slug);
    expect(done).toMatchObject({ processingState: "complete", lastProcessErrorCode: "PARSE_ERROR" });
    const errors = done.lastProcessedErrors as { message: string }[];
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0]?.message).toMatch(message);
    expect(done.lastProcessedErrorCount).toBe(errors.length);
    expect(done).not.toHaveProperty("lastVersion");
  });

  it("keeps the previous lastVersion after a failed update, and clears the error on the next success", async () => {
    await call(emulator, "PUT", "/orgs/demo-org/openapi/keep", { json: { source: { text: PETSTORE_YAML } } });
    const good = await waitForSpec(emulator, "demo-org", "keep");
    const put = await call(emulator, "PUT", "/orgs/demo-org/openapi/keep", {
      json: { source: { text: "a: [" } },
    });
    expect(put.body).toMatchObject({ processingState: "pending", lastVersion: good.lastVersion });
    const bad = await waitForSpec(
      emulator,
      "demo-org",
      "keep",
      (s) => s.processingState === "complete" && s.lastProcessErrorCode !== undefined,
    );
    expect(bad.lastVersion).toBe(good.lastVersion);
    expect(Date.parse(String(bad.lastProcessedAt))).toBeGreaterThan(Date.parse(String(good.lastProcessedAt)));

    await call(emulator, "PUT", "/orgs/demo-org/openapi/keep", { json: { source: { text: PETSTORE_JSON } } });
    const fixed = await waitForSpec(
      emulator,
      "demo-org",
      "keep",
      (s) => s.processingState === "complete" && s.lastVersion !== good.lastVersion,
    );
    expect(fixed).not.toHaveProperty("lastProcessErrorCode");
    expect(fixed).not.toHaveProperty("lastProcessedErrors");
    expect(fixed.lastProcessedErrorCount).toBe(0);
    expect(emulator.listVersions("demo-org", "keep")).toHaveLength(2);
  });
});

describe("URL sources", () => {
  it("fetches the document and creates a version whose content names the source", async () => {
    const origin = await serve((req, res) => {
      if (req.url === "/petstore.yaml")
        res.writeHead(200, { "content-type": "application/yaml" }).end(PETSTORE_YAML);
      else res.writeHead(404).end();
    });
    const sourceURL = `${origin.url}/petstore.yaml`;
    await call(emulator, "PUT", "/orgs/demo-org/openapi/from-url", { json: { source: { url: sourceURL } } });
    const done = await waitForSpec(emulator, "demo-org", "from-url");
    expect(done).toMatchObject({ sourceURL, processingState: "complete", lastProcessedErrorCount: 0 });
    const content = await call(emulator, "GET", "/orgs/demo-org/openapi/from-url/versions/latest/content");
    expect(content.body).toMatchObject({
      urls: { source: sourceURL, public: null },
      filesystem: [
        { filename: "petstore.yaml", isEntrypoint: true, specification: parseYaml(PETSTORE_YAML) },
      ],
    });
  });

  it("ends FETCH_ERROR when the URL answers 404", async () => {
    const origin = await serve((_req, res) => res.writeHead(404).end("gone"));
    await call(emulator, "PUT", "/orgs/demo-org/openapi/url-404", {
      json: { source: { url: `${origin.url}/x.yaml` } },
    });
    const done = await waitForSpec(emulator, "demo-org", "url-404");
    expect(done).toMatchObject({ lastProcessErrorCode: "FETCH_ERROR", lastProcessedErrorCount: 1 });
    expect((done.lastProcessedErrors as { message: string }[])[0]?.message).toContain("answered 404");
  });

  it("ends FETCH_ERROR when nothing listens", async () => {
    const url = `${await closedPortUrl()}/spec.yaml`;
    await call(emulator, "PUT", "/orgs/demo-org/openapi/url-closed", { json: { source: { url } } });
    const done = await waitForSpec(emulator, "demo-org", "url-closed");
    expect(done.lastProcessErrorCode).toBe("FETCH_ERROR");
    expect((done.lastProcessedErrors as { message: string }[])[0]?.message).toContain("ECONNREFUSED");
  });

  it("ends FETCH_TIMEOUT when the URL never answers", async () => {
    const origin = await serve(() => {});
    await call(emulator, "PUT", "/orgs/demo-org/openapi/url-timeout", {
      json: { source: { url: `${origin.url}/slow` } },
    });
    const done = await waitForSpec(emulator, "demo-org", "url-timeout");
    expect(done.lastProcessErrorCode).toBe("FETCH_TIMEOUT");
    expect((done.lastProcessedErrors as { message: string }[])[0]?.message).toContain("200 ms");
  });

  it("parses the fetched text and reports PARSE_ERROR for a document that is not OpenAPI", async () => {
    const origin = await serve((_req, res) => res.writeHead(200).end("<html>hello</html>"));
    await call(emulator, "PUT", "/orgs/demo-org/openapi/url-html", { json: { source: { url: origin.url } } });
    const done = await waitForSpec(emulator, "demo-org", "url-html");
    expect(done.lastProcessErrorCode).toBe("PARSE_ERROR");
  });
});

describe("superseding, deleting and stuck specifications", () => {
  it("lets a later PUT win over one still processing", async () => {
    const origin = await serve(() => {});
    await call(emulator, "PUT", "/orgs/demo-org/openapi/supersede", {
      json: { source: { url: `${origin.url}/hang` } },
    });
    await call(emulator, "PUT", "/orgs/demo-org/openapi/supersede", {
      json: { source: { text: PETSTORE_YAML } },
    });
    const done = await waitForSpec(emulator, "demo-org", "supersede");
    expect(done.lastProcessErrorCode).toBeUndefined();
    expect(done.lastVersion).toBeDefined();
    expect(done).not.toHaveProperty("sourceURL");
    expect(emulator.listVersions("demo-org", "supersede")).toHaveLength(1);
  });

  it("keeps a stuck slug pending while other specifications complete", async () => {
    await call(emulator, "PUT", "/orgs/demo-org/openapi/stuck-spec", {
      json: { source: { text: PETSTORE_YAML } },
    });
    await call(emulator, "PUT", "/orgs/demo-org/openapi/not-stuck", {
      json: { source: { text: PETSTORE_YAML } },
    });
    await waitForSpec(emulator, "demo-org", "not-stuck");
    await waitForSpec(emulator, "demo-org", "not-stuck", (s) => s.processingState === "complete");
    const stuck = await call(emulator, "GET", "/orgs/demo-org/openapi/stuck-spec");
    expect(stuck.body).toMatchObject({ processingState: "pending" });
  });

  it("seeds a complete specification directly", async () => {
    const spec = emulator.seedSpec("demo-org", "seeded", PETSTORE_YAML);
    expect(spec).toMatchObject({ processingState: "complete", slug: "seeded" });
    const got = await call(emulator, "GET", "/orgs/demo-org/openapi/seeded/versions/latest/content");
    expect(got.status).toBe(200);
    expect(() => emulator.seedSpec("demo-org", "bad-seed", "nope: 1")).toThrow(/not OpenAPI/);
  });

  it("stops processing on close without leaving timers or fetches behind", async () => {
    const short = await startEmulator({ processing: { pendingMs: 10_000, progressMs: 10_000 } });
    await call(short, "PUT", "/orgs/demo-org/openapi/pending", { json: { source: { text: PETSTORE_YAML } } });
    await short.close();
    expect(short.getSpec("demo-org", "pending")?.processingState).toBe("pending");
    await expect(fetch(`${short.baseUrl}/v1/orgs/demo-org/openapi`)).rejects.toThrow();
  });
});
