/**
 * `rules:` as GitLab evaluates them when it creates a pipeline (docs.gitlab.com/ci/jobs/job_rules): the
 * first rule whose `if` is true (or that has none) decides, its `when` (default `on_success`) says how the
 * job is added, `when: never` leaves it out, and a job none of whose rules match is not added.
 *
 * `if` is a CI/CD variable expression: `$VARIABLE` (true when set and not empty), string literals in
 * double or single quotes, `null`, `==` and `!=` (an unset variable is null), `&&` binding tighter than
 * `||`, and parentheses. The regex operators `=~` and `!~` are refused rather than guessed.
 */

export type When = "on_success" | "manual" | "always" | "delayed" | "never";

/** How the job is added to a pipeline with these variables; undefined when it is not added. */
export function ruleOutcome(
  rules: unknown,
  variables: Readonly<Record<string, string>>,
): Exclude<When, "never"> | undefined {
  if (rules === undefined) return "on_success";
  if (!Array.isArray(rules)) throw new Error("rules is a list");
  for (const rule of rules as Array<Record<string, unknown>>) {
    const condition = rule.if;
    if (condition !== undefined && !evaluateIf(String(condition), variables)) continue;
    const when = (rule.when ?? "on_success") as When;
    return when === "never" ? undefined : when;
  }
  return undefined;
}

type Token = { kind: "var" | "string" | "null" | "op" | "paren"; text: string };

function tokenize(expression: string): Token[] {
  const tokens: Token[] = [];
  const pattern =
    /\s*(?:\$([A-Za-z_][A-Za-z0-9_]*)|"([^"]*)"|'([^']*)'|(null)\b|(==|!=|&&|\|\||=~|!~)|([()]))/y;
  let at = 0;
  while (at < expression.length) {
    if (/^\s*$/.test(expression.slice(at))) break;
    pattern.lastIndex = at;
    const match = pattern.exec(expression);
    if (!match) throw new Error(`rules:if: cannot read ${JSON.stringify(expression.slice(at))}`);
    at = pattern.lastIndex;
    if (match[1] !== undefined) tokens.push({ kind: "var", text: match[1] });
    else if (match[2] !== undefined || match[3] !== undefined)
      tokens.push({ kind: "string", text: match[2] ?? match[3] ?? "" });
    else if (match[4]) tokens.push({ kind: "null", text: "null" });
    else if (match[5]) {
      if (match[5] === "=~" || match[5] === "!~")
        throw new Error(`rules:if: ${match[5]} is not supported here`);
      tokens.push({ kind: "op", text: match[5] });
    } else tokens.push({ kind: "paren", text: match[6] ?? "" });
  }
  return tokens;
}

/** Evaluates one `rules:if` expression against the pipeline's variables. */
export function evaluateIf(expression: string, variables: Readonly<Record<string, string>>): boolean {
  const tokens = tokenize(expression);
  let at = 0;
  const peek = () => tokens[at];
  const take = () => {
    const token = tokens[at++];
    if (!token) throw new Error(`rules:if: ${JSON.stringify(expression)} ends too early`);
    return token;
  };
  const operand = (): string | null => {
    const token = take();
    if (token.kind === "var") return variables[token.text] ?? null;
    if (token.kind === "string") return token.text;
    if (token.kind === "null") return null;
    throw new Error(`rules:if: unexpected ${token.text} in ${JSON.stringify(expression)}`);
  };
  const primary = (): boolean => {
    if (peek()?.text === "(") {
      take();
      const inner = or();
      if (take().text !== ")") throw new Error(`rules:if: ( without ) in ${JSON.stringify(expression)}`);
      return inner;
    }
    const left = operand();
    const op = peek();
    if (op?.text === "==" || op?.text === "!=") {
      take();
      const right = operand();
      return (left === right) === (op.text === "==");
    }
    return left !== null && left !== "";
  };
  const and = (): boolean => {
    let value = primary();
    while (peek()?.text === "&&") {
      take();
      const right = primary();
      value = value && right;
    }
    return value;
  };
  const or = (): boolean => {
    let value = and();
    while (peek()?.text === "||") {
      take();
      const right = and();
      value = value || right;
    }
    return value;
  };
  const result = or();
  if (at !== tokens.length) throw new Error(`rules:if: cannot read the end of ${JSON.stringify(expression)}`);
  return result;
}
