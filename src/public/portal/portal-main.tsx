/** @jsxImportSource preact */
import { render } from "preact";
import { PORTAL_LINK_PREFIX, PORTAL_STATUS_SEGMENT } from "@/contract/portal-rules";
import { SenderPage } from "./sender-page";
import { StatusPage } from "./status-page";
// The public pages' plain stylesheet (colours, cards, inputs), then what this page adds.
import "../common/public.css";
import "./portal.css";

// Preact, not React: React's runtime alone is past the page's 60 KB budget (gzip).
// `/p/{slug}/status/{uploadId}#{token}`: a sender's status page; any other `/p/…`: the portal.
const status = location.pathname
  .slice(PORTAL_LINK_PREFIX.length)
  .split(PORTAL_STATUS_SEGMENT)
  .map(decodeURIComponent);
render(
  status.length === 2 ? (
    <StatusPage slug={status[0]!} uploadId={status[1]!} token={location.hash.slice(1)} />
  ) : (
    <SenderPage />
  ),
  document.getElementById("root")!,
);
