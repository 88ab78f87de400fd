/*
 * The libraries that write and read files (exceljs, pdf-lib, sharp) are loaded with the first file
 * that needs one, not with the API: a look-up never does, and loaded at start they sat in the
 * portal's heap, which every full collection marks — on the embedded default a sync runs one every
 * second or so in the same process. In a bare process exceljs alone added 7.7 MB of heap and took a
 * full collection from 3 to 15 ms; pdf-lib and sharp ~2–3 MB each. Types are imported as types only.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- lazy loading, see above */
export const excelLibrary = () => require('exceljs') as typeof import('exceljs');
export const pdfLibrary = () => require('pdf-lib') as typeof import('pdf-lib');
export const imageLibrary = () => require('sharp') as typeof import('sharp');
/* eslint-enable @typescript-eslint/no-require-imports */
