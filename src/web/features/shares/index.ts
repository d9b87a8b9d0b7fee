// What other features may use of Shares; everything else in this folder is its own. Files opens
// the create dialog with a dynamic import, so none of Shares enters Files' first load.

export { default as CreateShareDialog } from "./components/create-share-dialog";
