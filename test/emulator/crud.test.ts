import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../harness/emulator/index.ts";
import { call, PETSTORE_YAML } from "../support/emulator-fixtures.ts";

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({
    processing: { pendingMs: 5, progressMs: 5 },
    organizations: [
      {
        object: "organization",
        id: "demo-org",
        title: "Demo",
        emailDomains: ["Example.com"],
        urls: { location: "x", app: "y" },
      },
      {
        object: "organization",
        id: "other-org",
        title: "Other",
        emailDomains: ["example.com", "other.org"],
        urls: { location: "x", app: "y" },
      },
    ],
    forbiddenOrganizations: ["secret-org"],
  });
});
afterAll(() => emulator.close());

const text = { source: { text: PETSTORE_YAML } };

describe("specification CRUD", () => {
  it("links to itself: a spec's and a version's app links open a page of the emulator", async () => {
    const spec = emulator.seedSpec("demo-org", "crud-app", PETSTORE_YAML);
    const [version] = emulator.listVersions("demo-org", "crud-app");
    expect(spec.urls.app).toBe(`${emulator.baseUrl}/o/demo-org/openapi/crud-app`);
    const page = await fetch(spec.urls.app);
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain('OpenAPI specification "crud-app" of organization "demo-org"');
    expect(text).toContain(`${emulator.baseUrl}/files/demo-org/crud-app/${version?.id}/openapi.yaml`);
    const versionPage = await fetch(`${spec.urls.app}/versions/${version?.id}`);
    expect(versionPage.status).toBe(200);
    expect((await fetch(`${spec.urls.app}/versions/nope`)).status).toBe(404);
    expect((await fetch(`${emulator.baseUrl}/o/demo-org/openapi/absent`)).status).toBe(404);
  });

  it("creates with POST (201), refuses a second POST of the same slug (400) and gets it back", async () => {
    const created = await call(emulator, "POST", "/orgs/demo-org/openapi", {
      json: { slug: "crud-a", ...text },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      object: "openapi-spec",
      slug: "crud-a",
      processingState: "pending",
      visibility: "private",
      permissions: { view: true, edit: true },
      urls: {
        location: `${emulator.baseUrl}/v1/orgs/demo-org/openapi/crud-a`,
        app: `${emulator.baseUrl}/o/demo-org/openapi/crud-a`,
      },
    });
    expect(created.body).not.toHaveProperty("sourceURL");

    const again = await call(emulator, "POST", "/orgs/demo-org/openapi", {
      json: { slug: "crud-a", ...text },
    });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({
      error: { code: 400, message: expect.stringContaining('"crud-a" already exists') },
    });

    const got = await call(emulator, "GET", "/orgs/demo-org/openapi/crud-a");
    expect(got.status).toBe(200);
    expect((got.body as { id: string }).id).toBe((created.body as { id: string }).id);
  });

  it("PUT answers 201 when it creates and 200 when it updates, changing updatedAt every time", async () => {
    const first = await call(emulator, "PUT", "/orgs/demo-org/openapi/crud-put", { json: text });
    expect(first.status).toBe(201);
    const second = await call(emulator, "PUT", "/orgs/demo-org/openapi/crud-put", { json: text });
    expect(second.status).toBe(200);
    const a = first.body as { id: string; updatedAt: string; createdAt: string };
    const b = second.body as { id: string; updatedAt: string; createdAt: string };
    expect(b.id).toBe(a.id);
    expect(b.createdAt).toBe(a.createdAt);
    expect(Date.parse(b.updatedAt)).toBeGreaterThan(Date.parse(a.updatedAt));
  });

  it("records sourceURL for URL sources", async () => {
    const put = await call(emulator, "PUT", "/orgs/demo-org/openapi/crud-url", {
      json: { source: { url: "http://127.0.0.1:9/spec.yaml" } },
    });
    expect(put.status).toBe(201);
    expect(put.body).toMatchObject({ sourceURL: "http://127.0.0.1:9/spec.yaml" });
  });

  it("DELETE answers 204 without a body, then the slug is 404", async () => {
    await call(emulator, "PUT", "/orgs/demo-org/openapi/crud-del", { json: text });
    const deleted = await call(emulator, "DELETE", "/orgs/demo-org/openapi/crud-del");
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    expect((await call(emulator, "GET", "/orgs/demo-org/openapi/crud-del")).status).toBe(404);
    expect((await call(emulator, "DELETE", "/orgs/demo-org/openapi/crud-del")).status).toBe(404);
    expect(emulator.getSpec("demo-org", "crud-del")).toBeUndefined();
  });

  it("answers 404 with the error body for an unknown slug, and decodes path parameters", async () => {
    const missing = await call(emulator, "GET", "/orgs/demo-org/openapi/no-such-spec");
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: { code: 404, message: expect.stringContaining("no-such-spec") } });
    await call(emulator, "PUT", "/orgs/demo-org/openapi/crud-enc", { json: text });
    expect((await call(emulator, "GET", "/orgs/demo-org/openapi/%63rud-enc")).status).toBe(200);
  });

  it("keeps slugs unique per organization, not across organizations", async () => {
    const a = await call(emulator, "PUT", "/orgs/demo-org/openapi/shared-slug", { json: text });
    const b = await call(emulator, "PUT", "/orgs/other-org/openapi/shared-slug", { json: text });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(emulator.listSpecs("other-org").map((s) => s.slug)).toEqual(["shared-slug"]);
  });
});

describe("authentication and organizations", () => {
  it("answers 401 without a token, with a wrong token and with a non-bearer scheme", async () => {
    for (const token of [null, "wrong", `${"dev-token"}x`]) {
      const result = await call(emulator, "GET", "/orgs/demo-org/openapi", { token });
      expect(result.status).toBe(401);
      expect(result.body).toEqual({ error: { code: 401, message: expect.stringContaining("Bearer") } });
    }
    const basic = await fetch(`${emulator.baseUrl}/v1/orgs/demo-org/openapi`, {
      headers: { authorization: `Basic ${emulator.token}` },
    });
    expect(basic.status).toBe(401);
  });

  it("answers 401 even on unknown routes under /v1, and never echoes the token", async () => {
    const result = await call(emulator, "GET", "/nowhere", { token: "secret-value" });
    expect(result.status).toBe(401);
    expect(result.text).not.toContain("secret-value");
  });

  it("answers 404 for an unknown organization and 403 for a forbidden one", async () => {
    const unknown = await call(emulator, "GET", "/orgs/ghost-org/openapi");
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: { code: 404, message: expect.stringContaining("ghost-org") } });
    const forbidden = await call(emulator, "PUT", "/orgs/secret-org/openapi/x", { json: text });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({ error: { code: 403, message: expect.stringContaining("secret-org") } });
  });

  it("lists the organizations of an email domain, without regard to case", async () => {
    const result = await call(emulator, "GET", "/email-domains/EXAMPLE.COM/orgs");
    expect(result.status).toBe(200);
    const ids = (result.body as { organizations: { id: string }[] }).organizations.map((o) => o.id);
    expect(ids).toEqual(["demo-org", "other-org"]);
    const none = await call(emulator, "GET", "/email-domains/nobody.test/orgs");
    expect(none.body).toEqual({ organizations: [] });
  });
});

describe("routing and validation", () => {
  it("answers 404 for unknown routes and 405 with Allow for a wrong method", async () => {
    expect((await call(emulator, "GET", "/orgs/demo-org/unknown")).status).toBe(404);
    const wrong = await call(emulator, "PATCH", "/orgs/demo-org/openapi/crud-a", { json: {} });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("GET, PUT, DELETE");
    expect(wrong.body).toEqual({ error: { code: 405, message: expect.any(String) } });
  });

  it.each([
    ["uppercase letters", "/orgs/demo-org/openapi/Petstore", "uppercase"],
    ["a double hyphen", "/orgs/demo-org/openapi/pet--store", "'--'"],
    ["an underscore", "/orgs/demo-org/openapi/pet_store", '"_"'],
    ["101 characters", `/orgs/demo-org/openapi/${"a".repeat(101)}`, "101 characters"],
  ])("refuses a PUT slug with %s (400)", async (_what, path, hint) => {
    const result = await call(emulator, "PUT", path, { json: text });
    expect(result.status).toBe(400);
    expect(result.body).toEqual({ error: { code: 400, message: expect.stringContaining(hint) } });
  });

  it("refuses a POST slug that breaks the rule, or a missing slug", async () => {
    const bad = await call(emulator, "POST", "/orgs/demo-org/openapi", { json: { slug: "-x", ...text } });
    expect(bad.status).toBe(400);
    expect((bad.body as { error: { message: string } }).error.message).toContain("starts or ends with '-'");
    const missing = await call(emulator, "POST", "/orgs/demo-org/openapi", { json: text });
    expect(missing.status).toBe(400);
    expect((missing.body as { error: { message: string } }).error.message).toContain('no "slug"');
  });

  it.each([
    ["a body that is not JSON", { body: "{nope", contentType: "application/json" }, "not valid JSON"],
    ["a text/plain Content-Type", { body: JSON.stringify(text), contentType: "text/plain" }, "Content-Type"],
    ["no source", { json: {} }, 'no "source"'],
    ["an empty text", { json: { source: { text: "" } } }, "non-empty string"],
    ["both url and text", { json: { source: { text: "a", url: "http://x.test" } } }, "exactly one field"],
    ["an extra field in source", { json: { source: { text: "a", extra: 1 } } }, "exactly one field"],
    ["a relative URL", { json: { source: { url: "/spec.yaml" } } }, "not an absolute URL"],
    ["an ftp URL", { json: { source: { url: "ftp://x.test/a" } } }, "http or https"],
    ["a source that is a string", { json: { source: "openapi: 3.1.0" } }, "must be a JSON object"],
    ["an array body", { json: [] }, "must be a JSON object"],
  ])("refuses %s (400)", async (_what, options, hint) => {
    const result = await call(emulator, "PUT", "/orgs/demo-org/openapi/valid-slug", options);
    expect(result.status).toBe(400);
    expect(result.body).toEqual({ error: { code: 400, message: expect.stringContaining(hint) } });
    expect(emulator.getSpec("demo-org", "valid-slug")).toBeUndefined();
  });

  it("accepts a charset parameter on the JSON Content-Type", async () => {
    const result = await call(emulator, "PUT", "/orgs/demo-org/openapi/charset", {
      body: JSON.stringify(text),
      contentType: "application/json; charset=utf-8",
    });
    expect(result.status).toBe(201);
  });
});

describe("request body limit", () => {
  it("accepts a body up to maxBodyBytes and answers 413 above it", async () => {
    const small = await startEmulator({ maxBodyBytes: 2000 });
    try {
      const fits = await call(small, "PUT", "/orgs/demo-org/openapi/fits", { json: text });
      expect(fits.status).toBe(201);
      const big = await call(small, "PUT", "/orgs/demo-org/openapi/big", {
        json: { source: { text: `openapi: 3.1.0\n#${"x".repeat(3000)}` } },
      });
      expect(big.status).toBe(413);
      expect(big.body).toEqual({ error: { code: 413, message: expect.stringContaining("2000 bytes") } });
    } finally {
      await small.close();
    }
  });
});
