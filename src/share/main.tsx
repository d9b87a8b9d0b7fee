/** @jsxImportSource preact */
import { render } from "preact";
import { SharePage } from "./share-page";
import "./share.css";

// Preact, not React: React's runtime alone is past the page's 60 KB budget (gzip).
render(<SharePage />, document.getElementById("root")!);
