/**
 * A spec's document as the review's base commit has it, bundled the same way and shaped by the head's
 * steps: what the change review compares the head with. A module of its own, so that the preparation's
 * worker (src/core/sync/prepare-worker.ts) reads it without loading the comparison.
 */
import { bundleSpec } from "../bundling/index.ts";
import { type DiscoveredSpec, loadSpec } from "../discovery/index.ts";
import { parseSource } from "../documents/source-text.ts";
import { silentLogger } from "../logger.ts";
import { type ShapingSteps, shapeDocument, workspaceOverlays } from "../shaping/audiences.ts";

/** Where the base commit has a spec file: the file discovered in the base's tree, and both roots. */
export interface BaseFile {
  spec: DiscoveredSpec;
  /** The base commit's files, written out. */
  base: string;
  /** The head's workspace (its overlays, when the base's cannot be applied). */
  head: string;
  /** Relative to either root. */
  file: string;
}

/** The base's document, shaped by `steps` when given; undefined when it cannot be read or bundled. */
export async function readBaseDocument(where: BaseFile, steps?: ShapingSteps): Promise<unknown | undefined> {
  const { spec } = where;
  const loaded = loadSpec(spec);
  if (!loaded.ok) return undefined;
  let document: unknown;
  try {
    const bundled = await bundleSpec(
      spec.absolutePath,
      { workspace: where.base },
      loaded.spec.text,
      loaded.spec.document,
    );
    document = bundled.bundled ? parseSource(bundled.text, spec.format === "json") : loaded.spec.document;
  } catch {
    return undefined;
  }
  return steps ? shapedBase(document, steps, where) : document;
}

/**
 * The base's document shaped by the head's steps, with the overlay files as the base commit has them (an
 * overlay the change adds is not applied: its effect is part of the change). When the base's overlays
 * cannot be applied (one was invalid then), the head's are; when neither can, the base is not shaped.
 */
function shapedBase(document: unknown, steps: ShapingSteps, where: BaseFile): unknown {
  for (const readOverlay of [workspaceOverlays(where.base, "skip"), workspaceOverlays(where.head, "skip")]) {
    try {
      return shapeDocument(document, steps, { readOverlay, logger: silentLogger, specFile: where.file })
        .document;
    } catch {
      // try the next side's overlays
    }
  }
  return document;
}
