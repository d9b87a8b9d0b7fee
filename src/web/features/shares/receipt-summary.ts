import type { Receipt } from "@/contract/receipts";

export interface ReceiptVerdict {
  tone: "success" | "warning" | "danger" | "neutral";
  headline: string;
  detail: string;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The receipt's answer at a glance: did everyone get everything, intact? */
export function receiptVerdict(
  r: Pick<Receipt, "recipients" | "downloads" | "integrity" | "anonymous">,
): ReceiptVerdict {
  const completed = r.downloads.filter((d) => d.completedAt !== null);
  const unverified = completed.filter((d) => !d.verified).length;
  const people = r.recipients.length;
  const got = r.recipients.filter((p) => p.downloaded).length;
  const verified = r.recipients.filter((p) => p.verified).length;
  const everyone = people > 0 && got === people;

  if (completed.length === 0)
    return {
      tone: "neutral",
      headline: "Not downloaded yet",
      detail:
        people === 0
          ? "Nobody has completed a download."
          : `None of the ${plural(people, "recipient")} has completed a download.`,
    };
  if (unverified > 0)
    return {
      tone: "danger",
      headline: "Not verified",
      detail: `${plural(unverified, "completed download")} could not be verified: the checksum was missing or did not match.`,
    };
  if (people === 0)
    return {
      tone: "success",
      headline: "Delivered and verified",
      detail: `${plural(completed.length, "download")} through the link, every one verified.`,
    };
  return {
    tone: everyone && verified === people ? "success" : "warning",
    headline:
      everyone && verified === people ? "Everyone got everything, intact" : "Partly delivered",
    detail: `${got} of ${plural(people, "recipient")} downloaded every file; ${verified} verified.${
      r.anonymous.downloads > 0
        ? ` Plus ${plural(r.anonymous.downloads, "download")} through the plain link.`
        : ""
    }`,
  };
}
