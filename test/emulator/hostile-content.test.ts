import { type ChildProcess, spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { parseCliArgs } from "../../harness/emulator/cli-args.ts";
import { EmulatorOptionsError, type RunningEmulator, startEmulator } from "../../harness/emulator/index.ts";
import { call, PETSTORE_YAML } from "../support/emulator-fixtures.ts";

const ORG = "demo-org";
const CONTENT = `/orgs/${ORG}/openapi/pets/versions/latest/content`;

const started: RunningEmulator[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  await Promise.all(started.splice(0).map((e) => e.close()));
});

async function emulatorWithPets(faults: Parameters<RunningEmulator["setFaults"]>[0] = {}) {
  const emulator = await startEmulator({ faults });
  started.push(emulator);
  emulator.seedSpec(ORG, "pets", PETSTORE_YAML);
  return emulator;
}

interface Received {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  bytes: number;
  chunks: number;
  /** The body, kept only when asked (never for the huge ones). */
  body?: Buffer;
  ended: boolean;
}

/**
 * GETs `url` with node:http, counting the body's bytes without keeping them (unless `keep`). Settles when
 * the body ends, or after `giveUpMs` (then `ended` is false and the request is destroyed).
 */
function get(url: string, token: string, options: { keep?: boolean; giveUpMs?: number } = {}) {
  return new Promise<Received>((resolve, reject) => {
    const kept: Buffer[] = [];
    let received: Received | undefined;
    const req = request(url, { headers: { authorization: `Bearer ${token}` } }, (res) => {
      const answer: Received = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        bytes: 0,
        chunks: 0,
        ended: false,
      };
      received = answer;
      res.on("data", (chunk: Buffer) => {
        answer.bytes += chunk.length;
        answer.chunks += 1;
        if (options.keep) kept.push(chunk);
      });
      res.on("end", () => {
        clearTimeout(timer);
        answer.ended = true;
        if (options.keep) answer.body = Buffer.concat(kept);
        resolve(answer);
      });
    });
    const timer =
      options.giveUpMs === undefined
        ? undefined
        : setTimeout(() => {
            req.destroy();
            if (received) resolve(received);
            else reject(new Error(`no answer within ${options.giveUpMs} ms`));
          }, options.giveUpMs);
    req.on("error", (error) => {
      if (!req.destroyed || received === undefined) reject(error);
    });
    req.end();
  });
}

const contentUrl = (emulator: RunningEmulator) => `${emulator.baseUrl}/v1${CONTENT}`;

describe("huge version content (faults.content.paddingBytes)", () => {
  it("is exactly the asked size, declared in content-length, and parses to the same content", async () => {
    const emulator = await emulatorWithPets();
    const plain = await get(contentUrl(emulator), emulator.token, { keep: true });
    emulator.setFaults({ content: { paddingBytes: 3_000_000 } });
    const padded = await get(contentUrl(emulator), emulator.token, { keep: true });
    expect(padded).toMatchObject({ status: 200, bytes: 3_000_000, ended: true });
    expect(padded.headers["content-length"]).toBe("3000000");
    expect(padded.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(JSON.parse(padded.body?.toString() ?? "")).toEqual(JSON.parse(plain.body?.toString() ?? ""));
    expect(plain.bytes).toBeLessThan(2_000);
  });

  it("is sent without content-length when chunked", async () => {
    const emulator = await emulatorWithPets({ content: { paddingBytes: 200_000, chunked: true } });
    const answer = await get(contentUrl(emulator), emulator.token);
    expect(answer).toMatchObject({ status: 200, bytes: 200_000, ended: true });
    expect(answer.headers["content-length"]).toBeUndefined();
    expect(answer.headers["transfer-encoding"]).toBe("chunked");
  });

  it("never makes an answer smaller than the content, and leaves every other route alone", async () => {
    const emulator = await emulatorWithPets({ content: { paddingBytes: 10 } });
    const small = await get(contentUrl(emulator), emulator.token, { keep: true });
    expect(JSON.parse(small.body?.toString() ?? "")).toMatchObject({ filesystem: [{ isEntrypoint: true }] });
    expect(small.bytes).toBeGreaterThan(10);

    emulator.setFaults({ content: { paddingBytes: 5_000_000 } });
    const raw = await get(`${contentUrl(emulator)}/raw`, emulator.token);
    const listing = await get(`${emulator.baseUrl}/v1/orgs/${ORG}/openapi`, emulator.token);
    const missing = await get(
      `${emulator.baseUrl}/v1/orgs/${ORG}/openapi/none/versions/latest/content`,
      emulator.token,
    );
    expect([raw.status, listing.status, missing.status]).toEqual([200, 200, 404]);
    expect(Math.max(raw.bytes, listing.bytes, missing.bytes)).toBeLessThan(5_000);
  });

  it("serves 600 MB from the CLI (--content-padding-bytes) while the emulator's memory stays small", async () => {
    const child = spawn(
      process.execPath,
      [
        new URL("../../harness/emulator/cli.ts", import.meta.url).pathname,
        "--port",
        "0",
        "--pending-ms",
        "0",
        "--progress-ms",
        "0",
        "--content-padding-bytes",
        "600000000",
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    children.push(child);
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    let baseUrl: string | undefined;
    for (let i = 0; i < 1000 && baseUrl === undefined; i++) {
      baseUrl = /listening on (http:\/\/[^ ]+)/.exec(output)?.[1];
      if (baseUrl === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(baseUrl).toBeDefined();
    const headers = { authorization: "Bearer dev-token", "content-type": "application/json" };
    const put = await fetch(`${baseUrl}/v1/orgs/${ORG}/openapi/pets`, {
      method: "PUT",
      headers,
      body: JSON.stringify({ source: { text: PETSTORE_YAML } }),
    });
    expect(put.status).toBe(201);
    let state = "";
    for (let i = 0; i < 500 && state !== "complete"; i++) {
      const spec = await fetch(`${baseUrl}/v1/orgs/${ORG}/openapi/pets`, { headers });
      state = ((await spec.json()) as { processingState: string }).processingState;
      if (state !== "complete") await new Promise((resolve) => setTimeout(resolve, 10));
    }

    const answer = await get(`${baseUrl}/v1${CONTENT}`, "dev-token");
    expect(answer).toMatchObject({ status: 200, bytes: 600_000_000, ended: true });
    const status = await readFile(`/proc/${child.pid}/status`, "utf8");
    const peakKiB = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1]);
    expect(peakKiB).toBeGreaterThan(0);
    expect(peakKiB).toBeLessThan(250 * 1024);
  }, 120_000);
});

describe("slow version content", () => {
  it("delays the answer (faults.content.delayMs): other requests are answered meanwhile", async () => {
    const emulator = await emulatorWithPets({ content: { delayMs: 2_000 } });
    const slow = get(contentUrl(emulator), emulator.token, { keep: true });
    let contentRecord = emulator.requests.find((r) => r.path.endsWith("/content"));
    while (contentRecord === undefined) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      contentRecord = emulator.requests.find((r) => r.path.endsWith("/content"));
    }
    const listing = await call(emulator, "GET", `/orgs/${ORG}/openapi`);
    expect(listing.status).toBe(200);
    expect(contentRecord.status).toBe(0);
    const answer = await slow;
    expect(answer).toMatchObject({ status: 200, ended: true });
    expect(JSON.parse(answer.body?.toString() ?? "")).toMatchObject({ filesystem: [{ isEntrypoint: true }] });
    expect(contentRecord.status).toBe(200);
  });

  it("never answers with delayMs Infinity, until the client gives up; close() ends a held request", async () => {
    const emulator = await emulatorWithPets({ content: { delayMs: Number.POSITIVE_INFINITY } });
    await expect(get(contentUrl(emulator), emulator.token, { giveUpMs: 300 })).rejects.toThrow(/no answer/);
    expect((await call(emulator, "GET", `/orgs/${ORG}/openapi/pets`)).status).toBe(200);

    const held = get(contentUrl(emulator), emulator.token);
    while (emulator.requests.filter((r) => r.path.endsWith("/content")).length < 2) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await emulator.close();
    await expect(held).rejects.toThrow();
    expect(emulator.requests.filter((r) => r.path.endsWith("/content")).map((r) => r.status)).toEqual([0, 0]);
  });

  it("stalls after the headers and the first bytes (stallMs Infinity): the body never ends", async () => {
    const emulator = await emulatorWithPets({
      content: { paddingBytes: 1_000_000, stallMs: Number.POSITIVE_INFINITY },
    });
    const answer = await get(contentUrl(emulator), emulator.token, { giveUpMs: 400 });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-length"]).toBe("1000000");
    expect(answer.ended).toBe(false);
    expect(answer.bytes).toBe(64 * 1024);
  });

  it("resumes a stalled body after stallMs, complete", async () => {
    const emulator = await emulatorWithPets({ content: { stallMs: 50 } });
    const answer = await get(contentUrl(emulator), emulator.token, { keep: true });
    expect(answer).toMatchObject({ status: 200, ended: true });
    expect(JSON.parse(answer.body?.toString() ?? "")).toMatchObject({ filesystem: [{ isEntrypoint: true }] });
  });

  it("trickles the body a few bytes at a time (trickle), complete and in many pieces", async () => {
    const emulator = await emulatorWithPets();
    const plain = await get(contentUrl(emulator), emulator.token, { keep: true });
    emulator.setFaults({ content: { trickle: { bytes: 100, everyMs: 10 } } });
    const answer = await get(contentUrl(emulator), emulator.token, { keep: true });
    expect(answer).toMatchObject({ status: 200, ended: true, bytes: plain.bytes });
    expect(answer.body?.equals(plain.body ?? Buffer.alloc(0))).toBe(true);
    expect(answer.chunks).toBeGreaterThanOrEqual(Math.floor(plain.bytes / 100) / 2);
  });

  it("holds one scripted request for ever (delayMs Infinity) and answers the next", async () => {
    const emulator = await emulatorWithPets();
    emulator.script({ path: /\/content$/, fault: { delayMs: Number.POSITIVE_INFINITY } });
    await expect(get(contentUrl(emulator), emulator.token, { giveUpMs: 200 })).rejects.toThrow(/no answer/);
    expect((await get(contentUrl(emulator), emulator.token)).status).toBe(200);
  });
});

describe("content fault options", () => {
  it("refuses values that make no sense, naming the option", async () => {
    const emulator = await emulatorWithPets();
    expect(() => emulator.setFaults({ content: { paddingBytes: -1 } })).toThrow(
      /faults.content.paddingBytes/,
    );
    expect(() => emulator.setFaults({ content: { paddingBytes: 1.5 } })).toThrow(EmulatorOptionsError);
    expect(() => emulator.setFaults({ content: { delayMs: Number.NaN } })).toThrow(/faults.content.delayMs/);
    expect(() => emulator.setFaults({ content: { stallMs: -5 } })).toThrow(/faults.content.stallMs/);
    expect(() => emulator.setFaults({ content: { trickle: { bytes: 0, everyMs: 1 } } })).toThrow(
      /trickle.bytes/,
    );
    await expect(
      startEmulator({ faults: { content: { trickle: { bytes: 1, everyMs: -1 } } } }),
    ).rejects.toThrow(/trickle.everyMs/);
  });

  it("are read from the command line", () => {
    const command = parseCliArgs([
      "--content-padding-bytes",
      "600000000",
      "--content-chunked",
      "--content-delay-ms",
      "never",
      "--content-stall-ms",
      "250",
      "--content-trickle",
      "16/100",
    ]);
    expect(command).toMatchObject({
      kind: "run",
      options: {
        faults: {
          content: {
            paddingBytes: 600_000_000,
            chunked: true,
            delayMs: Number.POSITIVE_INFINITY,
            stallMs: 250,
            trickle: { bytes: 16, everyMs: 100 },
          },
        },
      },
    });
    expect(parseCliArgs([])).toMatchObject({ kind: "run", options: { faults: {} } });
    expect(parseCliArgs([])).not.toHaveProperty("options.faults.content");
    expect(() => parseCliArgs(["--content-delay-ms", "soon"])).toThrow(/--content-delay-ms.*"never"/);
    expect(() => parseCliArgs(["--content-trickle", "0/5"])).toThrow(/--content-trickle/);
    expect(() => parseCliArgs(["--content-padding-bytes", "-3"])).toThrow(/--content-padding-bytes/);
  });
});
