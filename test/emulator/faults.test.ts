import { afterEach, describe, expect, it } from "vitest";
import { FaultInjector, mulberry32 } from "../../harness/emulator/faults.ts";
import { EmulatorOptionsError, type RunningEmulator, startEmulator } from "../../harness/emulator/index.ts";
import { call, PETSTORE_YAML } from "../support/emulator-fixtures.ts";

const started: RunningEmulator[] = [];
async function emulatorWith(options: Parameters<typeof startEmulator>[0]): Promise<RunningEmulator> {
  const emulator = await startEmulator(options);
  started.push(emulator);
  return emulator;
}
afterEach(async () => {
  await Promise.all(started.splice(0).map((e) => e.close()));
});

describe("scripted faults", () => {
  it("answers the next matching requests with the scripted status, then behaves normally", async () => {
    const emulator = await emulatorWith({});
    emulator.script({
      method: "put",
      path: "/v1/orgs/demo-org/openapi/petstore",
      times: 2,
      fault: { status: 429, retryAfter: "3" },
    });
    const other = await call(emulator, "GET", "/orgs/demo-org/openapi");
    expect(other.status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const limited = await call(emulator, "PUT", "/orgs/demo-org/openapi/petstore", {
        json: { source: { text: PETSTORE_YAML } },
      });
      expect(limited.status).toBe(429);
      expect(limited.headers.get("retry-after")).toBe("3");
      expect(limited.body).toEqual({ error: { code: 429, message: expect.any(String) } });
    }
    const ok = await call(emulator, "PUT", "/orgs/demo-org/openapi/petstore", {
      json: { source: { text: PETSTORE_YAML } },
    });
    expect(ok.status).toBe(201);
    expect(emulator.getSpec("demo-org", "petstore")).toBeDefined();
    expect(emulator.requests.map((r) => r.status)).toEqual([200, 429, 429, 201]);
  });

  it("applies faults in the order they were scripted, with custom bodies and RegExp paths", async () => {
    const emulator = await emulatorWith({});
    emulator.script(
      { path: /\/openapi$/, fault: { status: 503, body: { error: { code: 503, message: "maintenance" } } } },
      { fault: { status: 502 } },
    );
    const first = await call(emulator, "GET", "/orgs/demo-org/openapi");
    expect(first.status).toBe(503);
    expect(first.body).toEqual({ error: { code: 503, message: "maintenance" } });
    expect((await call(emulator, "GET", "/orgs/demo-org/openapi")).status).toBe(502);
    expect((await call(emulator, "GET", "/orgs/demo-org/openapi")).status).toBe(200);
  });

  it("drops the connection without an answer and records status 0", async () => {
    const emulator = await emulatorWith({});
    emulator.script({ method: "GET", fault: { drop: true } });
    await expect(call(emulator, "GET", "/orgs/demo-org/openapi")).rejects.toThrow();
    expect(emulator.requests[0]).toMatchObject({ method: "GET", status: 0 });
    expect((await call(emulator, "GET", "/orgs/demo-org/openapi")).status).toBe(200);
  });

  it("delays a request and then answers it normally", async () => {
    const emulator = await emulatorWith({});
    emulator.script({ fault: { delayMs: 30 } });
    expect((await call(emulator, "GET", "/orgs/demo-org/openapi")).status).toBe(200);
  });

  it("does not fault requests outside /v1", async () => {
    const emulator = await emulatorWith({ faults: { rate5xx: 1 } });
    const spec = emulator.seedSpec("demo-org", "outside", PETSTORE_YAML);
    const version = emulator.listVersions("demo-org", spec.slug)[0];
    const file = await fetch(version?.url ?? "");
    expect(file.status).toBe(200);
    expect((await call(emulator, "GET", "/orgs/demo-org/openapi")).status).toBeGreaterThanOrEqual(500);
  });
});

describe("random faults", () => {
  async function statuses(seed: number, count: number): Promise<number[]> {
    const emulator = await emulatorWith({
      faults: { seed, rate429: 0.3, rate5xx: 0.3, retryAfterSeconds: 7 },
    });
    const result: number[] = [];
    for (let i = 0; i < count; i++) {
      const answer = await call(emulator, "GET", "/orgs/demo-org/openapi");
      if (answer.status === 429) expect(answer.headers.get("retry-after")).toBe("7");
      result.push(answer.status);
    }
    return result;
  }

  it("are reproducible with a seed and mix 429, 5xx and successes", async () => {
    const first = await statuses(42, 40);
    const second = await statuses(42, 40);
    expect(second).toEqual(first);
    expect(first).toContain(200);
    expect(first).toContain(429);
    expect(first.some((s) => s >= 500)).toBe(true);
    expect(first.every((s) => [200, 429, 500, 502, 503].includes(s))).toBe(true);
  });

  it("can be changed at run time with setFaults", async () => {
    const emulator = await emulatorWith({ faults: { rate5xx: 1 } });
    expect((await call(emulator, "GET", "/orgs/demo-org/openapi")).status).toBeGreaterThanOrEqual(500);
    emulator.setFaults({});
    expect((await call(emulator, "GET", "/orgs/demo-org/openapi")).status).toBe(200);
    expect(() => emulator.setFaults({ dropRate: 2 })).toThrow(EmulatorOptionsError);
  });

  it("drop every request when dropRate is 1", async () => {
    const emulator = await emulatorWith({ faults: { dropRate: 1 } });
    await expect(call(emulator, "GET", "/orgs/demo-org/openapi")).rejects.toThrow();
  });

  it("draws the same sequence from the same seed", () => {
    const a = mulberry32(7);
    const b = mulberry32(7);
    const drawsA = Array.from({ length: 5 }, a);
    expect(Array.from({ length: 5 }, b)).toEqual(drawsA);
    expect(drawsA.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(new Set(drawsA).size).toBe(5);
  });

  it("refuses shares outside 0..1 or summing above 1", () => {
    expect(() => new FaultInjector({ rate429: -0.1 })).toThrow(/rate429/);
    expect(() => new FaultInjector({ rate429: 0.6, rate5xx: 0.6 })).toThrow(/must not exceed 1/);
  });
});

describe("recorded requests", () => {
  it("records method, path, query, headers, body size, status and when it arrived and was answered", async () => {
    const emulator = await emulatorWith({});
    const body = JSON.stringify({ source: { text: PETSTORE_YAML } });
    await fetch(`${emulator.baseUrl}/v1/orgs/demo-org/openapi/rec?x=1`, {
      method: "PUT",
      headers: {
        authorization: `Bearer ${emulator.token}`,
        "content-type": "application/json",
        "user-agent": "probe/1",
      },
      body,
    });
    await call(emulator, "GET", "/orgs/demo-org/openapi?limit=5", { token: null });
    expect(emulator.requests).toEqual([
      {
        method: "PUT",
        path: "/v1/orgs/demo-org/openapi/rec",
        query: "x=1",
        status: 201,
        authorization: `Bearer ${emulator.token}`,
        contentType: "application/json",
        userAgent: "probe/1",
        bodyBytes: Buffer.byteLength(body),
        at: expect.any(Number),
        answeredAt: expect.any(Number),
      },
      expect.objectContaining({ method: "GET", query: "limit=5", status: 401, bodyBytes: 0 }),
    ]);
    expect(emulator.requests[1]).not.toHaveProperty("authorization");
    const [put] = emulator.requests;
    expect(put?.answeredAt).toBeGreaterThanOrEqual(put?.at ?? Number.POSITIVE_INFINITY);
  });
});
