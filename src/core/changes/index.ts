export { isAllowed } from "./allow.ts";
export { compareApis } from "./compare.ts";
export { changeLine, changePlace } from "./text.ts";
export type { ApiChange, ApiChanges } from "./types.ts";
export { MAX_MESSAGE_LENGTH } from "./types.ts";
