/**
 * A spec's document as the review's base commit has it, bundled the same way and shaped by the head's
 * steps: what the change review compares the head with. A module of its own, so that the preparation's
 * worker (src/core/prepare/prepare-worker.ts) reads it without loading the comparison.
 */
import { bundleSpec } from "../bundling/index.ts";
import { inspectFile, loadSpec } from "../discovery/index.ts";
import { parseSource } from "../documents/source-text.ts";
import { silentLogger } from "../logger.ts";
import type { ShapingSteps } from "../shaping/publish-targets.ts";
import { NotReviewedError } from "./not-reviewed.ts";

/** A spec file's place at the base commit. */
export interface BaseFile {
  /** The base commit's files, written out. */
  base: string;
  /** The head's workspace (its overlays, when the base's cannot be applied). */
  head: string;
  /** Relative to either root. */
  file: string;
  /** Why the base tree's read left this file out, when it did. */
  skipped?: string | undefined;
}

/**
 * The base's document, shaped by `steps` when given. Undefined only when the base is proven not to have
 * the spec (no such file, or a file that is not OpenAPI); any other failure rejects with a
 * {@link NotReviewedError} that says why. The head's discovery made the file a spec; at the base the same
 * path is read as discovery reads one.
 */
export async function readBaseDocument(where: BaseFile, steps?: ShapingSteps): Promise<unknown | undefined> {
  const { base, file } = where;
  const unreadable = (why: string) => new NotReviewedError(`at the base commit, ${file} ${why}`);
  if (where.skipped !== undefined) throw unreadable(where.skipped);
  const inspection = await inspectFile(base, file).catch((error: unknown) => {
    throw unreadable(`could not be read: ${messageOf(error)}`);
  });
  if (inspection.kind === "not-spec") return undefined;
  if (inspection.kind === "unreadable" && inspection.missing) return undefined;
  if (inspection.kind === "broken")
    throw unreadable(`could not be read as a spec: ${inspection.broken.problem.message}`);
  if (inspection.kind !== "spec") throw unreadable("could not be read");
  const { spec } = inspection;
  const loaded = loadSpec(spec);
  if (!loaded.ok) throw unreadable(`could not be read: ${loaded.problem.message}`);
  let document: unknown;
  try {
    const bundled = await bundleSpec(
      spec.absolutePath,
      { workspace: base },
      loaded.spec.text,
      loaded.spec.document,
    );
    document = bundled.bundled ? parseSource(bundled.text, spec.format === "json") : loaded.spec.document;
  } catch (error) {
    throw unreadable(`could not be bundled: ${messageOf(error)}`);
  }
  // Shaping (overlays and their engines) loads only for a publication that has steps.
  return steps ? shapedBase(document, steps, where, await import("../shaping/audiences.ts")) : document;
}

/**
 * The base's document shaped by the head's steps, with the overlay files as the base commit has them (an
 * overlay the change adds is not applied: its effect is part of the change). When the base's overlays
 * cannot be applied (one was invalid then), the head's are; when neither can, the spec is not reviewed:
 * the base unshaped would put the parts an audience leaves out into the review.
 */
function shapedBase(
  document: unknown,
  steps: ShapingSteps,
  where: BaseFile,
  { shapeDocument, workspaceOverlays }: typeof import("../shaping/audiences.ts"),
): unknown {
  for (const readOverlay of [workspaceOverlays(where.base, "skip"), workspaceOverlays(where.head, "skip")]) {
    try {
      return shapeDocument(document, steps, { readOverlay, logger: silentLogger, specFile: where.file })
        .document;
    } catch {
      // try the next side's overlays
    }
  }
  throw new NotReviewedError(
    "its base could not be shaped as this publication is (overlays, audience), and unshaped it would show what the publication leaves out",
  );
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n", 1)[0] ?? "";
}
