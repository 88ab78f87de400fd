/** Hands a blob to the browser as a file download. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A responseHandler for file endpoints: saves the body and keeps the store free of Blobs. */
export function saveAs(fileName: string) {
  return async (response: Response): Promise<unknown> => {
    if (!response.ok) {
      return response.json().catch(() => null);
    }
    saveBlob(await response.blob(), fileName);
    return null;
  };
}
