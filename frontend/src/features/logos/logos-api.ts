import type { LogoDto } from '@rna/domain';
import { api } from '../../lib/api';

export const logosApi = api.injectEndpoints({
  endpoints: (build) => ({
    getLogos: build.query<LogoDto[], void>({
      query: () => '/logos',
      providesTags: (result) => [
        { type: 'Logo', id: 'LIST' },
        ...(result ?? []).map((l) => ({ type: 'Logo' as const, id: l.id })),
      ],
    }),
    uploadLogo: build.mutation<LogoDto, { file: File; name: string }>({
      query: ({ file, name }) => {
        const body = new FormData();
        body.append('name', name);
        body.append('file', file);
        return { url: '/logos', method: 'POST', body };
      },
      invalidatesTags: [{ type: 'Logo', id: 'LIST' }],
    }),
    deleteLogo: build.mutation<void, number>({
      query: (id) => ({ url: `/logos/${id}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, id) => [
        { type: 'Logo', id: 'LIST' },
        { type: 'Logo', id },
        { type: 'Client', id: 'LIST' },
      ],
    }),
    savePdfConfig: build.mutation<
      LogoDto,
      { id: number; primaryColor: string; footer1: string; footer2: string; subRenewUrl: string }
    >({
      query: ({ id, ...body }) => ({ url: `/logos/${id}/pdf-config`, method: 'POST', body }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Logo', id }],
    }),
  }),
});

export const { useGetLogosQuery, useUploadLogoMutation, useDeleteLogoMutation, useSavePdfConfigMutation } =
  logosApi;
