import { setTimeout as wait } from "node:timers/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../harness/emulator/index.ts";
import {
  AuthenticationError,
  type ClientOptions,
  GitBookClient,
  GitBookConnectionError,
  NotFoundError,
  PermissionDeniedError,
  ServerError,
  type Spec,
} from "../../src/adapters/gitbook/index.ts";

const ORG = "demo-org";

function openapi(title: string): string {
  return `openapi: 3.1.0\ninfo:\n  title: ${title}\n  version: "1.0.0"\npaths: {}\n`;
}

let emulator: RunningEmulator;
let delays: number[];
const clients: GitBookClient[] = [];

beforeEach(async () => {
  emulator = await startEmulator({
    processing: { pendingMs: 10, progressMs: 10 },
    forbiddenOrganizations: ["secret-org"],
  });
  delays = [];
});

afterEach(async () => {
  while (clients.length > 0) await clients.pop()?.close();
  await emulator.close();
});

function client(options: Partial<ClientOptions> = {}): GitBookClient {
  const created = new GitBookClient({
    token: emulator.token,
    baseUrl: emulator.baseUrl,
    sleep: async (ms) => {
      delays.push(ms);
    },
    random: () => 0,
    ...options,
  });
  clients.push(created);
  return created;
}

/** Polls getSpec until processing has finished (no time assertion: it just waits for the state). */
async function untilProcessed(api: GitBookClient, slug: string): Promise<Spec> {
  for (let i = 0; i < 500; i++) {
    const spec = await api.getSpec(ORG, slug);
    if (spec.processingState !== "pending" && spec.processingState !== "progress") return spec;
    await wait(10);
  }
  throw new Error(`${slug} never finished processing`);
}

function requestsTo(path: string) {
  return emulator.requests.filter((request) => request.path === path);
}

describe("client against the emulator", () => {
  it("round-trips every specification and version operation", async () => {
    const api = client();
    const created = await api.createSpec(ORG, "pets", { text: openapi("Pets") });
    expect(created).toMatchObject({ object: "openapi-spec", slug: "pets" });
    expect(created.processingState).toBe("pending");

    const processed = await untilProcessed(api, "pets");
    expect(processed.processingState).toBe("complete");
    expect(processed.lastVersion).toEqual(expect.any(String));

    const latest = await api.getLatestVersion(ORG, "pets");
    expect(latest.object).toBe("openapi-spec-version");
    expect(latest.id).toBe(processed.lastVersion);
    const latestContent = await api.getLatestVersionContent(ORG, "pets");
    expect(Array.isArray(latestContent.filesystem)).toBe(true);
    expect((await api.getVersion(ORG, "pets", latest.id)).id).toBe(latest.id);
    expect(Array.isArray((await api.getVersionContent(ORG, "pets", latest.id)).filesystem)).toBe(true);

    const updated = await api.putSpec(ORG, "pets", { text: openapi("Pets v2") });
    expect(updated.created).toBe(false);
    await untilProcessed(api, "pets");
    const versions = (await api.listVersions(ORG, "pets")).items;
    expect(versions.length).toBeGreaterThanOrEqual(2);
    const iterated: string[] = [];
    for await (const version of api.iterateVersions(ORG, "pets", { limit: 1 })) iterated.push(version.id);
    expect(iterated).toEqual(versions.map((version) => version.id));

    const fresh = await api.putSpec(ORG, "orders", { text: openapi("Orders") });
    expect(fresh).toMatchObject({ created: true, spec: { slug: "orders" } });

    await api.deleteSpec(ORG, "pets");
    expect(emulator.requests.at(-1)).toMatchObject({ method: "DELETE", status: 204 });
    await expect(api.getSpec(ORG, "pets")).rejects.toBeInstanceOf(NotFoundError);
    expect(emulator.getSpec(ORG, "pets")).toBeUndefined();
  });

  it("sends the token, user agent and content type the service expects", async () => {
    await client().putSpec(ORG, "pets", { text: openapi("Pets") });
    const [put] = emulator.requests;
    expect(put).toMatchObject({
      method: "PUT",
      path: "/v1/orgs/demo-org/openapi/pets",
      status: 201,
      authorization: `Bearer ${emulator.token}`,
      contentType: "application/json",
    });
    expect(put?.userAgent).toMatch(/^gitbook-openapi-action\//);
  });

  it("iterates a list of specifications over several pages", async () => {
    const slugs = Array.from({ length: 7 }, (_, i) => `spec-${i}`);
    for (const slug of slugs) emulator.seedSpec(ORG, slug, openapi(slug));
    const seen: string[] = [];
    for await (const spec of client().iterateSpecs(ORG, { limit: 3 })) seen.push(spec.slug);
    expect(seen.sort()).toEqual([...slugs].sort());
    expect(requestsTo("/v1/orgs/demo-org/openapi")).toHaveLength(3);
  });

  it("finds organizations by email domain", async () => {
    const api = client();
    const organizations = await api.listOrganizationsByEmailDomain("example.com");
    expect(organizations.map((org) => org.id)).toContain(ORG);
    expect(await api.listOrganizationsByEmailDomain("nobody.invalid")).toEqual([]);
  });

  it("reports a wrong token as an AuthenticationError", async () => {
    const error = await client({ token: "wrong-token" })
      .listSpecs(ORG)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).status).toBe(401);
    expect(String(error)).not.toContain("wrong-token");
  });

  it("reports forbidden and unknown organizations", async () => {
    const api = client();
    const forbidden = await api.listSpecs("secret-org").catch((e: unknown) => e);
    expect(forbidden).toBeInstanceOf(PermissionDeniedError);
    expect(String(forbidden)).toContain('cannot access organization "secret-org"');
    const unknown = await api.getSpec("no-such-org", "pets").catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(NotFoundError);
  });
});

describe("client against the emulator's faults", () => {
  it("waits out scripted 429s with Retry-After", async () => {
    emulator.seedSpec(ORG, "pets", openapi("Pets"));
    const path = "/v1/orgs/demo-org/openapi/pets";
    emulator.script({ method: "GET", path, times: 2, fault: { status: 429, retryAfter: "1" } });
    const spec = await client().getSpec(ORG, "pets");
    expect(spec.slug).toBe("pets");
    expect(requestsTo(path).map((request) => request.status)).toEqual([429, 429, 200]);
    expect(delays).toEqual([1000, 1000]);
  });

  it("retries 503s up to maxRetries and then gives up", async () => {
    const path = "/v1/orgs/demo-org/openapi";
    emulator.script({ path, times: 5, fault: { status: 503 } });
    const error = await client({ retry: { maxRetries: 2 } })
      .listSpecs(ORG)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(requestsTo(path).map((request) => request.status)).toEqual([503, 503, 503]);
    await expect(client().listSpecs(ORG)).resolves.toMatchObject({ items: [] });
  });

  it("retries a dropped connection for PUT but not for POST", async () => {
    const putPath = "/v1/orgs/demo-org/openapi/pets";
    emulator.script({ method: "PUT", path: putPath, fault: { drop: true } });
    const put = await client().putSpec(ORG, "pets", { text: openapi("Pets") });
    expect(put.created).toBe(true);
    expect(requestsTo(putPath)).toHaveLength(2);

    const postPath = "/v1/orgs/demo-org/openapi";
    emulator.script({ method: "POST", path: postPath, fault: { drop: true } });
    const error = await client()
      .createSpec(ORG, "orders", { text: openapi("Orders") })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GitBookConnectionError);
    expect(requestsTo(postPath)).toHaveLength(1);
    expect(emulator.getSpec(ORG, "orders")).toBeUndefined();
  });
});
