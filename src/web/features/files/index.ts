// What other features may use of Files; everything else in this folder is its own.
export { filesKeys } from "./api/files-keys";
