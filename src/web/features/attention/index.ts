// What the routes may use of Needs attention; everything else in this folder is its own. Other
// features invalidate the summary through @/web/lib/query-keys/attention, not through here.
export { AttentionNavCount } from "./components/attention-nav-count";
