/**
 * The commands that read (and delete) what GitBook holds: `specs`, `versions`, `orgs`. Each prints a
 * table or field list for people, or with `--json` only JSON on stdout, for scripts. Lists page through
 * everything unless `--limit` caps the number of items.
 */
import { type GitBookClient, readVersionFiles } from "../../adapters/gitbook/index.ts";
import type { Organization, Spec, SpecVersion, SpecVersionContent } from "../../core/service/types.ts";
import { type Cell, renderFields, renderTable } from "./format.ts";
import { type Output, printable } from "./output.ts";

export interface ReadContext {
  client: GitBookClient;
  output: Output;
  json: boolean;
}

/** The largest page the service serves. */
const MAX_PAGE_SIZE = 1000;

/** The first `limit` items (all when undefined), asking for pages no larger than needed. */
async function collect<T>(
  iterate: (options: { limit?: number }) => AsyncIterableIterator<T>,
  limit: number | undefined,
): Promise<T[]> {
  const items: T[] = [];
  if (limit === 0) return items;
  const pageSize = limit === undefined ? undefined : Math.min(limit, MAX_PAGE_SIZE);
  for await (const item of iterate(pageSize === undefined ? {} : { limit: pageSize })) {
    items.push(item);
    if (limit !== undefined && items.length >= limit) break;
  }
  return items;
}

function table(context: ReadContext, headers: string[], rows: Cell[][]): void {
  context.output.out(renderTable(headers, rows, context.output.columns));
}

export async function listSpecs(
  context: ReadContext,
  orgId: string,
  limit: number | undefined,
): Promise<void> {
  const specs = await collect((options) => context.client.iterateSpecs(orgId, options), limit);
  if (context.json) return context.output.json(specs);
  if (specs.length === 0) {
    context.output.err(`No specifications in organization ${JSON.stringify(printable(orgId))}.\n`);
    return;
  }
  table(
    context,
    ["slug", "state", "error", "last processed", "last version"],
    specs.map((spec) => [
      spec.slug,
      spec.processingState,
      spec.lastProcessErrorCode,
      spec.lastProcessedAt,
      spec.lastVersion,
    ]),
  );
}

export async function getSpec(context: ReadContext, orgId: string, slug: string): Promise<void> {
  const spec = await context.client.getSpec(orgId, slug);
  if (context.json) return context.output.json(spec);
  context.output.out(renderFields(specFields(spec)));
  const errors = spec.lastProcessedErrors ?? [];
  if (errors.length > 0) {
    const more = (spec.lastProcessedErrorCount ?? errors.length) - errors.length;
    context.output.out(
      `Errors:\n${errors.map((error) => `  - ${printable(error.message)}\n`).join("")}` +
        (more > 0 ? `  … and ${more} more\n` : ""),
    );
  }
}

function specFields(spec: Spec): [string, Cell][] {
  return [
    ["Slug", spec.slug],
    ["Id", spec.id],
    ["State", spec.processingState],
    ["Error code", spec.lastProcessErrorCode],
    ["Last version", spec.lastVersion],
    ["Last processed", spec.lastProcessedAt],
    ["Created", spec.createdAt],
    ["Updated", spec.updatedAt],
    ["Visibility", spec.visibility],
    ["Source URL", spec.sourceURL],
    ["App URL", spec.urls.app],
    ["Published URL", spec.urls.published],
  ];
}

export async function deleteSpec(context: ReadContext, orgId: string, slug: string): Promise<void> {
  await context.client.deleteSpec(orgId, slug);
  if (context.json) return context.output.json({ deleted: true, organization: orgId, slug });
  context.output.out(`Deleted specification ${slug} from organization ${printable(orgId)}.\n`);
}

export async function listVersions(
  context: ReadContext,
  orgId: string,
  slug: string,
  limit: number | undefined,
): Promise<void> {
  const versions = await collect((options) => context.client.iterateVersions(orgId, slug, options), limit);
  if (context.json) return context.output.json(versions);
  if (versions.length === 0) {
    context.output.err(`Specification ${slug} has no versions yet.\n`);
    return;
  }
  table(
    context,
    ["id", "created", "url"],
    versions.map((version) => [version.id, version.createdAt, version.url]),
  );
}

export const LATEST = "latest";

export async function getVersion(
  context: ReadContext,
  orgId: string,
  slug: string,
  version: string,
): Promise<void> {
  const found: SpecVersion =
    version === LATEST
      ? await context.client.getLatestVersion(orgId, slug)
      : await context.client.getVersion(orgId, slug, version);
  if (context.json) return context.output.json(found);
  context.output.out(
    renderFields([
      ["Id", found.id],
      ["Created", found.createdAt],
      ["URL", found.url],
      ["App URL", found.urls.app],
    ]),
  );
}

export async function getVersionContent(
  context: ReadContext,
  orgId: string,
  slug: string,
  version: string,
): Promise<void> {
  const content: SpecVersionContent =
    version === LATEST
      ? await context.client.getLatestVersionContent(orgId, slug)
      : await context.client.getVersionContent(orgId, slug, version);
  if (context.json) return context.output.json(content);
  // For people: each file of the specification, as indented JSON under its name (the entrypoint marked);
  // a filesystem of another shape is printed whole.
  const files = readVersionFiles(content.filesystem);
  if (files.kind === "unknown") {
    context.output.err(`The version's files have an unknown shape: ${printable(files.problem)}.\n`);
    const text = JSON.stringify(content.filesystem, null, 2) ?? "undefined";
    context.output.out(`# filesystem\n${printable(text, true)}\n`);
    return;
  }
  for (const entry of files.entries) {
    const name = entry.dir === "" || entry.dir === "." ? entry.filename : `${entry.dir}/${entry.filename}`;
    const mark = entry.isEntrypoint ? " (entrypoint)" : "";
    const text = JSON.stringify(entry.specification, null, 2) ?? "undefined";
    context.output.out(`# ${printable(name)}${mark}\n${printable(text, true)}\n`);
  }
}

export async function listOrganizations(context: ReadContext, domain: string): Promise<void> {
  const organizations: Organization[] = await context.client.listOrganizationsByEmailDomain(domain);
  if (context.json) return context.output.json(organizations);
  if (organizations.length === 0) {
    context.output.err(`No organization the token can see has the email domain ${printable(domain)}.\n`);
    return;
  }
  table(
    context,
    ["id", "title", "hostname", "email domains", "app url"],
    organizations.map((org) => [org.id, org.title, org.hostname, org.emailDomains?.join(", "), org.urls.app]),
  );
}
