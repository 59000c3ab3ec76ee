/**
 * Text that renders literally in GitHub Markdown: HTML is neutralised (so nothing can open or close a
 * hidden comment), Markdown punctuation is backslash-escaped, whitespace runs (newlines included) become
 * one space, and `@` cannot mention anyone.
 */
export function escapeText(text: string): string {
  return text
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[\\`*_[\]{}()#+!|~]/g, "\\$&")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/@/g, "&#64;");
}

/** {@link escapeText}, and never empty, so a table keeps its shape. */
export function escapeCell(text: string): string {
  return escapeText(text) || " ";
}

/**
 * A path or slug in a table cell, as code: backticks cannot close the code span, `|` cannot end the
 * cell, and line breaks cannot end the row. Inside a code span `<` and `&` are shown as they are.
 */
export function codeCell(text: string): string {
  return text === "" ? " " : `\`${text.replace(/`/g, "'").replace(/\|/g, "\\|").replace(/\s+/g, " ")}\``;
}

/** `value` parsed, when it is an absolute http(s) URL: the one rule of what a report may link to. */
export function httpUrl(value: string | undefined): URL | undefined {
  if (!value || !URL.canParse(value)) return undefined;
  const url = new URL(value);
  return url.protocol === "https:" || url.protocol === "http:" ? url : undefined;
}

/**
 * Only absolute http(s) URLs, with the characters that would end a Markdown link or cell, or open a
 * code span across it, encoded.
 */
export function safeUrl(value: string | undefined): string | undefined {
  const url = httpUrl(value);
  if (url === undefined) return undefined;
  return url.href.replace(
    /[()|<>\s\\[\]`]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`,
  );
}

/** A Markdown link, or "" when the URL is not a safe http(s) URL. */
export function markdownLink(label: string, url: string | undefined): string {
  const safe = safeUrl(url);
  return safe ? `[${escapeText(label)}](${safe})` : "";
}

/**
 * A fenced code block that shows `text` exactly, line breaks kept: the fence is longer than any run of
 * backticks inside, so nothing in the text can close it. Code blocks neither render HTML nor mention.
 */
export function codeBlock(text: string): string {
  const longestRun = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(Math.max(3, longestRun + 1));
  return `${fence}text\n${text.replace(/\r\n?/g, "\n")}\n${fence}`;
}

/** What a table shows as the file of a preview that only an earlier run's record names. */
export const REMOVED_FILE_LABEL = "no longer in the repository";
