// What other features and the routes may use of Jobs; everything else in this folder is its own.

// Transfers take the rate estimate through this index, not from src/browser: without that edge
// to jobs the bundler cut the shared chunks anew, +0.6 KB gzip to reach Files (bench:bundle).
export { addSample, estimate, formatDuration, type Sample } from "@/browser/rate";
export { createBulkJob, useCreateBulkJobMutation } from "./api/create-bulk-job";
export { jobsKeys } from "./api/jobs-keys";
export { useUndoBulkJobMutation } from "./api/undo-bulk-job";
export { FolderJobBanner } from "./components/folder-job-banner";
export { JobsIndicator } from "./components/jobs-indicator";
export { followBulkJob } from "./follow-job";
export { finishedReport } from "./job-model";
export { useAnnounceJob } from "./use-announce-job";
