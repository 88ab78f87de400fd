import type { AuthTokensDto } from '@rna/domain';
import { api } from '../../lib/api';

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<AuthTokensDto, { email: string; password: string }>({
      query: (body) => ({ url: '/auth/login', method: 'POST', body }),
    }),
    forgotPassword: build.mutation<void, { email: string }>({
      query: (body) => ({ url: '/auth/forgot', method: 'POST', body }),
    }),
    resetPassword: build.mutation<void, { code: string; newPassword: string }>({
      query: (body) => ({ url: '/auth/reset-password', method: 'POST', body }),
    }),
    /**
     * The first sign-in's choice of a password, with the session the invitation code opened: its
     * tokens are not stored (nothing else may use them), so the access token is given here.
     */
    chooseFirstPassword: build.mutation<void, { accessToken: string; code: string; newPassword: string }>({
      query: ({ accessToken, code, newPassword }) => ({
        url: '/users/change-password',
        method: 'PUT',
        headers: { Authorization: `Bearer ${accessToken}` },
        body: { password: code, newPassword },
      }),
    }),
  }),
});

export const {
  useLoginMutation,
  useForgotPasswordMutation,
  useResetPasswordMutation,
  useChooseFirstPasswordMutation,
} = authApi;
