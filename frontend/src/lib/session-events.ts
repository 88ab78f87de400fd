import { createAction } from '@reduxjs/toolkit';
import type { UserDto } from '@rna/domain';

/**
 * Session actions raised by lib code (base query, broadcast) and handled by the auth feature's reducers;
 * defining them here keeps imports one-way (features depend on lib, never the reverse).
 */
export const sessionExpired = createAction('session/expired');
export const signedOut = createAction('session/signedOut');
export const signedIn = createAction<UserDto>('session/signedIn');
