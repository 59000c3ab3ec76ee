export { createGitLabClient, type GitLabClient, type GitLabClientOptions } from "./api.ts";
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
  findTokenUser,
  gitlabNoteStore,
  type MergeRequestNotesOptions,
  noteUrl,
} from "./notes.ts";
