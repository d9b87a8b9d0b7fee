/** @jsxImportSource preact */
import { render } from "preact";
import { SenderPage } from "./sender-page";
// The public pages' plain stylesheet (colours, cards, inputs), then what this page adds.
import "../common/public.css";
import "./portal.css";

// Preact, not React: React's runtime alone is past the page's 60 KB budget (gzip).
render(<SenderPage />, document.getElementById("root")!);
