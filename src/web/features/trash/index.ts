// What other features may use of Trash; everything else in this folder is its own.
export { trashListQueryOptions } from "./api/list-trash";
export { useRestoreTrashedPathsMutation } from "./api/restore-trashed-paths";
