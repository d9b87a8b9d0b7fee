import { CheckCircle2Icon, CircleDashedIcon, FileDownIcon, ShieldAlertIcon } from "lucide-react";
import { useState } from "react";
import { formatBytes, formatCount, formatDateTime } from "@/browser/format";
import { deliveryLabel } from "@/contract/receipt-verdict";
import type { Receipt } from "@/contract/receipts";
import { LoadError } from "@/web/components/load-error";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { DataTable, type DataTableColumn } from "@/web/components/ui/data-table";
import { Skeleton } from "@/web/components/ui/skeleton";
import { describeError } from "@/web/lib/api-client";
import { cn } from "@/web/lib/cn";
import { toast } from "@/web/stores/toast-store";
import { type ReceiptFile, saveReceiptFile, useReceiptQuery } from "../api/get-receipt";
import { receiptVerdict } from "../receipt-summary";
import { ReceiptMatrix } from "./receipt-matrix";
import { RecipientsList } from "./recipients-list";

type FileRow = Receipt["files"][number];

const fileColumns: DataTableColumn<FileRow>[] = [
  {
    id: "path",
    header: "File",
    primary: true,
    cell: (f) => (
      <span className="block truncate" title={f.path}>
        {f.path}
      </span>
    ),
  },
  {
    id: "size",
    header: "Size",
    className: "w-24 text-right",
    hideBelow: "sm",
    cell: (f) => formatBytes(f.sizeBytes),
  },
  {
    id: "sha256",
    header: "SHA-256",
    className: "w-[34rem]",
    hideBelow: "md",
    cell: (f) => (
      <code className="block truncate font-mono text-xs" title={f.sha256}>
        {f.sha256}
      </code>
    ),
  },
];

const timelineLabel: Record<Receipt["timeline"][number]["type"], string> = {
  created: "Created",
  sent: "Link mailed",
  viewed: "Viewed",
  downloaded: "Downloaded",
  extended: "Extended",
  revoked: "Revoked",
  expired: "Expired",
  password_failed: "Wrong password",
  commented: "Commented",
};

const toneLook = {
  success: { icon: CheckCircle2Icon, box: "border-success/40", icon_: "text-success" },
  warning: { icon: CircleDashedIcon, box: "border-warning/40", icon_: "text-warning" },
  danger: { icon: ShieldAlertIcon, box: "border-destructive/50", icon_: "text-destructive-text" },
  neutral: { icon: CircleDashedIcon, box: "border-border", icon_: "text-muted-foreground" },
};

function SaveButton({
  shareId,
  file,
  label,
}: {
  shareId: string;
  file: ReceiptFile;
  label: string;
}) {
  const [pending, setPending] = useState(false);
  const save = async () => {
    setPending(true);
    try {
      await saveReceiptFile(shareId, file);
    } catch (error) {
      toast({
        title: `Could not download ${file}`,
        description: describeError(error),
        tone: "error",
      });
    } finally {
      setPending(false);
    }
  };
  return (
    <Button variant="outline" size="sm" onClick={save} disabled={pending}>
      <FileDownIcon aria-hidden="true" />
      {label}
    </Button>
  );
}

/** The delivery receipt: the verdict first, then who did what, when, and every file's checksum. */
export function ReceiptViewer({ workspaceId, shareId }: { workspaceId: string; shareId: string }) {
  const receipt = useReceiptQuery(workspaceId, shareId);
  if (receipt.isPending) return <Skeleton className="m-4 h-48" />;
  // A failed poll keeps the receipt on screen; only a first load that failed replaces it.
  if (receipt.isError && !receipt.data)
    return (
      <div className="p-4">
        <LoadError
          title="Could not load the receipt"
          error={receipt.error}
          onRetry={() => void receipt.refetch()}
        />
      </div>
    );
  const r = receipt.data;
  const verdict = receiptVerdict(r);
  const look = toneLook[verdict.tone];
  return (
    <div className="grid gap-6 p-4">
      <section
        aria-label="Verdict"
        className={cn("flex flex-wrap items-start gap-3 rounded-lg border-2 bg-card p-4", look.box)}
      >
        <look.icon aria-hidden="true" className={cn("size-8 shrink-0", look.icon_)} />
        <div className="grid min-w-0 flex-[1_1_16rem] gap-1">
          <p className="text-lg font-semibold" data-testid="verdict">
            {verdict.headline}
          </p>
          <p className="text-sm text-muted-foreground">{verdict.detail}</p>
          <p className="text-xs text-muted-foreground">
            Receipt {r.receiptId} · {formatCount(r.files.length)}{" "}
            {r.files.length === 1 ? "file" : "files"}
            {r.totalBytes === null ? "" : `, ${formatBytes(r.totalBytes)}`} · SHA-256 ·{" "}
            {formatDateTime(r.generatedAt)}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <SaveButton shareId={shareId} file="receipt.pdf" label="Client receipt PDF" />
          <SaveButton shareId={shareId} file="audit.pdf" label="Audit report PDF" />
          <SaveButton shareId={shareId} file="receipt.csv" label="Receipt CSV" />
          <SaveButton shareId={shareId} file="delivery-note.pdf" label="Delivery note" />
        </div>
      </section>

      <section aria-labelledby="receipt-recipients" className="grid gap-2">
        <h2 id="receipt-recipients" className="font-medium">
          Recipients
        </h2>
        <RecipientsList
          recipients={r.recipients}
          fileCount={r.files.length}
          extra={(p) => (
            <Badge>
              {p.delivery !== "not_delivered"
                ? deliveryLabel[p.delivery]
                : p.viewed
                  ? "Viewed, nothing downloaded"
                  : "Not opened"}
            </Badge>
          )}
        />
        <p className="text-sm text-muted-foreground">
          Plain link: {formatCount(r.anonymous.views)} views, {formatCount(r.anonymous.downloads)}{" "}
          downloads ({formatCount(r.anonymous.verifiedDownloads)} verified).
        </p>
      </section>

      <section aria-labelledby="receipt-matrix" className="grid gap-2">
        <h2 id="receipt-matrix" className="font-medium">
          Who holds which file
        </h2>
        <ReceiptMatrix receipt={r} />
      </section>

      {r.downloads.length > 0 && (
        <section aria-labelledby="receipt-downloads" className="grid gap-2">
          <h2 id="receipt-downloads" className="font-medium">
            Downloads
          </h2>
          <ul className="grid gap-2 text-sm">
            {r.downloads.map((d) => (
              <li
                key={d.id}
                className="flex flex-wrap gap-x-3 gap-y-1 rounded-md border border-border p-2"
              >
                <span className="font-medium">{d.who.email ?? "Plain link"}</span>
                <span>{formatDateTime(d.completedAt ?? d.startedAt)}</span>
                <span>
                  {formatCount(d.fileCount)} {d.fileCount === 1 ? "file" : "files"},{" "}
                  {formatBytes(d.bytes)}
                </span>
                {d.address && <span className="text-muted-foreground">from {d.address}</span>}
                <Badge>
                  {d.completedAt === null ? "Unfinished" : d.verified ? "Verified" : "Unverified"}
                </Badge>
                {d.unverifiedFiles.length > 0 && (
                  <span className="w-full text-destructive-text">
                    Unverified:{" "}
                    {d.unverifiedFiles
                      .slice(0, 3)
                      .map((f) => f.path)
                      .join(", ")}
                    {d.unverifiedFiles.length > 3
                      ? ` and ${d.unverifiedFiles.length - 3} more`
                      : ""}
                  </span>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}

      <section aria-labelledby="receipt-timeline" className="grid gap-2">
        <h2 id="receipt-timeline" className="font-medium">
          Timeline
        </h2>
        <ol className="grid gap-1 border-l-2 border-border pl-3 text-sm">
          {r.timeline.map((t, i) => (
            // The timeline has no ids; its order is fixed for a receipt.
            // biome-ignore lint/suspicious/noArrayIndexKey: entries have no id and never reorder
            <li key={i} className="flex flex-wrap gap-x-2">
              <time dateTime={t.at} className="text-muted-foreground">
                {formatDateTime(t.at)}
              </time>
              <span className="font-medium">{timelineLabel[t.type]}</span>
              {t.who && <span>{t.who.email ?? "plain link"}</span>}
              {t.detail && <span className="text-muted-foreground">{t.detail}</span>}
            </li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="receipt-files" className="grid gap-2">
        <h2 id="receipt-files" className="font-medium">
          Files and checksums
        </h2>
        <DataTable
          label="Files and their SHA-256 checksums"
          columns={fileColumns}
          rows={r.files}
          rowKey={(f) => f.path}
          rowHeight={40}
          fit="section"
        />
      </section>
    </div>
  );
}
