/**
 * The OpenAPI extensions GitBook reads, one row each: the keys, where GitBook reads them, and what is
 * wrong with a value GitBook cannot use. The list, its sources and what GitBook does with each is in
 * docs/design/gitbook-extensions.md; a row whose `documented` is false is read by GitBook's open-source renderer
 * but not in its documentation. Only these keys, in these places, are looked at: any other `x-` key is
 * none of our business, and nothing here is ever an error.
 */
import { truncate } from "../../text/truncate.ts";
import type { DocumentPath } from "./locate.ts";

/** The kinds of place an extension can sit in (check.ts decides which a mapping is). */
export type Where =
  | "root"
  | "tag"
  | "pathItem"
  | "operation"
  | "response"
  | "securityScheme"
  | "server"
  | "serverVariable"
  | "schema"
  | "componentSchema"
  | "anywhere"
  // Steps on the way to a server or a server variable (a list `servers`, a mapping `variables`).
  | "serverList"
  | "serverVariables";

export interface RuleContext {
  /** The mapping that holds the key. */
  holder: Readonly<Record<string, unknown>>;
  /** Where the mapping is, for messages: "tag `users`", "GET /pets", "components.schemas.Pet". */
  subject: string;
  tags: TagIndex;
}

/** A problem with the key's value; `at` continues the path from the key (a list index, a mapping key). */
export interface Finding {
  at?: DocumentPath;
  message: string;
}

export interface ExtensionRule {
  keys: readonly string[];
  where: readonly Where[];
  /** In GitBook's documentation (true) or only in its renderer's source (false). */
  documented: boolean;
  check(value: unknown, key: string, context: RuleContext): string | readonly Finding[] | undefined;
}

/** The tags of the document, for `x-parent`/`parent`: declared ones, used ones, and nesting cycles. */
export interface TagIndex {
  declared: ReadonlySet<string>;
  /** Declared tags that GitBook hides (`x-internal: true`, `x-gitbook-ignore: true`). */
  hidden: ReadonlySet<string>;
  /** The cycle to report at a tag's parent key (reported once, at the first tag of the cycle in `tags`). */
  cycleAt: ReadonlyMap<Readonly<Record<string, unknown>>, readonly string[]>;
}

export const STABILITY_VALUES = ["experimental", "alpha", "beta"] as const;

export const RULES: readonly ExtensionRule[] = [
  {
    keys: ["x-page-title", "x-displayName"],
    where: ["tag"],
    documented: true,
    check: (value, key, { subject }) =>
      typeof value !== "string"
        ? `\`${key}\` of ${subject} is ${describe(value)}; GitBook skips it and titles the page from the tag's name. Write text (for example ${key}: Users).`
        : value.trim() === ""
          ? `\`${key}\` of ${subject} is blank; GitBook skips it and titles the page from the tag's name. Write a title or remove it.`
          : undefined,
  },
  {
    keys: ["x-page-description"],
    where: ["tag"],
    documented: true,
    check: (value, key, { subject }) =>
      typeof value === "string"
        ? undefined
        : `\`${key}\` of ${subject} is ${describe(value)}; GitBook shows it above the page's title, so write text (for example ${key}: Manage user accounts.).`,
  },
  {
    keys: ["x-page-icon"],
    where: ["tag"],
    documented: true,
    check: (value, key, { subject }) => checkIcon(value, key, subject),
  },
  {
    keys: ["x-parent", "parent"],
    where: ["tag"],
    documented: true,
    check: (value, key, { subject, tags, holder }) => {
      if (typeof value !== "string") {
        return `\`${key}\` of ${subject} is ${describe(value)}; it names the tag this one is nested under (for example ${key}: organization).`;
      }
      // GitBook reads `parent` first: an `x-parent` beside it is not read at all.
      if (key === "x-parent" && typeof holder.parent === "string") {
        return holder.parent === value
          ? undefined
          : `\`${key}\` of ${subject} names \`${value}\` but \`parent\` names \`${holder.parent}\`; GitBook reads \`parent\` and ignores \`x-parent\`. Keep one of them.`;
      }
      const cycle = tags.cycleAt.get(holder);
      if (cycle) {
        return `\`${key}\` of ${subject} nests tags in a circle (${spellCycle(cycle)}): GitBook cannot place a page under itself. Remove the parent of one of them.`;
      }
      if (!tags.declared.has(value)) {
        return `\`${key}\` of ${subject} names \`${value}\`, which is not declared in \`tags\`; GitBook nests the page under a declared tag only, so the page and its operations are left out of the navigation. Declare \`- name: ${value}\` in \`tags\`, or fix the name.`;
      }
      if (tags.hidden.has(value)) {
        return `\`${key}\` of ${subject} names \`${value}\`, which \`x-internal\` or \`x-gitbook-ignore\` hides; GitBook then leaves this page and its operations out of the navigation too.`;
      }
      return undefined;
    },
  },
  {
    keys: ["x-hideTryItPanel", "x-enable-proxy", "x-expandAllResponses", "x-expandAllModelSections"],
    where: ["root", "operation"],
    documented: true,
    check: (value, key, { subject }) => checkBoolean(value, key, subject),
  },
  {
    keys: ["x-codeSamples"],
    where: ["root"],
    documented: true,
    check: (value, key) =>
      typeof value === "boolean"
        ? undefined
        : `\`${key}\` at the top of the document is ${describe(value)}; there GitBook only reads \`false\` (no generated code samples). Put a list of samples on each operation instead.`,
  },
  {
    keys: ["x-codeSamples", "x-code-samples", "x-custom-examples"],
    where: ["operation"],
    documented: true,
    check: checkCodeSamples,
  },
  {
    keys: ["x-enumDescriptions"],
    where: ["anywhere"],
    documented: true,
    check: (value, key, { holder, subject }) => checkEnumKeys(value, key, holder, subject, "string"),
  },
  {
    keys: ["x-gitbook-enum"],
    where: ["anywhere"],
    documented: false,
    check: (value, key, { holder, subject }) => checkEnumKeys(value, key, holder, subject, "entry"),
  },
  {
    keys: ["x-internal", "x-gitbook-ignore"],
    where: ["operation", "tag", "componentSchema"],
    documented: true,
    check: (value, key, { subject }) =>
      typeof value === "boolean"
        ? undefined
        : `\`${key}\` of ${subject} is ${describe(value)}; GitBook hides only what has \`${key}: true\` (the boolean), so ${subject} is published. Write true or false without quotes.`,
  },
  {
    keys: ["x-stability"],
    where: ["operation", "componentSchema"],
    documented: true,
    check: (value, key, { subject }) => {
      if (typeof value === "string" && (STABILITY_VALUES as readonly string[]).includes(value))
        return undefined;
      const lower = typeof value === "string" ? value.trim().toLowerCase() : "";
      // No badge is what a stable operation should show: a value some teams write for their own tools.
      if (lower === "stable") return undefined;
      const hint = (STABILITY_VALUES as readonly string[]).includes(lower)
        ? ` Write ${key}: ${lower}.`
        : lower === "deprecated"
          ? " For a deprecated operation write `deprecated: true` (and `x-deprecated-sunset: YYYY-MM-DD` for its end)."
          : "";
      return `\`${key}\` of ${subject} is ${describe(value)}; GitBook shows a badge only for ${STABILITY_VALUES.join(", ")} (lowercase) and nothing for any other value.${hint}`;
    },
  },
  {
    keys: ["x-deprecated-sunset"],
    where: ["operation", "schema"],
    documented: true,
    check: (value, key, { subject }) =>
      typeof value === "string" && isIsoDate(value)
        ? undefined
        : `\`${key}\` of ${subject} is ${describe(value)}; GitBook documents a date written YYYY-MM-DD (for example ${key}: 2030-12-05).`,
  },
  {
    keys: ["x-hideSample"],
    where: ["response"],
    documented: true,
    check: (value, key, { subject }) => checkBoolean(value, key, subject),
  },
  {
    keys: ["x-gitbook-prefix"],
    where: ["securityScheme"],
    documented: true,
    check: (value, key, { subject, holder }) =>
      typeof value !== "string"
        ? `\`${key}\` of ${subject} is ${describe(value)}; it is the text written before the token (for example ${key}: Token).`
        : holder.type === "http"
          ? `\`${key}\` of ${subject} is ignored: GitBook does not apply it to \`type: http\` schemes, whose prefix is the IANA scheme (\`scheme: ${typeof holder.scheme === "string" ? holder.scheme : "bearer"}\`). Use \`type: apiKey\` with \`in: header\` for a custom prefix, or remove it.`
          : undefined,
  },
  {
    keys: ["x-gitbook-token-placeholder"],
    where: ["securityScheme"],
    documented: true,
    check: (value, key, { subject }) => checkString(value, key, subject, "YOUR_API_TOKEN"),
  },
  {
    keys: ["x-gitbook-prefill"],
    where: ["securityScheme", "server", "serverVariable"],
    documented: false,
    check: (value, key, { subject }) => checkString(value, key, subject, "{{ visitor.claims.apiToken }}"),
  },
  {
    keys: ["x-gitbook-mcp"],
    where: ["operation"],
    documented: false,
    check: (value, key, { subject }) => checkBoolean(value, key, subject),
  },
  {
    keys: ["x-gitbook-mcp-url"],
    where: ["root", "pathItem", "operation"],
    documented: false,
    check: (value, key, { subject }) => checkString(value, key, subject, "https://mcp.example.com"),
  },
];

/** Most tags of a cycle a message names: a cycle of 10,000 tags is not a 100 kB warning. */
const MAX_CYCLE_NAMES = 10;

/** `a` → `b` → `a`; a longer cycle as its first tags, how many are left out, and its first again. */
function spellCycle(cycle: readonly string[]): string {
  const names = cycle.map((name) => `\`${name}\``);
  if (names.length <= MAX_CYCLE_NAMES + 1) return names.join(" → ");
  const left = names.length - 1 - MAX_CYCLE_NAMES;
  return [...names.slice(0, MAX_CYCLE_NAMES), `… ${left} more`, names[0]].join(" → ");
}

/** Font Awesome names: lowercase words and digits joined by `-` (`user`, `circle-exclamation`, `0`). */
const ICON_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const ICON_CLASS_PREFIX = /^(?:(?:fa[srltdb]?|fa-(?:solid|regular|light|thin|duotone|brands|sharp))\s+)*fa-/i;

function checkIcon(value: unknown, key: string, subject: string): string | undefined {
  // No Font Awesome name starts with `fa-`: that is the prefix of its CSS classes (`fa-solid fa-user`).
  if (typeof value === "string" && ICON_NAME.test(value) && !value.startsWith("fa-")) return undefined;
  const expected =
    "GitBook reads the name of a Font Awesome icon (https://fontawesome.com/search), lowercase, without a `fa-` prefix";
  if (typeof value !== "string")
    return `\`${key}\` of ${subject} is ${describe(value)}; ${expected} (for example ${key}: user).`;
  const name = value.trim().replace(ICON_CLASS_PREFIX, "").toLowerCase();
  const fix =
    ICON_NAME.test(name) && name.length <= 60 ? `: write ${key}: ${name}.` : ` (for example ${key}: user).`;
  return `\`${key}\` of ${subject} is ${JSON.stringify(truncate(value, 60))}; ${expected}${fix}`;
}

function checkBoolean(value: unknown, key: string, subject: string): string | undefined {
  if (typeof value === "boolean") return undefined;
  const quoted =
    value === "true" || value === "false"
      ? ` A quoted "${value}" is text, not a boolean: GitBook ignores text in some places and takes any text as true in others.`
      : "";
  return `\`${key}\` of ${subject} is ${describe(value)}; GitBook reads it as true or false.${quoted} Write ${key}: ${value === "false" ? "false" : "true"} without quotes.`;
}

function checkString(value: unknown, key: string, subject: string, example: string): string | undefined {
  return typeof value === "string"
    ? undefined
    : `\`${key}\` of ${subject} is ${describe(value)}; GitBook reads text there (for example ${key}: ${example}).`;
}

function checkCodeSamples(
  value: unknown,
  key: string,
  { subject }: RuleContext,
): string | readonly Finding[] | undefined {
  if (value === false) return undefined;
  if (!Array.isArray(value)) {
    return `\`${key}\` of ${subject} is ${describe(value)}; GitBook reads a list of samples (- lang: JavaScript, label: Node SDK, source: …), or false to show no code samples.`;
  }
  if (value.length === 0) {
    return `\`${key}\` of ${subject} is an empty list: GitBook then shows no code sample at all for it. Write ${key}: false if that is meant, or add samples.`;
  }
  return value.flatMap((sample, index) =>
    isReference(sample)
      ? []
      : checkCodeSample(sample, `sample ${index + 1} of \`${key}\` of ${subject}`).map((finding) => ({
          at: [index, ...(finding.at ?? [])],
          message: finding.message,
        })),
  );
}

/** The keys under which an operation lists its code samples. */
export const CODE_SAMPLE_KEYS: ReadonlySet<string> = new Set([
  "x-codeSamples",
  "x-code-samples",
  "x-custom-examples",
]);

/**
 * One code sample, `which` naming it in messages: a mapping with text `lang` and `source` (GitBook leaves
 * out any other) and an optional text `label`. Also used for a sample that a `$ref` brings from another file.
 */
export function checkCodeSample(sample: unknown, which: string): Finding[] {
  if (typeof sample !== "object" || sample === null || Array.isArray(sample)) {
    return [
      {
        message: `${which} is ${describe(sample)}; write a mapping with \`lang\` and \`source\` (and an optional \`label\`). GitBook leaves it out.`,
      },
    ];
  }
  const findings: Finding[] = [];
  const { lang, source, label } = sample as Record<string, unknown>;
  const missing = [
    typeof lang === "string" ? undefined : `\`lang\` (${describe(lang)})`,
    typeof source === "string" ? undefined : `\`source\` (${describe(source)})`,
  ].filter((part) => part !== undefined);
  if (missing.length > 0) {
    findings.push({
      message: `${which} needs text in ${missing.join(" and ")}; GitBook leaves out a sample without both (for example lang: JavaScript, source: |).`,
    });
  }
  if (label !== undefined && typeof label !== "string") {
    findings.push({
      at: ["label"],
      message: `\`label\` of ${which} is ${describe(label)}; it is the tab's name, so write text (for example label: Node SDK).`,
    });
  }
  return findings;
}

/**
 * `x-enumDescriptions` (value → text) and `x-gitbook-enum` (value → {name?, description?}): GitBook lists
 * the keys of these mappings instead of the schema's `enum`, so a value without a key disappears from the
 * page and a key that is not a value is shown as one.
 */
function checkEnumKeys(
  value: unknown,
  key: string,
  holder: Readonly<Record<string, unknown>>,
  subject: string,
  entry: "string" | "entry",
): readonly Finding[] | string | undefined {
  const shape =
    entry === "string"
      ? "a mapping from each enum value to its description (LIVE: The project is live.)"
      : "a mapping from each enum value to {name, description}";
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return `\`${key}\` of ${subject} is ${describe(value)}; GitBook reads ${shape}, and lists its keys as the values.`;
  }
  const findings: Finding[] = [];
  const entries = Object.entries(value as Record<string, unknown>);
  for (const [name, description] of entries) {
    if (isReference(description)) continue;
    if (entry === "string" ? typeof description !== "string" : !isEntry(description)) {
      const what = entry === "string" ? "text" : "a mapping with an optional `name` and `description` (text)";
      findings.push({
        at: [name],
        message: `The description of \`${name}\` in \`${key}\` of ${subject} is ${describe(description)}; write ${what}.`,
      });
    }
  }
  const values = holder.enum;
  if (Array.isArray(values)) {
    const allowed = new Set(values.filter(isKeyable).map(String));
    const keys = new Set(entries.map(([name]) => name));
    for (const [name] of entries) {
      if (!allowed.has(name)) {
        findings.push({
          at: [name],
          message: `\`${key}\` of ${subject} describes \`${name}\`, which is not in its \`enum\`; GitBook lists it as an allowed value. Remove it or fix the name (enum: ${listed([...allowed], (value) => value)}).`,
        });
      }
    }
    const missing = values
      .filter((item) => isKeyable(item) && item !== null && !keys.has(String(item)))
      .map(String);
    if (missing.length > 0) {
      findings.push({
        message: `\`${key}\` of ${subject} has no entry for ${listed(missing, (name) => `\`${name}\``)} of its \`enum\`; GitBook lists the values of \`${key}\` instead of \`enum\`, so ${missing.length === 1 ? "it is" : "they are"} not shown. Add ${missing.length === 1 ? "it" : "them"}.`,
      });
    }
  }
  return findings;
}

/** Most values a message lists: an enum can hold thousands. */
const MAX_LISTED = 10;

/** `a, b, c`; a longer list as its first {@link MAX_LISTED} and how many more. */
function listed(values: readonly string[], spell: (value: string) => string): string {
  const shown = values.slice(0, MAX_LISTED).map(spell).join(", ");
  return values.length > MAX_LISTED ? `${shown} and ${values.length - MAX_LISTED} more` : shown;
}

/** A `$ref` mapping: what it leads to is checked where it is written, not here. */
function isReference(value: unknown): boolean {
  return (
    typeof value === "object" && value !== null && typeof (value as Record<string, unknown>).$ref === "string"
  );
}

function isEntry(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const { name, description } = value as Record<string, unknown>;
  return (
    (name === undefined || typeof name === "string") &&
    (description === undefined || typeof description === "string")
  );
}

function isKeyable(value: unknown): value is string | number | boolean | null {
  return value === null || ["string", "number", "boolean"].includes(typeof value);
}

function isIsoDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** A value as a message names it: `"true"` (text), 3, true, a list, a mapping, empty. */
export function describe(value: unknown): string {
  if (value === undefined) return "missing";
  if (value === null) return "empty";
  if (typeof value === "string") return `the text ${JSON.stringify(truncate(value, 60))}`;
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  return `${typeof value === "number" ? "the number" : "the boolean"} ${String(value)}`;
}
