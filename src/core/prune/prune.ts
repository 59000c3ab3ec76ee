import type { Logger } from "../logger.ts";
import type { Ancestry, ReadOptions, SpecLister, SpecService } from "../ports.ts";
import type { SpecResult } from "../result.ts";
import { describeServiceError, isNotFound } from "../service/describe-error.ts";
import type { Spec } from "../service/types.ts";
import { slugify } from "../slugs/derive.ts";
import { PREVIEW_SLUG } from "../slugs/preview.ts";
import { escapeUntrusted } from "../text/log-protocol.ts";
import { publishedRecord } from "../unchanged/unchanged.ts";

/**
 * What became of the file a spec was published from. `gone`: deleted, or published under another slug
 * now. `kept`: still there and a spec, but this run leaves it out (`files`). `unrecognised`: still there
 * and no longer read as an OpenAPI document (`reason` says why).
 */
export type RecordedFile =
  | { kind: "gone"; why: string }
  | { kind: "kept"; why: string }
  | { kind: "unrecognised"; reason: string };

export interface PruneOptions {
  orgId: string;
  /** The run's `slug-prefix`: only slugs under it are looked at. */
  prefix: string;
  /** Every slug this run has a file for, published or not: never pruned. */
  keep: ReadonlySet<string>;
  /** The run's own {@link ownerKey}: only a spec whose publish record names it may be deleted. */
  owner: string;
  /** Why nothing may be deleted this run (the repository's identity is unknown, slugs collided). */
  blocked?: string | undefined;
  /** What became of a recorded file: decides whether its spec goes. */
  recordedFile: (path: string) => Promise<RecordedFile>;
  /** Whether a record's commit is this run's commit or an ancestor of it: only then may its spec go. */
  precedesRun: (commit: string) => Promise<Ancestry>;
  limit: number;
  /** Check mode: say what would be pruned, delete nothing. */
  dryRun: boolean;
  lister: SpecLister;
  service: Pick<SpecService, "deleteSpec" | "getVersionContent">;
  /** Each evidence read's own bound. */
  readOptions: () => ReadOptions;
  logger: Logger;
  /** How messages name the limit setting. */
  limitSetting: string;
}

/**
 * The published slugs worth looking at: under the prefix (`<prefix>-…`), not one of this run's slugs, not
 * a preview. The prefix is a filter: ownership is proven by each spec's publish record.
 */
export function pruneCandidates(
  published: readonly string[],
  prefix: string,
  keep: ReadonlySet<string>,
): string[] {
  const under = `${slugify(prefix)}-`;
  return published
    .filter((slug) => slug.startsWith(under) && !keep.has(slug) && !PREVIEW_SLUG.test(slug))
    .sort();
}

/**
 * What pruning did: a row per spec it deleted, would delete or failed on (each with its slug); and, when
 * it could not prune at all, why, for the run's report: a failure of the run, not of any one spec.
 */
export interface PruneOutcome {
  results: SpecResult[];
  failure?: string;
}

type Verdict =
  | { kind: "delete"; slug: string; why: string }
  /** `history`: kept because git could not tell the commits' order (a shallow clone, no git). */
  | { kind: "keep"; slug: string; why: string; history?: true }
  | { kind: "failed"; result: SpecResult };

/**
 * Deletes (or, in check mode, lists) the specs this repository published and no longer has. A spec is
 * deleted only on evidence: its last version carries this run's owner in a publish record written for
 * that very slug, the file the record names is gone (or now published under another slug), and the
 * record's commit is this run's commit or an ancestor of it. Every other candidate is kept and said
 * why; a recorded file still there but no longer read as a spec fails. Above `limit` nothing is deleted.
 */
export async function pruneSpecs(options: PruneOptions): Promise<PruneOutcome> {
  const { logger } = options;
  let listed: Spec[];
  try {
    listed = [];
    for await (const spec of options.lister.iterateSpecs(options.orgId)) listed.push(spec);
  } catch (error) {
    const failure = `Nothing was pruned: listing the organization's specs failed: ${describeServiceError(error).message}`;
    logger.error(failure);
    return { results: [], failure };
  }
  const bySlug = new Map(listed.map((spec) => [spec.slug, spec]));
  const candidates = pruneCandidates([...bySlug.keys()], options.prefix, options.keep);
  if (candidates.length > 0 && options.blocked) {
    const reason = `Nothing was pruned: ${options.blocked}.`;
    logger.error(`${reason}\n${candidates.map((slug) => `  ${escapeUntrusted(slug)}`).join("\n")}`);
    return { results: [], failure: reason };
  }
  const verdicts = await Promise.all(candidates.map((slug) => verdictOn(bySlug.get(slug) as Spec, options)));
  const failed = verdicts.flatMap((verdict) => (verdict.kind === "failed" ? [verdict.result] : []));
  const kept = verdicts.filter((verdict) => verdict.kind === "keep");
  const doomed = verdicts.flatMap((verdict) => (verdict.kind === "delete" ? [verdict] : []));
  if (kept.length > 0) {
    logger.group(
      `Prune: ${plural(kept.length)} under '${slugify(options.prefix)}-' kept, not proven ours to delete`,
      () => {
        for (const { slug, why } of kept) logger.info(`${escapeUntrusted(slug)}: ${escapeUntrusted(why)}`);
      },
    );
  }
  const unordered = kept.filter((verdict) => verdict.history);
  if (unordered.length > 0) {
    logger.warning(
      `${plural(unordered.length)} this repository published and no longer has ${unordered.length === 1 ? "was" : "were"} kept: git could not tell whether the commit each was published from precedes this run's (${escapeUntrusted(unordered[0]?.why ?? "")}). Fetch the history the run needs: \`fetch-depth: 0\` on actions/checkout, \`GIT_DEPTH: 0\` in GitLab CI, a full clone elsewhere.`,
    );
  }
  const base = { file: "", operation: "delete" as const };
  if (doomed.length > options.limit) {
    const reason = `${plural(doomed.length)} this repository published have no file any more, above ${options.limitSetting} (${options.limit}): nothing was pruned. Check the list; raise ${options.limitSetting} if they should all go.`;
    logger.error(`${reason}\n${doomed.map(({ slug }) => `  ${escapeUntrusted(slug)}`).join("\n")}`);
    const over = doomed.map(
      ({ slug }): SpecResult => ({
        ...base,
        slug,
        status: "failed",
        errorCode: "PRUNE_LIMIT",
        errors: [reason],
      }),
    );
    return { results: [...failed, ...over] };
  }
  logger.group(
    `Prune${options.dryRun ? " (check)" : ""}: ${plural(doomed.length)} removed from the repository`,
    () => {
      for (const { slug, why } of doomed) logger.info(`${escapeUntrusted(slug)}: ${escapeUntrusted(why)}`);
    },
  );
  if (options.dryRun) {
    return {
      results: [
        ...failed,
        ...doomed.map(
          ({ slug, why }): SpecResult => ({
            ...base,
            slug,
            status: "planned",
            errors: [`Would be pruned: ${why}.`],
          }),
        ),
      ],
    };
  }
  const deleted = await Promise.all(
    doomed.map(async ({ slug }): Promise<SpecResult> => {
      try {
        await options.service.deleteSpec(options.orgId, slug);
        return { ...base, slug, status: "deleted", errors: [] };
      } catch (error) {
        if (isNotFound(error)) return { ...base, slug, status: "deleted", errors: [] };
        const { code, message } = describeServiceError(error);
        logger.error(`Pruning '${slug}' failed: ${message}`);
        return { ...base, slug, status: "failed", errorCode: code, errors: [message] };
      }
    }),
  );
  return { results: [...failed, ...deleted] };
}

/** Reads a candidate's publish record and decides; never throws. */
async function verdictOn(spec: Spec, options: PruneOptions): Promise<Verdict> {
  const { slug } = spec;
  if (!spec.lastVersion)
    return { kind: "keep", slug, why: "GitBook holds no version of it to prove who published it" };
  let content: unknown;
  try {
    content = await options.service.getVersionContent(
      options.orgId,
      slug,
      spec.lastVersion,
      options.readOptions(),
    );
  } catch (error) {
    return {
      kind: "keep",
      slug,
      why: `its publish record could not be read (${describeServiceError(error).message})`,
    };
  }
  const record = publishedRecord(content);
  if (typeof record === "string") return { kind: "keep", slug, why: record };
  if (record.owner !== options.owner) {
    return {
      kind: "keep",
      slug,
      why: "another repository, or another slug-prefix of this one, published it",
    };
  }
  if (record.slug === undefined || record.commit === undefined) {
    return {
      kind: "keep",
      slug,
      why: "its publish record does not name the slug and commit it was published from (written by an earlier version of this tool, or by a run that did not know its commit), so it cannot be told from a copy or a newer run's; delete it in GitBook if it should go",
    };
  }
  if (record.slug !== slug) {
    return {
      kind: "keep",
      slug,
      why: `its publish record was written for '${record.slug}': copied under another slug, it proves nothing`,
    };
  }
  const file = await options.recordedFile(record.path);
  switch (file.kind) {
    case "gone":
      return deleteIfOlder(slug, record.commit, file.why, options);
    case "kept":
      options.logger.warning(
        `${escapeUntrusted(record.path)} (published as '${slug}'): ${file.why}; its spec is kept.`,
      );
      return { kind: "keep", slug, why: `${record.path} ${file.why}` };
    case "unrecognised": {
      const message = `${record.path} was published as '${slug}' and is still in the repository, but is no longer read as an OpenAPI document: ${file.reason}. Its spec was kept. Fix the file (a top-level \`openapi: "3.x"\` or \`swagger: "2.0"\`, JSON or YAML in UTF-8), or delete it to have its spec pruned.`;
      options.logger.error(escapeUntrusted(message), { file: record.path });
      return {
        kind: "failed",
        result: { file: record.path, slug, status: "failed", errorCode: "NOT_A_SPEC", errors: [message] },
      };
    }
  }
}

/** Deletes only on the word of a commit this run's commit descends from: a run on an older one keeps it. */
async function deleteIfOlder(
  slug: string,
  commit: string,
  why: string,
  options: PruneOptions,
): Promise<Verdict> {
  let ancestry: Ancestry;
  try {
    ancestry = await options.precedesRun(commit);
  } catch (error) {
    ancestry = { known: false, reason: error instanceof Error ? error.message : String(error) };
  }
  if (!ancestry.known) return { kind: "keep", slug, why: ancestry.reason, history: true };
  if (!ancestry.ancestor) {
    return {
      kind: "keep",
      slug,
      why: `it was published from the commit ${commit.slice(0, 12)}, which this run's commit does not descend from (a newer push, a re-run of an older one, or another branch): a run deletes only what a commit before its own published`,
    };
  }
  return { kind: "delete", slug, why };
}

function plural(count: number): string {
  return `${count} spec${count === 1 ? "" : "s"}`;
}
