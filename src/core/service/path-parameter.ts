/**
 * The rule for a value that becomes one segment of a request's path (organization id, version id, …),
 * shared by the client's argument checks (src/adapters/gitbook/validate.ts) and the settings.
 */

function isControlCharacter(char: string): boolean {
  const code = char.charCodeAt(0);
  return code < 0x20 || code === 0x7f;
}

/** Why `value` would change the request's path, or undefined when it is safe as one path segment. */
export function pathParameterProblem(value: string): string | undefined {
  let decoded = value;
  for (let round = 0; round < 4; round++) {
    if (decoded === "." || decoded === "..") return "it is, or decodes to, a dot segment (`.` or `..`)";
    if (/[/\\]/.test(decoded)) return "it contains, or decodes to, a `/` or `\\`";
    if ([...decoded].some(isControlCharacter)) return "it contains a control character";
    let next: string;
    try {
      next = decodeURIComponent(decoded);
    } catch {
      return undefined; // not valid percent-encoding: sent encoded as it is, one literal segment
    }
    if (next === decoded) return undefined;
    decoded = next;
  }
  return "it is percent-encoded too many times";
}
