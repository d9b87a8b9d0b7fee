import type { z } from "zod";
import { nameMatches } from "@/contract/name-pattern";
import type { StartedPortalUpload, startPortalUploadBodySchema } from "@/contract/portal-public";
import { portalFileProblem, portalUploadProblem, uploadFolderName } from "@/contract/portal-rules";
import type { PortalField } from "@/contract/portals";
import { joinPath, normalizeName, parentOf, pathProblem } from "@/contract/rules";
import type { AppDeps } from "@/server/deps";
import { pathRejected, validationFailed } from "@/server/lib/api-error";
import { newId } from "@/server/lib/ids";
import { startTransfer } from "@/server/modules/transfers/start.service";
import { insertUpload, type PortalRow } from "./portals.repository";
import { rulesOf } from "./portals.service";
import { enterPortal, type PortalRequest } from "./public.service";

/* Starting an upload on a portal's page: the sender and the files checked, then the transfer. */

const issue = (field: string, message: string, code: string) => ({ field, message, code });

/** The sender's details against the portal: email when required, every required field. */
function checkSender(portal: PortalRow, body: z.output<typeof startPortalUploadBodySchema>) {
  const issues: { field: string; message: string; code: string }[] = [];
  if (portal.require_email === 1 && !body.senderEmail)
    issues.push(issue("senderEmail", "This portal asks for your email address", "email_required"));
  const fields = JSON.parse(portal.fields) as PortalField[];
  const known = new Set(fields.map((f) => f.key));
  for (const f of fields)
    if (f.required && !body.fields[f.key])
      issues.push(issue(`fields.${f.key}`, `${f.label} is required`, "required"));
  for (const key of Object.keys(body.fields))
    if (!known.has(key))
      issues.push(issue(`fields.${key}`, "This portal has no such field", "unknown_field"));
  return issues;
}

/** Each file's relative path, and the rules: every refusal named before any byte is sent. */
function checkFiles(portal: PortalRow, files: { path: string; size: number }[]) {
  const rules = rulesOf(portal);
  const issues: { field: string; message: string; code: string }[] = [];
  const seen = new Set<string>();
  const normalized = files.map((f, i) => {
    const p = normalizeName(f.path);
    const problem = pathProblem(p);
    if (problem) throw pathRejected(`files.${i}.path`, `Path ${problem}`);
    if (seen.has(p)) issues.push(issue(`files.${i}.path`, `"${p}" is listed twice`, "duplicate"));
    seen.add(p);
    const refused = portalFileProblem(
      rules,
      portal.max_bytes_per_upload,
      { path: p, size: f.size },
      nameMatches,
    );
    if (refused) issues.push(issue(`files.${i}`, refused.message, refused.code));
    return { path: p, size: f.size };
  });
  // A file and a folder of one name cannot both land (`clip.mov` and `clip.mov/b.mov`).
  normalized.forEach((f, i) => {
    for (let up = parentOf(f.path); up !== ""; up = parentOf(up))
      if (seen.has(up)) {
        const message = `"${f.path}" is inside "${up}", which is a file of this upload`;
        issues.push(issue(`files.${i}.path`, message, "file_in_the_way"));
        return;
      }
  });
  const whole = portalUploadProblem(rules, portal.max_bytes_per_upload, normalized);
  if (whole) issues.push(issue("files", whole.message, whole.code));
  return { files: normalized, issues };
}

/**
 * Starts one upload: checks the sender and the files against the portal, then creates the
 * upload's folder name, a send transfer (client `portal`) with its totals declared (the node
 * holds the upload to them) and the upload's row, in one transaction.
 */
export function startUpload(
  deps: AppDeps,
  req: PortalRequest,
  body: z.output<typeof startPortalUploadBodySchema>,
): StartedPortalUpload {
  const portal = enterPortal(deps, req);
  const checked = checkFiles(portal, body.files);
  const issues = [...checkSender(portal, body), ...checked.issues];
  if (issues.length > 0) throw validationFailed(issues);
  const now = deps.clock.now();
  const uploadId = newId();
  const folder = joinPath(
    portal.target_path,
    uploadFolderName(now, body.senderName ?? body.senderEmail ?? null, uploadId.slice(-6)),
  );
  // Each file's workspace path, in the upload's folder, must be one the node can take.
  for (const [i, f] of checked.files.entries()) {
    const problem = pathProblem(joinPath(folder, f.path));
    if (problem) throw pathRejected(`files.${i}.path`, `Path ${problem}`);
  }
  const totalBytes = checked.files.reduce((n, f) => n + f.size, 0);
  return deps.db
    .transaction((): StartedPortalUpload => {
      const created = startTransfer(
        deps,
        { workspaceId: portal.workspace_id, keyId: null, memberId: null, origin: req.origin },
        {
          direction: "send",
          client: "portal",
          portalId: portal.id,
          destinationRoot: folder,
          // Each file is a path item: the node takes exactly these paths, nothing else under them.
          paths: checked.files.map((f) => ({ source: f.path, destination: f.path })),
          fileCount: checked.files.length,
          totalBytes,
        },
      );
      insertUpload(deps.db, {
        id: uploadId,
        portal_id: portal.id,
        workspace_id: portal.workspace_id,
        transfer_id: created.transferId,
        sender_email: body.senderEmail ?? null,
        sender_name: body.senderName ?? null,
        message: body.message ?? null,
        fields: JSON.stringify(body.fields),
        folder_path: folder,
        file_count: checked.files.length,
        bytes_total: totalBytes,
        spec_status: portal.spec === null ? "not_required" : "checking",
        created_at: now,
      });
      return { uploadId, transferId: created.transferId, transferSpec: created.transferSpec };
    })
    .immediate();
}
