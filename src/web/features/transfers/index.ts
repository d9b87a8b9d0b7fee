// What other features and the routes may use of Transfers; everything else in this folder is its
// own. None of it loads an engine: they load on the first upload or download.

export { TransfersIndicator } from "./components/transfers-indicator";
export { UploadButtons } from "./components/upload-buttons";
export {
  canSaveIntoFolder,
  download,
  saveIntoFolder,
  streamLink,
  uploadPicked,
} from "./engine-loader";
export { isFileDrag, pickedFromDrop, pickedFromInput } from "./picked-files";
export type { PickedFile } from "./transfer-model";
