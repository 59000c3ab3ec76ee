/** The marker and state of the action's comment now live in the CI-neutral report code. */
export {
  type CommentState,
  commentMarker,
  readCommentState,
  renderCommentState,
  sanitizeCommentKey,
} from "../../core/report/comment-state.ts";
