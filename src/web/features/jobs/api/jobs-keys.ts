import { workspacePath } from "@/web/lib/api-client";

/** Keys derive from the request; invalidating `all` reaches every list and every job. */
export const jobsKeys = {
  all: (workspaceId: string) => ["jobs", workspaceId] as const,
  operations: (workspaceId: string, active: boolean) =>
    [...jobsKeys.all(workspaceId), "operations", { active }] as const,
  operation: (workspaceId: string, id: string) =>
    [...jobsKeys.all(workspaceId), "operation", id] as const,
  bulkJobs: (workspaceId: string, active: boolean) =>
    [...jobsKeys.all(workspaceId), "bulk", { active }] as const,
  bulkJob: (workspaceId: string, id: string) =>
    [...jobsKeys.all(workspaceId), "bulk-job", id] as const,
  renders: (workspaceId: string) => [...jobsKeys.all(workspaceId), "renders"] as const,
};

export const operationsPath = (rest = "") => workspacePath(`/files/operations${rest}`);
export const bulkPath = (rest = "") => workspacePath(`/files/bulk${rest}`);

/** While anything listed is queued or running, the list is polled this often. */
export const ACTIVE_POLL_MS = 1_000;
/** Recent (finished) jobs change only when an active one ends, which the active lists notice. */
export const RECENT_LIMIT = 50;
