/** @jsxImportSource preact */
import { render } from "preact";
import { PortalPage } from "./portal-page";
// The recipient page's plain stylesheet (colours, cards, inputs), then what this page adds.
import "../share/share.css";
import "./portal.css";

// Preact, not React: React's runtime alone is past the page's 60 KB budget (gzip).
render(<PortalPage />, document.getElementById("root")!);
