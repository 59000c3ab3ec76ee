/**
 * The workflow commands that the GitHub runner reads from a step's output, by the runner's own rules
 * (actions/runner: src/Runner.Common/ActionCommand.cs, src/Runner.Worker/ActionCommandManager.cs):
 * - the output is read line by line; a line ends at `\r`, `\n` or `\r\n` (.NET `ReadLine`);
 * - v2: after `TrimStart`, the line starts with `::`, and a registered command name (case-insensitive)
 *   runs up to the next space or `::`; properties `k=v` separated by `,`; the data follows the second `::`;
 * - v1: the line contains `##[` anywhere, then a registered name, properties separated by `;`, then `]`
 *   and the data;
 * - `stop-commands` with a token pauses all commands until a line whose command is that token.
 * The end-to-end tests parse the built action's stdout with it, so a command smuggled in by a file name
 * or a service's answer shows up as the runner would see it.
 */

/** The commands the runner registers (`internal-set-repo-path` only for its own plugins). */
export const RUNNER_COMMANDS: readonly string[] = [
  "add-mask",
  "add-matcher",
  "add-path",
  "debug",
  "echo",
  "endgroup",
  "error",
  "group",
  "notice",
  "remove-matcher",
  "save-state",
  "set-env",
  "set-output",
  "stop-commands",
  "warning",
];

export interface RunnerCommand {
  /** The name in lower case. */
  command: string;
  properties: Record<string, string>;
  data: string;
  form: "v2" | "v1";
  /** The output line it was read from. */
  line: string;
}

/** Every command the runner would process in `output` (stdout or stderr of the step), in order. */
export function parseRunnerCommands(output: string): RunnerCommand[] {
  const registered = new Set(RUNNER_COMMANDS);
  const commands: RunnerCommand[] = [];
  let stopToken: string | undefined;
  for (const line of output.split(/\r\n|\r|\n/)) {
    const command = parseV2(line, registered) ?? parseV1(line, registered);
    if (!command) continue;
    if (stopToken !== undefined) {
      if (command.command !== stopToken) continue;
      registered.delete(stopToken);
      stopToken = undefined;
    } else if (command.command === "stop-commands") {
      stopToken = command.data.toLowerCase();
      registered.add(stopToken);
    }
    commands.push(command);
  }
  return commands;
}

/** .NET `String.TrimStart()`: Unicode white space, which includes U+0085 (JavaScript's `\s` does not). */
const LEADING_SPACE = /^[\s\u0085]+/;

function parseV2(line: string, registered: ReadonlySet<string>): RunnerCommand | undefined {
  const message = line.replace(LEADING_SPACE, "");
  if (!message.startsWith("::")) return undefined;
  const end = message.indexOf("::", 2);
  if (end < 0) return undefined;
  const info = message.slice(2, end);
  const space = info.indexOf(" ");
  const name = (space < 0 ? info : info.slice(0, space)).toLowerCase();
  if (!registered.has(name)) return undefined;
  const properties = space > 0 ? propertiesOf(info.slice(space + 1).trim(), ",", PROPERTY_ESCAPES) : {};
  return {
    command: name,
    properties,
    data: unescapeWith(message.slice(end + 2), DATA_ESCAPES),
    form: "v2",
    line,
  };
}

function parseV1(line: string, registered: ReadonlySet<string>): RunnerCommand | undefined {
  const prefix = line.indexOf("##[");
  if (prefix < 0) return undefined;
  const bracket = line.indexOf("]", prefix);
  if (bracket < 0) return undefined;
  const info = line.slice(prefix + 3, bracket);
  const space = info.indexOf(" ");
  const name = (space < 0 ? info : info.slice(0, space)).toLowerCase();
  if (!registered.has(name)) return undefined;
  const properties = space > 0 ? propertiesOf(info.slice(space + 1), ";", V1_ESCAPES) : {};
  return {
    command: name,
    properties,
    data: unescapeWith(line.slice(bracket + 1), V1_ESCAPES),
    form: "v1",
    line,
  };
}

/** The `key=value` pairs of a command, split at `separator`, values unescaped. */
function propertiesOf(
  text: string,
  separator: string,
  escapes: Parameters<typeof unescapeWith>[1],
): Record<string, string> {
  const properties: Record<string, string> = {};
  for (const pair of text.split(separator).filter(Boolean)) {
    const [key, value] = splitPair(pair);
    if (key !== undefined && value !== undefined) properties[key] = unescapeWith(value, escapes);
  }
  return properties;
}

/** `Split('=', count: 2, RemoveEmptyEntries)`: a pair only when both sides are non-empty. */
function splitPair(pair: string): [string | undefined, string | undefined] {
  const equals = pair.indexOf("=");
  if (equals < 0) return [undefined, undefined];
  const parts = [pair.slice(0, equals), pair.slice(equals + 1)].filter((part) => part !== "");
  return parts.length === 2 ? [parts[0], parts[1]] : [undefined, undefined];
}

const DATA_ESCAPES: readonly [string, string][] = [
  ["%0D", "\r"],
  ["%0A", "\n"],
  ["%25", "%"],
];
const PROPERTY_ESCAPES: readonly [string, string][] = [
  ["%0D", "\r"],
  ["%0A", "\n"],
  ["%3A", ":"],
  ["%2C", ","],
  ["%25", "%"],
];
const V1_ESCAPES: readonly [string, string][] = [
  ["%3B", ";"],
  ["%0D", "\r"],
  ["%0A", "\n"],
  ["%5D", "]"],
  ["%25", "%"],
];

/** The runner's unescaping: each mapping replaced in turn, in its order. */
function unescapeWith(text: string, mappings: readonly [string, string][]): string {
  return mappings.reduce((out, [escaped, raw]) => out.split(escaped).join(raw), text);
}
