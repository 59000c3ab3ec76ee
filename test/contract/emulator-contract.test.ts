import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../harness/emulator/index.ts";
import { readVersionFiles } from "../../src/core/service/parse.ts";
import { SLUG_MAX_LENGTH, SLUG_PATTERN } from "../../src/core/slugs/rule.ts";
import {
  call,
  type LocalServer,
  PETSTORE_JSON,
  PETSTORE_YAML,
  startLocalServer,
  waitForSpec,
} from "../support/emulator-fixtures.ts";
import { validateAt, validateRequestBody, validateResponse } from "./published-spec.ts";

const ORG = "/orgs/{organizationId}/openapi";
const SPEC = `${ORG}/{specSlug}`;
const VERSIONS = `${SPEC}/versions`;

let emulator: RunningEmulator;
let origin: LocalServer;

beforeAll(async () => {
  emulator = await startEmulator({
    processing: { pendingMs: 5, progressMs: 5 },
    forbiddenOrganizations: ["secret-org"],
  });
  origin = await startLocalServer((_req, res) => res.writeHead(200).end(PETSTORE_YAML));
});
afterAll(async () => {
  await emulator.close();
  await origin.close();
});

/** Calls the emulator and asserts that the published description accepts the response. */
async function expectConforming(
  method: string,
  template: string,
  path: string,
  expectedStatus: number,
  options: Parameters<typeof call>[3] = {},
): Promise<unknown> {
  const result = await call(emulator, method, path, options);
  expect(result.status).toBe(expectedStatus);
  expect(validateResponse(method, template, result.status, result.body)).toEqual([]);
  return result.body;
}

/**
 * A version content: the published description types `filesystem` as an object, while GitBook's renderer
 * reads it as its parser's `Filesystem`, a list (docs/design/version-content.md). The emulator serves the list;
 * the rest of the answer is checked against the description, the list against the parser's entry shape.
 */
async function expectContentConforming(template: string, path: string): Promise<void> {
  const result = await call(emulator, "GET", path);
  expect(result.status).toBe(200);
  const body = result.body as { filesystem: unknown };
  // The one disagreement with the description, pinned: if the description changes, this says so.
  expect(validateResponse("GET", template, 200, body)).toEqual(["/filesystem must be object"]);
  expect(validateResponse("GET", template, 200, { ...body, filesystem: {} })).toEqual([]);
  const files = readVersionFiles(body.filesystem);
  expect(files).toMatchObject({ kind: "files", entries: [{ isEntrypoint: true, references: [] }] });
  if (files.kind === "files") {
    expect(files.entries).toHaveLength(1);
    expect(files.entries[0]?.specification).toMatchObject({ openapi: expect.stringMatching(/^3\./) });
  }
}

function expectOurSlugRule(spec: unknown): void {
  const slug = (spec as { slug: string }).slug;
  expect(slug).toMatch(SLUG_PATTERN);
  expect(slug.length).toBeLessThanOrEqual(SLUG_MAX_LENGTH);
}

describe("the emulator conforms to the published description", () => {
  it("createOpenAPISpec: 201 and 400", async () => {
    const body = { slug: "contract-post", source: { text: PETSTORE_YAML } };
    expect(validateRequestBody("createOpenAPISpec", body)).toEqual([]);
    expectOurSlugRule(await expectConforming("POST", ORG, "/orgs/demo-org/openapi", 201, { json: body }));
    await expectConforming("POST", ORG, "/orgs/demo-org/openapi", 400, { json: body });
    await expectConforming("POST", ORG, "/orgs/demo-org/openapi", 400, {
      json: { slug: "Upper", source: body.source },
    });
  });

  it("createOrUpdateOpenAPISpecBySlug: 201, 200 and 400, for text and URL sources", async () => {
    const text = { source: { text: PETSTORE_JSON } };
    const url = { source: { url: `${origin.url}/petstore.yaml` } };
    expect(validateRequestBody("createOrUpdateOpenAPISpecBySlug", text)).toEqual([]);
    expect(validateRequestBody("createOrUpdateOpenAPISpecBySlug", url)).toEqual([]);
    await expectConforming("PUT", SPEC, "/orgs/demo-org/openapi/contract-put", 201, { json: text });
    await expectConforming("PUT", SPEC, "/orgs/demo-org/openapi/contract-put", 200, { json: text });
    await expectConforming("PUT", SPEC, "/orgs/demo-org/openapi/contract-url", 201, { json: url });
    await expectConforming("PUT", SPEC, "/orgs/demo-org/openapi/contract-put", 400, { json: { source: {} } });
  });

  it("getOpenAPISpecBySlug: 200 in every processing outcome, and 404", async () => {
    await call(emulator, "PUT", "/orgs/demo-org/openapi/contract-ok", {
      json: { source: { text: PETSTORE_YAML } },
    });
    await call(emulator, "PUT", "/orgs/demo-org/openapi/contract-bad", {
      json: { source: { text: "a: [" } },
    });
    await call(emulator, "PUT", "/orgs/demo-org/openapi/contract-fetch", {
      json: { source: { url: "http://127.0.0.1:1/none.yaml" } },
    });
    await expectConforming("GET", SPEC, "/orgs/demo-org/openapi/contract-ok", 200);
    for (const slug of ["contract-ok", "contract-bad", "contract-fetch", "contract-url"]) {
      const spec = await waitForSpec(emulator, "demo-org", slug);
      expect(validateResponse("GET", SPEC, 200, spec)).toEqual([]);
      expectOurSlugRule(spec);
    }
    expect((await waitForSpec(emulator, "demo-org", "contract-bad")).lastProcessErrorCode).toBe(
      "PARSE_ERROR",
    );
    expect((await waitForSpec(emulator, "demo-org", "contract-fetch")).lastProcessErrorCode).toBe(
      "FETCH_ERROR",
    );
    await expectConforming("GET", SPEC, "/orgs/demo-org/openapi/contract-none", 404);
  });

  it("listOpenAPISpecs: 200 on each page and 400 for a bad limit", async () => {
    const first = (await expectConforming("GET", ORG, "/orgs/demo-org/openapi?limit=2", 200)) as {
      items: unknown[];
      next?: { page: string };
    };
    first.items.forEach(expectOurSlugRule);
    expect(first.next).toBeDefined();
    await expectConforming("GET", ORG, `/orgs/demo-org/openapi?limit=2&page=${first.next?.page}`, 200);
    await expectConforming("GET", ORG, "/orgs/demo-org/openapi?limit=5000", 400);
  });

  it("listOpenAPISpecVersions, latest, by id and content: 200 and 404", async () => {
    const spec = await waitForSpec(emulator, "demo-org", "contract-ok");
    const base = "/orgs/demo-org/openapi/contract-ok/versions";
    await expectConforming("GET", VERSIONS, base, 200);
    await expectConforming("GET", `${VERSIONS}/latest`, `${base}/latest`, 200);
    await expectContentConforming(`${VERSIONS}/latest/content`, `${base}/latest/content`);
    await expectConforming("GET", `${VERSIONS}/latest/content/raw`, `${base}/latest/content/raw`, 200);
    await expectConforming("GET", `${VERSIONS}/{versionId}`, `${base}/${spec.lastVersion}`, 200);
    await expectContentConforming(`${VERSIONS}/{versionId}/content`, `${base}/${spec.lastVersion}/content`);
    const raw = await call(emulator, "GET", `${base}/${spec.lastVersion}/content/raw`);
    expect(validateAt(["components", "schemas", "OpenAPISpecRawContent"], raw.body)).toEqual([]);

    await expectConforming("GET", VERSIONS, "/orgs/demo-org/openapi/contract-none/versions", 404);
    await expectConforming(
      "GET",
      `${VERSIONS}/latest`,
      "/orgs/demo-org/openapi/contract-bad/versions/latest",
      404,
    );
    await expectConforming("GET", `${VERSIONS}/{versionId}`, `${base}/ver_unknown`, 404);
    await expectConforming("GET", `${VERSIONS}/{versionId}/content`, `${base}/ver_unknown/content`, 404);
  });

  it("deleteOpenAPISpecBySlug: 204 without a body", async () => {
    await call(emulator, "PUT", "/orgs/demo-org/openapi/contract-del", {
      json: { source: { text: PETSTORE_YAML } },
    });
    await expectConforming("DELETE", SPEC, "/orgs/demo-org/openapi/contract-del", 204);
  });

  it("getOrganizationsForEmailDomain: 200 with complete organizations", async () => {
    const body = (await expectConforming(
      "GET",
      "/email-domains/{emailDomain}/orgs",
      "/email-domains/example.com/orgs",
      200,
    )) as {
      organizations: unknown[];
    };
    expect(body.organizations).toHaveLength(1);
    expect(validateAt(["components", "schemas", "Organization"], body.organizations[0])).toEqual([]);
  });

  it("answers 401, 403, 404 and injected faults with the Error schema", async () => {
    await expectConforming("GET", ORG, "/orgs/demo-org/openapi", 401, { token: null });
    await expectConforming("GET", ORG, "/orgs/secret-org/openapi", 403);
    await expectConforming("GET", ORG, "/orgs/ghost-org/openapi", 404);
    emulator.script({ fault: { status: 429, retryAfter: "1" } }, { fault: { status: 503 } });
    await expectConforming("GET", ORG, "/orgs/demo-org/openapi", 429);
    await expectConforming("GET", ORG, "/orgs/demo-org/openapi", 503);
  });
});

describe("the validators catch violations", () => {
  it("reject a specification missing required fields or with an unknown processing state", () => {
    expect(validateResponse("GET", SPEC, 200, { object: "openapi-spec" }).length).toBeGreaterThan(0);
    const spec = emulator.seedSpec("demo-org", "contract-mutated", PETSTORE_YAML);
    expect(validateResponse("GET", SPEC, 200, spec)).toEqual([]);
    expect(validateResponse("GET", SPEC, 200, { ...spec, processingState: "done" })).toEqual([
      expect.stringContaining("/processingState must be equal to one of the allowed values"),
    ]);
  });

  it("reject bodies, statuses and operations the description does not allow", () => {
    expect(validateRequestBody("createOpenAPISpec", { source: { text: "" } }).length).toBeGreaterThan(0);
    expect(() => validateRequestBody("nope", {})).toThrow(/no operation "nope"/);
    expect(validateRequestBody("getOpenAPISpecBySlug", {})).toEqual([
      expect.stringContaining("no JSON request body"),
    ]);
    expect(validateResponse("GET", SPEC, 201, {})).toEqual([
      expect.stringContaining("does not declare status 201"),
    ]);
    expect(validateResponse("DELETE", SPEC, 204, { x: 1 })).toEqual([expect.stringContaining("no body")]);
    expect(validateResponse("GET", "/nowhere", 200, {})).toEqual([expect.stringContaining("no operation")]);
    expect(validateResponse("GET", SPEC, 404, { error: { code: 400, message: "x" } }).length).toBeGreaterThan(
      0,
    );
    expect(validateResponse("GET", SPEC, 401, { error: { code: 401 } }).length).toBeGreaterThan(0);
  });
});
