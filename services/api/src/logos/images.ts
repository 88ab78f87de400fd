/**
 * Logo images, judged by their pixels and not only by their first bytes: a 31 KB PNG of
 * 16,000 × 16,000 pixels passed a magic-byte check, then cost every report and bulk PDF of its client
 * seconds of a blocked event loop and a gigabyte of memory, and went as it was to every browser.
 * An upload is decoded by sharp (libvips, on libuv's thread pool, off the event loop) with a pixel
 * limit read from the header before any decoding, turned upright, scaled down to what a letterhead
 * needs and encoded again; that copy, which keeps nothing of the original file but its pixels
 * (no metadata, no trailing bytes), is what is stored, served and embedded.
 */
import { DomainError } from '@rna/domain';
import { imageLibrary } from '../http/document-libraries';

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

/** The most pixels an uploaded logo may have (a 24-megapixel photo fits; 16,000² does not). */
export const MAX_LOGO_PIXELS = 25_000_000;
/** The box a stored logo fits in: a PDF letterhead at print resolution, a header on screen. */
export const LOGO_BOX = { width: 800, height: 400 } as const;

export interface NormalisedLogo {
  bytes: Buffer;
  type: ImageType;
  width: number;
  height: number;
}

/**
 * The stored copy of an uploaded logo: F001 for what is not a PNG or JPEG, cannot be decoded, or has
 * more than MAX_LOGO_PIXELS pixels; else the image upright, within LOGO_BOX, re-encoded in its own
 * format (PNG keeps transparency).
 */
export async function normaliseLogo(bytes: Buffer): Promise<NormalisedLogo> {
  const type = detectImageType(bytes);
  if (!type) throw new DomainError('F001', 'Formato non supportato: sono accettati PNG e JPEG');
  const options = { limitInputPixels: MAX_LOGO_PIXELS, failOn: 'error' } as const;
  const sharp = imageLibrary(); // outside the try: a library that fails to load is not a bad image
  let width: number;
  let height: number;
  try {
    ({ width, height } = await sharp(bytes, { ...options, limitInputPixels: false }).metadata());
  } catch {
    throw new DomainError('F001', 'Immagine illeggibile o danneggiata');
  }
  if (!width || !height) throw new DomainError('F001', 'Immagine illeggibile o danneggiata');
  if (width * height > MAX_LOGO_PIXELS)
    throw new DomainError(
      'F001',
      `Immagine troppo grande (${width} × ${height} pixel): al massimo ${MAX_LOGO_PIXELS / 1_000_000} milioni di pixel`,
    );
  try {
    const image = sharp(bytes, options)
      .rotate()
      .resize({ ...LOGO_BOX, fit: 'inside', withoutEnlargement: true });
    const encoded =
      type.extension === 'png'
        ? image.png({ compressionLevel: 9, adaptiveFiltering: true })
        : image.jpeg({ quality: 88, mozjpeg: true });
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
    return { bytes: data, type, width: info.width, height: info.height };
  } catch {
    throw new DomainError('F001', 'Immagine illeggibile o danneggiata');
  }
}

/** Whether a stored image is already within LOGO_BOX (read from its header, nothing decoded). */
export async function isStoredLogoBounded(bytes: Buffer): Promise<boolean> {
  const sharp = imageLibrary();
  try {
    const { width, height } = await sharp(bytes, { limitInputPixels: false }).metadata();
    return !!width && !!height && width <= LOGO_BOX.width && height <= LOGO_BOX.height;
  } catch {
    return false;
  }
}
