/**
 * Reading the variables a CI sets (GitLab CI, Bitbucket Pipelines, Azure Pipelines): every value is
 * trimmed, checked, and refused with an error that names the variable. Each CI's context module keeps
 * which variables it reads and what it says when one is missing.
 */
import { truncate } from "../../core/text/truncate.ts";
import { webUrl } from "../http/web-url.ts";

/** The error class a CI's context throws: each CI names its own. */
type CiVariableErrorClass = new (variable: string, message: string) => CiVariableError;

/**
 * A CI variable holds a value the run cannot use; the message names the variable. Each CI's context
 * error extends it, and its readers below throw that CI's class (`GitLabContextError.token(…)`).
 */
export class CiVariableError extends Error {
  override readonly name: string = "CiVariableError";
  /** The environment variable at fault. */
  readonly variable: string;

  constructor(variable: string, message: string) {
    super(`${variable}: ${message}`);
    this.variable = variable;
  }

  /**
   * A pull or merge request number given as text: a positive integer in decimal digits, without sign,
   * exponent or leading zeros. `name` says where the value came from; `what` what it is ("a pull
   * request id").
   */
  static requestNumber(this: CiVariableErrorClass, text: string, name: string, what: string): number {
    const value = text.trim();
    const number = Number(value);
    if (!/^[1-9][0-9]{0,15}$/.test(value) || !Number.isSafeInteger(number)) {
      throw new this(name, `${what} is a positive integer such as 12, not ${quote(value)}.`);
    }
    return number;
  }

  /**
   * An address the token is sent to: https, or plain http to a loopback host; no credentials, query or
   * fragment. A refused value is quoted with its credentials masked.
   */
  static webUrl(this: CiVariableErrorClass, text: string, name: string): string {
    const url = webUrl(text);
    if (url === undefined) {
      throw new this(
        name,
        `${quote(withoutCredentials(text))} is not an https address (plain http is accepted for loopback hosts only), ` +
          "or it carries credentials, a query or a fragment.",
      );
    }
    return url;
  }

  /**
   * A token a request header can carry: visible ASCII only; undefined when unset. The value never
   * appears in an error; `advice` tells how to set it right.
   */
  static token(
    this: CiVariableErrorClass,
    value: string | undefined,
    name: string,
    advice: string,
  ): string | undefined {
    const text = nonEmpty(value);
    if (text === undefined) return undefined;
    if (!/^[\x21-\x7e]+$/.test(text)) {
      throw new this(
        name,
        `the token contains spaces, line breaks or other characters a request header cannot carry; ${advice}`,
      );
    }
    return text;
  }
}

/** The value trimmed; undefined when unset or blank. */
export function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

/** A value from the environment, quoted and cut for an error message. */
export function quote(value: string): string {
  return JSON.stringify(truncate(value, 81));
}

/**
 * `text` with what an address may carry a secret in masked — all before its last `@` (its user and
 * password), its query (`?private_token=…`) and its fragment — for an error that quotes it. Text, not
 * a parsed URL: a parser reads "oauth2:glpat-…@host" as a scheme and a path, and a `#` in a password
 * as the start of a fragment.
 */
function withoutCredentials(text: string): string {
  return text.replace(/^([^/?#@]*\/\/)?.*@/s, "$1***@").replace(/([?#]).*/s, "$1***");
}
