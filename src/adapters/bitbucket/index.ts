export {
  bitbucketCommentStore,
  bitbucketPullRequestStates,
  createBitbucketClient,
  createBitbucketComments,
  findTokenAccount,
} from "./comments.ts";
export {
  type BitbucketContext,
  BitbucketContextError,
  isBitbucketPipelines,
  parsePullRequestId,
  readBitbucketContext,
} from "./context.ts";
