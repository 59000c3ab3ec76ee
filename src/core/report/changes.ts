/**
 * The API changes of a review as Markdown, for the review comment (GitHub) or note (GitLab) and the job
 * summary: per spec a headline with counts, then its breaking changes grouped under their operation,
 * then the breaking changes the allow-list accepts and the other changes, each folded and grouped the
 * same way. The section is cut to the room its caller gives: whole operations while they fit, breaking
 * ones first, and a note that says how many changes were left out and where to read them all.
 */
import { sourcePlace } from "../change-review/change-line.ts";
import type { SpecChange, SpecChanges, SpecResult } from "../result.ts";
import { MAX_MESSAGE_LENGTH, truncate } from "../text/truncate.ts";
import type { PlaceLinks } from "./line-links.ts";
import { codeCell, escapeText, safeUrl } from "./markdown.ts";

/** Longest operation (method and path) and operation id shown. */
const MAX_PLACE = 200;

/** The changes of one operation, of one path, or of the document as a whole. */
export interface OperationGroup {
  /** `GET /pets/{id}`, a path alone, or undefined for the document as a whole. */
  operation: string | undefined;
  /** The operation's id, when one of its changes names it. */
  operationId: string | undefined;
  changes: SpecChange[];
}

const METHODS = ["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"];

/**
 * Changes grouped by their operation, in a stable order: the document as a whole first, then by path,
 * each path's own changes before its operations', operations in the order of {@link METHODS}. Within a
 * group the changes keep their order.
 */
export function groupByOperation(changes: readonly SpecChange[]): OperationGroup[] {
  const groups = new Map<string | undefined, OperationGroup>();
  for (const change of changes) {
    let group = groups.get(change.operation);
    if (group === undefined) {
      group = { operation: change.operation, operationId: undefined, changes: [] };
      groups.set(change.operation, group);
    }
    group.operationId ??= change.operationId;
    group.changes.push(change);
  }
  return [...groups.values()].sort((a, b) => comparePlaces(a.operation, b.operation));
}

function comparePlaces(a: string | undefined, b: string | undefined): number {
  if (a === b) return 0;
  if (a === undefined) return -1;
  if (b === undefined) return 1;
  const [pathA, rankA] = placeKey(a);
  const [pathB, rankB] = placeKey(b);
  return compareStrings(pathA, pathB) || rankA - rankB || compareStrings(a, b);
}

/** A place's path and the rank of its method (-1 for the path itself). */
function placeKey(place: string): [string, number] {
  const space = place.indexOf(" ");
  if (place.startsWith("/") || space < 0) return [place, -1];
  const rank = METHODS.indexOf(place.slice(0, space));
  return [place.slice(space + 1), rank < 0 ? METHODS.length : rank];
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Where a set of groups lies: " in 2 operations", " in 2 operations and the document", " in the
 * document" (paths count as operations). Across several specs (`documents` true) the whole-document
 * groups are counted: " in 5 operations and 2 documents".
 */
export function placesPhrase(groups: readonly OperationGroup[], documents = false): string {
  const operations = groups.filter((group) => group.operation !== undefined).length;
  const wholes = groups.length - operations;
  const parts: string[] = [];
  if (operations > 0) parts.push(`${operations} ${plural(operations, "operation")}`);
  if (wholes > 0)
    parts.push(documents || wholes > 1 ? `${wholes} ${plural(wholes, "document")}` : "the document");
  return parts.length === 0 ? "" : ` in ${parts.join(" and ")}`;
}

/** "3 breaking in 2 operations", "41 other changes in 17 operations", "1 breaking allowed in 1 operation". */
function countPhrase(list: "breaking" | "allowed" | "other", changes: readonly SpecChange[]): string {
  const count = changes.length;
  const noun =
    list === "breaking"
      ? `${count} breaking`
      : list === "allowed"
        ? `${count} breaking allowed`
        : `${count} other ${plural(count, "change")}`;
  return `${noun}${placesPhrase(groupByOperation(changes))}`;
}

/** "41 in 17 operations". */
function listCount(changes: readonly SpecChange[]): string {
  return `${changes.length}${placesPhrase(groupByOperation(changes))}`;
}

/**
 * The one-line headline of a spec's changes: "3 breaking in 2 operations, 41 other changes in 17
 * operations" (and "1 breaking allowed in 1 operation" when the allow-list accepted some); "new spec";
 * "not reviewed: <why>" when its base could not be read or its comparison could not finish.
 */
export function changesHeadline(changes: SpecChanges): string {
  if (changes.notReviewed !== undefined) return `not reviewed: ${changes.notReviewed}`;
  if (changes.against === "nothing") return "new spec";
  const parts = [countPhrase("breaking", changes.breaking), countPhrase("other", changes.other)];
  if (changes.allowed.length > 0) parts.push(countPhrase("allowed", changes.allowed));
  if (changes.omitted) parts.push(`${changes.omitted} more not listed`);
  return parts.join(", ");
}

/** The room the section may take, how it is counted, and what to say when changes are left out. */
export interface ChangesRoom {
  /** The most the section may take, a line break after each line included, as {@link measure} counts. */
  size: number;
  /** How the host counts: UTF-16 code units by default (never fewer than characters), or UTF-8 bytes. */
  measure?: (text: string) => number;
  /** Applied to every line (GitLab's reference defusing); sizes are measured after it. */
  defuse?: (line: string) => string;
  /** Why changes may be left out, completing "Not shown here …": "to keep this comment under …". */
  why: string;
  /** One sentence: where every change can be read. */
  everyChange: string;
}

/** The room of a section that is never cut (the CLI's full listing, a test's). */
export const UNLIMITED_ROOM: ChangesRoom = { size: Number.POSITIVE_INFINITY, why: "", everyChange: "" };

/**
 * Splits `room` between the API changes and what shares the body with them (the results table), which
 * need `a` and `b`: each what it needs when both fit, else the smaller one whole when it needs at most
 * half, else half each.
 */
export function shareRoom(room: number, a: number, b: number): [number, number] {
  const half = Math.floor(room / 2);
  if (a + b <= room) return [a, b];
  if (b <= half) return [room - b, b];
  if (a <= half) return [a, room - a];
  return [half, room - half];
}

type ListName = "breaking" | "allowed" | "other" | "removed";

/** A group rendered: its lines (defused) and their size. */
interface Piece {
  lines: string[];
  size: number;
  group: OperationGroup;
}

/** One list of a spec (or the removed specs): what frames it, its pieces, and how many fit. */
interface Section {
  list: ListName;
  open: string[];
  close: string[];
  /** The size of the frame and of the longest note about pieces left out. */
  frameSize: number;
  pieces: Piece[];
  shown: number;
  stopped: boolean;
}

interface SpecPlan {
  head: string[];
  headSize: number;
  sections: Section[];
  shown: boolean;
}

/**
 * The API changes of a review as Markdown lines, at most `room.size` in all (an empty list when not
 * even the section's title fits): per spec with changes its headline, its breaking changes grouped by
 * operation, the allowed and the other ones folded; why a spec was not reviewed; the specs removed
 * since the base. Whole operations are shown while they fit, breaking ones first, a turn for each spec
 * at a time; each list cut says how many changes it left out, and a last note sums them up and says
 * where to read them all. Every text from the documents is escaped. Empty when nothing changed. Each
 * change's place links to its line when `links` can name its page.
 */
export function renderChanges(
  results: readonly SpecResult[],
  removedSpecs: readonly string[],
  room: ChangesRoom = UNLIMITED_ROOM,
  links?: PlaceLinks,
): string[] {
  const measure = room.measure ?? ((text: string) => text.length);
  const defuse = room.defuse ?? ((line: string) => line);
  const sizeOf = (lines: readonly string[]) => lines.reduce((sum, line) => sum + measure(line) + 1, 0);
  const changed = results.filter((result) => result.changes !== undefined && hasChanges(result.changes));
  if (changed.length === 0 && removedSpecs.length === 0) return [];

  const against =
    changed[0]?.changes?.against === "published version" ? "the published versions" : "the base commit";
  const title = ["#### API changes", "", `Compared with ${against}.`, ""].map(defuse);
  // A file published more than once (its audiences) is named with each publication's slug.
  const perFile = new Map<string, number>();
  for (const result of results) perFile.set(result.file, (perFile.get(result.file) ?? 0) + 1);
  const plans = changed.map((result) =>
    planSpec(result, defuse, sizeOf, (perFile.get(result.file) ?? 0) > 1, links),
  );
  const removed = removedSpecs.length > 0 ? planRemoved(removedSpecs, defuse, sizeOf) : undefined;

  const all = (sections: readonly Section[]) => {
    for (const section of sections) section.shown = section.pieces.length;
  };
  for (const plan of plans) {
    plan.shown = true;
    all(plan.sections);
  }
  if (removed) all([removed]);
  const whole = layOut(title, plans, removed, room, defuse);
  if (sizeOf(whole) <= room.size) return whole;
  for (const plan of plans) {
    plan.shown = false;
    for (const section of plan.sections) section.shown = 0;
  }
  if (removed) removed.shown = 0;

  const noteBound = sizeOf(["", defuse(leftOutNote(plans, removed, room, true) ?? "")]);
  let used = sizeOf(title) + noteBound;
  if (used > room.size) return [];
  if (removed) used += sizeOf(removed.open) + removed.frameSize;
  for (const plan of plans) {
    if (used + plan.headSize > room.size) break;
    used += plan.headSize;
    plan.shown = true;
  }
  const shownSections = (list: ListName) =>
    plans.flatMap((plan) => (plan.shown ? plan.sections.filter((section) => section.list === list) : []));
  // Whole operations while they fit: breaking first (and the removed specs), then allowed, then other;
  // one operation of each spec in turn, so that one spec's long list leaves room for the others'.
  const fill = (sections: readonly Section[]) => {
    const open = (section: Section) => !section.stopped && section.shown < section.pieces.length;
    for (let active = sections.filter(open); active.length > 0; active = active.filter(open)) {
      for (const section of active) {
        const piece = section.pieces[section.shown] as Piece;
        const frame = section.shown === 0 && section.list !== "removed" ? section.frameSize : 0;
        if (used + piece.size + frame > room.size) section.stopped = true;
        else {
          used += piece.size + frame;
          section.shown++;
        }
      }
    }
  };
  fill([...shownSections("breaking"), ...(removed ? [removed] : [])]);
  fill(shownSections("allowed"));
  fill(shownSections("other"));

  return layOut(title, plans, removed, room, defuse);
}

/** The lines of the section with the pieces each list shows, and the note about those left out. */
function layOut(
  title: readonly string[],
  plans: readonly SpecPlan[],
  removed: Section | undefined,
  room: ChangesRoom,
  defuse: (line: string) => string,
): string[] {
  const lines = [...title];
  for (const plan of plans) {
    if (!plan.shown) continue;
    lines.push(...plan.head);
    for (const section of plan.sections) lines.push(...renderSection(section, defuse));
  }
  if (removed) {
    lines.push(...removed.open, ...removed.pieces.slice(0, removed.shown).flatMap((piece) => piece.lines));
    if (removed.shown < removed.pieces.length) lines.push(defuse(sectionNote(removed)));
    lines.push(...removed.close);
  }
  const note = leftOutNote(plans, removed, room, false);
  if (note !== undefined) lines.push("", defuse(note));
  return lines;
}

function hasChanges(changes: SpecChanges): boolean {
  return (
    changes.notReviewed !== undefined ||
    changes.breaking.length + changes.other.length + changes.allowed.length > 0
  );
}

function planSpec(
  result: SpecResult,
  defuse: (line: string) => string,
  sizeOf: (lines: readonly string[]) => number,
  withSlug = false,
  links?: PlaceLinks,
): SpecPlan {
  const changes = result.changes as SpecChanges;
  const warn = changes.notReviewed !== undefined || changes.breaking.length > 0 ? "⚠️ " : "";
  const file = escapeText(
    truncate(withSlug ? `${result.file} → ${result.slug}` : result.file, MAX_MESSAGE_LENGTH),
  );
  const head = [`**${file}**: ${warn}${escapeText(changesHeadline(changes))}`, ""].map(defuse);
  const sections: Section[] = [];
  if (changes.notReviewed === undefined && changes.against !== "nothing") {
    const lists: ["breaking" | "allowed" | "other", SpecChange[], string | undefined][] = [
      ["breaking", changes.breaking, undefined],
      [
        "allowed",
        changes.allowed,
        `Breaking changes allowed by breaking-allowed: ${listCount(changes.allowed)}`,
      ],
      ["other", changes.other, `Other changes: ${listCount(changes.other)}`],
    ];
    for (const [list, entries, summary] of lists) {
      if (entries.length === 0) continue;
      const open = summary === undefined ? [] : [`<details><summary>${escapeText(summary)}</summary>`, ""];
      const close = summary === undefined ? [""] : ["", "</details>", ""];
      const pieces = groupByOperation(entries).map((group) =>
        piece(groupLines(group, links).map(defuse), group, sizeOf),
      );
      const section: Section = {
        list,
        open: open.map(defuse),
        close: close.map(defuse),
        frameSize: 0,
        pieces,
        shown: 0,
        stopped: false,
      };
      section.frameSize = sizeOf([...section.open, ...section.close, defuse(sectionNote(section, true))]);
      sections.push(section);
    }
  }
  return { head, headSize: sizeOf(head), sections, shown: false };
}

function planRemoved(
  files: readonly string[],
  defuse: (line: string) => string,
  sizeOf: (lines: readonly string[]) => number,
): Section {
  const section: Section = {
    list: "removed",
    open: [`**Removed specs** (breaking): ${files.length}`, ""].map(defuse),
    close: [""],
    frameSize: 0,
    pieces: files.map((file) =>
      piece(
        [defuse(`- ${escapeText(truncate(file, MAX_PLACE))}`)],
        { operation: file, operationId: undefined, changes: [] },
        sizeOf,
      ),
    ),
    shown: 0,
    stopped: false,
  };
  section.frameSize = sizeOf([...section.close, defuse(sectionNote(section, true))]);
  return section;
}

function piece(lines: string[], group: OperationGroup, sizeOf: (lines: readonly string[]) => number): Piece {
  return { lines, size: sizeOf(lines), group };
}

/** An operation as a bold bullet, its changes under it, each with its place (and the base's). */
function groupLines(group: OperationGroup, links: PlaceLinks | undefined): string[] {
  const place =
    group.operation === undefined ? "The whole document" : escapeText(truncate(group.operation, MAX_PLACE));
  const id =
    group.operationId === undefined ? "" : ` (${escapeText(truncate(group.operationId, MAX_PLACE))})`;
  return [
    `- **${place}**${id}`,
    ...group.changes.map((change) => {
      const places = [placeText(change.file, change.line, links?.head)];
      if (change.baseFile !== undefined)
        places.push(`base: ${placeText(change.baseFile, change.baseLine, links?.base)}`);
      const where = change.file === undefined ? "" : ` (${places.join("; ")})`;
      return `  - ${escapeText(truncate(change.message, MAX_MESSAGE_LENGTH))}${where}`;
    }),
  ];
}

/** `file:line` as code, a link to that line when `link` names its page. */
function placeText(file: string | undefined, line: number | undefined, link: PlaceLinks["head"]): string {
  const text = codeCell(truncate(sourcePlace({ file, line }), MAX_PLACE));
  const url = file === undefined || line === undefined ? undefined : safeUrl(link?.(file, line));
  return url === undefined ? text : `[${text}](${url})`;
}

function renderSection(section: Section, defuse: (line: string) => string): string[] {
  if (section.shown === 0) return [];
  const lines = [...section.open, ...section.pieces.slice(0, section.shown).flatMap((piece) => piece.lines)];
  if (section.shown < section.pieces.length) lines.push(defuse(sectionNote(section)));
  lines.push(...section.close);
  return lines;
}

/**
 * The last item of a list that was cut: "… 12 more breaking changes in 5 operations, not shown here".
 * `bound`: the longest it can be (every piece left out), for the room kept for it.
 */
function sectionNote(section: Section, bound = false): string {
  const left = section.pieces.slice(bound ? 0 : section.shown);
  if (section.list === "removed") return `- _… ${left.length} more, not shown here_`;
  const groups = left.map((piece) => piece.group);
  const count = groups.reduce((sum, group) => sum + group.changes.length, 0);
  const noun = section.list === "other" ? "" : section.list === "allowed" ? " allowed" : " breaking";
  return `- _… ${count} more${noun} ${plural(count, "change")}${placesPhrase(groups)}, not shown here_`;
}

/**
 * What the whole section left out, summed over the specs, and where to read everything; undefined when
 * nothing was left out. `bound`: as if everything were left out, the longest the note can be.
 */
function leftOutNote(
  plans: readonly SpecPlan[],
  removed: Section | undefined,
  room: ChangesRoom,
  bound: boolean,
): string | undefined {
  const leftIn = (plan: SpecPlan, section: Section) =>
    bound || !plan.shown ? section.pieces : section.pieces.slice(section.shown);
  const parts: string[] = [];
  for (const list of ["breaking", "allowed", "other"] as const) {
    const groups = plans.flatMap((plan) =>
      plan.sections
        .filter((section) => section.list === list)
        .flatMap((section) => leftIn(plan, section).map((piece) => piece.group)),
    );
    const count = groups.reduce((sum, group) => sum + group.changes.length, 0);
    if (count === 0) continue;
    const noun = list === "breaking" ? "breaking" : list === "allowed" ? "allowed breaking" : "other";
    parts.push(`${count} ${noun} ${plural(count, "change")}${placesPhrase(groups, true)}`);
  }
  const removedLeft = removed ? removed.pieces.length - (bound ? 0 : removed.shown) : 0;
  if (removedLeft > 0) parts.push(`${removedLeft} removed ${plural(removedLeft, "spec")}`);
  const unlisted = plans.filter((plan) => bound || !plan.shown).length;
  if (unlisted > 0) parts.push(`the headlines of ${unlisted} ${plural(unlisted, "spec")}`);
  if (parts.length === 0) return undefined;
  return `_Not shown here ${room.why}: ${parts.join(", ")}. ${room.everyChange}_`;
}

function plural(count: number, word: string): string {
  return count === 1 ? word : `${word}s`;
}
