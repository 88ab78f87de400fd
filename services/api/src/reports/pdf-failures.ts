/** How a PDF that cannot be made now is answered, the same for every PDF the API renders. */
import { DomainError } from '@rna/domain';
import { PdfQueueFullError, PdfRenderError } from '@rna/infra/pdf';
import type { ApiDeps } from '../http/deps';
import { RetryLaterError } from '../http/paid-work-limit';

/** A full render queue is a 429 to retry in 5 s; a failed render is logged and answered G001. */
export async function renderingPdf<T>(
  deps: Pick<ApiDeps, 'logger'>,
  what: string,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof PdfQueueFullError) throw new RetryLaterError(5);
    if (error instanceof PdfRenderError) {
      deps.logger.error({ err: error }, `${what} could not be rendered`);
      throw new DomainError('G001');
    }
    throw error;
  }
}
