import { RECORD_KEY } from "../../src/core/ownership/ownership.ts";

/**
 * An uploaded text less the publish record the run spliced into it: the text as the user wrote it. Throws
 * when there is no record, so that a test comparing with the file also proves the record was sent.
 */
export function withoutPublishRecord(uploaded: string): string {
  const key = RECORD_KEY.replace(/-/g, "\\-");
  const forms = [
    new RegExp(`^[ \\t]*${key}: \\{[^\\n]*\\}\\r?\\n`, "m"), // first line of a block mapping
    new RegExp(`"${key}": \\{[^}]*\\},[ \\t\\r\\n]*`), // first member of a JSON object
    new RegExp(` "${key}": \\{[^}]*\\},`), // first entry of a YAML flow mapping
  ];
  for (const form of forms) {
    const match = form.exec(uploaded);
    if (match) return uploaded.slice(0, match.index) + uploaded.slice(match.index + match[0].length);
  }
  throw new Error(`the uploaded text carries no ${RECORD_KEY}`);
}
