import { api } from '../../lib/api';

export const changePasswordApi = api.injectEndpoints({
  endpoints: (build) => ({
    changePassword: build.mutation<void, { password: string; newPassword: string }>({
      query: (body) => ({ url: '/users/change-password', method: 'PUT', body }),
      // SPEC §7: a password change refreshes the clients query
      invalidatesTags: [{ type: 'Client', id: 'LIST' }],
    }),
  }),
});

export const { useChangePasswordMutation } = changePasswordApi;
