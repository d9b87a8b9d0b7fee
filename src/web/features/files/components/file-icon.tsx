import {
  FileArchiveIcon,
  FileAudioIcon,
  FileIcon,
  FileImageIcon,
  FileTextIcon,
  FileVideoIcon,
  FolderIcon,
} from "lucide-react";
import type { FileEntry } from "@/contract/files";

export function FileTypeIcon({ entry, className }: { entry: FileEntry; className?: string }) {
  const mime = entry.mimeType ?? "";
  const Icon =
    entry.type === "folder"
      ? FolderIcon
      : mime.startsWith("image/")
        ? FileImageIcon
        : mime.startsWith("video/")
          ? FileVideoIcon
          : mime.startsWith("audio/")
            ? FileAudioIcon
            : mime === "application/zip"
              ? FileArchiveIcon
              : mime.startsWith("text/") || mime === "application/pdf"
                ? FileTextIcon
                : FileIcon;
  return (
    <Icon
      aria-hidden="true"
      className={
        entry.type === "folder" ? `text-primary dark:text-link ${className ?? ""}` : className
      }
    />
  );
}

export function describeType(entry: FileEntry): string {
  if (entry.type === "folder") return "Folder";
  const ext = /\.([^.]+)$/.exec(entry.name)?.[1];
  return ext ? `${ext.toUpperCase()} file` : (entry.mimeType ?? "File");
}
