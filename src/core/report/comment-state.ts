/**
 * The hidden HTML comments that identify the action's review comment (a GitHub pull request comment or
 * a GitLab merge request note) and carry what earlier runs published. Pure and CI-neutral: shared by the
 * GitHub and GitLab client code and the body renderer. The marker is the same on every host.
 */

const PREFIX = "gitbook-openapi-action";
const MAX_KEY_LENGTH = 64;

/** What an earlier run recorded in the comment, read back by later runs. */
export interface CommentState {
  /** Slugs of the preview specifications published for the pull or merge request. */
  previews: string[];
}

/** What a `comment-key` may hold: letters, digits, `.`, `_` and `-`, 1 to 64 of them. */
export function isCommentKey(key: string): boolean {
  return key.length <= MAX_KEY_LENGTH && /^[A-Za-z0-9._-]+$/.test(key);
}

/**
 * Turns any text into a key {@link isCommentKey} accepts, safe inside an HTML comment; "default" when
 * nothing is left.
 */
export function sanitizeCommentKey(key: string | undefined): string {
  const cleaned = (key ?? "")
    .trim()
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_KEY_LENGTH);
  return cleaned === "" ? "default" : cleaned;
}

/** The hidden marker of the comment that belongs to the action instance with this key. */
export function commentMarker(key: string): string {
  return `<!-- ${PREFIX}:${sanitizeCommentKey(key)} -->`;
}

/**
 * The hidden state comment. The JSON escapes `<`, `>` and `&`, so neither `-->` nor `--!>` can close the
 * HTML comment early, whatever the slugs contain.
 */
export function renderCommentState(key: string, state: CommentState): string {
  const json = JSON.stringify({ previews: state.previews })
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026");
  return `<!-- ${PREFIX}:${sanitizeCommentKey(key)}:state ${json} -->`;
}

const STATE_PATTERN = /<!-- gitbook-openapi-action:([A-Za-z0-9._-]+):state (\{.*?\}) -->/g;

/**
 * The state an earlier run embedded in a comment body, or undefined when there is none or it is not
 * valid. With `key`, only that action instance's state counts.
 */
export function readCommentState(body: string, key?: string): CommentState | undefined {
  const wanted = key === undefined ? undefined : sanitizeCommentKey(key);
  for (const match of body.matchAll(STATE_PATTERN)) {
    if (wanted !== undefined && match[1] !== wanted) continue;
    const state = parseState(match[2] ?? "");
    if (state) return state;
  }
  return undefined;
}

function parseState(json: string): CommentState | undefined {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const previews = (value as { previews?: unknown }).previews;
  if (!Array.isArray(previews) || !previews.every((slug) => typeof slug === "string")) return undefined;
  return { previews: [...previews] };
}

/**
 * The union of recorded states, slugs sorted: what two comments written by concurrent runs recorded
 * together. A preview recorded by either is kept, so a later cleanup still deletes it.
 */
export function mergeCommentStates(...states: (CommentState | undefined)[]): CommentState {
  const previews = new Set<string>();
  for (const state of states) for (const slug of state?.previews ?? []) previews.add(slug);
  return { previews: [...previews].sort() };
}

/**
 * `body` with the state record of instance `key` replaced by `state` (appended on a line of its own when
 * the body has none). Every other line of the body is kept as it is.
 */
export function replaceCommentState(body: string, key: string, state: CommentState): string {
  const wanted = sanitizeCommentKey(key);
  const record = renderCommentState(wanted, state);
  for (const match of body.matchAll(STATE_PATTERN)) {
    if (match[1] !== wanted || match.index === undefined) continue;
    return `${body.slice(0, match.index)}${record}${body.slice(match.index + match[0].length)}`;
  }
  return `${body}\n${record}`;
}
