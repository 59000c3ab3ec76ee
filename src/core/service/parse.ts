/**
 * Checks the service's responses where they enter. Required fields are checked; optional fields are kept
 * as they come when they have the right type, and dropped when they do not; unknown values of open
 * enumerations (processingState, lastProcessErrorCode) are kept as strings.
 */
import type {
  FilesystemEntry,
  Organization,
  Page,
  ProcessError,
  Spec,
  SpecVersion,
  SpecVersionContent,
  VersionFiles,
} from "./types.ts";

/** The body does not have the expected shape; `problem` says where. */
export class ResponseShapeError extends Error {
  override name = "ResponseShapeError";
}

export type Parser<T> = (body: unknown) => T;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function expectObject(value: unknown, where: string): Json {
  if (!isObject(value)) throw new ResponseShapeError(`${where} is ${describe(value)}, expected an object`);
  return value;
}

function expectString(parent: Json, key: string, where: string): string {
  const value = parent[key];
  if (typeof value !== "string") {
    throw new ResponseShapeError(`${where}.${key} is ${describe(value)}, expected a string`);
  }
  return value;
}

function expectConstant(parent: Json, key: string, constant: string, where: string): void {
  if (parent[key] !== constant) {
    throw new ResponseShapeError(`${where}.${key} is ${describe(parent[key])}, expected "${constant}"`);
  }
}

function describe(value: unknown): string {
  if (value === undefined) return "missing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return `the string ${JSON.stringify(value.slice(0, 40))}`;
  if (typeof value === "object") return "an object";
  return `a ${typeof value}`;
}

/** Removes optional fields whose type is wrong, so that callers can trust the declared types. */
function dropIfNot(target: Json, key: string, check: (value: unknown) => boolean): void {
  if (key in target && !check(target[key])) delete target[key];
}

const isString = (value: unknown) => typeof value === "string";
const isNumber = (value: unknown) => typeof value === "number" && Number.isFinite(value);
const isBoolean = (value: unknown) => typeof value === "boolean";

function parseProcessErrors(value: unknown): ProcessError[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.filter(isObject).map((entry) => ({
    message: typeof entry.message === "string" ? entry.message : JSON.stringify(entry),
    ...(typeof entry.code === "string" ? { code: entry.code } : {}),
  }));
}

function parseSpecAt(value: unknown, where: string): Spec {
  const source = expectObject(value, where);
  expectConstant(source, "object", "openapi-spec", where);
  expectString(source, "id", where);
  expectString(source, "slug", where);
  expectString(source, "processingState", where);
  const urls = expectObject(source.urls, `${where}.urls`);
  expectString(urls, "location", `${where}.urls`);
  expectString(urls, "app", `${where}.urls`);

  const spec: Json = { ...source };
  for (const key of ["createdAt", "updatedAt", "sourceURL", "visibility", "lastVersion", "lastProcessedAt"]) {
    dropIfNot(spec, key, isString);
  }
  // Any code that is present and not null says processing failed: one of another type is kept as its
  // JSON text (42 → "42"), never dropped, so that it cannot pass for success.
  if (spec.lastProcessErrorCode === null) delete spec.lastProcessErrorCode;
  else if (spec.lastProcessErrorCode !== undefined && !isString(spec.lastProcessErrorCode)) {
    spec.lastProcessErrorCode = JSON.stringify(spec.lastProcessErrorCode);
  }
  dropIfNot(spec, "lastProcessedErrorCount", isNumber);
  if ("lastProcessedErrors" in spec) {
    const errors = parseProcessErrors(spec.lastProcessedErrors);
    if (errors === undefined) delete spec.lastProcessedErrors;
    else spec.lastProcessedErrors = errors;
  }
  const permissions = isObject(source.permissions) ? source.permissions : {};
  spec.permissions = {
    ...permissions,
    edit: permissions.edit === true,
  };
  return spec as unknown as Spec;
}

function parseVersionAt(value: unknown, where: string): SpecVersion {
  const source = expectObject(value, where);
  expectConstant(source, "object", "openapi-spec-version", where);
  expectString(source, "id", where);
  expectString(source, "url", where);
  const urls = expectObject(source.urls, `${where}.urls`);
  expectString(urls, "location", `${where}.urls`);
  const version: Json = { ...source };
  dropIfNot(version, "createdAt", isString);
  return version as unknown as SpecVersion;
}

export const parseSpec: Parser<Spec> = (body) => parseSpecAt(body, "body");

export const parseSpecVersion: Parser<SpecVersion> = (body) => parseVersionAt(body, "body");

/**
 * The content of a version. Only the body and the presence of `filesystem` are required; the filesystem
 * is kept as it came, whatever its shape, and read by `readVersionFiles`.
 */
export const parseSpecVersionContent: Parser<SpecVersionContent> = (body) => {
  const source = expectObject(body, "body");
  if (!Object.hasOwn(source, "filesystem")) throw new ResponseShapeError("body.filesystem is missing");
  const content: Json = { ...source };
  dropIfNot(content, "url", isString);
  dropIfNot(content, "urls", isObject);
  return content as unknown as SpecVersionContent;
};

/**
 * Reads a version's filesystem as GitBook's OpenAPI parser writes it: a list of entries with `dir`,
 * `filename`, `isEntrypoint`, `references` and `specification`. Never throws: any other shape is
 * "unknown", with the first problem found, for a caller whose answer to doubt is to upload again.
 */
export function readVersionFiles(filesystem: unknown): VersionFiles {
  if (!Array.isArray(filesystem)) {
    return { kind: "unknown", problem: `the filesystem is ${describe(filesystem)}, not a list of files` };
  }
  const entries: FilesystemEntry[] = [];
  for (const [index, value] of filesystem.entries()) {
    const entry = readEntry(value);
    if (typeof entry === "string") return { kind: "unknown", problem: `file ${index + 1} ${entry}` };
    entries.push(entry);
  }
  return { kind: "files", entries };
}

function readEntry(value: unknown): FilesystemEntry | string {
  if (!isObject(value)) return `is ${describe(value)}, not an object`;
  const own = (key: string): unknown => (Object.hasOwn(value, key) ? value[key] : undefined);
  const dir = own("dir");
  const filename = own("filename");
  const isEntrypoint = own("isEntrypoint");
  const references = own("references");
  if (typeof dir !== "string") return `has a dir that is ${describe(dir)}`;
  if (typeof filename !== "string") return `has a filename that is ${describe(filename)}`;
  if (typeof isEntrypoint !== "boolean") return `has an isEntrypoint that is ${describe(isEntrypoint)}`;
  if (!Array.isArray(references) || !references.every(isString)) {
    return "has references that are not a list of names";
  }
  if (!Object.hasOwn(value, "specification")) return "has no specification";
  return { dir, filename, isEntrypoint, references: [...references], specification: value.specification };
}

export function pageParser<T>(parseItem: (value: unknown, where: string) => T): Parser<Page<T>> {
  return (body) => {
    const source = expectObject(body, "body");
    const items = source.items;
    if (!Array.isArray(items))
      throw new ResponseShapeError(`body.items is ${describe(items)}, expected an array`);
    const page: Page<T> = { items: items.map((item, index) => parseItem(item, `body.items[${index}]`)) };
    if (isNumber(source.count)) page.count = source.count as number;
    // `next` is absent (or null) on the last page; a next without a usable page id ends the listing too.
    if (isObject(source.next) && typeof source.next.page === "string" && source.next.page !== "") {
      page.next = { page: source.next.page };
    }
    return page;
  };
}

export const parseSpecPage: Parser<Page<Spec>> = pageParser(parseSpecAt);

export const parseVersionPage: Parser<Page<SpecVersion>> = pageParser(parseVersionAt);

function parseOrganizationAt(value: unknown, where: string): Organization {
  const source = expectObject(value, where);
  expectConstant(source, "object", "organization", where);
  expectString(source, "id", where);
  expectString(source, "title", where);
  const organization: Json = { ...source };
  expectObject(source.urls, `${where}.urls`);
  dropIfNot(organization, "emailDomains", (v) => Array.isArray(v) && v.every(isString));
  for (const key of ["sso", "ai", "inviteLinks"]) dropIfNot(organization, key, isBoolean);
  return organization as unknown as Organization;
}

export const parseOrganizationList: Parser<Organization[]> = (body) => {
  const source = expectObject(body, "body");
  const organizations = source.organizations;
  if (!Array.isArray(organizations)) {
    throw new ResponseShapeError(`body.organizations is ${describe(organizations)}, expected an array`);
  }
  return organizations.map((item, index) => parseOrganizationAt(item, `body.organizations[${index}]`));
};

/** What an error body says; both parts are optional because proxies answer errors too. */
export interface ParsedErrorBody {
  code?: number | string;
  message?: string;
}

/** Reads `{"error": {"code", "message"}}` (or a bare `{"message"}`) from an error response. */
export function parseErrorBody(body: unknown): ParsedErrorBody {
  if (!isObject(body)) return {};
  const inner = isObject(body.error) ? body.error : body;
  const result: ParsedErrorBody = {};
  if (typeof inner.code === "string" || isNumber(inner.code)) result.code = inner.code as string | number;
  if (typeof inner.message === "string" && inner.message.trim() !== "") result.message = inner.message.trim();
  else if (typeof body.error === "string" && body.error.trim() !== "") result.message = body.error.trim();
  return result;
}
