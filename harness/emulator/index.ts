import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Spec, SpecVersion } from "../../src/core/service/types.ts";
import type { ApiContext } from "./api.ts";
import { MonotonicClock } from "./clock.ts";
import { FaultInjector } from "./faults.ts";
import { processSpecText } from "./gitbook-parser.ts";
import { type EmulatorOptions, type FaultOptions, resolveOptions, type ScriptedFault } from "./options.ts";
import { Processor } from "./processor.ts";
import { SpecStore } from "./store.ts";
import { createRequestListener, type RecordedRequest } from "./transport.ts";
import { type LinkBase, renderSpec, renderVersion } from "./views.ts";

export { EmulatorOptionsError } from "./options.ts";
export { defaultOrganization } from "./organizations.ts";
export type { EmulatorOptions, FaultOptions, RecordedRequest, ScriptedFault };

export interface RunningEmulator {
  /** e.g. "http://127.0.0.1:54321" (no /v1; the client appends /v1). */
  readonly baseUrl: string;
  readonly token: string;
  /** Every request received, in order of arrival. */
  readonly requests: RecordedRequest[];
  setFaults(faults: FaultOptions): void;
  script(...faults: ScriptedFault[]): void;
  getSpec(orgId: string, slug: string): Spec | undefined;
  listSpecs(orgId: string): Spec[];
  listVersions(orgId: string, slug: string): SpecVersion[];
  getVersionText(orgId: string, slug: string, versionId: string): string | undefined;
  /** Seeds a specification directly: complete, with one version from `text` (which must be OpenAPI). */
  seedSpec(orgId: string, slug: string, text: string): Spec;
  close(): Promise<void>;
}

/** Starts the emulator of the specification-hosting service on a real loopback port. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const resolved = resolveOptions(options);
  const faults = new FaultInjector(resolved.faults);
  const store = new SpecStore(new MonotonicClock());
  const processor = new Processor(store, {
    pendingMs: resolved.pendingMs,
    progressMs: resolved.progressMs,
    fetchTimeoutMs: resolved.fetchTimeoutMs,
    isStuck: (slug) => faults.isStuck(slug),
    isRefused: (slug) => faults.isRefused(slug),
    trustUploads: resolved.trustUploads,
  });
  const links: LinkBase = { baseUrl: "", appUrl: resolved.appUrl ?? "" };
  const api: ApiContext = {
    store,
    processor,
    organizations: resolved.organizations,
    forbiddenOrganizations: resolved.forbiddenOrganizations,
    links,
  };
  const requests: RecordedRequest[] = [];
  const server = createServer(
    { keepAliveTimeout: 5_000 },
    createRequestListener({
      token: resolved.token,
      maxBodyBytes: resolved.maxBodyBytes,
      faults,
      requests,
      api,
    }),
  );
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(resolved.port, resolved.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  links.baseUrl = `http://${host}:${address.port}`;
  if (resolved.appUrl === undefined) links.appUrl = links.baseUrl;

  let closing: Promise<void> | undefined;
  return {
    baseUrl: links.baseUrl,
    token: resolved.token,
    requests,
    setFaults: (next) => faults.setFaults(next),
    script: (...next) => faults.script(...next),
    getSpec(orgId, slug) {
      const spec = store.get(orgId, slug);
      return spec && renderSpec(links, spec);
    },
    listSpecs: (orgId) => store.list(orgId).map((spec) => renderSpec(links, spec)),
    listVersions(orgId, slug) {
      const spec = store.get(orgId, slug);
      return spec ? spec.versions.map((version) => renderVersion(links, spec, version)) : [];
    },
    getVersionText: (orgId, slug, versionId) =>
      store.get(orgId, slug)?.versions.find((version) => version.id === versionId)?.text,
    seedSpec(orgId, slug, text) {
      const parsed = processSpecText(text);
      if (!parsed.ok) {
        throw new Error(`seedSpec(${orgId}, ${slug}): the text is not OpenAPI: ${parsed.errors[0]?.message}`);
      }
      const existing = store.get(orgId, slug);
      if (existing !== undefined) processor.cancel(existing);
      const spec = existing ?? store.create(orgId, slug, { text });
      store.replaceSource(spec, { text });
      const { document } = parsed;
      store.recordSuccess(spec, { text, format: parsed.format, document: () => document });
      return renderSpec(links, spec);
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        processor.close();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
