/** @jsxImportSource preact */
import { render } from "preact";
import { RecipientPage } from "./recipient-page";
import "../common/public.css";

// Preact, not React: React's runtime alone is past the page's 60 KB budget (gzip).
render(<RecipientPage />, document.getElementById("root")!);
