/**
 * The re-run cache as a file the CI keeps between runs (GitHub's `actions/cache`, GitLab's `cache:`).
 * Whoever could write that cache may have written this file, so it is read as hostile: a regular file
 * under a size limit, one known format, its entries sealed with a key derived from the GitBook token (a
 * job without the token cannot seal an entry), and each entry's fields checked. Anything amiss drops the
 * whole file with a warning: its specs are read from GitBook, as on a fresh runner.
 * Rationale: docs/design/rerun-cache.md.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { mkdir, open, rename, rm } from "node:fs/promises";
import path from "node:path";
import { formatBytes, readRegularText } from "../../core/files/read-regular.ts";
import type { Logger } from "../../core/logger.ts";
import { RECORD_KEY, recordOf } from "../../core/ownership/ownership.ts";
import type { RememberedVersion, VersionMemory } from "../../core/ports.ts";
import { escapeUntrusted } from "../../core/text/log-protocol.ts";

const FORMAT = "gitbook-openapi/rerun-cache";
const VERSION = 1;
/** 16 MiB: some 40,000 entries, far more than one configuration publishes. */
export const MAX_CACHE_BYTES = 16 * 1024 * 1024;
const MAX_ENTRIES = 50_000;
const MAX_FIELD = 512;
const MAX_URL = 2048;

interface Entry extends RememberedVersion {
  organization: string;
  slug: string;
}

export interface CacheFileOptions {
  /** Absolute path of the file. */
  file: string;
  /** The GitBook token and API URL the run uses: the seal's key is derived from both. */
  token: string;
  apiUrl: string;
  logger: Logger;
}

/** The re-run cache kept in `options.file`. */
export function cacheFile(options: CacheFileOptions): VersionMemory {
  const key = createHmac("sha256", options.token)
    .update(`gitbook-openapi re-run cache v${VERSION}\n${options.apiUrl}`)
    .digest();
  const name = escapeUntrusted(options.file);
  let loaded: Promise<Entry[]> | undefined;
  const load = () => {
    loaded ??= loadEntries(options.file, key).then(
      (read) => {
        if (read.problem) {
          options.logger.warning(
            `The re-run cache ${name} is not used (${read.problem}): every spec's version is read from GitBook.`,
          );
        } else if (read.missing) {
          options.logger.info(`No re-run cache at ${name} yet: every spec's version is read from GitBook.`);
        }
        return read.entries;
      },
      () => [],
    );
    return loaded;
  };
  return {
    async recall(organization) {
      const entries = (await load()).filter((entry) => entry.organization === organization);
      options.logger.debug(`The re-run cache holds ${entries.length} entries for this organization.`);
      return new Map(entries.map(({ organization: _org, slug, ...known }) => [slug, known]));
    },
    async keep(organization, versions) {
      const others = (await load()).filter((entry) => entry.organization !== organization);
      const entries = [
        ...others,
        ...[...versions].map(([slug, known]): Entry => ({ organization, slug, ...known })),
      ];
      const problem = await saveEntries(options.file, key, entries);
      if (problem) options.logger.warning(`The re-run cache ${name} could not be written (${problem}).`);
    },
  };
}

type Loaded = { entries: Entry[]; problem?: string; missing?: true };

async function loadEntries(file: string, key: Buffer): Promise<Loaded> {
  let text: string;
  try {
    text = readRegularText(file, { maxBytes: MAX_CACHE_BYTES, label: file });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { entries: [], missing: true };
    const message = error instanceof Error ? error.message : String(error);
    return { entries: [], problem: message };
  }
  let outer: unknown;
  try {
    outer = JSON.parse(text);
  } catch {
    return { entries: [], problem: "it is not JSON" };
  }
  const { format, version, entries, seal } = (outer ?? {}) as Record<string, unknown>;
  if (format !== FORMAT || version !== VERSION || typeof entries !== "string" || typeof seal !== "string") {
    return { entries: [], problem: `it is not a version ${VERSION} re-run cache of this tool` };
  }
  const expected = sealOf(key, entries);
  if (seal.length !== expected.length || !timingSafeEqual(Buffer.from(seal), Buffer.from(expected))) {
    return {
      entries: [],
      problem: "its seal does not match: another GitBook token or API URL wrote it, or it was changed since",
    };
  }
  let parsed: Entry[] | string;
  try {
    parsed = checkedEntries(JSON.parse(entries));
  } catch {
    parsed = "its entries are not JSON";
  }
  return typeof parsed === "string" ? { entries: [], problem: parsed } : { entries: parsed };
}

function checkedEntries(value: unknown): Entry[] | string {
  if (!Array.isArray(value)) return "its entries are not a list";
  if (value.length > MAX_ENTRIES) return `it holds over ${MAX_ENTRIES} entries`;
  const entries: Entry[] = [];
  for (const item of value) {
    const entry = checkedEntry(item);
    if (entry === undefined) return "an entry is not of the expected shape";
    entries.push(entry);
  }
  return entries;
}

function checkedEntry(item: unknown): Entry | undefined {
  if (typeof item !== "object" || item === null) return undefined;
  const { organization, slug, version, versionUrl } = item as Record<string, unknown>;
  const record = recordOf({ [RECORD_KEY]: (item as Record<string, unknown>).record });
  if (!short(organization) || !short(slug) || !short(version) || record?.slug !== slug) return undefined;
  if (versionUrl !== undefined && !isWebUrl(versionUrl)) return undefined;
  return { organization, slug, version, record, ...(versionUrl !== undefined ? { versionUrl } : {}) };
}

function short(value: unknown): value is string {
  return typeof value === "string" && value.length > 0 && value.length <= MAX_FIELD;
}

function isWebUrl(value: unknown): value is string {
  if (typeof value !== "string" || value.length > MAX_URL) return false;
  try {
    const { protocol } = new URL(value);
    return protocol === "https:" || protocol === "http:";
  } catch {
    return false;
  }
}

function sealOf(key: Buffer, entries: string): string {
  return `hmac-sha256:${createHmac("sha256", key).update(entries).digest("hex")}`;
}

/** Writes the file whole, through a new file renamed over it: a reader never sees half of it. */
async function saveEntries(file: string, key: Buffer, entries: Entry[]): Promise<string | undefined> {
  const body = JSON.stringify(entries);
  const text = `${JSON.stringify({ format: FORMAT, version: VERSION, entries: body, seal: sealOf(key, body) })}\n`;
  if (entries.length > MAX_ENTRIES || Buffer.byteLength(text) > MAX_CACHE_BYTES) {
    return `its ${entries.length} entries would take ${formatBytes(Buffer.byteLength(text))}, over its limits`;
  }
  const temporary = `${file}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    await mkdir(path.dirname(file), { recursive: true });
    // `wx`: never through a link or a file someone placed at that name.
    const handle = await open(temporary, "wx", 0o600);
    try {
      await handle.writeFile(text);
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
    return undefined;
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => {});
    return error instanceof Error ? error.message : String(error);
  }
}
