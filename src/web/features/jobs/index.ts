// What other features and the routes may use of Jobs; everything else in this folder is its own.

export { createBulkJob, useCreateBulkJobMutation } from "./api/create-bulk-job";
export { jobsKeys } from "./api/jobs-keys";
export { useUndoBulkJobMutation } from "./api/undo-bulk-job";
export { FolderJobBanner } from "./components/folder-job-banner";
export { JobsIndicator } from "./components/jobs-indicator";
export { followBulkJob } from "./follow-job";
export { finishedReport } from "./job-model";
export { useAnnounceJob } from "./use-announce-job";
