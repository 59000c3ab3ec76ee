export {
  createGitLabClient,
  GitLabApiError,
  type GitLabClient,
  type GitLabClientOptions,
  GitLabDeadlineError,
} from "./api.ts";
export {
  type GitLabContext,
  GitLabContextError,
  isGitLabCi,
  type MergeRequestContext,
  parseMergeRequestIid,
  readGitLabContext,
} from "./context.ts";
export {
  createMergeRequestNotes,
  findOwnNote,
  findTokenUser,
  type MergeRequestNotesOptions,
  noteUrl,
  upsertOwnNote,
  writeOwnNote,
} from "./notes.ts";
