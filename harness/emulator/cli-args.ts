import { parseArgs } from "node:util";
import type { Organization } from "../../src/core/service/types.ts";
import type { EmulatorOptions } from "./options.ts";
import { completeOrganization, defaultOrganization } from "./organizations.ts";

export const CLI_USAGE = `Usage: npm run emulator -- [options]

Runs a local emulator of GitBook's OpenAPI specification hosting (the /v1 API) with in-memory state.

Options:
  --port <n>             port to listen on (default 4010; 0 picks a free one)
  --host <address>       address to listen on (default 127.0.0.1)
  --token <token>        bearer token accepted (default dev-token)
  --orgs <file.json>     JSON array of organizations ({"id", "title", "emailDomains", ...}),
                         merged over the default organization demo-org
  --pending-ms <n>       time a new upload stays "pending" (default 150)
  --progress-ms <n>      time it then stays "progress" (default 250)
  --fetch-timeout-ms <n> time limit to fetch a URL source (default 5000)
  --latency-ms <n>       delay added before each /v1 response (default 0)
  --rate-429 <share>     share 0..1 of /v1 requests answered 429 with Retry-After
  --rate-5xx <share>     share 0..1 of /v1 requests answered 500, 502 or 503
  --drop-rate <share>    share 0..1 of /v1 requests whose connection is dropped
  --seed <n>             seed of the random faults, to reproduce them
  --stuck <slug,slug>    specifications with these slugs never leave "pending"
  --refuse <slug,slug>   specifications with these slugs always fail processing with PARSE_ERROR

Hostile version content (GET .../versions/{id|latest}/content, successful answers only):
  --content-padding-bytes <n>  pad the JSON with spaces to n bytes, streamed (600000000 costs no memory)
  --content-chunked            send it without content-length
  --content-delay-ms <n|never> wait before the status line; never: hold the request open for ever
  --content-stall-ms <n|never> stop after the headers and the first 64 KiB, for n ms or for ever
  --content-trickle <b>/<ms>   send the body b bytes at a time, one piece every ms (e.g. 16/100)
  --help                 print this help
`;

/** A command line the emulator cannot run with; the message names the flag and the expected value. */
export class CliUsageError extends Error {
  override name = "CliUsageError";
}

export type CliCommand = { kind: "help" } | { kind: "run"; options: EmulatorOptions; orgsFile?: string };

export function parseCliArgs(argv: string[]): CliCommand {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: "string" },
        host: { type: "string" },
        token: { type: "string" },
        orgs: { type: "string" },
        "pending-ms": { type: "string" },
        "progress-ms": { type: "string" },
        "fetch-timeout-ms": { type: "string" },
        "latency-ms": { type: "string" },
        "rate-429": { type: "string" },
        "rate-5xx": { type: "string" },
        "drop-rate": { type: "string" },
        seed: { type: "string" },
        stuck: { type: "string" },
        refuse: { type: "string" },
        "content-padding-bytes": { type: "string" },
        "content-chunked": { type: "boolean" },
        "content-delay-ms": { type: "string" },
        "content-stall-ms": { type: "string" },
        "content-trickle": { type: "string" },
        help: { type: "boolean" },
      },
    }));
  } catch (error) {
    throw new CliUsageError(
      `${error instanceof Error ? error.message : String(error)}\nRun with --help for the options.`,
    );
  }
  if (values.help === true) return { kind: "help" };
  const text = (name: string): string | undefined => {
    const value = values[name];
    return typeof value === "string" ? value : undefined;
  };

  const options: EmulatorOptions = { port: integer("--port", text("port"), 0, 65535) ?? 4010 };
  const host = text("host");
  if (host !== undefined) options.host = nonEmpty("--host", host);
  const token = text("token");
  if (token !== undefined) options.token = nonEmpty("--token", token);
  const pendingMs = integer("--pending-ms", text("pending-ms"), 0);
  const progressMs = integer("--progress-ms", text("progress-ms"), 0);
  options.processing = {
    ...(pendingMs !== undefined ? { pendingMs } : {}),
    ...(progressMs !== undefined ? { progressMs } : {}),
  };
  const fetchTimeoutMs = integer("--fetch-timeout-ms", text("fetch-timeout-ms"), 1);
  if (fetchTimeoutMs !== undefined) options.fetchTimeoutMs = fetchTimeoutMs;

  const faults = {
    latencyMs: integer("--latency-ms", text("latency-ms"), 0),
    rate429: share("--rate-429", text("rate-429")),
    rate5xx: share("--rate-5xx", text("rate-5xx")),
    dropRate: share("--drop-rate", text("drop-rate")),
    seed: integer("--seed", text("seed"), 0, 2 ** 32 - 1),
    stuckSlugs: text("stuck")
      ?.split(",")
      .map((slug) => slug.trim())
      .filter((slug) => slug.length > 0),
    refusedSlugs: text("refuse")
      ?.split(",")
      .map((slug) => slug.trim())
      .filter((slug) => slug.length > 0),
  };
  const total = (faults.rate429 ?? 0) + (faults.rate5xx ?? 0) + (faults.dropRate ?? 0);
  if (total > 1)
    throw new CliUsageError(`--rate-429 + --rate-5xx + --drop-rate must not exceed 1, got ${total}`);
  const content = {
    paddingBytes: integer("--content-padding-bytes", text("content-padding-bytes"), 0),
    chunked: values["content-chunked"] === true ? true : undefined,
    delayMs: millisecondsOrNever("--content-delay-ms", text("content-delay-ms")),
    stallMs: millisecondsOrNever("--content-stall-ms", text("content-stall-ms")),
    trickle: trickle(text("content-trickle")),
  };
  const contentSet = Object.fromEntries(Object.entries(content).filter(([, v]) => v !== undefined));
  options.faults = Object.fromEntries(
    Object.entries({
      ...faults,
      content: Object.keys(contentSet).length > 0 ? contentSet : undefined,
    }).filter(([, v]) => v !== undefined),
  );

  const orgsFile = text("orgs");
  return orgsFile === undefined ? { kind: "run", options } : { kind: "run", options, orgsFile };
}

/**
 * Parses an `--orgs` file: a JSON array of organizations, each with a string `id`. They are merged over
 * the default organization: one with the id "demo-org" overrides its fields; the others are added.
 */
export function parseOrganizationsFile(text: string, file: string): Organization[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CliUsageError(
      `--orgs ${file} is not valid JSON: ${error instanceof Error ? error.message : error}`,
    );
  }
  if (!Array.isArray(parsed))
    throw new CliUsageError(`--orgs ${file} must hold a JSON array of organizations`);
  const merged = new Map<string, Organization>([["demo-org", defaultOrganization()]]);
  for (const [index, entry] of parsed.entries()) {
    if (entry === null || typeof entry !== "object" || Array.isArray(entry)) {
      throw new CliUsageError(`--orgs ${file}: item ${index} must be an object`);
    }
    const org = entry as Partial<Organization>;
    if (typeof org.id !== "string" || org.id.length === 0) {
      throw new CliUsageError(`--orgs ${file}: item ${index} needs a non-empty string "id"`);
    }
    if (org.emailDomains !== undefined && !isStringArray(org.emailDomains)) {
      throw new CliUsageError(
        `--orgs ${file}: item ${index} ("${org.id}") has emailDomains that is not an array of strings`,
      );
    }
    const base = merged.get(org.id);
    merged.set(org.id, completeOrganization({ ...base, ...org, id: org.id }));
  }
  return [...merged.values()];
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

function integer(
  flag: string,
  value: string | undefined,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new CliUsageError(`${flag} must be an integer from ${min} to ${max}, got "${value}"`);
  }
  return Number(value);
}

/** A number of milliseconds, or `never` (for ever: `Infinity`). */
function millisecondsOrNever(flag: string, value: string | undefined): number | undefined {
  if (value === "never") return Number.POSITIVE_INFINITY;
  if (value !== undefined && !/^\d+$/.test(value)) {
    throw new CliUsageError(`${flag} must be an integer number of milliseconds or "never", got "${value}"`);
  }
  return integer(flag, value, 0);
}

/** `<bytes>/<ms>`: a piece of `bytes` every `ms`. */
function trickle(value: string | undefined): { bytes: number; everyMs: number } | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+)\/(\d+)$/.exec(value);
  if (match === null || Number(match[1]) < 1) {
    throw new CliUsageError(
      `--content-trickle must be <bytes>/<ms> with bytes >= 1, like 16/100, got "${value}"`,
    );
  }
  return { bytes: Number(match[1]), everyMs: Number(match[2]) };
}

function share(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (value.trim() === "" || !Number.isFinite(number) || number < 0 || number > 1) {
    throw new CliUsageError(`${flag} must be a number from 0 to 1 (a share of requests), got "${value}"`);
  }
  return number;
}

function nonEmpty(flag: string, value: string): string {
  if (value.length === 0) throw new CliUsageError(`${flag} must not be empty`);
  return value;
}
