import { setTimeout as sleep } from "node:timers/promises";
import type { RunningEmulator } from "../../harness/emulator/index.ts";

export const PETSTORE_YAML = `openapi: 3.1.0
info:
  title: Petstore
  version: 1.0.0
paths:
  /pets:
    get:
      responses:
        "200":
          description: A list of pets
`;

export const PETSTORE_JSON = JSON.stringify({
  openapi: "3.0.3",
  info: { title: "Petstore", version: "2.0.0" },
  paths: {},
});

export const SWAGGER_YAML = `swagger: "2.0"
info: {title: Old, version: "1"}
paths: {}
`;

export interface CallResult {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

/** Calls the emulator's API with plain fetch; `path` starts after /v1. */
export async function call(
  emulator: RunningEmulator,
  method: string,
  path: string,
  options: { json?: unknown; body?: string; contentType?: string; token?: string | null } = {},
): Promise<CallResult> {
  const headers: Record<string, string> = {};
  const token = options.token === undefined ? emulator.token : options.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  let body: string | undefined = options.body;
  if (options.json !== undefined) body = JSON.stringify(options.json);
  if (body !== undefined) headers["content-type"] = options.contentType ?? "application/json";
  const response = await fetch(`${emulator.baseUrl}/v1${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text.length > 0 ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

/** Polls GET /v1/orgs/{org}/openapi/{slug} until `done` holds for the specification. */
export async function waitForSpec(
  emulator: RunningEmulator,
  orgId: string,
  slug: string,
  done: (spec: Record<string, unknown>) => boolean = (spec) => spec.processingState === "complete",
  attempts = 500,
): Promise<Record<string, unknown>> {
  let last: unknown;
  for (let i = 0; i < attempts; i++) {
    const result = await call(emulator, "GET", `/orgs/${orgId}/openapi/${slug}`);
    last = result.body;
    if (result.status === 200 && done(result.body as Record<string, unknown>)) {
      return result.body as Record<string, unknown>;
    }
    await sleep(10);
  }
  throw new Error(
    `specification ${orgId}/${slug} never reached the expected state; last: ${JSON.stringify(last)}`,
  );
}

export { closedPortUrl, type LocalServer, startLocalServer } from "../../harness/loopback/local-server.ts";
