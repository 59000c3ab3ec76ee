import type { Logger } from "../logger.ts";
import type { SpecService } from "../ports.ts";
import type { SpecResult } from "../result.ts";
import { describeServiceError, isNotFound } from "../service/describe-error.ts";

export interface PreviewToDelete {
  slug: string;
  /** The file the preview came from; undefined when only an earlier run's record names it. */
  file: string | undefined;
}

/** Deletes a closed pull request's preview specs; a preview that is already gone counts as deleted. */
export async function deletePreviews(
  previews: readonly PreviewToDelete[],
  options: { orgId: string; service: Pick<SpecService, "deleteSpec">; logger: Logger },
): Promise<SpecResult[]> {
  return Promise.all(
    previews.map(async ({ slug, file }): Promise<SpecResult> => {
      const base = { file: file ?? "", slug, operation: "delete" as const };
      try {
        await options.service.deleteSpec(options.orgId, slug);
        options.logger.info(`Deleted preview spec '${slug}'.`);
        return { ...base, status: "deleted", errors: [] };
      } catch (error) {
        if (isNotFound(error)) {
          options.logger.info(`Preview spec '${slug}' was already deleted.`);
          return { ...base, status: "deleted", errors: [] };
        }
        const { code, message } = describeServiceError(error);
        options.logger.error(`Deleting preview spec '${slug}' failed: ${message}`);
        return { ...base, status: "failed", errorCode: code, errors: [message] };
      }
    }),
  );
}
