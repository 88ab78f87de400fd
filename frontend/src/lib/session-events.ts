import { createAction } from '@reduxjs/toolkit';
import type { ErrorCode, UserDto } from '@rna/domain';

/**
 * Session actions raised by lib code (base query, broadcast) and handled by the auth feature's reducers;
 * defining them here keeps imports one-way (features depend on lib, never the reverse).
 */
/** the session could not go on; the payload is the refusal the user must be told about, if any (A002) */
export const sessionExpired = createAction<ErrorCode | undefined>('session/expired');
export const signedOut = createAction('session/signedOut');
export const signedIn = createAction<UserDto>('session/signedIn');
