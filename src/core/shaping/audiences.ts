/**
 * Shaping: per spec file, overlays, `remove-internal` and `audiences` (one file under several slugs, each
 * a spec of its own in the run), applied in that order after bundling (docs/overlays-and-audiences.md;
 * choices in docs/design/overlays.md).
 */
import { realpathSync } from "node:fs";
import path from "node:path";
import { toYaml } from "../bundling/yaml-text.ts";
import { isWithin } from "../files/containment.ts";
import { readRegularText } from "../files/read-regular.ts";
import type { Logger } from "../logger.ts";
import { escapeUntrusted } from "../text/log-protocol.ts";
import { truncate } from "../text/truncate.ts";
import { describePath, MAX_DOCUMENT_DEPTH, ShapingBudget, tooDeep } from "./bounds.ts";
import { applyOverlay, type Overlay, OverlayError, parseOverlay } from "./overlay.ts";
import type { ShapingSteps } from "./publish-targets.ts";
import {
  danglingRefs,
  InternalRemovalError,
  type RemovalSummary,
  removeInternal,
} from "./remove-internal.ts";

/** Reads an overlay file (workspace-relative); undefined when a base commit does not have it. */
export type OverlayReader = (file: string) => Overlay | undefined;

/** Overlay files must be regular files under the workspace, links included: no larger than this. */
const MAX_OVERLAY_BYTES = 8 * 1024 * 1024;

/**
 * Reads overlays from `workspace`, under the containment rule (the file, through any link, lies inside
 * it). `missing: "skip"` reads a review's base commit, where an overlay the change adds is not there yet
 * (its effect is then part of the change).
 */
export function workspaceOverlays(workspace: string, missing: "fail" | "skip" = "fail"): OverlayReader {
  const cache = new Map<string, Overlay | undefined>();
  return (file) => {
    if (cache.has(file)) return cache.get(file);
    const absolute = path.resolve(workspace, file);
    if (!isWithin(path.resolve(workspace), absolute))
      throw new OverlayError("is outside the workspace; an overlay must be a file of the repository.", {
        file,
      });
    let real: string;
    try {
      real = realpathSync.native(absolute);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if ((code === "ENOENT" || code === "ENOTDIR") && missing === "skip") {
        cache.set(file, undefined);
        return undefined;
      }
      throw new OverlayError(
        code === "ENOENT"
          ? "the overlay file does not exist (paths are relative to the workspace)."
          : `cannot be read (${code}).`,
        { file },
      );
    }
    if (!isWithin(realpathSync.native(workspace), real))
      throw new OverlayError(`is a link to ${real}, outside the workspace.`, { file });
    let text: string;
    try {
      text = readRegularText(real, { maxBytes: MAX_OVERLAY_BYTES, label: file });
    } catch (error) {
      throw new OverlayError((error as Error).message, { file });
    }
    const overlay = parseOverlay(text, file);
    cache.set(file, overlay);
    return overlay;
  };
}

export interface ShapedDocument {
  document: unknown;
  /** What was done, for the log: "2 overlays; remove-internal: 3 operations, 5 components". */
  summary: string;
}

/**
 * Applies `steps` to a copy of `document` (the bundled document: the caller's is never changed). Throws
 * {@link OverlayError} for an overlay that cannot be read or applied, and {@link ShapingError} when the
 * result references what it no longer has. Warnings (an action that selects nothing) go to `logger` at
 * the overlay's line.
 */
export function shapeDocument(
  document: unknown,
  steps: ShapingSteps,
  options: { readOverlay: OverlayReader; logger: Logger; specFile: string },
): ShapedDocument {
  const deep = tooDeep(document);
  if (deep)
    throw new ShapingError(
      `the document nests deeper than ${MAX_DOCUMENT_DEPTH} levels at ${describePath(deep)}, more than shaping (overlays, remove-internal) reads; flatten it there, with \`$ref\`s to components.`,
    );
  let shaped = structuredClone(document);
  // One budget for every overlay of this publication: the entry's and its audience's (./bounds.ts).
  const budget = new ShapingBudget();
  const danglingBefore = new Set(danglingRefs(shaped));
  const done: string[] = [];
  let applied = 0;
  for (const file of steps.overlays) {
    const overlay = options.readOverlay(file);
    if (overlay === undefined) continue;
    shaped = applyOverlay(
      shaped,
      overlay,
      (message, location) =>
        options.logger.warning(escapeUntrusted(`${message} (shaping ${options.specFile})`), {
          file: location.file,
          ...(location.line !== undefined ? { line: location.line } : {}),
        }),
      budget,
    );
    applied++;
  }
  if (applied > 0) done.push(`${applied} overlay${applied === 1 ? "" : "s"}`);
  if (steps.removeInternal) {
    let removed: RemovalSummary;
    try {
      removed = removeInternal(shaped);
    } catch (error) {
      if (error instanceof InternalRemovalError) throw new ShapingError(`remove-internal: ${error.message}`);
      throw error;
    }
    for (const { pointer, value, marked } of removed.unusual) {
      const shown = isRecordValue(value)
        ? Array.isArray(value)
          ? "[…]"
          : "{…}"
        : truncate(JSON.stringify(value), 40);
      options.logger.warning(
        escapeUntrusted(
          `\`x-internal: ${shown}\` at \`${pointer || "/"}\` (shaping ${options.specFile}) is ${marked ? 'taken as marked: removed, as Redocly\'s remove-x-internal removes any value but false, 0, "" and null' : "not taken as marked: kept"}; write \`x-internal: ${marked}\` to say so.`,
        ),
        { file: options.specFile },
      );
    }
    if (removed.unusualCount > removed.unusual.length)
      options.logger.warning(
        escapeUntrusted(
          `and ${removed.unusualCount - removed.unusual.length} more \`x-internal\` values that are not booleans (shaping ${options.specFile}), each taken as marked unless false, 0, "" or null.`,
        ),
        { file: options.specFile },
      );
    done.push(
      `remove-internal: ${removed.marked} marked part${removed.marked === 1 ? "" : "s"}, ${removed.operations} operation${removed.operations === 1 ? "" : "s"}, ${removed.components} component${removed.components === 1 ? "" : "s"}, ${removed.tags} tag${removed.tags === 1 ? "" : "s"} removed`,
    );
  }
  const dangling = [...new Set(danglingRefs(shaped))].filter((ref) => !danglingBefore.has(ref));
  if (dangling.length > 0) {
    const shown = dangling
      .slice(0, 5)
      .map((ref) => JSON.stringify(ref))
      .join(", ");
    throw new ShapingError(
      `after shaping, the document references what it no longer has: ${shown}${dangling.length > 5 ? `, and ${dangling.length - 5} more` : ""}. An overlay removed or renamed their targets; remove the references too, or mark them \`x-internal: true\` with remove-internal.`,
    );
  }
  return { document: shaped, summary: done.join("; ") || "nothing to do" };
}

const isRecordValue = (value: unknown): value is object => typeof value === "object" && value !== null;

/** The shaped document is not a whole document (dangling references). */
export class ShapingError extends Error {
  override readonly name = "ShapingError";
}

/** The shaped document's text, in the spec's own format. */
export function shapedText(document: unknown, format: "json" | "yaml"): string {
  return format === "json" ? `${JSON.stringify(document, null, 2)}\n` : toYaml(document);
}
