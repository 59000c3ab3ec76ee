import type { ServerResponse } from "node:http";

/** What the fake GitHub and GitLab APIs share: reading a comment body, and answering in JSON. */

export function bodyField(raw: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(raw);
    if (
      typeof parsed === "object" &&
      parsed !== null &&
      "body" in parsed &&
      typeof parsed.body === "string"
    ) {
      return parsed.body;
    }
  } catch {
    // Falls through: an unparsable request body is a client error.
  }
  return undefined;
}

export interface Reply {
  status: number;
  payload: unknown;
  headers: Record<string, string>;
}

export function reply(status: number, payload: unknown, headers: Record<string, string> = {}): Reply {
  return { status, payload, headers };
}

export function send(res: ServerResponse, { status, payload, headers }: Reply): void {
  if (payload === undefined) {
    res.writeHead(status, headers).end();
    return;
  }
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
  res.end(JSON.stringify(payload));
}
