import { isErrorCode, type ErrorCode } from '@rna/domain';

/** The spec code of a failed RTK Query call; G001 when the server gave none (SPEC §8). */
export function errorCodeOf(error: unknown): ErrorCode {
  if (error && typeof error === 'object' && 'data' in error) {
    const data = (error as { data?: unknown }).data;
    if (data && typeof data === 'object' && 'code' in data && isErrorCode((data as { code: unknown }).code)) {
      return (data as { code: ErrorCode }).code;
    }
  }
  return 'G001';
}
