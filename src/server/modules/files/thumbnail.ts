import sharp from "sharp";

/** A JPEG at most 320 pixels on its longer side, from a stored image's blob. */
export const thumbnailJpeg = (blobPath: string) =>
  sharp(blobPath)
    .resize(320, 320, { fit: "inside", withoutEnlargement: true })
    .jpeg({ quality: 80 })
    .toBuffer();
