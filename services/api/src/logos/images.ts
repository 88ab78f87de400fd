/** Image type recognised by its magic bytes (never by the file name or the declared type). */
export type ImageType = { extension: 'png' | 'jpg'; contentType: 'image/png' | 'image/jpeg' };

export function detectImageType(bytes: Buffer): ImageType | null {
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= png.length && png.every((b, i) => bytes[i] === b))
    return { extension: 'png', contentType: 'image/png' };
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
    return { extension: 'jpg', contentType: 'image/jpeg' };
  return null;
}
