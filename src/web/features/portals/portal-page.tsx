import { Link } from "@tanstack/react-router";
import { ExternalLinkIcon, InboxIcon } from "lucide-react";
import { type ReactNode, useCallback } from "react";
import { ApiError } from "@/browser/api-error";
import { formatBytes, formatCount, formatDateTime } from "@/browser/format";
import type { PortalDetail } from "@/contract/portals";
import { CopyButton } from "@/web/components/copy-button";
import { EmptyState } from "@/web/components/empty-state";
import { LoadError } from "@/web/components/load-error";
import { Button } from "@/web/components/ui/button";
import { Skeleton } from "@/web/components/ui/skeleton";
import { usePortalQuery } from "./api/get-portal";
import { PortalActions } from "./components/portal-actions";
import { PortalStatusBadge } from "./components/portal-badges";
import { AwaitingBadge } from "./components/portals-table";
import { ReviewQueue } from "./components/review-queue";
import { reviewSearchFor } from "./portals-search";

/** The uploads a portal's page lists, at most (the contract's PortalDetail). */
const DETAIL_UPLOADS_MAX = 200;

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid min-w-0 gap-0.5">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="break-words text-sm">{children}</dd>
    </div>
  );
}

const none = <span className="text-muted-foreground">—</span>;

/** Which decisions mail the sender, in words. */
const senderMailText = ({ approved, rejected }: PortalDetail["notifySender"]) =>
  approved && rejected
    ? "When approved or rejected"
    : approved
      ? "When approved"
      : rejected
        ? "When rejected"
        : "No";

function FolderLink({ path }: { path: string }) {
  return (
    <Link to="/files" search={{ path: path || undefined }} className="text-link hover:underline">
      {path || "Workspace root"}
    </Link>
  );
}

function Settings({ portal: p }: { portal: PortalDetail }) {
  const rules = [
    p.rules.allowedExtensions.length > 0 &&
      `only ${p.rules.allowedExtensions.map((e) => `.${e}`).join(", ")}`,
    p.rules.maxFiles !== null && `at most ${formatCount(p.rules.maxFiles)} per upload`,
    p.rules.namePattern !== null && `names match ${p.rules.namePattern}`,
  ]
    .filter(Boolean)
    .join(", ");
  return (
    <dl className="grid grid-cols-1 gap-4 min-[480px]:grid-cols-2 lg:grid-cols-4">
      <Fact label="Uploads land in">
        <FolderLink path={p.targetPath} />
      </Fact>
      <Fact label="Approved uploads move to">
        {p.approvedPath === null ? "Stay where they land" : <FolderLink path={p.approvedPath} />}
      </Fact>
      <Fact label="Received">
        {formatCount(p.uploadCount)} {p.uploadCount === 1 ? "upload" : "uploads"},{" "}
        {formatBytes(p.bytesReceived)}
      </Fact>
      <Fact label="To review">
        <AwaitingBadge portal={p} />
      </Fact>
      <Fact label="Expires">
        {p.expiresAt === null ? "Never" : formatDateTime(p.expiresAt)}
        {p.expired && " (expired)"}
      </Fact>
      <Fact label="Due">{p.dueAt === null ? none : formatDateTime(p.dueAt)}</Fact>
      <Fact label="Largest upload">
        {p.maxBytesPerUpload === null ? "No limit" : formatBytes(p.maxBytesPerUpload)}
      </Fact>
      <Fact label="Files">{rules ? rules.charAt(0).toUpperCase() + rules.slice(1) : "Any"}</Fact>
      <Fact label="Sender’s email">{p.requireEmail ? "Required" : "Optional"}</Fact>
      <Fact label="Password">{p.hasPassword ? "Yes" : "No"}</Fact>
      <Fact label="Mail on each upload">{p.notifyOnUpload ? "Yes" : "No"}</Fact>
      <Fact label="Mail the sender">{senderMailText(p.notifySender)}</Fact>
      <Fact label="Spec">
        {p.spec === null
          ? "None"
          : [
              p.spec.name,
              p.spec.containers.length > 0 && `containers ${p.spec.containers.join(", ")}`,
              p.spec.videoCodecs.length > 0 && `codecs ${p.spec.videoCodecs.join(", ")}`,
            ]
              .filter(Boolean)
              .join("; ")}
      </Fact>
      <Fact label="Questions">
        {p.fields.length === 0
          ? "None"
          : p.fields.map((f) => `${f.label}${f.required ? " (required)" : ""}`).join(", ")}
      </Fact>
      <Fact label="Project">{p.projectId ?? none}</Fact>
      <Fact label="Created">{formatDateTime(p.createdAt)}</Fact>
      {p.revokedAt && <Fact label="Revoked">{formatDateTime(p.revokedAt)}</Fact>}
    </dl>
  );
}

function Invites({ portal: p }: { portal: PortalDetail }) {
  const { emails, phones } = p.invites;
  if (emails.length + phones.length === 0)
    return <p className="text-sm text-muted-foreground">Nobody was invited: share the link.</p>;
  return (
    <ul className="flex flex-wrap gap-2 text-sm">
      {emails.map((e) => (
        <li key={e} className="rounded-md bg-muted px-2 py-0.5">
          {e}
        </li>
      ))}
      {phones.map((n) => (
        <li key={n} className="rounded-md bg-muted px-2 py-0.5">
          {n} <span className="text-muted-foreground">(not sent)</span>
        </li>
      ))}
      <li className="basis-full text-muted-foreground">
        Each invitation is in the{" "}
        <Link
          to="/shares"
          search={{ outbox: true }}
          className="text-link underline underline-offset-2"
        >
          outbox
        </Link>
        , with its link to deliver by hand when no mail server is set; phone numbers wait there, as
        no SMS provider is configured.
      </li>
    </ul>
  );
}

/** One portal: its link and actions, its settings, who was invited, and its uploads to triage. */
export function PortalPage({ workspaceId, portalId }: { workspaceId: string; portalId: string }) {
  const portal = usePortalQuery(workspaceId, portalId);
  const data = portal.data;
  const portalOf = useCallback((id: string) => (data?.id === id ? data : undefined), [data]);
  const back = (
    <Link to="/portals" className="text-sm text-link underline-offset-4 hover:underline">
      ← All portals
    </Link>
  );
  if (portal.isPending)
    return (
      <div
        className="grid gap-4 p-4"
        role="status"
        aria-busy="true"
        aria-label="Loading the portal"
      >
        {back}
        <Skeleton className="h-8 w-64" />
        <Skeleton className="h-9 w-full max-w-xl" />
        <Skeleton className="h-40" />
        <Skeleton className="h-64" />
      </div>
    );
  if (portal.isError)
    return (
      <div className="grid gap-4 p-4">
        {back}
        {portal.error instanceof ApiError && portal.error.status === 404 ? (
          <EmptyState icon={InboxIcon} title="No such portal">
            It was never created in this workspace, or its id is mistyped.
          </EmptyState>
        ) : (
          <LoadError
            title="Could not load the portal"
            error={portal.error}
            onRetry={() => void portal.refetch()}
          />
        )}
      </div>
    );
  const p = portal.data;
  return (
    <div className="flex min-h-0 flex-1 flex-col overflow-auto">
      <PortalHeading portal={p} back={back} />
      <section aria-labelledby="portal-settings" className="grid gap-3 border-b border-border p-4">
        <h2 id="portal-settings" className="font-medium">
          Settings
        </h2>
        <Settings portal={p} />
      </section>
      <section aria-labelledby="portal-invites" className="grid gap-2 border-b border-border p-4">
        <h2 id="portal-invites" className="font-medium">
          Invited
        </h2>
        <Invites portal={p} />
      </section>
      <section aria-labelledby="portal-uploads" className="flex flex-col pt-4">
        <UploadsHeading portal={p} />
        <ReviewQueue
          workspaceId={workspaceId}
          uploads={p.uploads}
          total={p.uploads.length}
          filterStatus={undefined}
          label={`Uploads through ${p.title}`}
          loading={false}
          error={null}
          onRetry={() => void portal.refetch()}
          portalOf={portalOf}
          className={p.uploads.length > 0 ? "h-[42rem] flex-none" : "flex-none"}
          empty={
            <EmptyState icon={InboxIcon} title="No uploads yet">
              What people send through this portal’s page appears here.
            </EmptyState>
          }
        />
      </section>
    </div>
  );
}

/** The portal's title and state, its link, its actions and its message to senders. */
function PortalHeading({ portal: p, back }: { portal: PortalDetail; back: ReactNode }) {
  return (
    <div className="grid gap-3 border-b border-border px-4 py-3">
      {back}
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="min-w-0 break-words text-lg font-semibold">{p.title}</h1>
        <PortalStatusBadge portal={p} />
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <code className="min-w-0 max-w-full truncate rounded bg-muted px-2 py-1 text-xs">
          {p.url}
        </code>
        <CopyButton text={p.url} label="Copy the portal's link" />
        <Button size="sm" variant="outline" asChild>
          <a href={p.url} target="_blank" rel="noreferrer">
            <ExternalLinkIcon aria-hidden="true" />
            Open its page
          </a>
        </Button>
        <PortalActions portal={p} layout="page" />
      </div>
      {p.message && (
        <p className="whitespace-pre-wrap break-words rounded-md bg-muted p-3 text-sm">
          {p.message}
        </p>
      )}
    </div>
  );
}

/** The uploads' heading, with where to find those past the newest 200 and the queue. */
function UploadsHeading({ portal: p }: { portal: PortalDetail }) {
  return (
    <div className="flex flex-wrap items-baseline gap-3 px-4">
      <h2 id="portal-uploads" className="font-medium">
        Uploads
      </h2>
      {p.uploadCount > DETAIL_UPLOADS_MAX && (
        <p className="text-sm text-muted-foreground">
          The newest {DETAIL_UPLOADS_MAX};{" "}
          <Link
            to="/portals"
            search={{ ...reviewSearchFor(p.id), status: "all" }}
            className="text-link underline underline-offset-2"
          >
            all of them in the review queue
          </Link>
          .
        </p>
      )}
      {p.awaitingReview > 0 && (
        <Link
          to="/portals"
          search={reviewSearchFor(p.id)}
          className="ml-auto text-sm text-link hover:underline"
        >
          Review queue for this portal
        </Link>
      )}
    </div>
  );
}
